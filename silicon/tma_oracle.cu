// SPDX-License-Identifier: Apache-2.0
//
// OpenTMA silicon oracle: runs golden-case specs (shared/spec/golden-cases.md) on a Hopper
// GPU with the real driver's tensor maps and the real cp.async.bulk.tensor instructions,
// and writes the cases back with `expect` measured.
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

static Outcome RunCase(Worker* w, const JVal& in) {
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
