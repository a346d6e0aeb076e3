/* SPDX-License-Identifier: Apache-2.0
 *
 * OpenTMA co-simulation library (libopentma_cosim): the Tensor Memory Accelerator of one SM as
 * a component a GPU simulator drives. C99, no C++ types, every symbol prefixed otma_.
 *
 *   - One opaque engine per SM (otma_engine). The host owns every memory and every mbarrier;
 *     the engine reaches them only through the callbacks of otma_host, and only from inside an
 *     API call on the caller's thread. The library starts no thread and keeps no global state:
 *     engines share nothing, so different engines may run on different threads; one engine must
 *     not be called from two threads at once.
 *   - Three modes behind one interface (otma_config.mode): FUNCTIONAL (the reference model,
 *     the whole effect at submit), TIMED (an approximate engine model with calibrated latency
 *     and throughput; requests leave through mem_req, data lands when the op completes), RTL
 *     (the Verilated engine clocked by otma_tick, data moved at its cycles, its AXI bursts
 *     through mem_req; the ops the RTL claims: tensor loads, prefetches, stores and
 *     reductions; other ops answer OTMA_E_UNSUPPORTED).
 *   - Time advances only by otma_tick; otma_next_event says how far an event-driven host may
 *     skip.
 *   - Versioning: every struct starts with struct_size (the caller sets sizeof); fields are only
 *     appended and a zero field means its default. otma_create refuses a config whose
 *     abi_version has another major version, and a struct_size below the first version's size.
 *
 * docs/cosim/abi.md describes every call; docs/cosim/accel-sim.md and flashgpu-sim.md say where
 * each call goes in those simulators.
 */
#ifndef OPENTMA_COSIM_H_
#define OPENTMA_COSIM_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define OTMA_API
#else
#define OTMA_API __attribute__((visibility("default")))
#endif

#define OTMA_ABI_MAJOR 1
#define OTMA_ABI_MINOR 0
#define OTMA_ABI_VERSION ((OTMA_ABI_MAJOR << 16) | OTMA_ABI_MINOR)

/* (major << 16) | minor of the library actually loaded. */
OTMA_API uint32_t otma_abi_version(void);

typedef struct otma_engine otma_engine;
typedef struct otma_checker otma_checker;
typedef uint64_t otma_token; /* id of a submitted op, 1, 2, 3, ... per engine */

/* ---- Status ------------------------------------------------------------------------------ */
/* 0 = OK. -1 .. -8 are the error classes of the model (shared/spec/golden-cases.md), in the
 * order of tma::model::ErrorClass; below them the library's own. */
typedef int32_t otma_status;
enum {
  OTMA_OK = 0,
  OTMA_E_INVALID_DESCRIPTOR = -1,
  OTMA_E_MISALIGNED = -2,            /* CUDA error 716 on silicon */
  OTMA_E_MISALIGNED_COORDINATE = -3, /* CUDA error 715 on silicon */
  OTMA_E_INVALID_COORDINATE = -4,
  OTMA_E_UNSUPPORTED_REDUCTION = -5,
  OTMA_E_INVALID_INSTRUCTION = -6,
  OTMA_E_UNSUPPORTED = -7,
  OTMA_E_BUS_ERROR = -8,
  OTMA_E_BUSY = -32,        /* submit: the command port is full, retry after a tick */
  OTMA_E_TX_WATCHDOG = -33, /* an op made no progress for watchdog_cycles */
  OTMA_E_VERSION = -34,     /* abi_version has another major version */
  OTMA_E_STRUCT_SIZE = -35, /* struct_size smaller than the first version of the struct */
  OTMA_E_ARGUMENT = -36,    /* a null pointer, an unknown enum value, a missing callback */
  OTMA_E_NO_BACKEND = -37,  /* the mode is not built into this library (RTL) */
  OTMA_E_UNKNOWN_TAG = -38  /* otma_mem_resp: no request with that tag is outstanding */
};
OTMA_API const char* otma_status_str(otma_status s); /* "invalid_descriptor", "busy", ... */

/* ---- Modes and flags ----------------------------------------------------------------------- */
typedef enum { OTMA_MODE_FUNCTIONAL = 0, OTMA_MODE_TIMED = 1, OTMA_MODE_RTL = 2 } otma_mode;

