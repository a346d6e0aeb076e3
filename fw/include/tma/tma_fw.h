/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The C API of the OpenTMA firmware (C99): the tensor-map encoder (the C++ API is
 * tma/fw/encoder.h, which this wraps), and the driver and its links (tma/fw/device.h,
 * tma/fw/link.h; section "Driver" below). The three encoders take the CUDA driver's parameters
 * (cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col / cuTensorMapEncodeIm2colWide), in the
 * driver's order, with the driver's enum values, plus the target architecture and an optional
 * diagnostic; they return the driver's verdict (TMA_FW_SUCCESS, or
 * TMA_FW_ERROR_INVALID_VALUE = CUDA_ERROR_INVALID_VALUE) and the driver's 128 bytes.
 * Link with tma_fw_c (CMake), which brings tma_fw and the C++ runtime.
 */
#ifndef TMA_TMA_FW_H_
#define TMA_TMA_FW_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { TMA_FW_SUCCESS = 0, TMA_FW_ERROR_INVALID_VALUE = 1 } tma_fw_result_t;

typedef enum { /* CUtensorMapDataType */
               TMA_FW_DATA_TYPE_UINT8 = 0,
               TMA_FW_DATA_TYPE_UINT16 = 1,
               TMA_FW_DATA_TYPE_UINT32 = 2,
               TMA_FW_DATA_TYPE_INT32 = 3,
               TMA_FW_DATA_TYPE_UINT64 = 4,
               TMA_FW_DATA_TYPE_INT64 = 5,
               TMA_FW_DATA_TYPE_FLOAT16 = 6,
               TMA_FW_DATA_TYPE_FLOAT32 = 7,
               TMA_FW_DATA_TYPE_FLOAT64 = 8,
               TMA_FW_DATA_TYPE_BFLOAT16 = 9,
               TMA_FW_DATA_TYPE_FLOAT32_FTZ = 10,
               TMA_FW_DATA_TYPE_TFLOAT32 = 11,
               TMA_FW_DATA_TYPE_TFLOAT32_FTZ = 12,
               TMA_FW_DATA_TYPE_16U4_ALIGN8B = 13,
               TMA_FW_DATA_TYPE_16U4_ALIGN16B = 14,
               TMA_FW_DATA_TYPE_16U6_ALIGN16B = 15
} tma_fw_data_type_t;

typedef enum { /* CUtensorMapInterleave */
               TMA_FW_INTERLEAVE_NONE = 0,
               TMA_FW_INTERLEAVE_16B = 1,
               TMA_FW_INTERLEAVE_32B = 2
} tma_fw_interleave_t;

typedef enum { /* CUtensorMapSwizzle; 96B (sm_103) has no driver value and is 7 here */
               TMA_FW_SWIZZLE_NONE = 0,
               TMA_FW_SWIZZLE_32B = 1,
               TMA_FW_SWIZZLE_64B = 2,
               TMA_FW_SWIZZLE_128B = 3,
               TMA_FW_SWIZZLE_128B_ATOM_32B = 4,
               TMA_FW_SWIZZLE_128B_ATOM_32B_FLIP_8B = 5,
               TMA_FW_SWIZZLE_128B_ATOM_64B = 6,
               TMA_FW_SWIZZLE_96B = 7
} tma_fw_swizzle_t;

typedef enum { /* CUtensorMapL2promotion */
               TMA_FW_L2_PROMOTION_NONE = 0,
               TMA_FW_L2_PROMOTION_L2_64B = 1,
               TMA_FW_L2_PROMOTION_L2_128B = 2,
               TMA_FW_L2_PROMOTION_L2_256B = 3
} tma_fw_l2_promotion_t;

typedef enum { /* CUtensorMapFloatOOBfill */
               TMA_FW_FLOAT_OOB_FILL_NONE = 0,
               TMA_FW_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA = 1
} tma_fw_oob_fill_t;

typedef enum { /* CUtensorMapIm2ColWideMode */
               TMA_FW_IM2COL_WIDE_MODE_W = 0,
               TMA_FW_IM2COL_WIDE_MODE_W128 = 1
} tma_fw_im2col_wide_mode_t;

/* The device the map is for: sm_90 measured; sm_100 / sm_103 unverified on silicon. */
typedef enum { TMA_FW_ARCH_SM90 = 0, TMA_FW_ARCH_SM100 = 1, TMA_FW_ARCH_SM103 = 2 } tma_fw_arch_t;

