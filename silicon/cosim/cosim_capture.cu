// SPDX-License-Identifier: Apache-2.0
//
// Captures real TMA kernels on a Hopper GPU as `otma-trace` v1 files
// (docs/cosim/trace-format.md, docs/cosim/capture.md).
//
//   cosim_capture --kernel gemm|conv|splitk --out DIR --source STR --driver STR --clk-mhz F
//                 [--no-hash] [--no-src] [--name STEM]
// --no-hash / --no-src leave out the stage hashes / store sources (a timing capture: the
// consumers then release each stage as soon as their math is done, as a real kernel would).
//
// One warp-specialized kernel serves all three captures: warp 0 (one thread) is the TMA
// producer, warps 1..4 are consumers computing a 128x64 output tile with plain FMA (TMA is what
// is under test). A ring of 4 stages with full / empty mbarriers connects them; each stage holds
// an A box (128 rows x 64 bf16, 128B swizzle) and a B box (64 rows x 64 bf16, 128B swizzle).
//   gemm:   C[M][N] = A[M][K] * B[N][K]^T in bf16; clusters of 2 CTAs along M share the B box,
//           each CTA loads half of it with .multicast::cluster to both; TMA-store epilogue in
//           bulk groups of two stores.
//   conv:   3x3 convolution, stride 1, padding 1, NHWC: A is loaded with im2col (one load per
//           filter tap), B is the weight matrix; TMA-store epilogue.
//   splitk: the GEMM with K split over gridDim.z; the f32 partial tiles are added into C with
//           cp.reduce.async.bulk.tensor .add.
// The issuing thread logs every TMA operation, arm, wait and bulk-group operation into a global
// log; the first consumer warp hashes every stage it consumed (SHA-256, on the GPU) before it
// releases it. The host checks the outputs against an exact CPU reference (integer-valued
// inputs make every f32 sum exact) and writes the trace.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <string>
#include <unistd.h>
#include <vector>

#include "cosim_trace.h"
#include "cosim_writer.h"

namespace cosim {

constexpr int kBM = 128, kBN = 64, kBK = 64, kStages = 4;
constexpr int kConsumerWarps = 4;
constexpr int kThreads = 32 * (1 + kConsumerWarps);
constexpr uint32_t kABytes = kBM * kBK * 2;
constexpr uint32_t kBBytes = kBN * kBK * 2;
constexpr uint32_t kStageBytes = kABytes + kBBytes;
constexpr uint32_t kStagingOff = kStages * kStageBytes;
constexpr uint32_t kStagingBytes = kBM * kBN * 4;
constexpr uint32_t kBarOff = kStagingOff + kStagingBytes;
constexpr uint32_t kDynSmem = kBarOff + 2 * kStages * 8 + 1024;
constexpr uint32_t kDumpSlot = 4096;
constexpr long long kSpinLimit = 4000000000ll;

enum KernelKind { kGemm = 0, kConv = 1, kSplitK = 2 };

struct Params {
  int kind;
  int M, N, K;
  int k_iters;     // k iterations per CTA
  int cluster;     // CTAs per cluster (along x)
  int store_rows;  // rows per store / reduce box
  int out_f32;     // staging element type: 1 = f32 (reduce), 0 = bf16 (store)
  int conv_H, conv_W;
  int hash;
  int dump_src;  // copy store / reduce sources into the dump (trace `src_hex`)
  Rec* log;
  unsigned* log_count;
  unsigned log_cap;
  uint8_t* dump;
  unsigned* dump_count;
  unsigned dump_cap;
  unsigned* error;
};

// ---- device helpers ----------------------------------------------------------------------

__device__ __forceinline__ uint32_t SmemAddr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ uint64_t Clk() {
  return static_cast<uint64_t>(clock64());
}
__device__ __forceinline__ uint64_t GlobalTimer() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ uint32_t SmId() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ uint32_t ClusterRank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
__device__ __forceinline__ void ClusterIds(uint32_t* c) {
  asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(c[0]));
  asm volatile("mov.u32 %0, %%clusterid.y;" : "=r"(c[1]));
  asm volatile("mov.u32 %0, %%clusterid.z;" : "=r"(c[2]));
}
__device__ __forceinline__ void ClusterSync() {
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;" ::: "memory");
}
__device__ __forceinline__ bool TryWait(uint32_t mbar, uint32_t parity) {
  uint32_t ok;
  asm volatile(
      "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
      " selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(ok)
      : "r"(mbar), "r"(parity)
      : "memory");
  return ok != 0;
}
__device__ __forceinline__ bool TryWaitCluster(uint32_t mbar, uint32_t parity) {
  uint32_t ok;
  asm volatile(
      "{\n .reg .pred p;\n mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
      " selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(ok)
      : "r"(mbar), "r"(parity)
      : "memory");
  return ok != 0;
}
__device__ void Fail(const Params& p, uint32_t code) {
  atomicCAS(p.error, 0u, code);
  __threadfence_system();
  asm volatile("trap;");
}
__device__ __forceinline__ void WaitParity(const Params& p, uint32_t mbar, uint32_t parity,
                                           bool cluster_scope, uint32_t code) {
  const long long t0 = clock64();
  while (!(cluster_scope ? TryWaitCluster(mbar, parity) : TryWait(mbar, parity)))
    if (clock64() - t0 > kSpinLimit)
      Fail(p, code);
}
__device__ __forceinline__ void ArriveExpect(uint32_t mbar, uint32_t tx) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mbar), "r"(tx)
               : "memory");
}
__device__ __forceinline__ void ArriveLocal(uint32_t mbar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(mbar) : "memory");
}
__device__ __forceinline__ void ArriveCluster(uint32_t mbar, uint32_t rank) {
  uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(mbar), "r"(rank));
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote)
               : "memory");
}
__device__ __forceinline__ void LoadTile2d(uint32_t dst, const CUtensorMap* m, uint32_t mbar,
                                           int c0, int c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(m)), "r"(c0), "r"(c1), "r"(mbar)
      : "memory");
}
__device__ __forceinline__ void LoadTile2dMc(uint32_t dst, const CUtensorMap* m, uint32_t mbar,
                                             int c0, int c1, uint16_t mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(m)), "r"(c0), "r"(c1), "r"(mbar), "h"(mask)
      : "memory");
}
__device__ __forceinline__ void LoadIm2col4d(uint32_t dst, const CUtensorMap* m, uint32_t mbar,
                                             const int* c, uint16_t o0, uint16_t o1) {
  asm volatile(
      "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(m)), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(mbar),
      "h"(o0), "h"(o1)
      : "memory");
}
__device__ __forceinline__ void StoreTile2d(const CUtensorMap* m, uint32_t src, int c0, int c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%2, %3}], [%1];" ::"l"(
          reinterpret_cast<uint64_t>(m)),
      "r"(src), "r"(c0), "r"(c1)
      : "memory");
}
__device__ __forceinline__ void ReduceAddTile2d(const CUtensorMap* m, uint32_t src, int c0,
                                                int c1) {
  asm volatile(
      "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%2, %3}], "
      "[%1];" ::"l"(reinterpret_cast<uint64_t>(m)),
      "r"(src), "r"(c0), "r"(c1)
      : "memory");
}

