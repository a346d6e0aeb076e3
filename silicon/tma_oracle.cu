// SPDX-License-Identifier: Apache-2.0
//
// OpenTMA silicon oracle: runs golden-case specs (shared/spec/golden-cases.md) on a Hopper
// GPU with the real driver's tensor maps and the real cp.async.bulk.tensor instructions (and,
// for cases with a `bulk` object, the non-tensor cp.async.bulk / cp.reduce.async.bulk /
// cp.async.bulk.prefetch.L2), and writes the cases back with `expect` measured.
//
//   tma_oracle run --in specs.jsonl --out cases.jsonl --anom anomalies.jsonl
//                  --notes notes.txt --source silicon:<gpu>:sm_90:<driver> [--shard i --nshards n]
//   tma_oracle encode --in params.jsonl --out verdicts.jsonl
//   tma_oracle info
//
// `run` is a supervisor that never touches CUDA itself: it forks a worker that processes
// cases in order and reports each one through a pipe. A fault (illegal instruction,
// misaligned address, ...) kills the worker's CUDA context: the worker reports the fault for
// the case that caused it and exits, and the supervisor starts a fresh worker after it.
// A worker that stops answering is killed by the supervisor's watchdog.
//
// complete_tx measurement (tensor-semantics.md §0): each destination CTA's mbarrier is armed
// with arrive.expect_tx(P), P = the predicted count. If the phase flips, a second phase is
// armed with expect_tx(K) and fed complete_tx(1) until it flips: delivered = P + K - feeds
// (catches over-delivery split across the phase boundary). If the first phase does not flip
// within the bounded spin, expect_tx(K) is added and the barrier fed until it flips:
// delivered = P + K - feeds. CTAs outside a multicast mask are armed with K and fed: their
// delivered count must be 0.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>
#include <fstream>
#include <iostream>
#include <poll.h>
#include <signal.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "json_lite.h"
#include "oracle_host.h"
#include "sha256_lite.h"

namespace tma::silicon {

#include "tma_asm.inc"

struct KParams {
  int op, mode, rank, ctas, issuer, redop, cta_dst, multicast;
  uint32_t mask;
  uint32_t win_bytes, dst_off, expect_tx;
  int coords[5];
  uint16_t offs[4];
  const uint8_t* smem_init;
  uint8_t* dump;
  int* res;
  long long timeout;
};

constexpr uint32_t kFeedHeadroom = 16384;
constexpr int kResWords = 8;
constexpr uint32_t kMaxDynSmem = 232448;
constexpr size_t kGlobalCap = 8u << 20;
constexpr size_t kGuard = 4096;

__device__ __forceinline__ uint32_t SmemAddr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ bool TestWait(uint32_t mbar, uint32_t parity) {
  uint32_t ok;
  asm volatile(
      "{\n .reg .pred p;\n mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n"
      " selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(ok)
      : "r"(mbar), "r"(parity)
      : "memory");
  return ok != 0;
}
__device__ __forceinline__ bool WaitParity(uint32_t mbar, uint32_t parity, long long timeout) {
  long long t0 = clock64();
  while (!TestWait(mbar, parity))
    if (clock64() - t0 > timeout)
      return false;
  return true;
}
__device__ __forceinline__ void ArriveExpect(uint32_t mbar, uint32_t tx) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mbar), "r"(tx)
               : "memory");
}
__device__ __forceinline__ void ExpectTx(uint32_t mbar, uint32_t tx) {
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(mbar), "r"(tx)
               : "memory");
}
__device__ __forceinline__ void CompleteTx(uint32_t mbar, uint32_t tx) {
  asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(mbar), "r"(tx)
               : "memory");
}
__device__ __forceinline__ long Feed(uint32_t mbar, uint32_t parity, long limit) {
  for (long n = 1; n <= limit; ++n) {
    CompleteTx(mbar, 1);
    if (TestWait(mbar, parity))
      return n;
  }
  return -1;
}
__device__ __forceinline__ void ClusterSync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::
                   : "memory");
}
__device__ __forceinline__ uint32_t ClusterRank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

__global__ void __launch_bounds__(128)
    OracleKernel(const __grid_constant__ CUtensorMap tmap, const __grid_constant__ KParams p) {
  extern __shared__ __align__(128) uint8_t dyn[];
  const uint32_t base = SmemAddr(dyn);
  const uint32_t pad = (1024u - (base & 1023u)) & 1023u;
  uint8_t* win = dyn + pad;
  const uint32_t win_s = base + pad;
  const uint32_t mbar = win_s + ((p.win_bytes + 7u) & ~7u);
  const uint32_t rank = p.ctas > 1 ? ClusterRank() : 0;
  for (uint32_t k = threadIdx.x; k < p.win_bytes; k += blockDim.x)
    win[k] = p.smem_init[k];
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mbar) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (p.ctas > 1)
    ClusterSync();
  int* res = p.res + rank * kResWords;
  const uint64_t tm = reinterpret_cast<uint64_t>(&tmap);
  const bool in_mask = p.op == 0 && (p.multicast ? (((p.mask >> rank) & 1u) != 0)
                                                 : (rank == static_cast<uint32_t>(p.issuer)));
  bool flipped = false;
  if (threadIdx.x == 0) {
    if (rank == static_cast<uint32_t>(p.issuer)) {
      const uint32_t sa = win_s + p.dst_off;
      const uint16_t m16 = static_cast<uint16_t>(p.mask);
      if (p.op == 0) {
        if (p.mode == 0) {
          if (p.multicast) {
            IssueLoadTileMc(p.rank, sa, tm, mbar, p.coords, p.offs, m16);
#ifdef TMA_HAVE_SHARED_CTA_DST
          } else if (p.cta_dst) {
            IssueLoadTileCta(p.rank, sa, tm, mbar, p.coords, p.offs, m16);
#endif
          } else {
            IssueLoadTile(p.rank, sa, tm, mbar, p.coords, p.offs, m16);
          }
        } else {
          if (p.multicast) {
            IssueLoadIm2colMc(p.rank, sa, tm, mbar, p.coords, p.offs, m16);
#ifdef TMA_HAVE_SHARED_CTA_DST
          } else if (p.cta_dst) {
            IssueLoadIm2colCta(p.rank, sa, tm, mbar, p.coords, p.offs, m16);
#endif
          } else {
            IssueLoadIm2col(p.rank, sa, tm, mbar, p.coords, p.offs, m16);
          }
        }
      } else if (p.op == 1 || p.op == 2) {
        if (p.op == 1) {
          IssueStoreTile(p.rank, tm, sa, p.coords);
        } else {
          IssueReduceTile(p.rank, p.redop, tm, sa, p.coords);
        }
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
      } else {
        if (p.mode == 0) {
          IssuePrefetchTile(p.rank, tm, p.coords, p.offs);
        } else {
          IssuePrefetchIm2col(p.rank, tm, p.coords, p.offs);
        }
      }
    }
    if (in_mask) {
      ArriveExpect(mbar, p.expect_tx);
      flipped = WaitParity(mbar, 0, p.timeout);
    }
  }
  __syncthreads();
  if (p.ctas > 1)
    ClusterSync();
  if (threadIdx.x == 0 && p.op == 0) {
    const uint32_t k = kFeedHeadroom;
    long feeds;
    int delivered;
    if (in_mask && flipped) {
      ArriveExpect(mbar, k);
      feeds = Feed(mbar, 1, k + 1);
      delivered = feeds < 0 ? -1 : static_cast<int>(p.expect_tx + k - feeds);
    } else if (in_mask) {
      ExpectTx(mbar, k);
      feeds = Feed(mbar, 0, static_cast<long>(p.expect_tx) + k + 1);
      delivered = feeds < 0 ? -1 : static_cast<int>(p.expect_tx + k - feeds);
    } else {
      ArriveExpect(mbar, k);
      feeds = Feed(mbar, 0, k + 1);
      delivered = feeds < 0 ? -1 : static_cast<int>(k - feeds);
    }
    res[0] = delivered;
    res[1] = flipped ? 1 : 0;
    res[2] = static_cast<int>(feeds);
    res[3] = in_mask ? 1 : 0;
    res[4] = 1;
  }
  __syncthreads();
  if (p.op == 0)
    for (uint32_t k = threadIdx.x; k < p.win_bytes; k += blockDim.x)
      p.dump[static_cast<size_t>(rank) * p.win_bytes + k] = win[k];
  if (p.ctas > 1)
    ClusterSync();
}