enum {
  OTMA_FLAG_CHECK = 1u << 0,  /* mbarrier/async-proxy checker on (a private one if cfg.checker
                                 is null; see otma_checker_*) */
  OTMA_FLAG_NO_DATA = 1u << 1 /* TIMED: requests and completions only, no gmem/smem callback */
};

typedef enum { OTMA_ARCH_SM90 = 0, OTMA_ARCH_SM100 = 1, OTMA_ARCH_SM103 = 2 } otma_arch;

/* ---- Decoded tensor-map parameters (what a cuTensorMapEncode* call carries) ----------------- */
typedef struct {
  uint32_t struct_size;
  uint32_t mode;         /* 0 tiled, 1 im2col, 2 im2col-wide */
  uint32_t dtype;        /* CUtensorMapDataType numbering */
  uint32_t rank;         /* 1..5 */
  uint32_t interleave;   /* CUtensorMapInterleave */
  uint32_t swizzle;      /* CUtensorMapSwizzle (7 = 96B, sm_103) */
  uint32_t l2_promotion; /* CUtensorMapL2promotion */
  uint32_t oob_fill;     /* 0 zero, 1 NaN-request-zero-FMA */
  uint64_t global_address;
  uint64_t dims[5];    /* innermost first */
  uint64_t strides[4]; /* bytes, of dims 1..rank-1 */
  uint32_t box[5];
  uint32_t elem_strides[5];
  int32_t im2col_lower[3]; /* W, H, D */
  int32_t im2col_upper[3];
  uint32_t channels_per_pixel;
  uint32_t pixels_per_column;
  uint32_t wide_mode; /* im2col-wide: 0 w, 1 w128 */
} otma_tensor_params;

/* Encodes the parameters into the 128 bytes cuTensorMapEncode* would write (with the driver's
 * acceptance rules for `arch`); OTMA_E_INVALID_DESCRIPTOR when the driver would refuse. */
OTMA_API otma_status otma_encode_tensor_map(const otma_tensor_params* p, uint32_t arch,
                                            uint8_t out[128]);
/* Decodes 128 CUtensorMap bytes; OTMA_E_INVALID_DESCRIPTOR when they name nothing. */
OTMA_API otma_status otma_decode_tensor_map(const uint8_t map[128], otma_tensor_params* out);

/* ---- Operations ----------------------------------------------------------------------------- */
typedef enum {
  OTMA_OP_TENSOR_LOAD = 1,      /* cp.async.bulk.tensor G->S (mbarrier) */
  OTMA_OP_TENSOR_STORE = 2,     /* cp.async.bulk.tensor S->G (bulk_group) */
  OTMA_OP_TENSOR_REDUCE = 3,    /* cp.reduce.async.bulk.tensor (bulk_group) */
  OTMA_OP_TENSOR_PREFETCH = 4,  /* cp.async.bulk.prefetch.tensor.L2 */
  OTMA_OP_BULK_COPY = 5,        /* cp.async.bulk, direction in bulk_dir */
  OTMA_OP_BULK_REDUCE = 6,      /* cp.reduce.async.bulk, direction in bulk_dir */
  OTMA_OP_BULK_PREFETCH = 7,    /* cp.async.bulk.prefetch.L2 */
  OTMA_OP_TENSORMAP_REPLACE = 8 /* tensormap.replace.tile on a map in global memory */
} otma_op_kind;

typedef enum {
  OTMA_LOAD_TILE = 0,
  OTMA_LOAD_IM2COL = 1,
  OTMA_LOAD_IM2COL_W = 2,
  OTMA_LOAD_IM2COL_W128 = 3,
  OTMA_LOAD_TILE_GATHER4 = 4,
  OTMA_LOAD_TILE_SCATTER4 = 5,
  OTMA_LOAD_IM2COL_NO_OFFS = 6
} otma_load_mode;

typedef enum {
  OTMA_BULK_G2S_CTA = 0,     /* .shared::cta.global */
  OTMA_BULK_G2S_CLUSTER = 1, /* .shared::cluster.global (multicast allowed) */
  OTMA_BULK_S2S_CLUSTER = 2, /* .shared::cluster.shared::cta */
  OTMA_BULK_S2G = 3          /* .global.shared::cta (bulk_group) */
} otma_bulk_dir;