struct Who {
  uint32_t rank;
  uint32_t cid[3];
};

__device__ Rec* NewRec(const Params& p, uint32_t kind, const Who& w) {
  const unsigned i = atomicAdd(p.log_count, 1u);
  if (i >= p.log_cap)
    return nullptr;
  Rec* r = p.log + i;
  r->kind = kind;
  r->smid = SmId();
  r->warp = threadIdx.x / 32;
  r->rank = w.rank;
  r->cta[0] = blockIdx.x;
  r->cta[1] = blockIdx.y;
  r->cta[2] = blockIdx.z;
  r->cluster_id[0] = w.cid[0];
  r->cluster_id[1] = w.cid[1];
  r->cluster_id[2] = w.cid[2];
  return r;
}

__device__ void CopyDesc(Rec* r, const CUtensorMap* m) {
  const uint4* s = reinterpret_cast<const uint4*>(m);
  uint4* d = reinterpret_cast<uint4*>(r->desc);
  for (int i = 0; i < 8; ++i)
    d[i] = s[i];
}

__device__ void LogLoad(const Params& p, const Who& w, uint64_t t, uint32_t tensor,
                        const CUtensorMap* m, const int* c, int nc, uint16_t o0, uint16_t o1,
                        uint32_t dst, uint32_t mbar, uint32_t bytes, uint32_t mask, int phase) {
  Rec* r = NewRec(p, kRecLoad, w);
  if (!r)
    return;
  r->t0 = t;
  r->tensor = tensor;
  for (int i = 0; i < nc; ++i)
    r->coords[i] = c[i];
  r->offs[0] = o0;
  r->offs[1] = o1;
  r->smem = dst;
  r->mbar = mbar;
  r->bytes = bytes;
  r->mask = mask;
  r->phase = phase;
  CopyDesc(r, m);
}

__device__ __forceinline__ uint32_t Word(const uint4& v, int e) {
  return e == 0 ? v.x : e == 1 ? v.y : e == 2 ? v.z : v.w;
}

// ---- the kernel --------------------------------------------------------------------------