// ------------------------------------------------------------------------------------------
// Non-tensor bulk operations (cp.async.bulk, cp.reduce.async.bulk, cp.async.bulk.prefetch.L2):
// a case with a `bulk` object (docs/golden-cases.md). One kernel, one instruction per launch,
// the same complete_tx measurement as the tensor loads for every direction that signals an
// mbarrier (global -> shared::cta / shared::cluster (+ multicast), shared::cta ->
// shared::cluster, cp.reduce.async.bulk to shared::cluster).

// The redOp x type lists of cp.reduce.async.bulk, in the order of gen_cases.py BULK_RED_*.
#define TMA_BULK_RED_GLOBAL(X)                                                                  \
  X(0, "and.b32") X(1, "and.b64") X(2, "or.b32") X(3, "or.b64") X(4, "xor.b32") X(5, "xor.b64") \
  X(6, "add.u32") X(7, "add.s32") X(8, "add.u64") X(9, "add.f32") X(10, "add.f64")              \
  X(11, "add.noftz.f16") X(12, "add.noftz.bf16") X(13, "inc.u32") X(14, "dec.u32")              \
  X(15, "min.u32") X(16, "min.s32") X(17, "min.u64") X(18, "min.s64") X(19, "min.f16")          \
  X(20, "min.bf16") X(21, "max.u32") X(22, "max.s32") X(23, "max.u64") X(24, "max.s64")         \
  X(25, "max.f16") X(26, "max.bf16")
#define TMA_BULK_RED_CLUSTER(X)                                                                 \
  X(0, "and.b32") X(1, "or.b32") X(2, "xor.b32") X(3, "add.u32") X(4, "add.s32")                \
  X(5, "add.u64") X(6, "inc.u32") X(7, "dec.u32") X(8, "min.u32") X(9, "min.s32")               \
  X(10, "max.u32") X(11, "max.s32")
// Pairs ptxas refuses are left out with these bit masks (run_oracle.sh probes them).
#ifndef TMA_RED_SKIP_G
#define TMA_RED_SKIP_G 0ull
#endif
#ifndef TMA_RED_SKIP_C
#define TMA_RED_SKIP_C 0ull
#endif

enum BulkKind { kBG2SCta = 0, kBG2S, kBG2SMc, kBS2C, kBS2G, kBPrefetch, kBRedG, kBRedC };

struct BParams {
  int kind, red, ctas, issuer, dst_cta;
  uint32_t mask;
  uint32_t win_bytes, src_s, dst_s, size, expect_tx;
  uint8_t* g;
  uint64_t gsrc, gdst;
  const uint8_t* smem_init;
  uint8_t* dump;
  int* res;
  long long timeout;
};

