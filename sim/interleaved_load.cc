// SPDX-License-Identifier: Apache-2.0
//
// Random legal interleaved loads (interleaved_load.h).
#include "sim/interleaved_load.h"

#include <algorithm>

#include "tma/encoder.h"

namespace tma::sim {

namespace m = tma::model;

namespace {
constexpr m::DType kWholeByteTypes[] = {
    m::DType::kU8,     m::DType::kU16,  m::DType::kU32,    m::DType::kS32, m::DType::kU64,
    m::DType::kS64,    m::DType::kF16,  m::DType::kF32,    m::DType::kF64, m::DType::kBF16,
    m::DType::kF32Ftz, m::DType::kTF32, m::DType::kTF32Ftz};
}  // namespace

bool MakeInterleavedLoad(const std::function<int(int, int)>& rand, const InterleavedLoadLimits& lim,
                         bool im2col, m::TensorMap* map, m::TensorInstr* ins) {
  auto chance = [&](int pct) { return rand(0, 99) < pct; };
  m::TensorMap t;
  bool found = false;
  for (int attempt = 0; !found && (lim.attempts == 0 || attempt < lim.attempts); ++attempt) {
    t = m::TensorMap{};
    t.mode = im2col ? m::MapMode::kIm2col : m::MapMode::kTiled;
    t.rank = rand(3, 5);
    t.dtype = kWholeByteTypes[rand(0, 12)];
    t.interleave = chance(50) ? m::Interleave::k16B : m::Interleave::k32B;
    const uint64_t chunk = t.interleave == m::Interleave::k32B ? 32 : 16;
    const int e = m::ElementBytes(t.dtype);
    t.swizzle = chance(50) ? m::Swizzle::kNone : static_cast<m::Swizzle>(rand(1, 3));
    const int small = t.rank >= 4 ? 3 : 5;
    t.dims[0] = static_cast<uint64_t>(rand(1, 24));
    uint64_t stride = t.dims[0] * chunk + chunk * static_cast<uint64_t>(rand(0, 2));
    for (int d = 1; d < t.rank; ++d) {
      t.dims[d] = static_cast<uint64_t>(rand(1, small + 2));
      t.strides[d - 1] = stride;
      stride = stride * t.dims[d] + chunk * static_cast<uint64_t>(rand(0, 1));
    }
    for (int d = 0; d < t.rank; ++d) {
      t.element_strides[d] = static_cast<uint32_t>(chance(70) ? 1 : rand(2, 3));
    }
    uint64_t smem = 0;
    if (im2col) {
      t.channels_per_pixel = static_cast<uint32_t>(16 * rand(1, 8) / e);
      const int bound = t.rank == 3 ? 32768 : (t.rank == 4 ? 128 : 16);
      for (int k = 0; k < t.rank - 2; ++k) {
        t.lower[static_cast<size_t>(k)] = chance(10) ? -bound : rand(-3, 2);
        t.upper[static_cast<size_t>(k)] = rand(-3, 3);
      }
      t.pixels_per_column = static_cast<uint32_t>(rand(1, 200));
      smem = t.pixels_per_column * chunk;
    } else {
      t.box[0] = static_cast<uint32_t>(16 * rand(1, 16) / e);
      if (t.box[0] > 256) {
        continue;
      }
      uint64_t rows = 1;
      for (int d = 1; d < t.rank; ++d) {
        t.box[d] = static_cast<uint32_t>(rand(1, small));
        if (d != t.rank - 2) {
          rows *= (t.box[d] + t.element_strides[d] - 1) / t.element_strides[d];
        }
      }
      smem = rows * ((t.box[0] + t.element_strides[0] - 1) / t.element_strides[0]) * chunk;
    }
    if (stride > lim.tensor_span || (lim.max_smem_bytes != 0 && smem + 1024 > lim.max_smem_bytes)) {
      continue;
    }
    t.global_address = lim.tensor_base + chunk * static_cast<uint64_t>(rand(0, 8));
    t.oob_fill = (m::IsFloat(t.dtype) && chance(50)) ? m::OobFill::kNan : m::OobFill::kZero;
    found = m::ValidateTensorMap(t).ok();
  }
  if (!found) {
    return false;
  }
  m::TensorInstr in;
  in.op = m::Op::kLoad;
  in.mode = im2col ? m::LoadMode::kIm2col : m::LoadMode::kTile;
  in.dim = t.rank;
  const bool inside = chance(50);
  for (int d = 0; d < t.rank; ++d) {
    const size_t u = static_cast<size_t>(d);
    const int dim = static_cast<int>(t.dims[u]);
    if (im2col && d < t.rank - 2) {
      // Spatial dims 0 .. rank-3: start inside the bounding box (F4).
      const int lo = t.lower[u];
      const int hi = dim - 1 + t.upper[u];
      in.coords.push_back(rand(std::max(lo, hi - 12), hi));
    } else {
      const int b = im2col ? 1 : static_cast<int>(t.box[u]);
      in.coords.push_back(inside ? rand(0, std::max(0, dim - b)) : rand(-b - 1, dim + 1));
    }
  }
  if (im2col && chance(70)) {
    for (int k = 0; k < t.rank - 2; ++k) {
      in.im2col_info.push_back(static_cast<uint16_t>(rand(0, 3)));
    }
  }
  *map = t;
  *ins = in;
  return true;
}

}  // namespace tma::sim