__global__ void __launch_bounds__(kThreads, 1)
    CosimKernel(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,
                const __grid_constant__ CUtensorMap tmC, const __grid_constant__ Params p) {
  extern __shared__ __align__(1024) uint8_t dyn[];
  const uint32_t raw = SmemAddr(dyn);
  const uint32_t pad = (1024u - (raw & 1023u)) & 1023u;
  uint8_t* const bptr = dyn + pad;
  const uint32_t base = raw + pad;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const bool clustered = p.cluster > 1;
  Who who;
  who.rank = clustered ? ClusterRank() : 0;
  ClusterIds(who.cid);
  const uint64_t cta_t0 = Clk();
  const uint64_t cta_gt0 = GlobalTimer();
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(base + kBarOff + 8u * s)
                   : "memory");
      asm volatile(
          "mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(base + kBarOff + 8u * (kStages + s)),
          "r"(kConsumerWarps * p.cluster)
          : "memory");
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (clustered)
    ClusterSync();

  const int m0 = blockIdx.x * kBM, n0 = blockIdx.y * kBN;
  const int kt0 = blockIdx.z * p.k_iters;

  if (warp == 0) {
    if (lane == 0) {
      // ---------------- producer ----------------
      for (int it = 0; it < p.k_iters; ++it) {
        const int s = it % kStages, round = it / kStages;
        const uint32_t full = base + kBarOff + 8u * s;
        const uint32_t empty = base + kBarOff + 8u * (kStages + s);
        if (round > 0) {
          const uint64_t a = Clk();
          WaitParity(p, empty, static_cast<uint32_t>(round - 1) & 1u, clustered,
                     0x10000000u | (blockIdx.x << 16) | (blockIdx.y << 8) | it);
          const uint64_t b = Clk();
          if (Rec* r = NewRec(p, kRecPwait, who)) {
            r->t0 = a;
            r->t1 = b;
            r->mbar = empty;
            r->phase = round - 1;
          }
        }
        uint64_t t = Clk();
        ArriveExpect(full, kStageBytes);
        if (Rec* r = NewRec(p, kRecArm, who)) {
          r->t0 = t;
          r->mbar = full;
          r->phase = round;
          r->expect_tx = kStageBytes;
        }
        const uint32_t sa = base + s * kStageBytes, sb = sa + kABytes;
        const int kt = kt0 + it;
        if (p.kind == kConv) {
          const int hw = p.conv_H * p.conv_W;
          const int img = m0 / hw, rem = m0 % hw;
          const int oh = rem / p.conv_W, ow = rem % p.conv_W;
          const int c[4] = {0, ow - 1, oh - 1, img};
          const uint16_t offw = static_cast<uint16_t>(kt % 3), offh = static_cast<uint16_t>(kt / 3);
          t = Clk();
          LoadIm2col4d(sa, &tmA, full, c, offw, offh);
          LogLoad(p, who, t, 0, &tmA, c, 4, offw, offh, sa, full, kABytes, 0, round);
          const int cb[2] = {kt * kBK, n0};
          t = Clk();
          LoadTile2d(sb, &tmB, full, cb[0], cb[1]);
          LogLoad(p, who, t, 1, &tmB, cb, 2, 0, 0, sb, full, kBBytes, 0, round);
        } else {
          const int ca[2] = {kt * kBK, m0};
          t = Clk();
          LoadTile2d(sa, &tmA, full, ca[0], ca[1]);
          LogLoad(p, who, t, 0, &tmA, ca, 2, 0, 0, sa, full, kABytes, 0, round);
          if (clustered) {
            const int half = kBN / p.cluster;
            const uint32_t dst = sb + who.rank * half * kBK * 2;
            const int cb[2] = {kt * kBK, n0 + static_cast<int>(who.rank) * half};
            const uint16_t mask = static_cast<uint16_t>((1u << p.cluster) - 1u);
            t = Clk();
            LoadTile2dMc(dst, &tmB, full, cb[0], cb[1], mask);
            LogLoad(p, who, t, 1, &tmB, cb, 2, 0, 0, dst, full, half * kBK * 2, mask, round);
          } else {
            const int cb[2] = {kt * kBK, n0};
            t = Clk();
            LoadTile2d(sb, &tmB, full, cb[0], cb[1]);
            LogLoad(p, who, t, 1, &tmB, cb, 2, 0, 0, sb, full, kBBytes, 0, round);
          }
        }
      }
    }
    __syncwarp();
  } else {
    // ---------------- consumers ----------------
    const int cw = warp - 1;
    const int tid = threadIdx.x - 32;
    const int tr = tid / 8, tc = tid % 8;  // rows tr*8.., columns tc*8..
    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
      for (int j = 0; j < 8; ++j)
        acc[i][j] = 0.f;
    for (int it = 0; it < p.k_iters; ++it) {
      const int s = it % kStages, round = it / kStages;
      const uint32_t full = base + kBarOff + 8u * s;
      const uint32_t empty = base + kBarOff + 8u * (kStages + s);
      const uint64_t t_start = Clk();
      WaitParity(p, full, static_cast<uint32_t>(round) & 1u, false,
                 0x20000000u | (blockIdx.x << 16) | (blockIdx.y << 8) | it);
      const uint64_t t_done = Clk();
      const uint8_t* as = bptr + s * kStageBytes;
      const uint8_t* bs = as + kABytes;
#pragma unroll 1
      for (int q = 0; q < 8; ++q) {  // 16-byte chunk q: k = 8q .. 8q+7; 128B swizzle
        uint4 av[8], bv[8];
#pragma unroll
        for (int i = 0; i < 8; ++i) {
          const int r = tr * 8 + i;  // r & 7 == i
          av[i] = *reinterpret_cast<const uint4*>(as + r * 128 + ((q ^ i) << 4));
          const int n = tc * 8 + i;
          bv[i] = *reinterpret_cast<const uint4*>(bs + n * 128 + ((q ^ i) << 4));
        }
#pragma unroll
        for (int e = 0; e < 4; ++e) {
#pragma unroll
          for (int i = 0; i < 8; ++i) {
            const uint32_t aw = Word(av[i], e);
            const float a_lo = __uint_as_float(aw << 16), a_hi = __uint_as_float(aw & 0xffff0000u);
#pragma unroll
            for (int j = 0; j < 8; ++j) {
              const uint32_t bw = Word(bv[j], e);
              acc[i][j] = fmaf(a_lo, __uint_as_float(bw << 16), acc[i][j]);
              acc[i][j] = fmaf(a_hi, __uint_as_float(bw & 0xffff0000u), acc[i][j]);
            }
          }
        }
      }
      __syncwarp();
      if (lane == 0) {
        Rec* r = nullptr;
        if (cw == 0) {
          r = NewRec(p, kRecWait, who);
          if (r && p.hash) {
            Sha256(as, kStageBytes, r->hash);
            r->aux2 = 1;
          }
        }
        if (clustered) {
          for (int peer = 0; peer < p.cluster; ++peer)
            ArriveCluster(empty, static_cast<uint32_t>(peer));
        } else {
          ArriveLocal(empty);
        }
        if (r) {
          r->t0 = t_start;
          r->t1 = t_done;
          r->t2 = Clk();
          r->mbar = full;
          r->phase = round;
          r->smem = base + s * kStageBytes;
          r->bytes = kStageBytes;
        }
      }
      __syncwarp();
    }
    // Epilogue: the tile into the staging buffer, row-major [128][64].
    if (p.out_f32) {
      float* st = reinterpret_cast<float*>(bptr + kStagingOff);
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
          st[(tr * 8 + i) * kBN + tc * 8 + j] = acc[i][j];
    } else {
      uint16_t* st = reinterpret_cast<uint16_t*>(bptr + kStagingOff);
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
          st[(tr * 8 + i) * kBN + tc * 8 + j] =
              __bfloat16_as_ushort(__float2bfloat16_rn(acc[i][j]));
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("bar.sync 1, 128;" ::: "memory");
    if (threadIdx.x == 32) {
      const uint32_t esize = p.out_f32 ? 4u : 2u;
      const uint32_t box_bytes = static_cast<uint32_t>(p.store_rows) * kBN * esize;
      const int nbox = kBM / p.store_rows;
      uint32_t group = 0;
      int in_group = 0;
      auto commit = [&]() {
        const uint64_t t = Clk();
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        if (Rec* r = NewRec(p, kRecCommit, who)) {
          r->t0 = t;
          r->group = group;
        }
        ++group;
        in_group = 0;
      };
      for (int b = 0; b < nbox; ++b) {
        const int r0 = m0 + b * p.store_rows;
        if (r0 >= p.M)
          break;  // a box wholly below the tensor is not issued
        const uint32_t src = base + kStagingOff + b * box_bytes;
        const uint8_t* src_ptr = bptr + kStagingOff + b * box_bytes;
        Rec* r = NewRec(p, p.out_f32 ? kRecReduce : kRecStore, who);
        if (r) {
          if (p.hash)
            Sha256(src_ptr, box_bytes, r->hash);
          const unsigned slot = p.dump_src ? atomicAdd(p.dump_count, 1u) : 0xffffffffu;
          r->aux = slot;
          if (slot < p.dump_cap && box_bytes <= kDumpSlot) {
            const uint4* s4 = reinterpret_cast<const uint4*>(src_ptr);
            uint4* d4 = reinterpret_cast<uint4*>(p.dump + static_cast<size_t>(slot) * kDumpSlot);
            for (uint32_t k = 0; k < box_bytes / 16; ++k)
              d4[k] = s4[k];
          }
          CopyDesc(r, &tmC);
        }
        const uint64_t t = Clk();
        if (p.out_f32)
          ReduceAddTile2d(&tmC, src, n0, r0);
        else
          StoreTile2d(&tmC, src, n0, r0);
        if (r) {
          r->t0 = t;
          r->tensor = 2;
          r->coords[0] = n0;
          r->coords[1] = r0;
          r->smem = src;
          r->bytes = box_bytes;
          r->group = group;
        }
        if (++in_group == 2) {
          commit();
          if (group >= 2) {
            const uint64_t a = Clk();
            asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
            const uint64_t bt = Clk();
            if (Rec* w = NewRec(p, kRecWaitGroup, who)) {
              w->t0 = a;
              w->t1 = bt;
              w->aux = 1;
              w->aux2 = 1;
            }
          }
        }
      }
      if (in_group)
        commit();
      uint64_t a = Clk();
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
      uint64_t bt = Clk();
      if (Rec* w = NewRec(p, kRecWaitGroup, who)) {
        w->t0 = a;
        w->t1 = bt;
        w->aux = 0;
        w->aux2 = 1;
      }
      a = Clk();
      asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
      bt = Clk();
      if (Rec* w = NewRec(p, kRecWaitGroup, who)) {
        w->t0 = a;
        w->t1 = bt;
        w->aux = 0;
        w->aux2 = 0;
      }
    }
  }
  if (clustered)
    ClusterSync();
  else
    __syncthreads();
  if (threadIdx.x == 0) {
    if (Rec* r = NewRec(p, kRecCta, who)) {
      r->t0 = cta_t0;
      r->t1 = Clk();
      r->gt = cta_gt0;
      r->t2 = GlobalTimer();
      r->smem = base;
    }
  }
}