template <int I>
__device__ __forceinline__ bool RedGlobalOne(int red, uint64_t dst, uint32_t src, uint32_t size);
#define TMA_RED_G_FN(i, s)                                                                       \
  template <>                                                                                    \
  __device__ __forceinline__ bool RedGlobalOne<i>(int red, uint64_t dst, uint32_t src,           \
                                                  uint32_t size) {                               \
    if constexpr (((TMA_RED_SKIP_G >> (i)) & 1ull) == 0) {                                       \
      if (red == (i)) {                                                                          \
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group." s " [%0], [%1], %2;" \
                     ::"l"(dst), "r"(src), "r"(size) : "memory");                                \
        return true;                                                                             \
      }                                                                                          \
    }                                                                                            \
    return false;                                                                                \
  }
TMA_BULK_RED_GLOBAL(TMA_RED_G_FN)
template <int I>
__device__ __forceinline__ bool RedClusterOne(int red, uint32_t dst, uint32_t src, uint32_t size,
                                              uint32_t mbar);
#define TMA_RED_C_FN(i, s)                                                                       \
  template <>                                                                                    \
  __device__ __forceinline__ bool RedClusterOne<i>(int red, uint32_t dst, uint32_t src,          \
                                                   uint32_t size, uint32_t mbar) {               \
    if constexpr (((TMA_RED_SKIP_C >> (i)) & 1ull) == 0) {                                       \
      if (red == (i)) {                                                                          \
        asm volatile(                                                                            \
            "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes." s  \
            " [%0], [%1], %2, [%3];" ::"r"(dst), "r"(src), "r"(size), "r"(mbar)                  \
            : "memory");                                                                         \
        return true;                                                                             \
      }                                                                                          \
    }                                                                                            \
    return false;                                                                                \
  }
TMA_BULK_RED_CLUSTER(TMA_RED_C_FN)
#define TMA_RED_G_CALL(i, s) || RedGlobalOne<i>(red, dst, src, size)
#define TMA_RED_C_CALL(i, s) || RedClusterOne<i>(red, dst, src, size, mbar)
__device__ bool RedGlobal(int red, uint64_t dst, uint32_t src, uint32_t size) {
  return false TMA_BULK_RED_GLOBAL(TMA_RED_G_CALL);
}
__device__ bool RedCluster(int red, uint32_t dst, uint32_t src, uint32_t size, uint32_t mbar) {
  return false TMA_BULK_RED_CLUSTER(TMA_RED_C_CALL);
}

__device__ __forceinline__ uint32_t MapCta(uint32_t addr, uint32_t cta) {
  uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(addr), "r"(cta));
  return r;
}

__global__ void __launch_bounds__(128) BulkKernel(const __grid_constant__ BParams p) {
  extern __shared__ __align__(128) uint8_t dyn[];
  const uint32_t base = SmemAddr(dyn);
  const uint32_t pad = (1024u - (base & 1023u)) & 1023u;
  uint8_t* win = dyn + pad;
  const uint32_t win_s = base + pad;
  const uint32_t mbar = win_s + ((p.win_bytes + 7u) & ~7u);
  const uint32_t rank = p.ctas > 1 ? ClusterRank() : 0;
  for (uint32_t k = threadIdx.x; k < p.win_bytes; k += blockDim.x)
    win[k] = p.smem_init[k];
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mbar) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (p.ctas > 1)
    ClusterSync();
  int* res = p.res + rank * kResWords;
  const bool signals = p.kind == kBG2SCta || p.kind == kBG2S || p.kind == kBG2SMc ||
                       p.kind == kBS2C || p.kind == kBRedC;
  const uint32_t dcta = p.dst_cta >= 0 ? static_cast<uint32_t>(p.dst_cta)
                                       : static_cast<uint32_t>(p.issuer);
  const bool in_mask = signals && (p.kind == kBG2SMc ? (((p.mask >> rank) & 1u) != 0)
                                                     : rank == dcta);
  bool flipped = false;
  bool issued = true;
  if (threadIdx.x == 0) {
    if (rank == static_cast<uint32_t>(p.issuer)) {
      const uint64_t gs = reinterpret_cast<uint64_t>(p.g + p.gsrc);
      const uint64_t gd = reinterpret_cast<uint64_t>(p.g + p.gdst);
      const uint32_t ss = win_s + p.src_s;
      const uint32_t sd = win_s + p.dst_s;
      switch (p.kind) {
        case kBG2SCta:
#ifdef TMA_HAVE_SHARED_CTA_DST
          asm volatile(
              "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%0], [%1], %2, "
              "[%3];" ::"r"(sd), "l"(gs), "r"(p.size), "r"(mbar)
              : "memory");
#else
          issued = false;
#endif
          break;
        case kBG2S:
          asm volatile(
              "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, "
              "[%3];" ::"r"(p.ctas > 1 ? MapCta(sd, dcta) : sd), "l"(gs), "r"(p.size),
              "r"(p.ctas > 1 ? MapCta(mbar, dcta) : mbar)
              : "memory");
          break;
        case kBG2SMc:
          asm volatile(
              "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
              " [%0], [%1], %2, [%3], %4;" ::"r"(sd), "l"(gs), "r"(p.size), "r"(mbar),
              "h"(static_cast<uint16_t>(p.mask))
              : "memory");
          break;
        case kBS2C:
          asm volatile(
              "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], "
              "%2, [%3];" ::"r"(MapCta(sd, dcta)), "r"(ss), "r"(p.size), "r"(MapCta(mbar, dcta))
              : "memory");
          break;
        case kBS2G:
          asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(gd),
                       "r"(ss), "r"(p.size)
                       : "memory");
          asm volatile("cp.async.bulk.commit_group;" ::: "memory");
          asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
          break;
        case kBPrefetch:
          asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(gs), "r"(p.size)
                       : "memory");
          break;
        case kBRedG:
          issued = RedGlobal(p.red, gd, ss, p.size);
          asm volatile("cp.async.bulk.commit_group;" ::: "memory");
          asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
          break;
        case kBRedC: {
          const uint32_t d = p.ctas > 1 ? MapCta(sd, dcta) : sd;
          const uint32_t m = p.ctas > 1 ? MapCta(mbar, dcta) : mbar;
          issued = RedCluster(p.red, d, ss, p.size, m);
          break;
        }
        default:
          issued = false;
      }
      res[5] = issued ? 1 : 0;
    }
    if (in_mask) {
      ArriveExpect(mbar, issued ? p.expect_tx : 0);
      flipped = WaitParity(mbar, 0, p.timeout);
    }
  }
  __syncthreads();
  if (p.ctas > 1)
    ClusterSync();
  if (threadIdx.x == 0) {
    const uint32_t k = kFeedHeadroom;
    long feeds;
    int delivered;
    if (in_mask && flipped) {
      ArriveExpect(mbar, k);
      feeds = Feed(mbar, 1, k + 1);
      delivered = feeds < 0 ? -1 : static_cast<int>(p.expect_tx + k - feeds);
    } else if (in_mask) {
      ExpectTx(mbar, k);
      feeds = Feed(mbar, 0, static_cast<long>(p.expect_tx) + k + 1);
      delivered = feeds < 0 ? -1 : static_cast<int>(p.expect_tx + k - feeds);
    } else {
      ArriveExpect(mbar, k);
      feeds = Feed(mbar, 0, k + 1);
      delivered = feeds < 0 ? -1 : static_cast<int>(k - feeds);
    }
    res[0] = delivered;
    res[1] = flipped ? 1 : 0;
    res[2] = static_cast<int>(feeds);
    res[3] = in_mask ? 1 : 0;
    res[4] = 1;
  }
  __syncthreads();
  for (uint32_t k = threadIdx.x; k < p.win_bytes; k += blockDim.x)
    p.dump[static_cast<size_t>(rank) * p.win_bytes + k] = win[k];
  if (p.ctas > 1)
    ClusterSync();
}

// ------------------------------------------------------------------------------------------
// Host

static void WriteAll(int fd, const std::string& s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t w = write(fd, s.data() + off, s.size() - off);
    if (w <= 0)
      _exit(9);
    off += static_cast<size_t>(w);
  }
}

static std::string FaultKind(cudaError_t e) {
  switch (e) {
    case cudaErrorIllegalInstruction:
      return "illegal_instruction";
    case cudaErrorMisalignedAddress:
      return "misaligned_address";
    case cudaErrorLaunchFailure:
      return "launch_failure";
    case cudaErrorIllegalAddress:
      return "illegal_address";
    case cudaErrorHardwareStackError:
      return "hardware_stack_error";
    case cudaErrorInvalidAddressSpace:
      return "invalid_address_space";
    case cudaErrorInvalidPc:
      return "invalid_pc";
    case cudaErrorAssert:
      return "assert";
    case cudaErrorLaunchTimeout:
      return "launch_timeout";
    default:
      return std::string("cuda_error_") + std::to_string(static_cast<int>(e));
  }
}

static CUresult EncodeSpec(const Spec& s, void* addr, CUtensorMap* map) {
  cuuint64_t dims[5], strides[5];
  cuuint32_t box[5], es[5];
  for (int k = 0; k < 5; ++k) {
    dims[k] = s.dims[k];
    strides[k] = k < 4 ? s.strides[k] : 16;
    box[k] = s.box[k];
    es[k] = s.es[k];
  }
  std::memset(map, 0xCD, sizeof(*map));
  if (s.mode == 0)
    return cuTensorMapEncodeTiled(
        map, static_cast<CUtensorMapDataType>(s.dtype), s.rank, addr, dims, strides, box, es,
        static_cast<CUtensorMapInterleave>(s.interleave),
        static_cast<CUtensorMapSwizzle>(s.swizzle), static_cast<CUtensorMapL2promotion>(s.l2),
        static_cast<CUtensorMapFloatOOBfill>(s.oob));
  int lo[3] = {s.lower[0], s.lower[1], s.lower[2]};
  int up[3] = {s.upper[0], s.upper[1], s.upper[2]};
  return cuTensorMapEncodeIm2col(
      map, static_cast<CUtensorMapDataType>(s.dtype), s.rank, addr, dims, strides, lo, up, s.cpp,
      s.ppc, es, static_cast<CUtensorMapInterleave>(s.interleave),
      static_cast<CUtensorMapSwizzle>(s.swizzle), static_cast<CUtensorMapL2promotion>(s.l2),
      static_cast<CUtensorMapFloatOOBfill>(s.oob));
}

