// SPDX-License-Identifier: Apache-2.0
#include "frontend_tb.h"

#include <algorithm>

namespace tma::tb {

namespace model = tma::model;

std::vector<uint64_t> WantDescReads(uint64_t addr, int data_bytes) {
  const uint64_t db = static_cast<uint64_t>(data_bytes);
  const uint64_t first = addr & ~(db - 1);
  const uint64_t beats = 128 / db + ((addr % db) != 0 ? 1 : 0);
  std::vector<uint64_t> v;
  for (uint64_t i = 0; i < beats; ++i)
    v.push_back(first + i * db);
  return v;
}

bool Sm100Only(const model::TensorMap& m) {
  return model::IsSubByte(m.dtype) || m.swizzle > model::Swizzle::k128B;
}

model::Arch ArchOf(const model::TensorMap& m) {
  if (m.swizzle == model::Swizzle::k96B)
    return model::Arch::kSm103;
  return Sm100Only(m) ? model::Arch::kSm100 : model::Arch::kSm90;
}

bool OutsideRtlChecks(const model::TensorMap& m) {
  return m.swizzle == model::Swizzle::k96B && m.interleave != model::Interleave::kNone;
}

model::Status ModelDescVerdict(const DescBytes& d, model::TensorMap* m) {
  model::Status s = model::DecodeDescriptor(d.data(), m);
  if (!s.ok())
    return s;
  if (m->mode == model::MapMode::kIm2colWide) {
    return model::Status::Error(model::ErrorClass::kInvalidDescriptor, "mode",
                                "im2col-wide: not implemented by the RTL");
  }
  return model::ValidateTensorMap(*m, ArchOf(*m));
}

DescBytes RandomDescriptor(std::mt19937_64& rng, model::TensorMap* out) {
  auto rnd = [&](int lo, int hi) {
    return lo + static_cast<int>(rng() % static_cast<uint64_t>(hi - lo + 1));
  };
  auto p = [&](int pct) { return rnd(0, 99) < pct; };
  model::TensorMap m;
  m.mode = p(30) ? model::MapMode::kIm2col : model::MapMode::kTiled;
  m.rank = m.mode == model::MapMode::kIm2col ? rnd(3, 5) : rnd(1, 5);
  m.dtype = static_cast<model::DType>(p(80) ? rnd(0, 12) : rnd(0, 15));
  const int e = std::max(1, model::SmemElementBits(m.dtype) / 8);
  m.interleave = p(85) ? model::Interleave::kNone : static_cast<model::Interleave>(rnd(1, 2));
  m.swizzle = static_cast<model::Swizzle>(p(50) ? 0 : (p(80) ? rnd(1, 3) : rnd(1, 7)));
  m.oob_fill = p(20) ? model::OobFill::kNan : model::OobFill::kZero;
  m.l2_promotion = static_cast<model::L2Promotion>(rnd(0, 3));
  m.global_address = (rng() & 0xFFFF'FFFF'FF00ull) + (p(90) ? 0 : 16u * static_cast<uint64_t>(rnd(1, 15)));
  for (int d = 0; d < 5; ++d) {
    m.dims[d] = d < m.rank ? static_cast<uint64_t>(p(90) ? rnd(1, 300) : rnd(1, 1 << 30)) : 1;
    m.element_strides[d] = d < m.rank && p(25) ? static_cast<uint32_t>(rnd(1, 8)) : 1;
    if (d < m.rank && m.mode == model::MapMode::kTiled)
      m.box[d] = static_cast<uint32_t>(p(70) ? rnd(1, 16) : rnd(1, 256));
  }
  const int span = m.swizzle == model::Swizzle::kNone
                       ? 256
                       : static_cast<int>(model::SwizzleSpanBytes(m.swizzle));
  const int chunk0 = 16 * rnd(1, std::max(1, span / 16));
  if (m.mode == model::MapMode::kTiled) {
    m.box[0] = static_cast<uint32_t>(std::clamp(chunk0 / e, 1, 256));
    if (model::IsSubByte(m.dtype))
      m.box[0] = static_cast<uint32_t>(p(80) ? 128 : 32 * rnd(1, 4));
  } else {
    m.channels_per_pixel = static_cast<uint32_t>(std::clamp(chunk0 / e, 1, 256));
    m.pixels_per_column = static_cast<uint32_t>(p(80) ? rnd(1, 64) : rnd(1, 1024));
    const int cmax = m.rank == 3 ? 32767 : (m.rank == 4 ? 127 : 15);
    for (int k = 0; k < m.rank - 2; ++k) {
      m.lower[static_cast<size_t>(k)] = p(50) ? 0 : rnd(-std::min(cmax, 5), std::min(cmax, 3));
      m.upper[static_cast<size_t>(k)] = p(50) ? 0 : rnd(-std::min(cmax, 5), std::min(cmax, 3));
    }
  }
  uint64_t acc = static_cast<uint64_t>(m.box[0]) * static_cast<uint64_t>(e);
  for (int d = 0; d + 1 < m.rank; ++d) {
    acc = ((acc + 31) / 32) * 32 * static_cast<uint64_t>(rnd(1, 4));
    m.strides[static_cast<size_t>(d)] = p(95) ? acc : (rng() & 0xF'FFFF'FFF0ull);
  }
  DescBytes d = model::EncodeDescriptor(m);
  if (p(10)) {
    const int bit = rnd(0, 1023);
    d[static_cast<size_t>(bit / 8)] = static_cast<uint8_t>(d[static_cast<size_t>(bit / 8)] ^ (1u << (bit % 8)));
  }
  if (out)
    *out = m;
  return d;
}

}  // namespace tma::tb