/* The 128 bytes of a CUtensorMap (little-endian fields, docs/descriptor.md). */
typedef struct {
  uint64_t opaque[16];
} tma_fw_tensor_map_t;

/* Why a map was rejected: the rule number (silicon-findings.md "Encoder rules"; 0 when
 * accepted), the driver parameter ("boxDim[1]") and a sentence, both NUL-terminated and cut to
 * fit. */
typedef struct {
  int rule;
  char field[40];
  char message[200];
} tma_fw_violation_t;

/* `why` may be NULL. On a rejection *tensor_map is all zero. */
tma_fw_result_t tma_fw_encode_tiled(tma_fw_tensor_map_t* tensor_map, tma_fw_data_type_t data_type,
                                    uint32_t rank, uint64_t global_address,
                                    const uint64_t* global_dim, const uint64_t* global_strides,
                                    const uint32_t* box_dim, const uint32_t* element_strides,
                                    tma_fw_interleave_t interleave, tma_fw_swizzle_t swizzle,
                                    tma_fw_l2_promotion_t l2_promotion, tma_fw_oob_fill_t oob_fill,
                                    tma_fw_arch_t arch, tma_fw_violation_t* why);

tma_fw_result_t tma_fw_encode_im2col(tma_fw_tensor_map_t* tensor_map, tma_fw_data_type_t data_type,
                                     uint32_t rank, uint64_t global_address,
                                     const uint64_t* global_dim, const uint64_t* global_strides,
                                     const int* pixel_box_lower_corner,
                                     const int* pixel_box_upper_corner, uint32_t channels_per_pixel,
                                     uint32_t pixels_per_column, const uint32_t* element_strides,
                                     tma_fw_interleave_t interleave, tma_fw_swizzle_t swizzle,
                                     tma_fw_l2_promotion_t l2_promotion, tma_fw_oob_fill_t oob_fill,
                                     tma_fw_arch_t arch, tma_fw_violation_t* why);

tma_fw_result_t tma_fw_encode_im2col_wide(
    tma_fw_tensor_map_t* tensor_map, tma_fw_data_type_t data_type, uint32_t rank,
    uint64_t global_address, const uint64_t* global_dim, const uint64_t* global_strides,
    int pixel_box_lower_corner_width, int pixel_box_upper_corner_width, uint32_t channels_per_pixel,
    uint32_t pixels_per_column, const uint32_t* element_strides, tma_fw_interleave_t interleave,
    tma_fw_im2col_wide_mode_t mode, tma_fw_swizzle_t swizzle, tma_fw_l2_promotion_t l2_promotion,
    tma_fw_oob_fill_t oob_fill, tma_fw_arch_t arch, tma_fw_violation_t* why);

/* "u8" ... "b6x16_p32", "none" ... "96B", "sm_90" ...; "?" for an out-of-range value. */
const char* tma_fw_data_type_name(tma_fw_data_type_t t);
const char* tma_fw_swizzle_name(tma_fw_swizzle_t s);
const char* tma_fw_arch_name(tma_fw_arch_t a);

/* ==== Driver =================================================================================
 * Links (the HAL), the engine's queue as C callbacks, and the driver's calls. Every driver
 * call returns a tma_fw_status_t and, when `err` is not NULL, fills it (status TMA_FW_OK and
 * tag -1 on success). docs/fw.md has the semantics; they are tma::fw::Device's. */

typedef enum {
  TMA_FW_LINK_OK = 0,
  TMA_FW_LINK_TIMEOUT = 1,
  TMA_FW_LINK_BUS_ERROR = 2,
  TMA_FW_LINK_IO_ERROR = 3,
  TMA_FW_LINK_UNSUPPORTED = 4,
  TMA_FW_LINK_BAD_ARGUMENT = 5
} tma_fw_link_status_t;

typedef struct tma_fw_link tma_fw_link_t;
typedef struct tma_fw_device tma_fw_device_t;

/* A link whose operations are the caller's (a bare-metal CPU's loads and stores, a bridge);
 * wait_interrupt may be NULL (no interrupt: the driver polls). */
typedef struct {
  tma_fw_link_status_t (*read32)(void* ctx, uint64_t addr, uint32_t* value);
  tma_fw_link_status_t (*write32)(void* ctx, uint64_t addr, uint32_t value);
  tma_fw_link_status_t (*wait_interrupt)(void* ctx, uint32_t timeout_us);
} tma_fw_link_ops_t;