struct Worker {
  uint8_t* d_global = nullptr;
  uint8_t* d_sinit = nullptr;
  uint8_t* d_dump = nullptr;
  int* d_res = nullptr;
  std::string source;
  int out_fd = -1;
};

#define CK(x)                                                                            \
  do {                                                                                   \
    cudaError_t e_ = (x);                                                                \
    if (e_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, \
                   __LINE__);                                                            \
      _exit(7);                                                                          \
    }                                                                                    \
  } while (0)

// Result line kinds: OK (a measured case), ANOM (not a pass: reason attached), NOTE (a
// prediction the silicon contradicted; the case itself is still written as OK).
struct Outcome {
  std::string kind;  // OK / ANOM
  JVal json;
  std::vector<std::string> notes;
  bool fatal = false;  // context is dead: worker must exit
};

static JVal OutCase(const JVal& in, const std::string& source, JVal expect) {
  JVal o = in;
  o.Erase("gen");
  o.Erase("expect");
  o.Set("source", JVal::Str(source));
  o.Set("expect", std::move(expect));
  return o;
}

static Outcome Anom(const JVal& in, const std::string& why) {
  Outcome r;
  r.kind = "ANOM";
  r.json = in;
  r.json.Set("anomaly", JVal::Str(why));
  return r;
}

// ---- bulk cases (host) ----
static const char* const kBulkRedGlobal[] = {
#define TMA_RED_NAME(i, s) s,
    TMA_BULK_RED_GLOBAL(TMA_RED_NAME)};
static const char* const kBulkRedCluster[] = {TMA_BULK_RED_CLUSTER(TMA_RED_NAME)};
#undef TMA_RED_NAME

static int BulkDtype(const std::string& t) {
  static const char* names[] = {"b32", "u32", "s32", "b64", "u64", "s64", "f16", "f32", "f64",
                                "bf16"};
  static const int dt[] = {2, 2, 3, 4, 4, 5, 6, 7, 8, 9};
  for (int k = 0; k < 10; ++k)
    if (t == names[k])
      return dt[k];
  throw std::runtime_error("unknown bulk type " + t);
}

static std::string BulkPtx(int kind, const std::string& red) {
  switch (kind) {
    case kBG2SCta:
      return "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes";
    case kBG2S:
      return "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes";
    case kBG2SMc:
      return "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster";
    case kBS2C:
      return "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes";
    case kBS2G:
      return "cp.async.bulk.global.shared::cta.bulk_group";
    case kBPrefetch:
      return "cp.async.bulk.prefetch.L2.global";
    case kBRedG:
      return "cp.reduce.async.bulk.global.shared::cta.bulk_group." + red;
    case kBRedC:
      return "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes." + red;
  }
  return "";
}

