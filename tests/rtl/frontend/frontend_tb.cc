// SPDX-License-Identifier: Apache-2.0
#include "frontend_tb.h"

#include <algorithm>
#include <map>

#include "sim/cmd_port.h"
#include "tma/tensor_copy.h"

namespace tma::tb {

namespace model = tma::model;
namespace pkg = tma::pkg;
namespace num = tma::model::num;

namespace {
uint64_t Bits(const DescBytes& d, int lsb, int w) {
  return model::GetDescriptorBits(d.data(), lsb, w);
}
}  // namespace

pkg::desc_fields_t FieldsOf(const DescBytes& d) {
  pkg::desc_fields_t f;
  f.addr = Bits(d, num::kDescAddressLsb, num::kDescAddressW);
  f.im2col = Bits(d, num::kDescModeLsb, num::kDescModeW);
  f.rank_m1 = static_cast<uint8_t>(Bits(d, num::kDescRankLsb, num::kDescRankW));
  f.dtype = static_cast<uint8_t>(Bits(d, num::kDescTypeLsb, num::kDescTypeW));
  f.il = static_cast<uint8_t>(Bits(d, num::kDescInterleaveLsb, num::kDescInterleaveW));
  const uint64_t span = Bits(d, num::kDescSwizzleSpanLsb, num::kDescSwizzleSpanW);
  const uint64_t atom = Bits(d, num::kDescSwizzleAtomLsb, num::kDescSwizzleAtomW);
  if (Bits(d, num::kDescSwizzle96BLsb, 1))
    f.swz = pkg::Swz96B;
  else if (span == pkg::SwzSpan128B)
    f.swz = static_cast<uint8_t>(pkg::Swz128B + atom);
  else
    f.swz = static_cast<uint8_t>(span);
  f.fill_nan = Bits(d, num::kDescOobFillLsb, 1);
  f.tf32 = Bits(d, num::kDescTf32Lsb, 1);
  for (int i = 0; i < 4; ++i) {
    f.stride[i] = Bits(d, num::kDescStrideLoLsb + num::kDescStrideLoW * i, num::kDescStrideLoW) |
                  Bits(d, num::kDescStrideHiLsb + num::kDescStrideHiW * i, num::kDescStrideHiW)
                      << 32;
  }
  for (int i = 0; i < 5; ++i) {
    f.dim_m1[i] = static_cast<uint32_t>(Bits(d, num::kDescDimLsb + num::kDescDimW * i, 32));
    f.es_m1[i] = static_cast<uint8_t>(
        Bits(d, num::kDescElemStrideLsb + num::kDescElemStrideW * i, num::kDescElemStrideW));
  }
  f.box0_m1 = static_cast<uint8_t>(Bits(d, num::kDescBox0Lsb, num::kDescBox0W));
  f.box_hi = static_cast<uint32_t>(Bits(d, num::kDescBox1Lsb, num::kDescBox1W * num::kDescBox1N));
  f.ppc_m1 =
      static_cast<uint16_t>(Bits(d, num::kDescPixelsPerColumnLsb, num::kDescPixelsPerColumnW));
  return f;
}

int ClusterCtas(int cluster) {
  return cluster == 0 || cluster > kNumCtas ? kNumCtas : cluster;
}

model::Status InstrVerdict(const pkg::cmd_t& c, const model::TensorMap& m, model::Arch arch,
                           int ctas) {
  if (model::Status v = model::ValidateTensorMap(m, arch); !v.ok())
    return v;
  const model::TensorInstr ins = sim::CmdCodec::Decode(c).instr;
  model::Status s = model::CheckInstruction(m, ins, arch, ctas);
  const bool late = s.ok() || s.cls == model::ErrorClass::kMisaligned ||
                    s.cls == model::ErrorClass::kMisalignedCoordinate ||
                    s.cls == model::ErrorClass::kInvalidCoordinate;
  if (late && c.op == pkg::OpLoad && c.multicast && c.cta_mask == 0) {
    s = model::Status::Error(model::ErrorClass::kInvalidInstruction, "cta_mask",
                             "RTL: a multicast to no CTA");
  }
  return s;
}

std::vector<FeCmd> RandomCmds(std::mt19937_64& rng, int n, bool any_offset) {
  auto rnd = [&](int lo, int hi) {
    return lo + static_cast<int>(rng() % static_cast<uint64_t>(hi - lo + 1));
  };
  auto p = [&](double x) { return (rng() % 10000) < x * 10000; };
  const std::vector<uint64_t> slots = {
      0x1000, 0x1080, 0x2000, 0x3040, 0x4000, 0x5010, 0x8000'0000'0000'1000ull};
  std::map<uint64_t, model::TensorMap> cur;  // the map last written at each slot (as encoded)
  std::map<uint64_t, DescBytes> cur_bytes;
  std::vector<FeCmd> cmds;
  for (int i = 0; i < n; ++i) {
    FeCmd f;
    pkg::cmd_t& c = f.cmd;
    uint64_t a = slots[rng() % slots.size()];
    if (!any_offset)
      a &= ~uint64_t{63};
    c.desc_addr = a;
    if (!cur.count(a) || p(0.15)) {
      model::TensorMap m;
      f.map = RandomDescriptor(rng, &m);
      cur[a] = m;
      cur_bytes[a] = f.map;
      f.rewrite = true;
      f.inval_before = p(0.7);
    }
    if (p(0.05))
      f.inval_before = true;
    f.inval_fetch = p(0.1);
    if (p(0.04)) {
      f.err_beat = rnd(0, 8);
      f.err_resp = p(0.5) ? 2 : 3;
    }
    // The command follows the map the slot holds (decoded: a flipped bit may change it).
    model::TensorMap m = cur[a];
    model::TensorMap dec;
    const bool decoded = model::DecodeDescriptor(cur_bytes[a].data(), &dec).ok();
    if (decoded)
      m = dec;
    // Loads and prefetches: the store direction's jobs (done completions, granule clipping) are
    // checked end to end (engine_e2e_test, the golden replay), not by these job comparisons.
    c.op = static_cast<uint8_t>(p(0.9) ? pkg::OpLoad : pkg::OpPrefetch);
    c.mode = m.mode == model::MapMode::kIm2col ? pkg::ModeIm2col : pkg::ModeTile;
    if (m.mode == model::MapMode::kIm2colWide)
      c.mode = m.wide_mode == model::WideMode::kW128 ? pkg::ModeIm2colW128 : pkg::ModeIm2colW;
    else if (m.mode == model::MapMode::kTiled && m.rank == 2 && m.box[1] == 1 && p(0.5))
      c.mode = pkg::ModeTileGather4;
    if (p(0.03))
      c.mode = static_cast<uint8_t>(rnd(0, 7));
    c.dim = static_cast<uint8_t>(m.rank);
    if (p(0.03))
      c.dim = static_cast<uint8_t>(rnd(0, 7));
    for (int d = 0; d < 5; ++d) {
      int32_t v = p(0.8) ? rnd(-20, 300) : static_cast<int32_t>(rng());
      if (p(0.3))
        v = 0;
      c.coords.v[static_cast<size_t>(d)] = static_cast<uint32_t>(v);
    }
    const int e = std::max(1, model::SmemElementBits(m.dtype) / 8);
    if (p(0.85)) {
      const int q = model::IsSubByte(m.dtype) ? 128 : 16 / std::min(e, 16);
      const int32_t c0 = static_cast<int32_t>(c.coords.v[0]);
      c.coords.v[0] = static_cast<uint32_t>(c0 / q * q);
    }
    // im2col offsets; im2col::w*: wHalo (v[0], at most 511 / 31) and wOffset (v[1], at most 31)
    for (int k = 0; k < 3; ++k)
      c.im2col.v[static_cast<size_t>(k)] = static_cast<uint16_t>(p(0.7) ? rnd(0, 5) : rnd(0, 300));
    if (p(0.02))
      c.im2col.v[static_cast<size_t>(rnd(0, 1))] = static_cast<uint16_t>(rnd(0, 0xFFFF));
    c.smem_addr = p(0.95) ? static_cast<uint32_t>(rnd(0, 100)) * 128 : static_cast<uint32_t>(rng());
    c.mbar_addr = p(0.95) ? static_cast<uint32_t>(rnd(0, 100)) * 8 : static_cast<uint32_t>(rng());
    c.multicast = p(0.2);
    c.cta_mask = static_cast<uint16_t>(p(0.95) ? rnd(0, 15) : rng());
    c.issuer = static_cast<uint8_t>(p(0.95) ? rnd(0, 3) : rnd(0, 15));
    c.dst_cta = static_cast<uint8_t>(p(0.95) ? rnd(0, 3) : rnd(0, 15));
    c.cta_group = static_cast<uint8_t>(p(0.85) ? 0 : rnd(0, 3));
    c.smem_cta = p(0.1);
    c.mbar_remote = p(0.15);
    c.mbar_cta = static_cast<uint8_t>(p(0.95) ? rnd(0, 3) : rnd(0, 15));
    c.tag = static_cast<uint8_t>(rnd(0, 255));
    if (p(0.02))
      c.desc_addr |= static_cast<uint64_t>(rnd(1, 15));
    cmds.push_back(f);
  }
  return cmds;
}

std::vector<uint64_t> WantDescReads(uint64_t addr, int data_bytes) {
  const uint64_t db = static_cast<uint64_t>(data_bytes);
  const uint64_t first = addr & ~(db - 1);
  const uint64_t beats = 128 / db + ((addr % db) != 0 ? 1 : 0);
  std::vector<uint64_t> v;
  for (uint64_t i = 0; i < beats; ++i)
    v.push_back(first + i * db);
  return v;
}

model::Status ModelDescVerdict(const DescBytes& d, model::TensorMap* m) {
  model::Status s = model::DecodeDescriptor(d.data(), m);
  if (!s.ok())
    return s;
  return model::ValidateTensorMap(*m, model::Arch::kSm103);
}

DescBytes RandomDescriptor(std::mt19937_64& rng, model::TensorMap* out) {
  auto rnd = [&](int lo, int hi) {
    return lo + static_cast<int>(rng() % static_cast<uint64_t>(hi - lo + 1));
  };
  auto p = [&](int pct) { return rnd(0, 99) < pct; };
  model::TensorMap m;
  m.mode = p(30) ? model::MapMode::kIm2col : model::MapMode::kTiled;
  const bool wide = m.mode == model::MapMode::kIm2col && p(30);  // im2col-wide (sm_100)
  if (wide) {
    m.mode = model::MapMode::kIm2colWide;
    m.wide_mode = p(50) ? model::WideMode::kW : model::WideMode::kW128;
  }
  m.rank = m.mode != model::MapMode::kTiled ? rnd(3, 5) : rnd(1, 5);
  m.dtype = static_cast<model::DType>(p(80) ? rnd(0, 12) : rnd(0, 15));
  const int e = std::max(1, model::SmemElementBits(m.dtype) / 8);
  m.interleave = p(85) ? model::Interleave::kNone : static_cast<model::Interleave>(rnd(1, 2));
  m.swizzle = static_cast<model::Swizzle>(p(50) ? 0 : (p(80) ? rnd(1, 3) : rnd(1, 7)));
  if (wide && p(85)) {  // the swizzles an im2col-wide map allows (rule 24), mostly
    const model::Swizzle kWide[] = {model::Swizzle::k64B, model::Swizzle::k128B,
                                    model::Swizzle::k128BAtom32B, model::Swizzle::k96B};
    m.swizzle = kWide[rnd(0, 3)];
  }
  m.oob_fill = p(20) ? model::OobFill::kNan : model::OobFill::kZero;
  m.l2_promotion = static_cast<model::L2Promotion>(rnd(0, 3));
  m.global_address =
      (rng() & 0xFFFF'FFFF'FF00ull) + (p(90) ? 0 : 16u * static_cast<uint64_t>(rnd(1, 15)));
  for (int d = 0; d < 5; ++d) {
    m.dims[d] = d < m.rank ? static_cast<uint64_t>(p(90) ? rnd(1, 300) : rnd(1, 1 << 30)) : 1;
    m.element_strides[d] = d < m.rank && p(25) ? static_cast<uint32_t>(rnd(1, 8)) : 1;
    if (d < m.rank && m.mode == model::MapMode::kTiled)
      m.box[d] = static_cast<uint32_t>(p(70) ? rnd(1, 16) : rnd(1, 256));
  }
  if (m.mode == model::MapMode::kTiled && m.rank == 2 && p(40))
    m.box[1] = 1;  // a gather4 map
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
    const int cmax = m.rank == 3 || wide ? 32767 : (m.rank == 4 ? 127 : 15);
    for (int k = 0; k < (wide ? 1 : m.rank - 2); ++k) {
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
    d[static_cast<size_t>(bit / 8)] =
        static_cast<uint8_t>(d[static_cast<size_t>(bit / 8)] ^ (1u << (bit % 8)));
  }
  if (out)
    *out = m;
  return d;
}

}  // namespace tma::tb
