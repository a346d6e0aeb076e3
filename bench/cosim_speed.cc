// SPDX-License-Identifier: Apache-2.0
//
// A7: FUNCTIONAL speed of the library in tensor bytes per second of thread CPU time. The ops
// are the shapes of the captured GEMM's producer (tests/vectors/cosim/gemm: bf16, 128B swizzle,
// A boxes 64 x 128 = 16 KiB into one CTA, B boxes 64 x 32 = 4 KiB multicast to 2 CTAs) and of
// the conv producer (im2col, 64 channels x 128 pixels = 16 KiB); data bytes count once per
// destination. Usage: cosim_speed_bench [seconds] [min_gb_per_s]; exit 1 below the minimum.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <time.h>
#include <vector>

#include "test_host.h"

namespace {

double Cpu() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
  const double min_gbs = argc > 2 ? std::atof(argv[2]) : 0.0;
  constexpr uint64_t kBase = 0x10000000;
  const uint64_t cols = 1024, rows = 1024;  // bf16 1024 x 1024 (2 MiB)
  cosim_test::TestHost h(kBase, cols * rows * 2, 2, 1 << 18);
  for (size_t i = 0; i < h.g().size(); ++i)
    h.g()[i] = static_cast<uint8_t>(i * 31 + 7);
  if (h.Create(OTMA_MODE_FUNCTIONAL) != OTMA_OK)
    return 2;
  const auto a = cosim_test::Map2D(kBase, 9, cols, rows, cols * 2, 64, 128, 3);
  const auto b = cosim_test::Map2D(kBase, 9, cols, rows, cols * 2, 64, 32, 3);
  // im2col: NHWC 1 x 56 x 56 x 64 bf16, 3x3 padding 1, 64 channels x 128 pixels per op.
  otma_tensor_params p;
  std::memset(&p, 0, sizeof p);
  p.struct_size = sizeof p;
  p.mode = 1;
  p.dtype = 9;
  p.rank = 4;
  p.global_address = kBase;
  const uint64_t dims[4] = {64, 56, 56, 1};
  for (int i = 0; i < 4; ++i) {
    p.dims[i] = dims[i];
    p.elem_strides[i] = 1;
  }
  p.strides[0] = 128;
  p.strides[1] = 128 * 56;
  p.strides[2] = 128 * 56 * 56;
  p.im2col_lower[0] = p.im2col_lower[1] = -1;
  p.im2col_upper[0] = p.im2col_upper[1] = -1;
  p.channels_per_pixel = 64;
  p.pixels_per_column = 128;
  p.swizzle = 3;
  std::vector<uint8_t> c(128);
  if (otma_encode_tensor_map(&p, OTMA_ARCH_SM90, c.data()) != OTMA_OK)
    return 2;
  uint64_t bytes = 0;
  uint64_t ops = 0;
  const double t0 = Cpu();
  double t = t0;
  int i = 0;
  while (t - t0 < seconds) {
    for (int k = 0; k < 64; ++k, ++i) {
      otma_op op = cosim_test::Load2D(a, 64 * (i % 16), 128 * (i / 16 % 8), 0, 200000);
      if (otma_submit(h.e(), &op, nullptr) != OTMA_OK)
        return 3;
      bytes += 16384;
      op = cosim_test::Load2D(b, 64 * (i % 16), 32 * (i / 16 % 32), 16384, 200008);
      op.flags = OTMA_OPF_MULTICAST;
      op.cta_mask = 3;
      if (otma_submit(h.e(), &op, nullptr) != OTMA_OK)
        return 3;
      bytes += 2 * 4096;
      op = cosim_test::Load2D(c, 0, -1 + (i % 56), 32768, 200016);
      op.load_mode = OTMA_LOAD_IM2COL;
      op.dim = 4;
      op.coords[2] = -1 + (i / 56 % 56);
      op.coords[3] = 0;
      op.im2col_info[0] = static_cast<uint16_t>(i % 3);
      op.im2col_info[1] = static_cast<uint16_t>(i / 3 % 3);
      if (otma_submit(h.e(), &op, nullptr) != OTMA_OK)
        return 3;
      bytes += 16384;
      ops += 3;
    }
    t = Cpu();
  }
  const double gbs = static_cast<double>(bytes) / (t - t0) / 1e9;
  std::printf("cosim FUNCTIONAL: %llu ops, %.1f MB in %.3f s CPU: %.2f GB/s of tensor bytes\n",
              static_cast<unsigned long long>(ops), bytes / 1e6, t - t0, gbs);
  return gbs >= min_gbs ? 0 : 1;
}