static Outcome RunBulkCase(Worker* w, const JVal& in) {
  auto need = [&](const JVal& o, const char* k) -> const JVal& {
    const JVal* v = o.Get(k);
    if (!v)
      throw std::runtime_error(std::string("missing key ") + k);
    return *v;
  };
  const std::string id = need(in, "id").AsS();
  const std::string op = need(in, "op").AsS();
  const JVal& b = need(in, "bulk");
  const std::string dir = need(b, "dir").AsS();
  const uint32_t size = static_cast<uint32_t>(need(b, "size").AsU());
  const uint64_t src = b.Get("src") ? b.Get("src")->AsU() : 0;
  const uint64_t dst = b.Get("dst") ? b.Get("dst")->AsU() : 0;
  int ctas = 1, issuer = 0, dst_cta = -1;
  uint32_t mask = 0;
  bool mc = false;
  if (const JVal* cl = in.Get("cluster")) {
    ctas = static_cast<int>(need(*cl, "ctas").AsI());
    if (const JVal* v = cl->Get("issuer"))
      issuer = static_cast<int>(v->AsI());
    if (const JVal* v = cl->Get("cta_mask")) {
      mask = static_cast<uint32_t>(v->AsU());
      mc = true;
    }
  }
  if (const JVal* v = in.Get("dst_cta"))
    dst_cta = static_cast<int>(v->AsI());
  if (ctas < 1 || ctas > 8)
    return Anom(in, "bad cluster size");
  int kind = -1, red = -1, dtype = 0;
  std::string redname;
  if (op == "load" && dir == "shared::cta.global") {
    kind = kBG2SCta;
  } else if (op == "load" && dir == "shared::cluster.global") {
    kind = mc ? kBG2SMc : kBG2S;
  } else if (op == "store" && dir == "shared::cluster.shared::cta") {
    kind = kBS2C;
  } else if (op == "store" && dir == "global.shared::cta") {
    kind = kBS2G;
  } else if (op == "prefetch") {
    kind = kBPrefetch;
  } else if (op == "reduce") {
    const std::string ty = need(b, "type").AsS();
    dtype = BulkDtype(ty);
    const bool noftz = b.Get("noftz") && b.Get("noftz")->b;
    redname = need(in, "redop").AsS() + (noftz ? ".noftz." : ".") + ty;
    const bool global = dir == "global.shared::cta" || dir == "global";
    kind = global ? kBRedG : kBRedC;
    const char* const* names = global ? kBulkRedGlobal : kBulkRedCluster;
    const int n = global ? 27 : 12;
    for (int k = 0; k < n; ++k)
      if (redname == names[k])
        red = k;
    if (red < 0)
      return Anom(in, "reduction " + redname + " is not in the oracle's list for ." + dir);
    const unsigned long long skip = global ? TMA_RED_SKIP_G : TMA_RED_SKIP_C;
    if ((skip >> red) & 1ull)
      return Anom(in, "ptxas refused " + BulkPtx(kind, redname) + " (not assembled)");
  }
  if (kind < 0)
    return Anom(in, "bulk direction " + op + " " + dir + " unknown");
  const std::string gen_error =
      in.Get("gen") && in.Get("gen")->Get("error") ? in.Get("gen")->Get("error")->AsS() : "";
  const std::string gen_fault =
      in.Get("gen") && in.Get("gen")->Get("fault") ? in.Get("gen")->Get("fault")->AsS() : "";
  const JVal& gj = need(in, "global");
  const uint64_t gbytes = need(gj, "bytes").AsU();
  const Fill gfill = ReadFill(gj);
  uint64_t sbytes = 0;
  Fill sfill;
  if (const JVal* sj = in.Get("smem")) {
    sbytes = need(*sj, "bytes").AsU();
    sfill = ReadFill(*sj);
  }
  const uint64_t gtotal = gbytes + kGuard;
  if (gtotal > kGlobalCap)
    return Anom(in, "global buffer too large");
  if (sbytes + 1024 + 64 > kMaxDynSmem)
    return Anom(in, "smem window too large");
  std::vector<uint8_t> g0(gtotal, 0xC3);
  std::vector<uint8_t> s0(sbytes ? sbytes : 1, 0);
  try {
    FillBuffer(&g0, gbytes, gfill, dtype);
    if (sbytes)
      FillBuffer(&s0, sbytes, sfill, dtype);
  } catch (const std::exception& ex) {
    return Anom(in, ex.what());
  }
  CK(cudaMemcpy(w->d_global, g0.data(), gtotal, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(w->d_sinit, s0.data(), s0.size(), cudaMemcpyHostToDevice));
  CK(cudaMemset(w->d_res, 0xFF, 16 * kResWords * sizeof(int)));
  CK(cudaMemset(w->d_dump, 0, static_cast<size_t>(ctas) * sbytes + 1));
  BParams p{};
  p.kind = kind;
  p.red = red;
  p.ctas = ctas;
  p.issuer = issuer;
  p.dst_cta = dst_cta;
  p.mask = mask;
  p.win_bytes = static_cast<uint32_t>(sbytes);
  const bool gsrc = kind == kBG2SCta || kind == kBG2S || kind == kBG2SMc || kind == kBPrefetch;
  const bool gdst = kind == kBS2G || kind == kBRedG;
  p.src_s = gsrc ? 0 : static_cast<uint32_t>(src);
  p.dst_s = gdst ? 0 : static_cast<uint32_t>(dst);
  p.gsrc = gsrc ? src : 0;
  p.gdst = gdst ? dst : 0;
  p.size = size;
  const bool signals = !gdst && kind != kBPrefetch;
  p.expect_tx = signals ? size : 0;
  p.g = w->d_global;
  p.smem_init = w->d_sinit;
  p.dump = w->d_dump;
  p.res = w->d_res;
  p.timeout = 1ll << 24;
  Outcome r;

  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(ctas, 1, 1);
  cfg.blockDim = dim3(128, 1, 1);
  cfg.dynamicSmemBytes = static_cast<size_t>(sbytes) + 1024 + 64;
  cudaLaunchAttribute attr[1];
  if (ctas > 1) {
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = ctas;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
  }
  cudaError_t le = cudaLaunchKernelEx(&cfg, BulkKernel, p);
  if (le != cudaSuccess) {
    Outcome a = Anom(in, std::string("launch failed: ") + cudaGetErrorString(le));
    cudaGetLastError();
    a.fatal = true;
    return a;
  }
  auto t0 = std::chrono::steady_clock::now();
  cudaError_t e;
  for (;;) {
    e = cudaStreamQuery(0);
    if (e != cudaErrorNotReady)
      break;
    if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(20)) {
      Outcome a = Anom(in, "timeout: kernel did not finish in 20 s");
      a.fatal = true;
      return a;
    }
    usleep(20);
  }
  const std::string ptx = BulkPtx(kind, redname);
  if (e != cudaSuccess) {
    std::string fk = FaultKind(e);
    r.fatal = true;
    std::string cls;
    if (fk == gen_fault && !gen_error.empty()) {
      cls = gen_error;
    } else if (fk == "misaligned_address") {
      cls = "misaligned";
      r.notes.push_back(id + ": misaligned address fault, generator predicted " +
                        (gen_error.empty() ? std::string("success") : gen_error));
    } else {
      Outcome a = Anom(in, "unexpected fault " + fk + " (predicted " +
                               (gen_fault.empty() ? std::string("none") : gen_fault) + ")");
      a.fatal = true;
      return a;
    }
    JVal ex = JVal::Obj();
    ex.Set("error", JVal::Str(cls));
    r.kind = "OK";
    r.json = OutCase(in, w->source, ex);
    r.json.Set("ptx", JVal::Str(ptx));
    r.json.Set("silicon_fault", JVal::Str(fk));
    return r;
  }
  if (!gen_fault.empty())
    r.notes.push_back(id + ": predicted fault " + gen_fault + " (" + gen_error +
                      ") but the instruction executed");
  std::vector<int> res(16 * kResWords);
  CK(cudaMemcpy(res.data(), w->d_res, res.size() * sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<uint8_t> dump(static_cast<size_t>(ctas) * sbytes);
  if (!dump.empty())
    CK(cudaMemcpy(dump.data(), w->d_dump, dump.size(), cudaMemcpyDeviceToHost));
  if (res[issuer * kResWords + 5] != 1)
    return Anom(in, "the issuer did not issue the instruction (not built in)");
  JVal ex = JVal::Obj();
  int tx = -2;
  const bool hex_default = sbytes * ctas <= 4096;
  const bool hex = in.Get("gen") && in.Get("gen")->Get("hex") ? in.Get("gen")->Get("hex")->b
                                                              : hex_default;
  JVal hexes = JVal::Arr(), shas = JVal::Arr();
  bool any_written = false;
  for (int c = 0; c < ctas; ++c) {
    const int* rr = &res[c * kResWords];
    if (rr[4] != 1)
      return Anom(in, "CTA " + std::to_string(c) + " did not report");
    const uint8_t* win = dump.data() + static_cast<size_t>(c) * sbytes;
    const bool same = sbytes == 0 || std::memcmp(win, s0.data(), sbytes) == 0;
    if (rr[3] == 1) {
      if (rr[0] < 0)
        return Anom(in, "complete_tx not measurable (over-delivery?)");
      if (tx == -2)
        tx = rr[0];
      if (rr[0] != tx)
        return Anom(in, "CTAs received different complete_tx");
      hexes.a.push_back(JVal::Str(hex ? Hex(win, sbytes) : ""));
      shas.a.push_back(JVal::Str(Sha256Hex(win, sbytes)));
      any_written = true;
    } else {
      if (rr[0] != 0)
        return Anom(in, "CTA " + std::to_string(c) + " outside the destinations received " +
                            std::to_string(rr[0]) + " tx bytes");
      if (!same)
        return Anom(in, "CTA " + std::to_string(c) + " outside the destinations was written");
      hexes.a.push_back(JVal::Str(""));
      shas.a.push_back(JVal::Str(""));
    }
  }
  if (signals) {
    if (tx < 0)
      tx = 0;
    ex.Set("complete_tx_bytes", JVal::Int(tx));
    if (tx != static_cast<int>(p.expect_tx))
      r.notes.push_back(id + ": complete_tx " + std::to_string(tx) + " != predicted " +
                        std::to_string(p.expect_tx));
    if (any_written) {
      if (ctas == 1) {
        if (hex)
          ex.Set("smem", hexes.a[0]);
        ex.Set("smem_sha256", shas.a[0]);
      } else {
        if (hex)
          ex.Set("smem", hexes);
        ex.Set("smem_sha256", shas);
      }
    }
  } else {
    std::vector<uint8_t> g1(gtotal);
    CK(cudaMemcpy(g1.data(), w->d_global, gtotal, cudaMemcpyDeviceToHost));
    if (std::memcmp(g1.data() + gbytes, g0.data() + gbytes, kGuard) != 0)
      return Anom(in, "wrote past the end of the global buffer");
    JVal diff = JVal::Arr();
    size_t k = 0;
    while (k < gbytes) {
      if (g1[k] == g0[k]) {
        ++k;
        continue;
      }
      size_t st = k;
      while (k < gbytes && g1[k] != g0[k])
        ++k;
      JVal run = JVal::Arr();
      run.a.push_back(JVal::Int(static_cast<int64_t>(st)));
      run.a.push_back(JVal::Str(Hex(g1.data() + st, k - st)));
      diff.a.push_back(run);
    }
    if (kind == kBPrefetch && !diff.a.empty())
      r.notes.push_back(id + ": prefetch changed global memory");
    ex.Set("global_diff", diff);
    ex.Set("global_sha256", JVal::Str(Sha256Hex(g1.data(), gbytes)));
  }
  r.kind = "OK";
  r.json = OutCase(in, w->source, ex);
  r.json.Set("ptx", JVal::Str(ptx));
  return r;
}

static Outcome RunCase(Worker* w, const JVal& in) {
  if (in.Get("bulk"))
    return RunBulkCase(w, in);
  Spec s;
  try {
    s = ReadSpec(in);
  } catch (const std::exception& ex) {
    return Anom(in, std::string("bad spec: ") + ex.what());
  }
  const uint64_t gtotal = s.gbytes + kGuard;
  if (gtotal > kGlobalCap)
    return Anom(in, "global buffer too large");
  if (s.goffset >= s.gbytes && s.gbytes > 0 && s.op != 3 && s.op != 0)
    return Anom(in, "global offset outside buffer");
  if (s.ctas != 1 && s.ctas != 2 && s.ctas != 4 && s.ctas != 8 && s.ctas != 16)
    return Anom(in, "bad cluster size");
  void* taddr = w->d_global + s.goffset;
  alignas(64) CUtensorMap map;
  CUresult cr = EncodeSpec(s, taddr, &map);
  Outcome r;
  if (cr != CUDA_SUCCESS) {
    JVal ex = JVal::Obj();
    ex.Set("error", JVal::Str("invalid_descriptor"));
    r.kind = "OK";
    r.json = OutCase(in, w->source, ex);
    r.json.Set("driver_result", JVal::Int(static_cast<int>(cr)));
    if (s.gen_error != "invalid_descriptor")
      r.notes.push_back(s.id + ": encoder rejected (CUresult " + std::to_string(cr) +
                        ") but the generator predicted " +
                        (s.gen_error.empty() ? std::string("success") : s.gen_error));
    return r;
  }
  if (s.sbytes + 1024 + 64 > kMaxDynSmem)
    return Anom(in, "smem window too large");
  if (s.gen_error == "invalid_descriptor")
    r.notes.push_back(s.id + ": generator predicted invalid_descriptor but the encoder accepted");

  // Memory images.
  std::vector<uint8_t> g0(gtotal, 0xC3);
  try {
    FillBuffer(&g0, s.gbytes, s.gfill, s.dtype);
  } catch (const std::exception& ex) {
    return Anom(in, ex.what());
  }
  std::vector<uint8_t> s0(s.sbytes ? s.sbytes : 1, 0);
  try {
    if (s.sbytes)
      FillBuffer(&s0, s.sbytes, s.sfill, s.dtype);
  } catch (const std::exception& ex) {
    return Anom(in, ex.what());
  }
  CK(cudaMemcpy(w->d_global, g0.data(), gtotal, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(w->d_sinit, s0.data(), s0.size(), cudaMemcpyHostToDevice));
  CK(cudaMemset(w->d_res, 0xFF, 16 * kResWords * sizeof(int)));
  if (s.op == 0)
    CK(cudaMemset(w->d_dump, 0, static_cast<size_t>(s.ctas) * s.sbytes + 1));

  KParams p{};
  p.op = s.op;
  p.mode = s.mode;
  p.rank = s.rank;
  p.ctas = s.ctas;
  p.issuer = s.issuer;
  p.redop = s.redop;
  p.cta_dst = s.cta_dst ? 1 : 0;
  p.multicast = s.multicast ? 1 : 0;
  p.mask = s.mask;
  p.win_bytes = static_cast<uint32_t>(s.sbytes);
  p.dst_off = s.sdst;
  p.expect_tx = PredictTx(s);
  for (int k = 0; k < 5; ++k)
    p.coords[k] = s.coords[k];
  for (int k = 0; k < 3; ++k)
    p.offs[k] = s.offs[k];
  p.smem_init = w->d_sinit;
  p.dump = w->d_dump;
  p.res = w->d_res;
  p.timeout = 1ll << 24;
#ifndef TMA_HAVE_SHARED_CTA_DST
  if (s.cta_dst)
    return Anom(in, "built without .shared::cta destination support");
#endif

  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(s.ctas, 1, 1);
  cfg.blockDim = dim3(128, 1, 1);
  cfg.dynamicSmemBytes = static_cast<size_t>(s.sbytes) + 1024 + 64;
  cfg.stream = 0;
  cudaLaunchAttribute attr[1];
  if (s.ctas > 1) {
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = s.ctas;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
  }
  cudaError_t le = cudaLaunchKernelEx(&cfg, OracleKernel, map, p);
  if (le != cudaSuccess) {
    Outcome a = Anom(in, std::string("launch failed: ") + cudaGetErrorString(le));
    cudaGetLastError();
    a.fatal = true;  // be safe: restart the worker
    return a;
  }
  auto t0 = std::chrono::steady_clock::now();
  cudaError_t e;
  for (;;) {
    e = cudaStreamQuery(0);
    if (e != cudaErrorNotReady)
      break;
    if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(20)) {
      Outcome a = Anom(in, "timeout: kernel did not finish in 20 s");
      a.fatal = true;
      return a;
    }
    usleep(20);
  }
  if (e != cudaSuccess) {
    std::string fk = FaultKind(e);
    r.fatal = true;
    std::string cls;
    if (fk == s.gen_fault && !s.gen_error.empty()) {
      cls = s.gen_error;
    } else if (fk == "misaligned_address") {
      cls = "misaligned";
      r.notes.push_back(s.id + ": misaligned address fault, generator predicted " +
                        (s.gen_error.empty() ? std::string("success") : s.gen_error));
    } else {
      Outcome a = Anom(in, "unexpected fault " + fk + " (predicted " +
                               (s.gen_fault.empty() ? std::string("none") : s.gen_fault) + ")");
      a.fatal = true;
      return a;
    }
    JVal ex = JVal::Obj();
    ex.Set("error", JVal::Str(cls));
    r.kind = "OK";
    r.json = OutCase(in, w->source, ex);
    r.json.Set("silicon_fault", JVal::Str(fk));
    return r;
  }
  if (!s.gen_fault.empty())
    r.notes.push_back(s.id + ": predicted fault " + s.gen_fault + " (" + s.gen_error +
                      ") but the instruction executed");

  JVal ex = JVal::Obj();
  if (s.op == 0) {
    std::vector<int> res(16 * kResWords);
    CK(cudaMemcpy(res.data(), w->d_res, res.size() * sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<uint8_t> dump(static_cast<size_t>(s.ctas) * s.sbytes);
    CK(cudaMemcpy(dump.data(), w->d_dump, dump.size(), cudaMemcpyDeviceToHost));
    int tx = -2;
    bool hex = s.gen_hex_set ? s.gen_hex : (s.sbytes * s.ctas <= 2048);
    JVal hexes = JVal::Arr(), shas = JVal::Arr();
    for (int c = 0; c < s.ctas; ++c) {
      const int* rr = &res[c * kResWords];
      if (rr[4] != 1)
        return Anom(in, "CTA " + std::to_string(c) + " did not report");
      const uint8_t* win = dump.data() + static_cast<size_t>(c) * s.sbytes;
      if (rr[3] == 1) {
        if (rr[0] < 0)
          return Anom(in, "complete_tx not measurable (over-delivery?)");
        if (tx == -2)
          tx = rr[0];
        if (rr[0] != tx)
          return Anom(in, "CTAs received different complete_tx: " + std::to_string(tx) + " vs " +
                              std::to_string(rr[0]));
        hexes.a.push_back(JVal::Str(hex ? Hex(win, s.sbytes) : ""));
        shas.a.push_back(JVal::Str(Sha256Hex(win, s.sbytes)));
      } else {
        if (rr[0] != 0)
          return Anom(in, "CTA " + std::to_string(c) + " outside the mask received " +
                              std::to_string(rr[0]) + " tx bytes");
        if (std::memcmp(win, s0.data(), s.sbytes) != 0)
          return Anom(in, "CTA " + std::to_string(c) + " outside the mask was written");
        hexes.a.push_back(JVal::Str(""));
        shas.a.push_back(JVal::Str(""));
      }
    }
    if (tx < 0)
      tx = 0;
    ex.Set("complete_tx_bytes", JVal::Int(tx));
    if (tx != static_cast<int>(p.expect_tx))
      r.notes.push_back(s.id + ": complete_tx " + std::to_string(tx) + " != predicted " +
                        std::to_string(p.expect_tx));
    if (s.ctas == 1 && !s.multicast) {
      if (hex)
        ex.Set("smem", hexes.a[0]);
      ex.Set("smem_sha256", shas.a[0]);
    } else {
      if (hex)
        ex.Set("smem", hexes);
      ex.Set("smem_sha256", shas);
    }
  } else {
    std::vector<uint8_t> g1(gtotal);
    CK(cudaMemcpy(g1.data(), w->d_global, gtotal, cudaMemcpyDeviceToHost));
    if (std::memcmp(g1.data() + s.gbytes, g0.data() + s.gbytes, kGuard) != 0)
      return Anom(in, "wrote past the end of the global buffer");
    JVal diff = JVal::Arr();
    size_t k = 0;
    while (k < s.gbytes) {
      if (g1[k] == g0[k]) {
        ++k;
        continue;
      }
      size_t st = k;
      while (k < s.gbytes && g1[k] != g0[k])
        ++k;
      JVal run = JVal::Arr();
      run.a.push_back(JVal::Int(static_cast<int64_t>(st)));
      run.a.push_back(JVal::Str(Hex(g1.data() + st, k - st)));
      diff.a.push_back(run);
    }
    if (s.op == 3 && !diff.a.empty())
      r.notes.push_back(s.id + ": prefetch changed global memory");
    ex.Set("global_diff", diff);
    ex.Set("global_sha256", JVal::Str(Sha256Hex(g1.data(), s.gbytes)));
  }
  r.kind = "OK";
  r.json = OutCase(in, w->source, ex);
  return r;
}

static int WorkerMain(const std::vector<std::string>& lines, size_t start, int fd,
                      const std::string& source) {
  Worker w;
  w.source = source;
  w.out_fd = fd;
  CK(cudaSetDevice(0));
  CK(cudaFree(nullptr));
  CK(cudaMalloc(&w.d_global, kGlobalCap));
  CK(cudaMalloc(&w.d_sinit, kMaxDynSmem));
  CK(cudaMalloc(&w.d_dump, static_cast<size_t>(16) * kMaxDynSmem));
  CK(cudaMalloc(&w.d_res, 16 * kResWords * sizeof(int)));
  CK(cudaFuncSetAttribute(OracleKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxDynSmem));
  CK(cudaFuncSetAttribute(OracleKernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  CK(cudaFuncSetAttribute(BulkKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxDynSmem));
  for (size_t k = start; k < lines.size(); ++k) {
    WriteAll(fd, "S " + std::to_string(k) + "\n");
    Outcome o;
    try {
      JVal in = JParser(lines[k]).Parse();
      o = RunCase(&w, in);
    } catch (const std::exception& ex) {
      JVal in = JVal::Obj();
      in.Set("line", JVal::Str(lines[k]));
      o = Anom(in, std::string("exception: ") + ex.what());
    }
    std::string msg;
    for (const auto& n : o.notes) {
      std::string t = n;
      for (char& ch : t)
        if (ch == '\n')
          ch = ' ';
      msg += "N " + std::to_string(k) + " " + t + "\n";
    }
    msg += "R " + std::to_string(k) + " " + o.kind + " " + JDump(o.json) + "\n";
    WriteAll(fd, msg);
    if (o.fatal)
      return 3;
  }
  return 0;
}

static int Supervise(const std::vector<std::string>& lines, const std::string& out_path,
                     const std::string& anom_path, const std::string& notes_path,
                     const std::string& source) {
  FILE* out = std::fopen(out_path.c_str(), "w");
  FILE* anom = std::fopen(anom_path.c_str(), "w");
  FILE* notes = std::fopen(notes_path.c_str(), "w");
  if (!out || !anom || !notes) {
    std::fprintf(stderr, "cannot open outputs\n");
    return 2;
  }
  size_t next = 0, n_ok = 0, n_anom = 0, n_restart = 0;
  while (next < lines.size()) {
    int fds[2];
    if (pipe(fds) != 0)
      return 2;
    std::fflush(nullptr);
    pid_t pid = fork();
    if (pid == 0) {
      close(fds[0]);
      int rc = WorkerMain(lines, next, fds[1], source);
      close(fds[1]);
      _exit(rc);
    }
    close(fds[1]);
    ++n_restart;
    long started = -1;
    std::string buf;
    bool eof = false, killed = false;
    while (!eof) {
      struct pollfd pf = {fds[0], POLLIN, 0};
      int pr = poll(&pf, 1, 120000);
      if (pr == 0) {
        kill(pid, SIGKILL);
        killed = true;
        break;
      }
      char tmp[65536];
      ssize_t n = read(fds[0], tmp, sizeof(tmp));
      if (n <= 0) {
        eof = true;
        break;
      }
      buf.append(tmp, static_cast<size_t>(n));
      size_t pos;
      while ((pos = buf.find('\n')) != std::string::npos) {
        std::string line = buf.substr(0, pos);
        buf.erase(0, pos + 1);
        if (line.size() < 3)
          continue;
        char tag = line[0];
        size_t sp = line.find(' ', 2);
        long idx = std::strtol(line.c_str() + 2, nullptr, 10);
        if (tag == 'S') {
          started = idx;
        } else if (tag == 'N') {
          std::fprintf(notes, "%s\n", line.substr(sp + 1).c_str());
        } else if (tag == 'R') {
          std::string rest = line.substr(sp + 1);
          size_t sp2 = rest.find(' ');
          std::string kind = rest.substr(0, sp2);
          std::string js = rest.substr(sp2 + 1);
          if (kind == "OK") {
            std::fprintf(out, "%s\n", js.c_str());
            ++n_ok;
          } else {
            std::fprintf(anom, "%s\n", js.c_str());
            ++n_anom;
          }
          next = static_cast<size_t>(idx) + 1;
        }
      }
    }
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (started >= 0 && static_cast<size_t>(started) >= next) {
      // The worker died (or hung) inside this case without reporting it.
      std::string why = killed ? "watchdog: worker silent for 120 s"
                               : "worker died, status " + std::to_string(status);
      JVal in;
      try {
        in = JParser(lines[started]).Parse();
      } catch (...) {
        in = JVal::Obj();
      }
      in.Set("anomaly", JVal::Str(why));
      std::fprintf(anom, "%s\n", JDump(in).c_str());
      ++n_anom;
      next = static_cast<size_t>(started) + 1;
    } else if (started < 0 && next < lines.size()) {
      std::fprintf(stderr, "worker failed to start (status %d)\n", status);
      return 2;
    }
    std::fflush(out);
    std::fflush(anom);
    std::fflush(notes);
  }
  std::fclose(out);
  std::fclose(anom);
  std::fclose(notes);
  std::fprintf(stderr, "cases: %zu ok, %zu anomalies, %zu worker starts\n", n_ok, n_anom,
               n_restart);
  return 0;
}

// Encoder sweep: one parameter set per line (numeric driver enums), verdict + 128 bytes out.
static int EncodeSweep(const std::string& in_path, const std::string& out_path) {
  // The encoder needs a current context (CUDA_ERROR_INVALID_CONTEXT otherwise).
  if (cuInit(0) != CUDA_SUCCESS || cudaSetDevice(0) != cudaSuccess ||
      cudaFree(nullptr) != cudaSuccess) {
    std::fprintf(stderr, "CUDA init failed\n");
    return 2;
  }
  std::ifstream in(in_path);
  FILE* out = std::fopen(out_path.c_str(), "w");
  if (!in || !out)
    return 2;
  std::string line;
  size_t n = 0, acc = 0;
  while (std::getline(in, line)) {
    if (line.empty())
      continue;
    JVal j = JParser(line).Parse();
    auto num = [&](const char* k, int64_t d) { return j.Get(k) ? j.Get(k)->AsI() : d; };
    auto arr64 = [&](const char* k, cuuint64_t* dst, cuuint64_t d) {
      for (int q = 0; q < 8; ++q)
        dst[q] = d;
      if (const JVal* a = j.Get(k))
        for (size_t q = 0; q < a->a.size() && q < 8; ++q)
          dst[q] = a->a[q].AsU();
    };
    auto arr32 = [&](const char* k, cuuint32_t* dst, cuuint32_t d) {
      for (int q = 0; q < 8; ++q)
        dst[q] = d;
      if (const JVal* a = j.Get(k))
        for (size_t q = 0; q < a->a.size() && q < 8; ++q)
          dst[q] = static_cast<cuuint32_t>(a->a[q].AsU());
    };
    cuuint64_t dims[8], strides[8];
    cuuint32_t box[8], es[8];
    arr64("dims", dims, 1);
    arr64("strides", strides, 16);
    arr32("box", box, 1);
    arr32("element_strides", es, 1);
    int lo[8] = {0}, up[8] = {0};
    if (const JVal* a = j.Get("lower"))
      for (size_t q = 0; q < a->a.size() && q < 8; ++q)
        lo[q] = static_cast<int>(a->a[q].AsI());
    if (const JVal* a = j.Get("upper"))
      for (size_t q = 0; q < a->a.size() && q < 8; ++q)
        up[q] = static_cast<int>(a->a[q].AsI());
    const bool im2col = j.Get("api") && j.Get("api")->AsS() == "im2col";
    void* addr = reinterpret_cast<void*>(static_cast<uintptr_t>(j.Get("address")->AsU()));
    alignas(128) CUtensorMap map;
    std::memset(&map, 0xCD, sizeof(map));
    CUresult r;
    auto dt = static_cast<CUtensorMapDataType>(num("dtype", 0));
    auto il = static_cast<CUtensorMapInterleave>(num("interleave", 0));
    auto sw = static_cast<CUtensorMapSwizzle>(num("swizzle", 0));
    auto l2 = static_cast<CUtensorMapL2promotion>(num("l2_promotion", 0));
    auto oob = static_cast<CUtensorMapFloatOOBfill>(num("oob_fill", 0));
    auto rank = static_cast<cuuint32_t>(num("rank", 1));
    if (im2col) {
      r = cuTensorMapEncodeIm2col(&map, dt, rank, addr, dims, strides, lo, up,
                                  static_cast<cuuint32_t>(num("channels_per_pixel", 1)),
                                  static_cast<cuuint32_t>(num("pixels_per_column", 1)), es, il, sw,
                                  l2, oob);
    } else {
      r = cuTensorMapEncodeTiled(&map, dt, rank, addr, dims, strides, box, es, il, sw, l2, oob);
    }
    j.Set("result", JVal::Int(static_cast<int>(r)));
    j.Set("accepted", JVal::Bool(r == CUDA_SUCCESS));
    if (r == CUDA_SUCCESS) {
      j.Set("descriptor", JVal::Str(Hex(reinterpret_cast<const uint8_t*>(&map), 128)));
      ++acc;
    }
    std::fprintf(out, "%s\n", JDump(j).c_str());
    ++n;
  }
  std::fclose(out);
  std::fprintf(stderr, "encoder sweep: %zu sets, %zu accepted\n", n, acc);
  return 0;
}

}  // namespace tma::silicon

int main(int argc, char** argv) {
  using namespace tma::silicon;
  if (argc < 2) {
    std::fprintf(stderr, "usage: tma_oracle run|encode|info ...\n");
    return 2;
  }
  std::string cmd = argv[1];
  std::string in, out, anom = "/dev/null", notes = "/dev/null", source = "silicon:unknown";
  int shard = 0, nshards = 1;
  for (int k = 2; k + 1 < argc; k += 2) {
    std::string a = argv[k], v = argv[k + 1];
    if (a == "--in")
      in = v;
    else if (a == "--out")
      out = v;
    else if (a == "--anom")
      anom = v;
    else if (a == "--notes")
      notes = v;
    else if (a == "--source")
      source = v;
    else if (a == "--shard")
      shard = std::atoi(v.c_str());
    else if (a == "--nshards")
      nshards = std::atoi(v.c_str());
  }
  if (cmd == "info") {
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess)
      return 2;
    int drv = 0;
    cudaDriverGetVersion(&drv);
    std::printf("%s sm_%d%d cuda_driver_api %d\n", prop.name, prop.major, prop.minor, drv);
    return 0;
  }
  if (cmd == "encode")
    return EncodeSweep(in, out);
  if (cmd != "run")
    return 2;
  std::ifstream f(in);
  if (!f) {
    std::fprintf(stderr, "cannot read %s\n", in.c_str());
    return 2;
  }
  std::vector<std::string> lines;
  std::string line;
  size_t idx = 0;
  while (std::getline(f, line)) {
    if (line.empty())
      continue;
    if (static_cast<int>(idx++ % nshards) == shard)
      lines.push_back(line);
  }
  return Supervise(lines, out, anom, notes, source);
}
