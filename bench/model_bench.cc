// SPDX-License-Identifier: Apache-2.0
//
// model_bench: throughput of the reference model's tensor copies, in GB/s of tensor bytes
// (the box bytes a load delivers / a store writes) per second of thread CPU time, best of N runs.
// Not a test: the figures go to docs/performance.md. Usage: model_bench [--runs N] [--min-ms MS]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "tma/memory.h"
#include "tma/tensor_copy.h"
#include "tma/types.h"

namespace tma::model {
namespace {

struct BenchCase {
  const char* name;
  Op op;
  int rank;
  std::array<uint64_t, kMaxRank> dims;
  std::array<uint32_t, kMaxRank> box;
  Swizzle swizzle;
};

// u16 tensors; 128-byte rows (64 elements) so that 128B swizzle is legal.
const BenchCase kCases[] = {
    {"load  4 KiB  (64x32 u16)",
     Op::kLoad,
     2,
     {1024, 1024, 1, 1, 1},
     {64, 32, 1, 1, 1},
     Swizzle::kNone},
    {"load  4 KiB  128B swizzle",
     Op::kLoad,
     2,
     {1024, 1024, 1, 1, 1},
     {64, 32, 1, 1, 1},
     Swizzle::k128B},
    {"load 64 KiB  (64x256x2 u16)",
     Op::kLoad,
     3,
     {1024, 1024, 4, 1, 1},
     {64, 256, 2, 1, 1},
     Swizzle::kNone},
    {"load 64 KiB  128B swizzle",
     Op::kLoad,
     3,
     {1024, 1024, 4, 1, 1},
     {64, 256, 2, 1, 1},
     Swizzle::k128B},
    {"store  4 KiB (64x32 u16)",
     Op::kStore,
     2,
     {1024, 1024, 1, 1, 1},
     {64, 32, 1, 1, 1},
     Swizzle::kNone},
    {"store 64 KiB (64x256x2 u16)",
     Op::kStore,
     3,
     {1024, 1024, 4, 1, 1},
     {64, 256, 2, 1, 1},
     Swizzle::kNone},
};

// CPU time of this thread: the build machine is shared, so wall-clock time would mostly
// measure the other jobs.
double CpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace
}  // namespace tma::model

int main(int argc, char** argv) {
  using namespace tma::model;
  int runs = 7;
  double min_ms = 200;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--runs") == 0) {
      runs = std::max(1, std::atoi(argv[i + 1]));
    } else if (std::strcmp(argv[i], "--min-ms") == 0) {
      min_ms = std::max(1.0, std::atof(argv[i + 1]));
    }
  }
  std::printf("%-30s %10s %12s %10s\n", "case", "box bytes", "copies/run", "GB/s best");
  for (const BenchCase& bc : kCases) {
    TensorMap m;
    m.rank = bc.rank;
    m.dtype = DType::kU16;
    m.global_address = 0x100000;
    m.dims = bc.dims;
    m.box = bc.box;
    m.swizzle = bc.swizzle;
    uint64_t stride = m.dims[0] * 2;
    for (int d = 0; d + 1 < bc.rank; ++d) {
      m.strides[static_cast<size_t>(d)] = stride;
      stride *= m.dims[static_cast<size_t>(d + 1)];
    }
    uint64_t box_bytes = 2;
    for (int d = 0; d < bc.rank; ++d) {
      box_bytes *= m.box[static_cast<size_t>(d)];
    }
    SparseGlobalMemory global(0x5A);
    ClusterSharedMemory smem(1, static_cast<uint32_t>(box_bytes + 1024), 0xA5);
    TensorInstr ins;
    ins.op = bc.op;
    ins.dim = bc.rank;
    ins.coords.assign(static_cast<size_t>(bc.rank), 0);
    ins.smem_addr = 0;
    ins.mbar_addr = static_cast<uint32_t>(box_bytes);
    // One warm-up copy that must succeed (and touches every global page).
    ExecResult first = ExecuteTensor(m, ins, global, smem);
    if (!first.status.ok()) {
      std::fprintf(stderr, "%s: %s\n", bc.name, first.status.ToString().c_str());
      return 1;
    }
    // Calibrate the copies per run to last at least min_ms.
    uint64_t per_run = 1;
    for (;;) {
      double t0 = CpuSeconds();
      for (uint64_t k = 0; k < per_run; ++k) {
        ins.coords[1] = static_cast<int32_t>((k * 32) % 512);
        ExecuteTensor(m, ins, global, smem);
      }
      double s = CpuSeconds() - t0;
      if (s * 1000 >= min_ms / 4 || per_run > (1ull << 30)) {
        per_run = std::max<uint64_t>(1, static_cast<uint64_t>(per_run * (min_ms / 1000) / s));
        break;
      }
      per_run *= 4;
    }
    double best = 0;
    for (int r = 0; r < runs; ++r) {
      double t0 = CpuSeconds();
      for (uint64_t k = 0; k < per_run; ++k) {
        ins.coords[1] = static_cast<int32_t>((k * 32) % 512);
        ExecResult res = ExecuteTensor(m, ins, global, smem);
        if (!res.status.ok()) {
          std::fprintf(stderr, "%s: %s\n", bc.name, res.status.ToString().c_str());
          return 1;
        }
      }
      double s = CpuSeconds() - t0;
      best = std::max(best, static_cast<double>(box_bytes) * static_cast<double>(per_run) / s);
    }
    std::printf("%-30s %10llu %12llu %10.3f\n", bc.name, static_cast<unsigned long long>(box_bytes),
                static_cast<unsigned long long>(per_run), best / 1e9);
  }
  return 0;
}