// ---- host ---------------------------------------------------------------------------------

#define CK(x)                                                                            \
  do {                                                                                   \
    cudaError_t e_ = (x);                                                                \
    if (e_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, \
                   __LINE__);                                                            \
      std::exit(7);                                                                      \
    }                                                                                    \
  } while (0)

struct Args {
  std::string kernel = "gemm", out = ".", source = "silicon:unknown", driver = "unknown";
  std::string name;  // output file stem (default: the kernel)
  double clk_mhz = 0;
  bool hash = true;
  bool src = true;
};

static std::string IntsInit(uint64_t seed, int lo, int hi) {
  return "{\"fill\":\"ints\",\"seed\":" + std::to_string(seed) + ",\"lo\":" + std::to_string(lo) +
         ",\"hi\":" + std::to_string(hi) + "}";
}

// bf16 buffer of `elems` elements from the "ints" fill.
static std::vector<uint8_t> IntsBf16(uint64_t seed, size_t elems, int lo, int hi) {
  std::vector<uint8_t> b(elems * 2);
  for (size_t i = 0; i < elems; ++i) {
    const uint16_t v = Bf16Rne(static_cast<float>(IntsFill(seed, i, lo, hi)));
    b[2 * i] = static_cast<uint8_t>(v);
    b[2 * i + 1] = static_cast<uint8_t>(v >> 8);
  }
  return b;
}

