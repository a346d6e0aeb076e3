// SPDX-License-Identifier: Apache-2.0
//
// Command sequences of the bench (tma_seqs.h).
#include "seq/tma_seqs.h"

#include <algorithm>

#include "sim/interleaved_load.h"
#include "tma/descriptor.h"
#include "tma/encoder.h"
#include "tma/tensor_copy.h"
#include "tma/traversal.h"

namespace tma::tb {

namespace m = tma::model;

void TmaBaseSeq::SetContext(const SeqContext& c) {
  ctx_ = c;
  if (ctx_.alloc == nullptr) {
    ctx_.alloc = &own_alloc_;
  }
  rng_.seed(c.seed * 0x9E3779B97F4A7C15ull + 17);
}

uint64_t TmaBaseSeq::NewTensorBase() {
  uint64_t b = ctx_.alloc->next_tensor;
  ctx_.alloc->next_tensor += 1ull << 32;  // 4 GiB apart: strides up to 2^32 never reach a neighbour
  return b;
}

void TmaBaseSeq::WaitAllRetired() {
  while (ctx_.scb->outstanding() > 0) {
    ctx_.scb->WaitRetired();
  }
}

uint8_t TmaBaseSeq::NextTag() {
  for (int i = 0; i < 128; ++i) {
    uint8_t t = tag_;
    tag_ = static_cast<uint8_t>((tag_ + 1) % 128);
    if (!ctx_.scb->TagOpen(t)) {
      return t;
    }
  }
  WaitAllRetired();
  return tag_;
}

uint32_t TmaBaseSeq::AllocSmem(uint32_t bytes, uint32_t align) {
  uint32_t limit = ctx_.window_bytes - 1024;  // the top KiB holds the mbarriers
  uint32_t a = (smem_next_ + align - 1) / align * align;
  if (a + bytes > limit) {
    WaitAllRetired();
    a = 0;
  }
  smem_next_ = a + bytes;
  return a;
}

bool TmaBaseSeq::IssueLoad(m::TensorMap map, m::TensorInstr in, const IssueOpts& o) {
  while (ctx_.scb->outstanding() >= ctx_.max_outstanding) {
    ctx_.scb->WaitRetired();
  }
  TmaCommand c;
  if (o.reuse_desc && last_desc_ != 0) {
    c.desc_addr = last_desc_;
    if (o.rewrite_desc) {
      WaitAllRetired();  // nobody may still be reading the old map
      m::DescriptorBytes d = m::EncodeDescriptor(map);
      ctx_.gmem->WriteRaw(c.desc_addr, d.data(), d.size());
      c.inval_before = true;
    }
  } else {
    c.desc_addr = ctx_.alloc->next_desc;
    ctx_.alloc->next_desc += 128;
    m::DescriptorBytes d = m::EncodeDescriptor(map);
    ctx_.gmem->WriteRaw(c.desc_addr, d.data(), d.size());
    last_desc_ = c.desc_addr;
  }
  if (o.desc_err) {
    ctx_.gmem->AddErrorRange(c.desc_addr, c.desc_addr + 128, o.desc_err);
  }
  if (o.data_err) {
    ctx_.gmem->AddErrorRange(map.global_address, map.global_address + (1ull << 32), o.data_err);
  }
  uint32_t bytes = 1024;
  m::TraversalPlan p = m::PlanTraversal(map, in);
  if (p.ok && p.num_rows * p.row_pitch > 0) {
    bytes = static_cast<uint32_t>(std::min<uint64_t>(p.num_rows * p.row_pitch + 128, 1u << 20));
  }
  if (bytes + 1024 > ctx_.window_bytes - 1024) {
    return false;
  }
  if (o.fixed_smem >= 0) {
    in.smem_addr = AllocSmem(bytes + 1024, 1024) + static_cast<uint32_t>(o.fixed_smem);
  } else {
    in.smem_addr = AllocSmem(bytes, 128);
  }
  c.tag = NextTag();
  in.mbar_addr = ctx_.window_bytes - 1024 + 8u * c.tag;
  c.instr = in;
  c.id = issued_++;
  Send(c);
  return true;
}

// ---- random tile loads ------------------------------------------------------------------
bool RandomTileSeq::RandomMap(m::TensorMap* mp, m::TensorInstr* ip) {
  auto R = [this](int64_t lo, int64_t hi) {  // inclusive
    return lo + static_cast<int64_t>(rng_() % static_cast<uint64_t>(hi - lo + 1));
  };
  for (int attempt = 0; attempt < 200; ++attempt) {
    m::TensorMap t;
    t.dtype = static_cast<m::DType>(R(0, static_cast<int>(m::DType::kTF32Ftz)));  // sm_90 types
    int e = m::ElementBytes(t.dtype);
    t.rank = static_cast<int>(R(1, 5));
    t.interleave = (t.rank >= 3 && R(0, 99) < interleave_pct)
                       ? static_cast<m::Interleave>(R(static_cast<int>(m::Interleave::k16B),
                                                      static_cast<int>(m::Interleave::k32B)))
                       : m::Interleave::kNone;
    t.swizzle = static_cast<m::Swizzle>(R(0, static_cast<int>(m::Swizzle::k128B)));
    uint32_t span =
        t.swizzle == m::Swizzle::kNone ? 256 : m::num::kSwzSpanBytes[static_cast<int>(t.swizzle)];
    uint32_t max_row = std::min<uint32_t>(span, 256);
    uint32_t row_bytes = 16 * static_cast<uint32_t>(R(1, max_row / 16));
    t.box[0] = std::max<uint32_t>(1, row_bytes / e);
    uint64_t tx = row_bytes;
    for (int d = 1; d < t.rank; ++d) {
      t.box[d] = static_cast<uint32_t>(R(1, R(0, 3) == 0 ? 16 : 4));
      t.element_strides[d] = static_cast<uint32_t>(R(0, 3) == 0 ? R(2, 8) : 1);
      tx *= (t.box[d] + t.element_strides[d] - 1) / t.element_strides[d];
    }
    t.element_strides[0] = static_cast<uint32_t>(R(0, 4) == 0 ? R(2, 8) : 1);
    if (tx > max_tx_bytes) {
      continue;
    }
    for (int d = 0; d < t.rank; ++d) {
      int64_t ext = static_cast<int64_t>(t.box[d]) * (d ? t.element_strides[d] : 1);
      t.dims[d] = static_cast<uint64_t>(R(1, 2 * ext + 3));
    }
    uint64_t pitch = (t.dims[0] * e + 15) / 16 * 16 + 16 * static_cast<uint64_t>(R(0, 2));
    for (int d = 1; d < t.rank; ++d) {
      t.strides[d - 1] = pitch;
      pitch *= t.dims[d];
      pitch = (pitch + 15) / 16 * 16;
    }
    t.oob_fill = (m::IsFloat(t.dtype) && R(0, 2) == 0) ? m::OobFill::kNan : m::OobFill::kZero;
    t.global_address = NewTensorBase() + 256 * static_cast<uint64_t>(R(0, 15));
    if (!m::ValidateTensorMap(t).ok()) {
      continue;
    }
    m::TensorInstr in;
    in.op = m::Op::kLoad;
    in.mode = m::LoadMode::kTile;
    in.dim = t.rank;
    int align_elems = t.interleave == m::Interleave::kNone ? std::max(1, 16 / e) : 1;
    for (int d = 0; d < t.rank; ++d) {
      int64_t ext = static_cast<int64_t>(t.box[d]) * (d ? t.element_strides[d] : 1);
      int64_t c;
      switch (R(0, 9)) {
        case 0:  // low side
          c = -R(1, ext + 2);
          break;
        case 1:  // high side
          c = static_cast<int64_t>(t.dims[d]) - R(0, ext);
          break;
        case 2:  // far away (fully out of bounds)
          c = R(0, 1) ? -R(1000, 1000000) : R(1000, 1000000);
          break;
        default:
          c = R(0, static_cast<int64_t>(t.dims[d]) - 1);
      }
      if (d == 0) {
        c = c >= 0 ? c / align_elems * align_elems
                   : -((-c + align_elems - 1) / align_elems) * align_elems;
      }
      in.coords.push_back(static_cast<int32_t>(c));
    }
    in.issuer_cta = static_cast<int>(R(0, ctx_.num_ctas - 1));
    if (ctx_.num_ctas > 1 && R(0, 99) < multicast_pct) {
      in.multicast = true;
      uint32_t full = (1u << ctx_.num_ctas) - 1;
      in.cta_mask = static_cast<uint16_t>(R(1, full));
      in.dst_cta = in.issuer_cta;
    } else {
      in.dst_cta = static_cast<int>(R(0, ctx_.num_ctas - 1));
    }
    if (!m::CheckInstruction(t, in, m::Arch::kSm90, ctx_.num_ctas).ok()) {
      continue;
    }
    *mp = t;
    *ip = in;
    return true;
  }
  return false;
}

void RandomTileSeq::Body() {
  m::TensorMap prev;
  bool have_prev = false;
  for (int i = 0; i < count; ++i) {
    m::TensorMap t;
    m::TensorInstr in;
    IssueOpts o;
    if (have_prev && static_cast<int>(rng_() % 100) < reuse_pct) {
      // Same descriptor, new coordinates: exercises the descriptor cache.
      if (!RandomMap(&t, &in)) {
        continue;
      }
      t = prev;
      in.dim = t.rank;
      in.coords.resize(t.rank);
      int e = m::ElementBytes(t.dtype);
      int a = t.interleave == m::Interleave::kNone ? std::max(1, 16 / e) : 1;
      for (int d = 0; d < t.rank; ++d) {
        int64_t c = static_cast<int64_t>(rng_() % (t.dims[d] + 8)) - 4;
        in.coords[d] = static_cast<int32_t>(d == 0 ? (c - ((c % a) + a) % a) : c);
      }
      o.reuse_desc = true;
    } else if (!RandomMap(&t, &in)) {
      continue;
    }
    if (static_cast<int>(rng_() % 100) < illegal_pct) {
      int e = m::ElementBytes(t.dtype);
      switch (rng_() % 5) {
        case 0:  // misaligned inner coordinate
          if (t.interleave == m::Interleave::kNone && e < 16) {
            in.coords[0] += 1;
          }
          break;
        case 1:  // misaligned dstMem
          o.fixed_smem = 16 * static_cast<int64_t>(1 + rng_() % 7);
          break;
        case 2:  // a map the driver would refuse: box[0] * E not a multiple of 16
          t.dtype = m::DType::kU8;
          t.box[0] = 1 + static_cast<uint32_t>(rng_() % 15);
          o.reuse_desc = false;
          break;
        case 3:  // bus error on the tensor data
          o.data_err = 2;
          o.reuse_desc = false;
          break;
        default:  // bus error on a fresh descriptor
          o.desc_err = 3;
          o.reuse_desc = false;
          break;
      }
      if (o.data_err || o.desc_err) {
        WaitAllRetired();  // error ranges must not hit commands already in flight
      }
    }
    IssueLoad(t, in, o);
    if (!o.reuse_desc) {
      prev = t;
      have_prev = true;
    }
    if (o.data_err || o.desc_err) {
      WaitAllRetired();
      ctx_.gmem->ClearErrorRanges();
    }
  }
  WaitAllRetired();
}

// ---- every mode and op ------------------------------------------------------------------
namespace {
constexpr m::DType kWholeByteTypes[] = {
    m::DType::kU8,     m::DType::kU16,  m::DType::kU32,    m::DType::kS32, m::DType::kU64,
    m::DType::kS64,    m::DType::kF16,  m::DType::kF32,    m::DType::kF64, m::DType::kBF16,
    m::DType::kF32Ftz, m::DType::kTF32, m::DType::kTF32Ftz};
constexpr uint64_t kTensorSpan = 1ull << 32;  // NewTensorBase spacing
}  // namespace

int RandomMixSeq::Rand(int lo, int hi) {
  if (hi <= lo) {
    return lo;  // an empty range (e.g. an im2col bounding box with upper < lower - dim + 1)
  }
  return lo + static_cast<int>(rng_() % static_cast<uint64_t>(static_cast<int64_t>(hi) - lo + 1));
}

void RandomMixSeq::RandomTileCoords(m::TensorInstr& ins, const m::TensorMap& t, bool inside) {
  for (int d = 1; d < t.rank; ++d) {
    const int b = static_cast<int>(t.box[d]);
    const int dim = static_cast<int>(t.dims[d]);
    ins.coords.push_back(inside ? Rand(0, std::max(0, dim - b)) : Rand(-b - 1, dim + 1));
  }
}

void RandomMixSeq::RandomDestination(m::TensorInstr& ins) {
  const int n = ctx_.num_ctas;
  ins.issuer_cta = Rand(0, n - 1);
  ins.dst_cta = Rand(0, n - 1);
  if (n > 1 && Chance(multicast_pct)) {
    ins.multicast = true;
    ins.cta_mask = static_cast<uint16_t>(Rand(1, (1 << n) - 1));
    ins.dst_cta = ins.issuer_cta;
  }
}

// A random legal im2col load (rank 3..5): channels per pixel from c0, pixels per column,
// corners, offsets, element strides of the spatial dims, OOB in every dimension.
bool RandomMixSeq::MakeIm2col(m::TensorMap* mp, m::TensorInstr* ip) {
  for (int attempt = 0; attempt < 200; ++attempt) {
    m::TensorMap t;
    t.mode = m::MapMode::kIm2col;
    t.rank = Rand(3, 5);
    t.dtype = kWholeByteTypes[Rand(0, 12)];
    const int e = m::ElementBytes(t.dtype);
    t.swizzle = Chance(50) ? m::Swizzle::kNone : static_cast<m::Swizzle>(Rand(1, 3));
    const int span = t.swizzle == m::Swizzle::kNone ? 512 : (16 << static_cast<int>(t.swizzle));
    const int max_chunks = std::min(span / 16, 256 * e / 16);
    t.channels_per_pixel = static_cast<uint32_t>(16 * Rand(1, max_chunks) / e);
    t.dims[0] = static_cast<uint64_t>(Rand(1, static_cast<int>(t.channels_per_pixel) * 2 + 4));
    uint64_t stride = (t.dims[0] * e + 15) / 16 * 16 + 16 * static_cast<uint64_t>(Rand(0, 2));
    const int lim = t.rank == 3 ? 32768 : (t.rank == 4 ? 128 : 16);
    for (int d = 1; d < t.rank; ++d) {
      t.dims[d] = static_cast<uint64_t>(Rand(1, t.rank == 5 ? 5 : 8));
      t.element_strides[d] = static_cast<uint32_t>(Chance(70) ? 1 : Rand(2, 3));
      t.strides[d - 1] = stride;
      stride = stride * t.dims[d] + 16 * static_cast<uint64_t>(Rand(0, 1));
    }
    for (int k = 0; k < t.rank - 2; ++k) {
      t.lower[k] = Chance(10) ? -lim : Rand(-3, 2);
      t.upper[k] = Chance(10) ? lim - 1 - Rand(0, 2) : Rand(-3, 3);
    }
    t.element_strides[0] = static_cast<uint32_t>(Chance(80) ? 1 : Rand(1, 8));  // ignored
    t.pixels_per_column = static_cast<uint32_t>(Chance(20) ? Rand(1, 256) : Rand(1, 40));
    if (stride > kTensorSpan) {
      continue;
    }
    t.global_address = NewTensorBase() + 16 * static_cast<uint64_t>(Rand(0, 16));
    t.oob_fill = (m::IsFloat(t.dtype) && Chance(50)) ? m::OobFill::kNan : m::OobFill::kZero;
    if (!m::ValidateTensorMap(t).ok()) {
      continue;
    }
    m::TensorInstr in;
    in.mode = m::LoadMode::kIm2col;
    in.dim = t.rank;
    const int step0 = 16 / e;
    const int b0 = static_cast<int>(t.channels_per_pixel);
    const int d0 = static_cast<int>(t.dims[0]);
    const bool inside = Chance(50);
    in.coords.push_back(inside ? step0 * Rand(0, std::max(0, d0 - b0) / step0)
                               : step0 * Rand((-b0 - step0) / step0, (d0 + step0) / step0));
    // Start pixel inside the bounding box [lower, dim - 1 + upper] of every spatial dim (F4).
    for (int k = 0; k < t.rank - 2; ++k) {
      const int lo = t.lower[k];
      const int hi = static_cast<int>(t.dims[k + 1]) - 1 + t.upper[k];
      in.coords.push_back(Chance(15) ? (Chance(50) ? lo : hi) : Rand(std::max(lo, hi - 12), hi));
    }
    in.coords.push_back(inside ? 0 : Rand(-1, static_cast<int>(t.dims[t.rank - 1])));
    if (Chance(70)) {
      const int max_off = t.rank == 3 ? 65535 : (t.rank == 4 ? 255 : 31);
      for (int k = 0; k < t.rank - 2; ++k) {
        in.im2col_info.push_back(static_cast<uint16_t>(Chance(10) ? Rand(0, max_off) : Rand(0, 3)));
      }
    }
    RandomDestination(in);
    *mp = t;
    *ip = in;
    return true;
  }
  return false;
}

// A random legal interleaved (16B / 32B) load, tile or im2col (silicon D5 / D8): dim 0 counts
// chunks of C bytes, every shared-memory row is C bytes per chunk, unpadded.
bool RandomMixSeq::MakeInterleaved(m::TensorMap* mp, m::TensorInstr* ip, bool im2col) {
  sim::InterleavedLoadLimits lim;
  lim.tensor_base = NewTensorBase();
  lim.tensor_span = kTensorSpan;
  lim.attempts = 200;
  if (!sim::MakeInterleavedLoad([this](int lo, int hi) { return Rand(lo, hi); }, lim, im2col, mp,
                                ip)) {
    return false;
  }
  RandomDestination(*ip);
  return true;
}

// A random legal sm_100 load: tile::gather4 (four rows, some out of bounds), im2col::w or
// im2col::w::128 (a wide map, wHalo, wOffset), or a tile load with a 128B-atom swizzle; a
// third of them .cta_group::2 with the mbarrier in a CTA of the destination's pair.
bool RandomMixSeq::MakeSm100(m::TensorMap* mp, m::TensorInstr* ip) {
  const int kind = Rand(0, 3);
  for (int attempt = 0; attempt < 200; ++attempt) {
    m::TensorMap t;
    m::TensorInstr in;
    t.dtype = kWholeByteTypes[Rand(0, 12)];
    const int e = m::ElementBytes(t.dtype);
    if (kind == 0 || kind == 3) {  // gather4 (2-D, box[1] 1), or a 128B-atom tile
      t.rank = kind == 0 ? 2 : Rand(2, 3);
      t.swizzle = kind == 3
                      ? static_cast<m::Swizzle>(Rand(4, 6))
                      : (Chance(50) ? m::Swizzle::kNone : static_cast<m::Swizzle>(Rand(1, 6)));
      const int span = t.swizzle == m::Swizzle::kNone ? 256 : 128;
      t.box[0] = static_cast<uint32_t>(16 * Rand(1, std::min(span, 256 * e) / 16) / e);
      if (t.swizzle >= m::Swizzle::k32B && t.swizzle <= m::Swizzle::k64B) {
        t.box[0] = std::min<uint32_t>(
            t.box[0], static_cast<uint32_t>((16 << static_cast<int>(t.swizzle)) / e));
      }
      t.dims[0] = static_cast<uint64_t>(Rand(1, static_cast<int>(t.box[0]) * 2 + 16 / e));
      uint64_t stride = (t.dims[0] * e + 15) / 16 * 16 + 16 * static_cast<uint64_t>(Rand(0, 2));
      for (int d = 1; d < t.rank; ++d) {
        t.box[d] = kind == 0 ? 1u : static_cast<uint32_t>(Rand(1, 6));
        t.dims[d] = static_cast<uint64_t>(Rand(1, 40));
        t.strides[d - 1] = stride;
        stride = stride * t.dims[d] + 16 * static_cast<uint64_t>(Rand(0, 1));
      }
      if (stride > kTensorSpan) {
        continue;
      }
      in.mode = kind == 0 ? m::LoadMode::kTileGather4 : m::LoadMode::kTile;
    } else {  // im2col::w (kind 1) / im2col::w::128 (kind 2)
      t.mode = m::MapMode::kIm2colWide;
      t.wide_mode = kind == 1 ? m::WideMode::kW : m::WideMode::kW128;
      t.rank = Rand(3, 5);
      const m::Swizzle sw[3] = {m::Swizzle::k64B, m::Swizzle::k128B, m::Swizzle::k128BAtom32B};
      t.swizzle = sw[Rand(0, 2)];
      const int span = t.swizzle == m::Swizzle::k64B ? 64 : 128;
      t.channels_per_pixel = static_cast<uint32_t>(16 * Rand(1, span / 16) / e);
      t.dims[0] = static_cast<uint64_t>(Rand(1, static_cast<int>(t.channels_per_pixel) * 2 + 4));
      uint64_t stride = (t.dims[0] * e + 15) / 16 * 16 + 16 * static_cast<uint64_t>(Rand(0, 2));
      for (int d = 1; d < t.rank; ++d) {
        t.dims[d] = static_cast<uint64_t>(Rand(1, d == 1 ? 40 : 5));
        t.element_strides[d] = static_cast<uint32_t>(Chance(70) ? 1 : Rand(2, 3));
        t.strides[d - 1] = stride;
        stride = stride * t.dims[d] + 16 * static_cast<uint64_t>(Rand(0, 1));
      }
      t.lower[0] = Rand(-3, 2);
      t.upper[0] = Rand(-3, 3);
      t.pixels_per_column = kind == 1 ? static_cast<uint32_t>(Rand(1, 60)) : 128u;
      if (stride > kTensorSpan) {
        continue;
      }
      in.mode = kind == 1 ? m::LoadMode::kIm2colW : m::LoadMode::kIm2colW128;
      in.im2col_info = {static_cast<uint16_t>(Rand(0, kind == 1 ? 20 : 6)),
                        static_cast<uint16_t>(Rand(0, 4))};
    }
    t.global_address = NewTensorBase() + 16 * static_cast<uint64_t>(Rand(0, 16));
    t.oob_fill = (m::IsFloat(t.dtype) && Chance(50)) ? m::OobFill::kNan : m::OobFill::kZero;
    if (!m::ValidateTensorMap(t, m::Arch::kSm100).ok()) {
      continue;
    }
    in.dim = t.rank;
    const int step0 = 16 / e;
    const int b0 = static_cast<int>(t.mode == m::MapMode::kTiled ? t.box[0] : t.channels_per_pixel);
    const int d0 = static_cast<int>(t.dims[0]);
    in.coords.push_back(step0 * Rand((-b0 - step0) / step0, (d0 + step0) / step0));
    if (in.mode == m::LoadMode::kTileGather4) {
      for (int k = 0; k < 4; ++k) {
        in.coords.push_back(Rand(-2, static_cast<int>(t.dims[1]) + 1));
      }
    } else if (in.mode == m::LoadMode::kTile) {
      RandomTileCoords(in, t, Chance(50));
    } else {
      in.coords.push_back(Rand(t.lower[0] - 2, static_cast<int>(t.dims[1]) + t.upper[0]));
      for (int d = 2; d < t.rank; ++d) {
        in.coords.push_back(Rand(-1, static_cast<int>(t.dims[d])));
      }
    }
    RandomDestination(in);
    if (Chance(33)) {
      in.cta_group = 2;
      const int n = ctx_.num_ctas;
      const int dst = in.multicast ? Rand(0, n - 1) : in.dst_cta;
      if (!in.multicast) {
        in.mbar_cta = std::min(n - 1, (dst & ~1) | Rand(0, 1));
      } else if (Chance(50)) {
        in.mbar_cta = Rand(0, n - 1);
      }
    }
    *mp = t;
    *ip = in;
    return true;
  }
  return false;
}

// A load's box as a store or reduction: the same map, srcMem in the issuer's window, no
// multicast; an im2col load mostly becomes an im2col_no_offs store (no offsets, corners made
// legal for it), else stays .im2col (invalid_instruction: no store mode). Coordinates are
// made non-negative most of the time (F3 otherwise).
void RandomMixSeq::ToStoreOrReduce(m::TensorMap* t, m::TensorInstr* in, bool reduce) {
  // Rows of a store's destination must not overlap in global memory (the order of two writes
  // to one byte is not defined; RandomTileSeq's interleaved maps count dims[0] in chunks but
  // space rows by elements): each stride at least the extent of the dimension below it.
  const uint64_t unit = t->interleave == m::Interleave::kNone
                            ? static_cast<uint64_t>(m::ElementBytes(t->dtype))
                            : (t->interleave == m::Interleave::k32B ? 32u : 16u);
  uint64_t extent = (t->dims[0] * unit + 15) / 16 * 16;
  for (int d = 1; d < t->rank; ++d) {
    t->strides[d - 1] = std::max<uint64_t>(t->strides[d - 1], extent);
    extent = t->strides[d - 1] * t->dims[d];
  }
  in->op = reduce ? m::Op::kReduce : m::Op::kStore;
  in->redop = static_cast<m::RedOp>(Rand(0, 7));
  in->multicast = false;
  in->cta_mask = 0;
  in->cta_group = 0;
  in->mbar_cta = -1;
  if (in->mode == m::LoadMode::kIm2col && Chance(85)) {
    in->mode = m::LoadMode::kIm2colNoOffs;
    in->im2col_info.clear();
    for (int k = 0; k < t->rank - 2; ++k) {
      t->lower[k] = std::max(0, t->lower[k]);
      t->upper[k] = std::min(0, t->upper[k]);
      const int hi = static_cast<int>(t->dims[k + 1]) - 1 + t->upper[k];
      int& c = in->coords[k + 1];
      c = std::min(std::max(c, t->lower[k]), std::max(t->lower[k], hi));
    }
  }
  if (Chance(90)) {
    for (auto& c : in->coords) {
      c = std::max(c, 0);
    }
  }
}

// A gather4 load's map and coordinates as a tile::scatter4 store (sm_100+): the four shared rows
// to four global rows. Row coordinates are made distinct (two writes to one row have no
// defined order); those at or past dims[1] stay (rows not written).
void RandomMixSeq::ToScatter4(m::TensorMap* t, m::TensorInstr* in) {
  ToStoreOrReduce(t, in, false);
  in->mode = m::LoadMode::kTileScatter4;
  const auto rows = in->coords.begin() + 1;
  for (int k = 1; k < 4; ++k) {
    while (std::find(rows, rows + k, rows[k]) != rows + k) {
      ++rows[k];
    }
  }
}

void RandomMixSeq::Spoil(m::TensorMap* t, m::TensorInstr* in, IssueOpts* o) {
  const bool i2c = in->mode == m::LoadMode::kIm2col || in->mode == m::LoadMode::kIm2colNoOffs;
  const bool wide = in->mode == m::LoadMode::kIm2colW || in->mode == m::LoadMode::kIm2colW128;
  const bool global_write = in->op == m::Op::kStore || in->op == m::Op::kReduce;
  switch (Rand(0, global_write ? 6 : 7)) {
    case 0:  // F2: misaligned shared address
      o->fixed_smem = 16 * static_cast<int64_t>(Rand(1, 7));
      break;
    case 1:  // F1: c0 x E not a multiple of 16
      if (t->interleave == m::Interleave::kNone && m::ElementBytes(t->dtype) < 16) {
        in->coords[0] += 1;
      }
      break;
    case 2:  // .Nd does not match the rank
      in->dim = t->rank == 5 ? 4 : t->rank + 1;
      break;
    case 3:                                    // invalid_coordinate of the mode
      if (i2c && t->rank > 3 && Chance(50)) {  // F4: an offset out of range for the rank
        in->im2col_info.assign(static_cast<size_t>(t->rank - 2), 0);
        in->im2col_info[0] = static_cast<uint16_t>(t->rank == 4 ? Rand(256, 65535) : Rand(32, 300));
      } else if (i2c) {  // F4: the start pixel outside the bounding box of spatial dim 1
        const int hi = static_cast<int>(t->dims[1]) - 1 + t->upper[0];
        in->coords[1] = Chance(50) ? t->lower[0] - Rand(1, 3) : hi + Rand(1, 3);
      } else if (wide) {  // wHalo / wOffset out of range
        if (Chance(50)) {
          in->im2col_info[0] = static_cast<uint16_t>(in->mode == m::LoadMode::kIm2colW ? 512 : 32);
        } else {
          in->im2col_info[1] = static_cast<uint16_t>(Rand(32, 100));
        }
      } else if (global_write) {  // F3: a negative coordinate
        in->coords[static_cast<size_t>(Rand(0, static_cast<int>(in->coords.size()) - 1))] =
            -Rand(1, 8);
      } else {  // the mode does not match the map (invalid_instruction)
        in->mode = in->mode == m::LoadMode::kTile ? m::LoadMode::kIm2col : m::LoadMode::kTile;
      }
      break;
    case 4:  // a map the driver refuses (invalid_descriptor)
      if (t->mode == m::MapMode::kTiled) {
        t->box[0] += 1;
        if (m::ValidateTensorMap(*t).ok()) {
          t->box[0] -= 1;
          t->dims[0] = 0;
        }
      } else {
        t->channels_per_pixel += 1;
        if (m::ValidateTensorMap(*t).ok()) {
          t->channels_per_pixel -= 1;
          t->pixels_per_column = 0;
        }
      }
      break;
    case 5:  // a form the arch does not have (unsupported at sm_90) or a bad .cta_group
      if (in->op == m::Op::kLoad) {
        in->cta_group = arch == m::Arch::kSm90 ? 2 : 3;
      } else if (arch == m::Arch::kSm90 && Chance(50)) {
        in->mode = m::LoadMode::kTileScatter4;  // the sm_100 store form at sm_90: unsupported
      } else {
        in->cta_group = 1;  // only loads take .cta_group
      }
      break;
    case 6:  // DECERR on the descriptor
      o->desc_err = 3;
      break;
    default:  // SLVERR on the tensor data (loads and prefetches only)
      o->data_err = 2;
      if (in->multicast && Chance(30)) {
        in->cta_mask = 0;  // a multicast to no CTA: invalid_instruction before any read
      }
      break;
  }
}

void RandomMixSeq::Body() {
  for (int i = 0; i < count; ++i) {
    m::TensorMap t;
    m::TensorInstr in;
    bool ok = false;
    const int kind = Rand(0, 99);
    if (kind < sm100_pct) {
      ok = MakeSm100(&t, &in);
      const bool wide = in.mode == m::LoadMode::kIm2colW || in.mode == m::LoadMode::kIm2colW128;
      m::TensorMap t2;
      m::TensorInstr in2;
      if (ok && wide && arch == m::Arch::kSm90 && Chance(50) && MakeIm2col(&t2, &in2)) {
        // A wide mode on an im2col map that sm_90 accepts: the mode itself is refused
        // (unsupported), not the map (an im2col-wide map is invalid_descriptor at sm_90).
        t = t2;
        in.dim = t2.rank;
        in.coords = in2.coords;
      }
    } else if (kind < sm100_pct + interleave_pct) {
      ok = MakeInterleaved(&t, &in, Chance(50));
    } else if (kind < sm100_pct + interleave_pct + im2col_pct) {
      ok = MakeIm2col(&t, &in);
    } else {
      ok = RandomMap(&t, &in);
    }
    if (!ok) {
      continue;
    }
    in.op = m::Op::kLoad;
    const int op = Rand(0, 99);
    const bool sm100_form = in.cta_group == 2 || in.mode == m::LoadMode::kTileGather4 ||
                            in.mode == m::LoadMode::kIm2colW || in.mode == m::LoadMode::kIm2colW128;
    // (a gather4 load drawn as a store or a reduction becomes a scatter4 store: no reduction
    // has a scatter4 form)
    if (in.mode == m::LoadMode::kTileGather4 && arch != m::Arch::kSm90 &&
        op < store_pct + reduce_pct) {
      ToScatter4(&t, &in);
    } else if (!sm100_form && op < store_pct + reduce_pct) {
      ToStoreOrReduce(&t, &in, op >= store_pct);
    } else if (op >= 100 - prefetch_pct) {
      in.op = m::Op::kPrefetch;
      in.multicast = false;
      in.cta_mask = 0;
      in.cta_group = 0;
      in.mbar_cta = -1;
    }
    IssueOpts o;
    if (Rand(0, 99) < illegal_pct) {
      Spoil(&t, &in, &o);
    }
    if (o.data_err || o.desc_err) {
      WaitAllRetired();  // error ranges must not hit commands already in flight
    }
    IssueLoad(t, in, o);
    if (o.data_err || o.desc_err) {
      WaitAllRetired();
      ctx_.gmem->ClearErrorRanges();
    }
  }
  WaitAllRetired();
}

// ---- directed ---------------------------------------------------------------------------
namespace {
// T16 of tensor-semantics.md 14b: u16, dims {200, 50}, row stride 400 bytes.
m::TensorMap T16(uint64_t base, uint32_t box0, uint32_t box1, uint32_t es0 = 1, uint32_t es1 = 1,
                 m::Swizzle sw = m::Swizzle::kNone) {
  m::TensorMap t;
  t.rank = 2;
  t.dtype = m::DType::kU16;
  t.dims = {200, 50, 1, 1, 1};
  t.strides = {400, 0, 0, 0};
  t.box = {box0, box1, 1, 1, 1};
  t.element_strides = {es0, es1, 1, 1, 1};
  t.swizzle = sw;
  t.global_address = base;
  return t;
}
m::TensorInstr Load2d(int32_t c0, int32_t c1) {
  m::TensorInstr in;
  in.dim = 2;
  in.coords = {c0, c1};
  return in;
}
}  // namespace

void DirectedSeq::Body() {
  auto all = which == "all";
  if (all || which == "tile2d") {
    // V1..V4: in bounds, low OOB, high OOB, fully OOB; V5..V7: element strides.
    const int32_t cs[][2] = {{8, 2}, {-8, -3}, {184, 46}, {304, 100}, {-1000000, -5}};
    for (const auto& c : cs) {
      IssueLoad(T16(NewTensorBase(), 64, 8), Load2d(c[0], c[1]));
    }
    IssueLoad(T16(NewTensorBase(), 64, 5, 1, 2), Load2d(0, 1));
    IssueLoad(T16(NewTensorBase(), 64, 7, 1, 3), Load2d(0, 45));
    IssueLoad(T16(NewTensorBase(), 64, 4, 2, 1), Load2d(0, 0));
    // V8: 128B swizzle at dstMem = 128 mod 1024; V9: 32-byte rows under 128B swizzle.
    IssueOpts o;
    o.fixed_smem = 128;
    IssueLoad(T16(NewTensorBase(), 64, 16, 1, 1, m::Swizzle::k128B), Load2d(0, 0), o);
    IssueLoad(T16(NewTensorBase(), 16, 16, 1, 1, m::Swizzle::k128B), Load2d(16, 3));
  }
  if (all || which == "ranks") {
    for (int r = 1; r <= 5; ++r) {
      m::TensorMap t;
      t.rank = r;
      t.dtype = m::DType::kU32;
      uint64_t pitch = 0;
      for (int d = 0; d < r; ++d) {
        t.dims[d] = d == 0 ? 20 : 3 + d;
        t.box[d] = d == 0 ? 8 : 2;
        if (d > 0) {
          pitch = d == 1 ? 96 : pitch * t.dims[d - 1];
          t.strides[d - 1] = pitch;
        }
      }
      t.global_address = NewTensorBase();
      m::TensorInstr in;
      in.dim = r;
      for (int d = 0; d < r; ++d) {
        in.coords.push_back(d == 0 ? 16 : (d % 2 ? -1 : 2));
      }
      IssueLoad(t, in);
    }
  }
  if (all || which == "dtypes") {
    for (int ty = 0; ty <= 12; ++ty) {
      m::TensorMap t = T16(NewTensorBase(), 0, 4);
      t.dtype = static_cast<m::DType>(ty);
      int e = m::ElementBytes(t.dtype);
      t.box[0] = 64 / e;
      t.dims[0] = 100;
      t.strides[0] = 1024;
      t.oob_fill = m::IsFloat(t.dtype) ? m::OobFill::kNan : m::OobFill::kZero;
      IssueLoad(t, Load2d(static_cast<int32_t>(96 - 32 / e), 48));  // OOB on both sides
    }
  }
  if (all || which == "swizzle") {
    for (int sw = 1; sw <= 3; ++sw) {
      uint32_t span = 16u << sw;
      for (uint32_t off = 0; off < 1024; off += 128) {
        IssueOpts o;
        o.fixed_smem = off;
        IssueLoad(T16(NewTensorBase(), span / 2, 12, 1, 1, static_cast<m::Swizzle>(sw)),
                  Load2d(8, 3), o);
      }
      // Rows narrower than the span: padded, the gap untouched.
      IssueLoad(T16(NewTensorBase(), 8, 9, 1, 1, static_cast<m::Swizzle>(sw)), Load2d(0, 40));
    }
  }
  if ((all || which == "multicast") && ctx_.num_ctas > 1) {
    m::TensorInstr in = Load2d(8, 2);
    in.multicast = true;
    in.cta_mask = 0x3;
    IssueLoad(T16(NewTensorBase(), 64, 8), in);
    in.cta_mask = static_cast<uint16_t>((1u << ctx_.num_ctas) - 1);
    in.issuer_cta = ctx_.num_ctas - 1;
    IssueLoad(T16(NewTensorBase(), 32, 4, 1, 1, m::Swizzle::k64B), in);
    in.cta_mask = 0x6;  // the issuer (0) is not in the mask
    in.issuer_cta = 0;
    IssueLoad(T16(NewTensorBase(), 64, 3), in);
    m::TensorInstr uni = Load2d(8, 2);  // shared::cluster to a remote CTA
    uni.issuer_cta = 0;
    uni.dst_cta = ctx_.num_ctas - 1;
    IssueLoad(T16(NewTensorBase(), 64, 8), uni);
  }
  if (all || which == "errors") {
    IssueLoad(T16(NewTensorBase(), 64, 8), Load2d(3, 2));   // V11: 6-byte offset
    IssueLoad(T16(NewTensorBase(), 64, 8), Load2d(-4, 2));  // V11: -8 bytes
    for (int off : {16, 64}) {                              // V12
      IssueOpts o;
      o.fixed_smem = off;
      IssueLoad(T16(NewTensorBase(), 64, 8), Load2d(0, 0), o);
    }
    m::TensorMap bad = T16(NewTensorBase(), 4, 8);  // box[0] * 2 = 8 bytes
    IssueLoad(bad, Load2d(0, 0));
    m::TensorMap wide = T16(NewTensorBase(), 64, 8, 1, 1, m::Swizzle::k32B);  // 128 B > 32 B
    IssueLoad(wide, Load2d(0, 0));
    m::TensorInstr none = Load2d(8, 2);  // multicast to no CTA (bench rule: invalid_instruction)
    none.multicast = true;
    none.cta_mask = 0;
    IssueLoad(T16(NewTensorBase(), 64, 8), none);
  }
  if (all || which == "bus_error") {
    WaitAllRetired();
    IssueOpts o;
    o.data_err = 2;  // SLVERR on the tensor
    IssueLoad(T16(NewTensorBase(), 64, 8), Load2d(8, 2), o);
    WaitAllRetired();
    ctx_.gmem->ClearErrorRanges();
    IssueOpts d;
    d.desc_err = 3;  // DECERR on a fresh descriptor
    IssueLoad(T16(NewTensorBase(), 64, 8), Load2d(8, 2), d);
    WaitAllRetired();
    ctx_.gmem->ClearErrorRanges();
    IssueLoad(T16(NewTensorBase(), 64, 8), Load2d(8, 2));  // and the engine recovers
  }
  // Reproducers of RTL findings (docs/verification.md, RTL findings); not part of "all".
  if (which == "rtl_buserr_fill") {
    // A 1-D box of 16 u16 at coords {-8}: elements -8..-1 are out of bounds (fill, no global
    // read), 0..7 are read from global memory, which answers SLVERR. The model: bus_error and
    // nothing written; the interface: an erroring command writes nothing to shared memory.
    WaitAllRetired();
    m::TensorMap t;
    t.rank = 1;
    t.dtype = m::DType::kU16;
    t.dims = {24, 1, 1, 1, 1};
    t.box = {16, 1, 1, 1, 1};
    t.global_address = NewTensorBase();
    m::TensorInstr in;
    in.dim = 1;
    in.coords = {-8};
    IssueOpts o;
    o.data_err = 2;
    IssueLoad(t, in, o);
    WaitAllRetired();
    ctx_.gmem->ClearErrorRanges();
  }
  if (all || which == "desc_cache") {
    m::TensorMap t = T16(NewTensorBase(), 64, 8);
    IssueLoad(t, Load2d(0, 0));
    IssueOpts again;
    again.reuse_desc = true;
    for (int i = 1; i < 4; ++i) {
      IssueLoad(t, Load2d(8 * i, i), again);
    }
    // Rewrite the map in place (another box and swizzle), invalidate, use it again.
    m::TensorMap t2 = T16(t.global_address, 32, 4, 1, 1, m::Swizzle::k64B);
    IssueOpts rw;
    rw.reuse_desc = true;
    rw.rewrite_desc = true;
    IssueLoad(t2, Load2d(16, 5), rw);
    IssueLoad(t2, Load2d(24, 6), again);
  }
  WaitAllRetired();
}

}  // namespace tma::tb