/* redop: 0 add, 1 min, 2 max, 3 inc, 4 dec, 5 and, 6 or, 7 xor.
 * bulk_type (cp.reduce.async.bulk): 0 b32, 1 u32, 2 s32, 3 b64, 4 u64, 5 s64, 6 f16, 7 bf16,
 * 8 f32, 9 f64.
 * replace_field (tensormap.replace): 1 global_address, 2 rank, 3 box_dim, 4 global_dim,
 * 5 global_stride, 6 element_stride, 7 elemtype, 8 interleave_layout, 9 swizzle_mode,
 * 10 swizzle_atomicity, 11 fill_mode. */

enum {
  OTMA_OPF_MULTICAST = 1u << 0,  /* .multicast::cluster: cta_mask names the destinations */
  OTMA_OPF_SHARED_CTA = 1u << 1, /* tensor op with .shared::cta destination/source */
  OTMA_OPF_NOFTZ = 1u << 2,      /* .noftz */
  OTMA_OPF_CACHE_HINT = 1u << 3, /* cache_hint is given */
  OTMA_OPF_CP_MASK = 1u << 4     /* .cp_mask: byte_mask is given */
};

typedef struct {
  uint32_t struct_size;
  uint32_t kind;      /* otma_op_kind */
  uint32_t flags;     /* OTMA_OPF_* */
  uint32_t load_mode; /* otma_load_mode */
  uint32_t dim;       /* the .Nd qualifier, 1..5 */
  int32_t coords[5];
  uint16_t im2col_info[3]; /* im2col offsets, or {wHalo, wOffset} for im2col::w* */
  uint16_t cta_mask;       /* multicast destinations (bit = %cluster_ctarank) */
  /* Descriptor: raw bytes if desc_bytes is set, else decoded params if desc is set, else the
   * engine reads 128 bytes at desc_va (TIMED: through mem_req, with a descriptor cache;
   * otma_invalidate_desc drops an entry, as fence.proxy.tensormap does). */
  uint64_t desc_va; /* also the map tensormap.replace edits */
  const uint8_t* desc_bytes;
  const otma_tensor_params* desc;
  uint32_t smem_addr;   /* tensor ops: offset in the destination (load) / source (store) CTA's
                           window; bulk ops: the shared destination (G->S, S->S) */
  uint32_t mbar_addr;   /* offset in the window of the CTA that holds the mbarrier */
  int32_t dst_rank;     /* non-multicast shared::cluster destination; -1 = the issuer */
  int32_t mbar_rank;    /* the CTA holding the mbarrier (cta_group::2 routing); -1 = destination */
  uint32_t issuer_rank; /* %cluster_ctarank of the issuing CTA */
  uint32_t issuer_warp; /* bulk-group bookkeeping key (otma_bulk_*) */
  uint32_t cta_group;   /* 0 absent, 1, 2 */
  uint32_t redop;
  uint32_t bulk_dir; /* otma_bulk_dir */
  uint32_t bulk_type;
  uint32_t bulk_size;  /* bytes, multiple of 16 */
  uint64_t bulk_gaddr; /* global address of a bulk op */
  uint32_t bulk_saddr; /* bulk ops: the shared source (S->G, S->S), issuer's window */
  uint16_t byte_mask;  /* .cp_mask */
  uint16_t reserved0;
  uint64_t cache_hint;
  uint32_t replace_field; /* tensormap.replace */
  uint32_t replace_ordinal;
  uint64_t replace_value;
} otma_op;

/* ---- Memory requests (TIMED; RTL: the Verilated engine's AXI bursts) -------------------- */
typedef enum {
  OTMA_REQ_READ = 0,
  OTMA_REQ_WRITE = 1,
  OTMA_REQ_REDUCE = 2,
  OTMA_REQ_PREFETCH = 3,
  OTMA_REQ_DESC = 4 /* a descriptor fetch (128 B) */
} otma_req_kind;

typedef struct {
  uint64_t tag;  /* echo in otma_mem_resp */
  uint64_t addr; /* global address, aligned to size */
  uint32_t size; /* request granularity (config.req_bytes) or 128 for DESC */
  uint32_t kind; /* otma_req_kind */
  otma_token op; /* the op the request belongs to */
} otma_mem_req;