static int IntAt(const std::vector<uint8_t>& b, size_t i) {
  const uint32_t u =
      (static_cast<uint32_t>(b[2 * i + 1]) << 24) | (static_cast<uint32_t>(b[2 * i]) << 16);
  float f;
  std::memcpy(&f, &u, 4);
  return static_cast<int>(f);
}

struct Problem {
  int M, N, K;
  int cluster, splits, store_rows, out_f32;
  int conv_NB = 0, conv_H = 0, conv_W = 0, conv_C = 0;
};

static void Encode2d(TensorDesc* t, void* addr, uint64_t d0, uint64_t d1, uint64_t stride1,
                     uint32_t b0, uint32_t b1, CUtensorMapDataType dt, uint32_t esize,
                     const char* dtname, CUtensorMapSwizzle sw, const char* swname) {
  cuuint64_t dims[2] = {d0, d1}, strides[1] = {stride1};
  cuuint32_t box[2] = {b0, b1}, es[2] = {1, 1};
  CUtensorMap map;
  std::memset(&map, 0, sizeof(map));
  CUresult r = cuTensorMapEncodeTiled(
      &map, dt, 2, addr, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
      CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled(%s) failed: %d\n", t->name.c_str(), r);
    std::exit(7);
  }
  std::memcpy(t->desc, &map, 128);
  t->mode = "tile";
  t->rank = 2;
  t->dims_in_ptx = 2;
  t->dims[0] = static_cast<int64_t>(d0);
  t->dims[1] = static_cast<int64_t>(d1);
  t->box[0] = b0;
  t->box[1] = b1;
  t->esize = esize;
  t->tensor_json = "{\"dtype\":\"" + std::string(dtname) + "\",\"rank\":2,\"dims\":[" +
                   std::to_string(d0) + "," + std::to_string(d1) + "],\"strides\":[" +
                   std::to_string(stride1) +
                   "],\"element_strides\":[1,1],\"interleave\":\"none\",\"swizzle\":\"" + swname +
                   "\",\"l2_promotion\":\"128B\",\"oob_fill\":\"zero\",\"box\":[" +
                   std::to_string(b0) + "," + std::to_string(b1) + "]}";
  t->encode_json =
      "{\"call\":\"cuTensorMapEncodeTiled\",\"dataType\":" + std::to_string(static_cast<int>(dt)) +
      ",\"swizzle\":" + std::to_string(static_cast<int>(sw)) +
      ",\"l2Promotion\":2,\"oobFill\":0,\"interleave\":0}";
}

static void EncodeIm2col(TensorDesc* t, void* addr, int C, int W, int H, int NB) {
  cuuint64_t dims[4] = {static_cast<cuuint64_t>(C), static_cast<cuuint64_t>(W),
                        static_cast<cuuint64_t>(H), static_cast<cuuint64_t>(NB)};
  cuuint64_t strides[3] = {static_cast<cuuint64_t>(C) * 2, static_cast<cuuint64_t>(C) * 2 * W,
                           static_cast<cuuint64_t>(C) * 2 * W * H};
  int lower[2] = {-1, -1}, upper[2] = {-1, -1};
  cuuint32_t es[4] = {1, 1, 1, 1};
  CUtensorMap map;
  std::memset(&map, 0, sizeof(map));
  CUresult r = cuTensorMapEncodeIm2col(
      &map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 4, addr, dims, strides, lower, upper,
      static_cast<cuuint32_t>(kBK), static_cast<cuuint32_t>(kBM), es, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuTensorMapEncodeIm2col failed: %d\n", r);
    std::exit(7);
  }
  std::memcpy(t->desc, &map, 128);
  t->mode = "im2col";
  t->rank = 4;
  t->dims_in_ptx = 4;
  for (int i = 0; i < 4; ++i)
    t->dims[i] = static_cast<int64_t>(dims[i]);
  t->lower[0] = t->lower[1] = -1;
  t->upper[0] = t->upper[1] = -1;
  t->cpp = kBK;
  t->ppc = kBM;
  t->esize = 2;
  t->tensor_json =
      "{\"dtype\":\"bf16\",\"rank\":4,\"dims\":[" + std::to_string(C) + "," + std::to_string(W) +
      "," + std::to_string(H) + "," + std::to_string(NB) + "],\"strides\":[" +
      std::to_string(strides[0]) + "," + std::to_string(strides[1]) + "," +
      std::to_string(strides[2]) +
      "],\"element_strides\":[1,1,1,1],\"interleave\":\"none\",\"swizzle\":\"128B\","
      "\"l2_promotion\":\"128B\",\"oob_fill\":\"zero\",\"lower\":[-1,-1],\"upper\":[-1,"
      "-1],\"channels_per_pixel\":" +
      std::to_string(kBK) + ",\"pixels_per_column\":" + std::to_string(kBM) + "}";
  t->encode_json =
      "{\"call\":\"cuTensorMapEncodeIm2col\",\"dataType\":10,\"swizzle\":3,\"l2Promotion\":2,"
      "\"oobFill\":0,\"interleave\":0}";
}