/* NULL on failure. */
tma_fw_link_t* tma_fw_link_from_ops(const tma_fw_link_ops_t* ops, void* ctx);
tma_fw_link_t* tma_fw_link_open_devmem(uint64_t phys_base, size_t bytes);
tma_fw_link_t* tma_fw_link_open_uio(const char* dev, size_t bytes, int map_index);
tma_fw_link_t* tma_fw_link_open_uartbone(const char* tty, uint32_t baud);
void tma_fw_link_close(tma_fw_link_t* link);
tma_fw_link_status_t tma_fw_link_read32(tma_fw_link_t* link, uint64_t addr, uint32_t* value);
tma_fw_link_status_t tma_fw_link_write32(tma_fw_link_t* link, uint64_t addr, uint32_t value);

/* The engine's command and completion (tma_pkg cmd_t / cpl_t, field for field). */
typedef struct {
  uint8_t op; /* 0 load, 1 store, 2 reduce, 3 prefetch */
  uint8_t mode, redop, dim;
  uint64_t desc_addr;
  uint32_t coords[5];
  uint16_t im2col[3];
  uint32_t smem_addr, mbar_addr;
  uint8_t multicast;
  uint16_t cta_mask;
  uint8_t issuer, dst_cta, cta_group, tag;
} tma_fw_cmd_t;

typedef struct {
  uint8_t kind; /* 0 complete-tx, 1 error, 2 done, 3 bulk-group (cta issuer, tag sequence,
                   bytes: bit 0 done / read-done, bit 1 a failed operation) */
  uint8_t cta;
  uint32_t mbar_addr, bytes;
  uint8_t err, tag;
} tma_fw_cpl_t;

typedef enum {
  TMA_FW_OK = 0,
  TMA_FW_BAD_ARGUMENT = 1,
  TMA_FW_UNSUPPORTED = 2,
  TMA_FW_QUEUE_FULL = 3,
  TMA_FW_TIMEOUT = 4,
  TMA_FW_LINK_ERROR = 5,
  TMA_FW_ENGINE_ERROR = 6
} tma_fw_status_t;

typedef struct {
  tma_fw_status_t status;
  int error_class; /* the engine's: 0 none, 1 invalid_descriptor, ... 8 bus_error */
  int tag;         /* the failing command's, or -1 */
  tma_fw_link_status_t link_status;
  char field[40];
  char message[200];
} tma_fw_error_t;

/* The engine's queues (the SoC glue's EngineQueue, tma/fw/device.h): push returns
 * TMA_FW_QUEUE_FULL when there is no room; pop sets *got to 0 when no completion waits. */
typedef struct {
  tma_fw_status_t (*push)(void* ctx, const tma_fw_cmd_t* cmd);
  tma_fw_status_t (*pop)(void* ctx, tma_fw_cpl_t* cpl, int* got);
  tma_fw_status_t (*invalidate_descriptors)(void* ctx);
  tma_fw_status_t (*acknowledge_interrupt)(void* ctx);
} tma_fw_queue_ops_t;

typedef struct {
  uint64_t gmem_link_base; /* link address of global address 0 */
  tma_fw_arch_t arch;
  int num_ctas;
  int use_interrupt;
  uint32_t poll_interval_us;
  int engine_groups; /* the queue reports the engine's bulk-group completions (kind 3) */
} tma_fw_device_config_t;

/* The link and the queue context must outlive the device. NULL on a bad argument. */
tma_fw_device_t* tma_fw_device_create(tma_fw_link_t* link, const tma_fw_queue_ops_t* queue,
                                      void* queue_ctx, const tma_fw_device_config_t* cfg);
void tma_fw_device_destroy(tma_fw_device_t* dev);

typedef struct {
  uint64_t tensor_map; /* global address of the map */
  int dim;             /* .Nd */
  int mode;            /* 0 tile, 1 im2col, 2 im2col::w, 3 im2col::w::128, 4 gather4, 5 scatter4 */
  int32_t coords[5];
  int num_coords;
  uint16_t im2col[3];
  int num_im2col;
  uint32_t smem;
  int cta;
} tma_fw_tensor_operands_t;

typedef struct {
  uint32_t mbar;
  int dst_cta;       /* -1: the issuer */
  uint16_t cta_mask; /* 0: no multicast */
  int cta_group;     /* 0, 1 or 2 */
} tma_fw_load_options_t;

/* `tag` (may be NULL) receives the command's tag. */
tma_fw_status_t tma_fw_load_tensor(tma_fw_device_t* dev, const tma_fw_tensor_operands_t* t,
                                   const tma_fw_load_options_t* o, uint8_t* tag,
                                   tma_fw_error_t* err);