/* op_done events */
enum {
  OTMA_EV_READ_DONE = 1, /* stores/reductions: the shared-memory source has been read
                            (cp.async.bulk.wait_group.read may return) */
  OTMA_EV_DONE = 2,      /* the op is complete and its writes are visible */
  OTMA_EV_FAULT = 3      /* the op faulted (status = the error class); nothing was written */
};

typedef struct {
  uint32_t struct_size;
  void* user;
  /* data: global memory (byte address) and the shared window of each cluster rank. Return 0 on
   * success, nonzero for a bus error / an access outside the window. */
  int (*gmem_read)(void* user, uint64_t addr, void* dst, uint32_t n);
  int (*gmem_write)(void* user, uint64_t addr, const void* src, uint32_t n);
  int (*smem_read)(void* user, uint32_t rank, uint32_t addr, void* dst, uint32_t n);
  int (*smem_write)(void* user, uint32_t rank, uint32_t addr, const void* src, uint32_t n);
  /* completion: one complete_tx per destination rank (multicast fans out here) */
  void (*complete_tx)(void* user, uint32_t rank, uint32_t mbar_addr, uint32_t bytes);
  void (*op_done)(void* user, otma_token op, uint32_t event, otma_status status);
  /* timing: the host's memory system. Return 0 when accepted, nonzero to retry next cycle.
   * Null in TIMED mode = the engine's own L2-hit memory model (calibration table); null in RTL
   * mode = the RTL's AXI slaves answer at once (zero latency). */
  int (*mem_req)(void* user, const otma_mem_req* req);
  /* diagnostics (checker reports, faults); may be null */
  void (*log)(void* user, int level, const char* msg);
} otma_host;

typedef struct {
  uint32_t struct_size;
  uint32_t abi_version;     /* OTMA_ABI_VERSION of the header the caller was built with */
  uint32_t mode;            /* otma_mode */
  uint32_t flags;           /* OTMA_FLAG_* */
  uint32_t arch;            /* otma_arch */
  uint32_t cluster_size;    /* CTAs in the cluster, 1..16 (0 = 1) */
  uint32_t req_bytes;       /* TIMED request granularity: 32, 64 or 128 (0 = 32) */
  uint32_t max_outstanding; /* TIMED requests in flight (0 = calibration default) */
  uint32_t rtl_data_bytes;  /* RTL: 16, 32 or 64 (0 = 16) */
  uint32_t reserved0;
  uint64_t watchdog_cycles; /* TIMED/RTL: cycles without progress before TX_WATCHDOG (0 = 10^6) */
  otma_checker* checker;    /* shared checker of the cluster (OTMA_FLAG_CHECK) */
} otma_config;

OTMA_API otma_status otma_create(const otma_config* cfg, const otma_host* host, otma_engine** out);
/* Destroys the engine; ops in flight are dropped without callbacks. */
OTMA_API void otma_destroy(otma_engine* e);

/* Submits one op. FUNCTIONAL: the op runs to completion inside the call (callbacks included);
 * TIMED/RTL: it is queued, OTMA_E_BUSY when the command port cannot take it this cycle. A fault
 * found at submit is also returned (and reported through op_done(FAULT)). */
OTMA_API otma_status otma_submit(otma_engine* e, const otma_op* op, otma_token* token);
/* Advances engine time by `cycles` engine clocks. */
OTMA_API otma_status otma_tick(otma_engine* e, uint64_t cycles);
/* Cycles until the engine's next internal event; 0 = it has work this cycle; UINT64_MAX = idle
 * or only waiting for otma_mem_resp. */
OTMA_API uint64_t otma_next_event(const otma_engine* e);
/* A memory response for the request `tag`; status OTMA_OK or OTMA_E_BUS_ERROR. */
OTMA_API otma_status otma_mem_resp(otma_engine* e, uint64_t tag, otma_status bus_status);
/* Ticks until no op is in flight (or the watchdog fires); returns the cycles it took. */
OTMA_API uint64_t otma_drain(otma_engine* e);
/* fence.proxy.tensormap: drops the cached descriptor at desc_va (all when desc_va = 0). */
OTMA_API otma_status otma_invalidate_desc(otma_engine* e, uint64_t desc_va);
OTMA_API uint64_t otma_cycle(const otma_engine* e);     /* engine clocks so far */
OTMA_API uint32_t otma_in_flight(const otma_engine* e); /* ops submitted, not done */

