// SPDX-License-Identifier: Apache-2.0
//
// What the RTL engine implements (rtl_support.h).
#include "sim/rtl_support.h"

#include <cstring>
#include <optional>
#include <vector>

#include "tma/descriptor.h"
#include "tma/encoder.h"
#include "tma/golden_replay.h"

namespace tma::sim {

namespace m = tma::model;

bool RtlImplementsOp(m::Op op) {
  return op == m::Op::kLoad || op == m::Op::kPrefetch;
}

bool RtlImplementsDType(m::DType t, const RtlBuild& b) {
  switch (t) {
    case m::DType::kB4x16:  // .b4x16 = 16U4_ALIGN8B: a byte copy
      return true;
    case m::DType::kB4x16P64:  // .b4x16_p64 = 16U4_ALIGN16B: the unpacker
    case m::DType::kB6x16P32:  // .b6x16_p32 = 16U6_ALIGN16B: the unpacker
      return b.sub_byte;
    default:
      return true;
  }
}

std::string RtlSkipReason(const m::GoldenCase& c, const RtlBuild& b) {
  if (!RtlImplementsOp(c.op)) {
    return "stores and reductions: the RTL is a load engine (no AXI write path yet)";
  }
  const std::optional<m::Arch> arch = m::ParseArch(c.arch);
  if (!arch) {
    return "arch " + c.arch + " is not known";
  }
  if (*arch != m::Arch::kSm90) {
    if (c.op != m::Op::kLoad || c.mode != m::LoadMode::kTile) {
      return "arch " + c.arch + ": the RTL runs only tile-mode loads of sm_100+ cases (this is " +
             (c.op == m::Op::kPrefetch ? "a prefetch" : "a load") + " in " + m::ToString(c.mode) +
             " mode)";
    }
    if (c.cluster && c.cluster->cta_group == 2) {
      return "arch " + c.arch + ": .cta_group::2 is not implemented by the RTL";
    }
  }
  if (!RtlImplementsDType(c.tensor.dtype, b)) {
    return std::string("element type ") + m::ToString(c.tensor.dtype) +
           " needs the unpacker (SubByte = 1), which this top (DataBytes " +
           std::to_string(b.data_bytes) + ") is built without";
  }
  if (*arch == m::Arch::kSm90 && m::IsSubByte(c.tensor.dtype)) {
    return std::string("sub-byte type ") + m::ToString(c.tensor.dtype) +
           " on sm_90: the host encoder refuses it (rule 1) and the RTL has no arch input";
  }
  if (*arch == m::Arch::kSm90 && c.tensor.swizzle > m::Swizzle::k128B) {
    // The RTL accepts what DecodeDescriptor accepts (the 128B-atom and 96B swizzles of
    // sm_100+, repeat field included); the sm_90 limit (rule 4) needs an arch input.
    return std::string("swizzle ") + m::ToString(c.tensor.swizzle) +
           " on sm_90: the host encoder refuses it (rule 4) and the RTL has no arch input";
  }
  return "";
}

std::string RtlCaseDescriptor(const m::GoldenCase& c, const std::string& top, uint8_t* desc) {
  m::TensorMap map;
  bool have_map = false;
  if (c.descriptor_hex) {
    std::vector<uint8_t> d;
    if (!m::FromHex(*c.descriptor_hex, &d) || d.size() != m::kDescriptorBytes) {
      return "descriptor_hex is not 128 bytes";
    }
    std::memcpy(desc, d.data(), m::kDescriptorBytes);
    have_map = m::DecodeDescriptor(d.data(), &map).ok();
  } else {
    m::Status st = m::CaseTensorMap(c, m::CaseGlobalBase(c), &map);
    if (!st.ok()) {
      return "the host cannot encode this map (" + st.ToString() + "); no engine sees it";
    }
    m::DescriptorBytes d = m::EncodeDescriptor(map);
    m::TensorMap back;
    if (m::DecodeDescriptor(d.data(), &back).ok() && !(back == map)) {
      return "the map does not fit the descriptor's fields (no 128-byte encoding)";
    }
    std::memcpy(desc, d.data(), m::kDescriptorBytes);
    have_map = true;
  }
  // The sm_100+ rules (packed-type box / alignment / swizzle limits) are the driver's, which
  // never hands such a map to an engine.
  const m::Arch arch = m::ParseArch(c.arch).value_or(m::Arch::kSm90);  // known: RtlSkipReason
  if (have_map && arch != m::Arch::kSm90) {
    if (m::Status v = m::ValidateTensorMap(map, arch); !v.ok()) {
      return "the " + c.arch + " encoder refuses this map (" + v.ToString() +
             "); no engine sees it";
    }
  }
  const m::TensorInstr in = m::CaseInstr(c);
  const int ctas = c.NumCtas();
  if (in.issuer_cta >= ctas || in.dst_cta >= ctas ||
      (in.multicast && ctas < 16 && (in.cta_mask >> ctas) != 0)) {
    return "a CTA number at or above the cluster size (" + std::to_string(ctas) + "): " + top +
           " has no cluster-size input (F6 is the launcher's check)";
  }
  return "";
}

}  // namespace tma::sim