tma_fw_status_t tma_fw_store_tensor(tma_fw_device_t* dev, const tma_fw_tensor_operands_t* t,
                                    uint8_t* tag, tma_fw_error_t* err);
tma_fw_status_t tma_fw_reduce_tensor(tma_fw_device_t* dev, int redop,
                                     const tma_fw_tensor_operands_t* t, uint8_t* tag,
                                     tma_fw_error_t* err);
tma_fw_status_t tma_fw_prefetch_tensor(tma_fw_device_t* dev, const tma_fw_tensor_operands_t* t,
                                       uint8_t* tag, tma_fw_error_t* err);
/* Non-tensor bulk operations (Device::LoadBulk ...): to_cluster 0 .shared::cta, 1
 * .shared::cluster (dst_cta -1: the issuer; cta_mask 0: no multicast); cp_mask -1: none;
 * type: the .type of cp.reduce.async.bulk (0 b32, 1 u32, 2 s32, 3 b64, 4 u64, 5 s64, 6 f16,
 * 7 bf16, 8 f32, 9 f64). */
tma_fw_status_t tma_fw_load_bulk(tma_fw_device_t* dev, uint32_t smem, uint64_t global_addr,
                                 uint32_t bytes, uint32_t mbar, int cta, int to_cluster,
                                 int dst_cta, uint16_t cta_mask, uint8_t* tag, tma_fw_error_t* err);
tma_fw_status_t tma_fw_store_bulk(tma_fw_device_t* dev, uint64_t global_addr, uint32_t smem,
                                  uint32_t bytes, int cta, int cp_mask, uint8_t* tag,
                                  tma_fw_error_t* err);
tma_fw_status_t tma_fw_reduce_bulk(tma_fw_device_t* dev, int redop, int type, uint64_t global_addr,
                                   uint32_t smem, uint32_t bytes, int cta, uint8_t* tag,
                                   tma_fw_error_t* err);
tma_fw_status_t tma_fw_prefetch_bulk(tma_fw_device_t* dev, uint64_t global_addr, uint32_t bytes,
                                     uint8_t* tag, tma_fw_error_t* err);
/* cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes and
 * cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.redOp.type
 * (Device::CopyBulkToCluster / ReduceBulkToCluster): `bytes` from offset `src` of CTA `cta`'s
 * window to offset `dst` of CTA `dst_cta`'s window; one complete-tx on dst_cta's mbarrier at
 * offset `mbar`; no bulk group. */
tma_fw_status_t tma_fw_copy_bulk_to_cluster(tma_fw_device_t* dev, uint32_t dst, uint32_t src,
                                            uint32_t bytes, uint32_t mbar, int dst_cta, int cta,
                                            uint8_t* tag, tma_fw_error_t* err);
tma_fw_status_t tma_fw_reduce_bulk_to_cluster(tma_fw_device_t* dev, int redop, int type,
                                              uint32_t dst, uint32_t src, uint32_t bytes,
                                              uint32_t mbar, int dst_cta, int cta, uint8_t* tag,
                                              tma_fw_error_t* err);
/* With engine_groups a commit_group command that found no room is reported by the next wait. */
void tma_fw_commit_group(tma_fw_device_t* dev);
tma_fw_status_t tma_fw_wait_group(tma_fw_device_t* dev, int n, uint32_t timeout_us,
                                  tma_fw_error_t* err);
tma_fw_status_t tma_fw_wait_group_read(tma_fw_device_t* dev, int n, uint32_t timeout_us,
                                       tma_fw_error_t* err);
tma_fw_status_t tma_fw_wait(tma_fw_device_t* dev, uint8_t tag, uint32_t timeout_us,
                            tma_fw_error_t* err);
tma_fw_status_t tma_fw_poll(tma_fw_device_t* dev, tma_fw_error_t* err);
tma_fw_status_t tma_fw_write_tensor_map(tma_fw_device_t* dev, uint64_t global_addr,
                                        const tma_fw_tensor_map_t* map, tma_fw_error_t* err);
tma_fw_status_t tma_fw_invalidate_descriptors(tma_fw_device_t* dev, tma_fw_error_t* err);
/* complete-tx bytes signalled to CTA `cta` so far. */
uint64_t tma_fw_tx_bytes(const tma_fw_device_t* dev, int cta);

#ifdef __cplusplus
}
#endif

#endif /* TMA_TMA_FW_H_ */