/* The pure address generator: the global requests (granularity req_bytes of the config) an op
 * makes, its payload bytes (complete_tx per destination) and its out-of-bounds bytes. Writes at
 * most `cap` requests into `out` and the total count into *n. Touches no memory (the descriptor
 * must be given as bytes or params). */
OTMA_API otma_status otma_expand(otma_engine* e, const otma_op* op, otma_mem_req* out, uint32_t cap,
                                 uint32_t* n, uint64_t* payload_bytes, uint64_t* oob_bytes);

/* ---- Bulk async-groups, per issuing warp (cp.async.bulk.commit_group / wait_group) -------- */
OTMA_API otma_status otma_bulk_commit(otma_engine* e, uint32_t warp);
/* 1 when `cp.async.bulk.wait_group{.read} n` would return now, 0 when it would wait. */
OTMA_API int otma_bulk_wait(otma_engine* e, uint32_t warp, uint32_t n, int read_only);

/* ---- mbarrier / async-proxy checker --------------------------------------------------------- */
typedef enum {
  OTMA_CHK_TX_UNDERFLOW = 1,   /* complete_tx delivered more bytes than the phase expected */
  OTMA_CHK_TX_OVERFLOW = 2,    /* the phase expected more bytes than were ever delivered */
  OTMA_CHK_PHASE_EARLY = 3,    /* a phase completed while bytes of an op issued in it were
                                  still to come (they land in a later phase) */
  OTMA_CHK_UNARMED = 4,        /* complete_tx (multicast) to a rank whose barrier was not
                                  initialised or not armed with expect_tx in this phase */
  OTMA_CHK_STAGE_OVERWRITE = 5 /* a TMA write into a shared-memory stage that its consumer has
                                  not yet released */
} otma_check_class;
#define OTMA_CHK_NUM_CLASSES 6

typedef struct {
  uint32_t struct_size;
  uint32_t cls;  /* otma_check_class */
  uint32_t rank; /* the CTA whose barrier / stage is concerned */
  uint32_t addr; /* mbarrier or shared-memory address */
  otma_token op; /* the op that caused it (0 = a host event) */
  uint64_t cycle;
  const char* message; /* valid during the callback */
} otma_check_report;

typedef struct {
  uint32_t struct_size;
  uint32_t cluster_size;
  void* user;
  void (*report)(void* user, const otma_check_report* r); /* may be null */
} otma_checker_config;

OTMA_API otma_status otma_checker_create(const otma_checker_config* cfg, otma_checker** out);
OTMA_API void otma_checker_destroy(otma_checker* c);
/* Host-side mbarrier events the checker cannot see itself. */
OTMA_API void otma_checker_mbar_init(otma_checker* c, uint32_t rank, uint32_t mbar, uint32_t count);
OTMA_API void otma_checker_arrive_expect_tx(otma_checker* c, uint32_t rank, uint32_t mbar,
                                            uint32_t tx_bytes); /* tx 0 = plain arrive */
OTMA_API void otma_checker_expect_tx(otma_checker* c, uint32_t rank, uint32_t mbar, uint32_t tx);
/* A consumer has finished with shared memory [addr, addr+n) of `rank` (e.g. it arrived on the
 * stage's empty barrier): a TMA write may land there again. */
OTMA_API void otma_checker_release(otma_checker* c, uint32_t rank, uint32_t addr, uint32_t n);
/* End of the run: every barrier whose phase still waits for bytes is a TX_OVERFLOW. */
OTMA_API void otma_checker_finish(otma_checker* c);
OTMA_API uint32_t otma_checker_count(const otma_checker* c, uint32_t cls); /* 0 = all classes */
/* The checker the engine reports to: cfg.checker, or its private one (OTMA_FLAG_CHECK without
 * cfg.checker); null when the checker is off. */
OTMA_API otma_checker* otma_engine_checker(otma_engine* e);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* OPENTMA_COSIM_H_ */