static std::string DeviceJsonProblem(const Problem& pr, const std::string& kernel) {
  std::string s = "{\"M\":" + std::to_string(pr.M) + ",\"N\":" + std::to_string(pr.N) +
                  ",\"K\":" + std::to_string(pr.K) + ",\"tile\":[" + std::to_string(kBM) + "," +
                  std::to_string(kBN) + "," + std::to_string(kBK) +
                  "],\"stages\":" + std::to_string(kStages) +
                  ",\"consumer_warps\":" + std::to_string(kConsumerWarps) +
                  ",\"splits\":" + std::to_string(pr.splits) +
                  ",\"store_rows\":" + std::to_string(pr.store_rows);
  if (kernel == "conv")
    s +=
        ",\"conv\":{\"N\":" + std::to_string(pr.conv_NB) + ",\"H\":" + std::to_string(pr.conv_H) +
        ",\"W\":" + std::to_string(pr.conv_W) + ",\"C\":" + std::to_string(pr.conv_C) +
        ",\"K\":" + std::to_string(pr.N) +
        ",\"R\":3,\"S\":3,\"stride\":1,\"pad\":1,\"layout\":\"NHWC\",\"weights\":\"[K][R][S][C]\"}";
  return s + "}";
}

static int Run(const Args& a) {
  CK(cudaSetDevice(0));
  CK(cudaFree(nullptr));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  Capture cap;
  cap.kernel = a.kernel;
  cap.source = a.source;
  cap.gpu = prop.name;
  cap.sm = "sm_" + std::to_string(prop.major) + std::to_string(prop.minor);
  cap.driver = a.driver;
  CK(cudaRuntimeGetVersion(&cap.cuda_runtime));
  CK(cudaDriverGetVersion(&cap.cuda_driver_api));
  cap.sm_count = prop.multiProcessorCount;
  cap.clk_mhz = a.clk_mhz;

  Problem pr{};
  const int lo = -4, hi = 4;
  uint64_t seed_a = 0, seed_b = 0;
  if (a.kernel == "gemm") {
    pr = Problem{1000, 488, 1000, 2, 1, 32, 0};
    seed_a = 11;
    seed_b = 12;
  } else if (a.kernel == "conv") {
    pr = Problem{0, 96, 9 * 64, 1, 1, 32, 0};
    pr.conv_NB = 4;
    pr.conv_H = 28;
    pr.conv_W = 28;
    pr.conv_C = kBK;
    pr.M = pr.conv_NB * pr.conv_H * pr.conv_W;
    seed_a = 21;
    seed_b = 22;
  } else if (a.kernel == "splitk") {
    pr = Problem{250, 120, 1000, 1, 4, 16, 1};
    seed_a = 31;
    seed_b = 32;
  } else {
    std::fprintf(stderr, "unknown kernel %s\n", a.kernel.c_str());
    return 2;
  }
  const bool conv = a.kernel == "conv";
  const int mt = (pr.M + kBM - 1) / kBM;
  const int grid_x = (mt + pr.cluster - 1) / pr.cluster * pr.cluster;
  const int grid_y = (pr.N + kBN - 1) / kBN;
  const int k_total = (pr.K + kBK - 1) / kBK;
  if (k_total % pr.splits != 0) {
    std::fprintf(stderr, "K iterations %d not divisible by splits %d\n", k_total, pr.splits);
    return 2;
  }
  const int k_iters = k_total / pr.splits;

  // Buffers. A: M x K (gemm) or the NHWC image (conv); B: N x K; C: M x N (+ guard).
  const size_t a_elems = conv ? static_cast<size_t>(pr.conv_NB) * pr.conv_H * pr.conv_W * pr.conv_C
                              : static_cast<size_t>(pr.M) * pr.K;
  const size_t b_elems = static_cast<size_t>(pr.N) * pr.K;
  const size_t c_esize = pr.out_f32 ? 4 : 2;
  const size_t c_bytes = static_cast<size_t>(pr.M) * pr.N * c_esize;
  const size_t guard = 4096;
  BufferDesc A, B, C;
  A.name = conv ? "X" : "A";
  A.role = "input";
  A.dtype = "bf16";
  A.initial = IntsBf16(seed_a, a_elems, lo, hi);
  A.init_json = IntsInit(seed_a, lo, hi);
  B.name = conv ? "W" : "B";
  B.role = "input";
  B.dtype = "bf16";
  B.initial = IntsBf16(seed_b, b_elems, lo, hi);
  B.init_json = IntsInit(seed_b, lo, hi);
  C.name = conv ? "Y" : "C";
  C.role = "output";
  C.dtype = pr.out_f32 ? "f32" : "bf16";
  const uint8_t c_init = pr.out_f32 ? 0x00 : 0xC3;
  C.initial.assign(c_bytes + guard, c_init);
  C.init_json = "{\"fill\":\"const\",\"value\":" + std::to_string(c_init) + "}";
  uint8_t *dA, *dB, *dC;
  CK(cudaMalloc(&dA, A.initial.size()));
  CK(cudaMalloc(&dB, B.initial.size()));
  CK(cudaMalloc(&dC, C.initial.size()));
  CK(cudaMemcpy(dA, A.initial.data(), A.initial.size(), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, B.initial.data(), B.initial.size(), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dC, C.initial.data(), C.initial.size(), cudaMemcpyHostToDevice));
  A.bytes = A.initial.size();
  B.bytes = B.initial.size();
  C.bytes = C.initial.size();
  A.va = reinterpret_cast<uint64_t>(dA);
  B.va = reinterpret_cast<uint64_t>(dB);
  C.va = reinterpret_cast<uint64_t>(dC);

  TensorDesc tA, tB, tC;
  tA.name = A.name;
  tA.buffer = 0;
  tB.name = B.name;
  tB.buffer = 1;
  tC.name = C.name;
  tC.buffer = 2;
  if (conv) {
    EncodeIm2col(&tA, dA, pr.conv_C, pr.conv_W, pr.conv_H, pr.conv_NB);
  } else {
    Encode2d(&tA, dA, pr.K, pr.M, static_cast<uint64_t>(pr.K) * 2, kBK, kBM,
             CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, "bf16", CU_TENSOR_MAP_SWIZZLE_128B, "128B");
  }
  Encode2d(&tB, dB, pr.K, pr.N, static_cast<uint64_t>(pr.K) * 2, kBK, kBN / pr.cluster,
           CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, "bf16", CU_TENSOR_MAP_SWIZZLE_128B, "128B");
  Encode2d(&tC, dC, pr.N, pr.M, static_cast<uint64_t>(pr.N) * c_esize, kBN, pr.store_rows,
           pr.out_f32 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32 : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
           static_cast<uint32_t>(c_esize), pr.out_f32 ? "f32" : "bf16", CU_TENSOR_MAP_SWIZZLE_NONE,
           "none");
  CUtensorMap mA, mB, mC;
  std::memcpy(&mA, tA.desc, 128);
  std::memcpy(&mB, tB.desc, 128);
  std::memcpy(&mC, tC.desc, 128);

  // Log and dump buffers.
  const unsigned log_cap = 1u << 16, dump_cap = 2048;
  Rec* dLog;
  uint8_t* dDump;
  unsigned *dCounts, *dErr;
  CK(cudaMalloc(&dLog, sizeof(Rec) * log_cap));
  CK(cudaMemset(dLog, 0, sizeof(Rec) * log_cap));
  CK(cudaMalloc(&dDump, static_cast<size_t>(dump_cap) * kDumpSlot));
  CK(cudaMalloc(&dCounts, 4 * sizeof(unsigned)));
  CK(cudaMemset(dCounts, 0, 4 * sizeof(unsigned)));
  dErr = dCounts + 2;

  Params p{};
  p.kind = conv ? kConv : (a.kernel == "splitk" ? kSplitK : kGemm);
  p.M = pr.M;
  p.N = pr.N;
  p.K = pr.K;
  p.k_iters = k_iters;
  p.cluster = pr.cluster;
  p.store_rows = pr.store_rows;
  p.out_f32 = pr.out_f32;
  p.conv_H = pr.conv_H;
  p.conv_W = pr.conv_W;
  p.hash = a.hash ? 1 : 0;
  p.dump_src = a.src ? 1 : 0;
  p.log = dLog;
  p.log_count = dCounts;
  p.log_cap = log_cap;
  p.dump = dDump;
  p.dump_count = dCounts + 1;
  p.dump_cap = dump_cap;
  p.error = dErr;

  CK(cudaFuncSetAttribute(CosimKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kDynSmem));
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(grid_x, grid_y, pr.splits);
  cfg.blockDim = dim3(kThreads, 1, 1);
  cfg.dynamicSmemBytes = kDynSmem;
  cfg.stream = 0;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = pr.cluster;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  const auto w0 = std::chrono::steady_clock::now();
  CK(cudaEventRecord(e0, 0));
  CK(cudaLaunchKernelEx(&cfg, CosimKernel, mA, mB, mC, p));
  CK(cudaEventRecord(e1, 0));
  cudaError_t e;
  for (;;) {
    e = cudaStreamQuery(0);
    if (e != cudaErrorNotReady)
      break;
    if (std::chrono::steady_clock::now() - w0 > std::chrono::seconds(30)) {
      std::fprintf(stderr, "%s: kernel did not finish in 30 s\n", a.kernel.c_str());
      std::exit(5);
    }
    usleep(100);
  }
  if (e != cudaSuccess) {
    unsigned err = 0;
    cudaMemcpy(&err, dErr, sizeof(err), cudaMemcpyDeviceToHost);
    std::fprintf(stderr, "%s: kernel failed: %s (watchdog code 0x%08x)\n", a.kernel.c_str(),
                 cudaGetErrorString(e), err);
    std::exit(6);
  }
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, e0, e1));
  unsigned counts[4];
  CK(cudaMemcpy(counts, dCounts, sizeof(counts), cudaMemcpyDeviceToHost));
  if (counts[2] != 0 || counts[0] > log_cap || counts[1] > dump_cap) {
    std::fprintf(stderr, "%s: error 0x%x, %u records (cap %u), %u dumps (cap %u)\n",
                 a.kernel.c_str(), counts[2], counts[0], log_cap, counts[1], dump_cap);
    return 4;
  }
  cap.recs.resize(counts[0]);
  CK(cudaMemcpy(cap.recs.data(), dLog, sizeof(Rec) * counts[0], cudaMemcpyDeviceToHost));
  std::vector<uint8_t> dump(static_cast<size_t>(counts[1]) * kDumpSlot);
  if (!dump.empty())
    CK(cudaMemcpy(dump.data(), dDump, dump.size(), cudaMemcpyDeviceToHost));
  A.final_.resize(A.bytes);
  B.final_.resize(B.bytes);
  C.final_.resize(C.bytes);
  CK(cudaMemcpy(A.final_.data(), dA, A.bytes, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(B.final_.data(), dB, B.bytes, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(C.final_.data(), dC, C.bytes, cudaMemcpyDeviceToHost));

  // Reference: exact integer sums (|sum| < 2^24, so the GPU's f32 sums are exact too).
  const auto r0 = std::chrono::steady_clock::now();
  uint64_t mismatches = 0, checked = 0;
  std::vector<int> av(a_elems), bvv(b_elems);
  for (size_t i = 0; i < a_elems; ++i)
    av[i] = IntAt(A.initial, i);
  for (size_t i = 0; i < b_elems; ++i)
    bvv[i] = IntAt(B.initial, i);
  std::vector<int> col(pr.K);
  for (int m = 0; m < pr.M; ++m) {
    if (conv) {
      const int hw = pr.conv_H * pr.conv_W;
      const int img = m / hw, oh = (m % hw) / pr.conv_W, ow = m % pr.conv_W;
      for (int tap = 0; tap < 9; ++tap) {
        const int ih = oh + tap / 3 - 1, iw = ow + tap % 3 - 1;
        const bool in = ih >= 0 && ih < pr.conv_H && iw >= 0 && iw < pr.conv_W;
        for (int c = 0; c < pr.conv_C; ++c)
          col[tap * pr.conv_C + c] =
              in ? av[((static_cast<size_t>(img) * pr.conv_H + ih) * pr.conv_W + iw) * pr.conv_C +
                      c]
                 : 0;
      }
    } else {
      for (int k = 0; k < pr.K; ++k)
        col[k] = av[static_cast<size_t>(m) * pr.K + k];
    }
    for (int n = 0; n < pr.N; ++n) {
      int64_t sum = 0;
      const int* brow = &bvv[static_cast<size_t>(n) * pr.K];
      for (int k = 0; k < pr.K; ++k)
        sum += static_cast<int64_t>(col[k]) * brow[k];
      const size_t off = (static_cast<size_t>(m) * pr.N + n) * c_esize;
      bool ok;
      if (pr.out_f32) {
        const uint32_t want = FloatBits(static_cast<float>(sum));
        uint32_t got;
        std::memcpy(&got, &C.final_[off], 4);
        ok = got == want;
      } else {
        const uint16_t want = Bf16Rne(static_cast<float>(sum));
        const uint16_t got = static_cast<uint16_t>(C.final_[off] | (C.final_[off + 1] << 8));
        ok = got == want;
      }
      ++checked;
      if (!ok && ++mismatches <= 5)
        std::fprintf(stderr, "%s: mismatch at m=%d n=%d (sum %lld)\n", a.kernel.c_str(), m, n,
                     static_cast<long long>(sum));
    }
  }
  uint64_t guard_bad = 0;
  for (size_t i = c_bytes; i < C.final_.size(); ++i)
    guard_bad += C.final_[i] != c_init;
  const bool inputs_same = A.final_ == A.initial && B.final_ == B.initial;
  const double ref_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - r0).count();
  const bool pass = mismatches == 0 && guard_bad == 0 && inputs_same;
  std::printf(
      "%s: reference %s: %llu elements, %llu mismatches, %llu guard bytes changed, "
      "inputs %s (%.1f s)\n",
      a.kernel.c_str(), pass ? "pass" : "FAIL", static_cast<unsigned long long>(checked),
      static_cast<unsigned long long>(mismatches), static_cast<unsigned long long>(guard_bad),
      inputs_same ? "unchanged" : "CHANGED", ref_s);

  cap.grid[0] = grid_x;
  cap.grid[1] = grid_y;
  cap.grid[2] = pr.splits;
  cap.block[0] = kThreads;
  cap.cluster[0] = pr.cluster;
  cap.dyn_smem = kDynSmem;
  cap.params_json = DeviceJsonProblem(pr, a.kernel);
  char capj[512];
  std::snprintf(capj, sizeof(capj),
                "{\"kernel_ms\":%.3f,\"records\":%u,\"reference_check\":\"%s\","
                "\"reference_elements\":%llu,\"stage_hash\":%s,\"store_sources\":%s}",
                ms, counts[0], pass ? "pass" : "fail", static_cast<unsigned long long>(checked),
                a.hash ? "true" : "false", a.src ? "true" : "false");
  cap.capture_json = capj;
  cap.buffers = {A, B, C};
  cap.tensors = {tA, tB, tC};
  cap.dump = dump.data();
  cap.dump_slot = kDumpSlot;
  cap.dump_slots = counts[1];
  const std::string path = a.out + "/" + (a.name.empty() ? a.kernel : a.name) + ".jsonl";
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    return 2;
  }
  Counts n = WriteTrace(cap, f);
  std::fclose(f);
  std::printf("%s: %u records, kernel %.3f ms, descriptor mismatches %llu ->", a.kernel.c_str(),
              counts[0], ms, static_cast<unsigned long long>(n.desc_mismatch));
  for (const auto& [k, v] : n.by_kind)
    std::printf(" %s=%llu", k.c_str(), static_cast<unsigned long long>(v));
  std::printf("\n");
  return pass && n.desc_mismatch == 0 ? 0 : 3;
}

}  // namespace cosim

int main(int argc, char** argv) {
  cosim::Args a;
  for (int k = 1; k < argc; ++k) {
    std::string s = argv[k];
    auto next = [&]() -> std::string {
      if (k + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", s.c_str());
        std::exit(2);
      }
      return argv[++k];
    };
    if (s == "--kernel")
      a.kernel = next();
    else if (s == "--out")
      a.out = next();
    else if (s == "--source")
      a.source = next();
    else if (s == "--driver")
      a.driver = next();
    else if (s == "--clk-mhz")
      a.clk_mhz = std::atof(next().c_str());
    else if (s == "--no-hash")
      a.hash = false;
    else if (s == "--no-src")
      a.src = false;
    else if (s == "--name")
      a.name = next();
    else {
      std::fprintf(stderr, "unknown argument %s\n", s.c_str());
      return 2;
    }
  }
  if (cuInit(0) != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuInit failed\n");
    return 2;
  }
  return cosim::Run(a);
}
