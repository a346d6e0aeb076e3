// SPDX-License-Identifier: Apache-2.0
//
// What the RTL engine implements (rtl_support.h), from the generated claims.
#include "sim/rtl_support.h"

#include <cstring>
#include <optional>
#include <vector>

#include "tma/descriptor.h"
#include "tma/encoder.h"
#include "tma/golden_replay.h"

#include "tma/autogen/numbering.h"

namespace tma::sim {

namespace m = tma::model;
namespace num = tma::model::num;

namespace {
bool Bit(uint32_t mask, int code) {
  return code >= 0 && code < 32 && ((mask >> code) & 1u) != 0;
}
}  // namespace

bool RtlImplementsOp(m::Op op) {
  return Bit(num::kClaimOpsSm90 | num::kClaimOpsSm100, static_cast<int>(op));
}

bool RtlImplementsDType(m::DType t, const RtlBuild& b) {
  const uint8_t pk = num::kElemPk[static_cast<int>(t)];
  return pk == num::kPkNone || b.sub_byte;
}

std::string RtlUnclaimed(const RtlCommandKind& k, const RtlBuild& b) {
  const bool sm90 = k.arch == m::Arch::kSm90;
  const std::string gen = sm90 ? "sm_90" : "sm_100+";
  if (!Bit(sm90 ? num::kClaimOpsSm90 : num::kClaimOpsSm100, static_cast<int>(k.op))) {
    return std::string("the RTL does not claim ") + m::ToString(k.op) + " of " + gen +
           " cases (rtl_claims)";
  }
  if (!Bit(sm90 ? num::kClaimModesSm90 : num::kClaimModesSm100, static_cast<int>(k.mode))) {
    return std::string("the RTL does not claim ") + m::ToString(k.mode) + " mode of " + gen +
           " cases (rtl_claims)";
  }
  if (k.cta_group == 2 && !num::kClaimCtaGroup2) {
    return "the RTL does not claim .cta_group::2 (rtl_claims)";
  }
  if (!RtlImplementsDType(k.dtype, b)) {
    return std::string("element type ") + m::ToString(k.dtype) +
           " needs the unpacker (SubByte = 1), which this top (DataBytes " +
           std::to_string(b.data_bytes) + ") is built without";
  }
  return "";
}

std::string RtlSkipReason(const m::GoldenCase& c, const RtlBuild& b) {
  if (c.bulk) {
    return "the RTL does not implement the non-tensor bulk operations (cp.async.bulk, "
           "cp.reduce.async.bulk, cp.async.bulk.prefetch.L2)";
  }
  const std::optional<m::Arch> arch = m::ParseArch(c.arch);
  if (!arch) {
    return "arch " + c.arch + " is not known";
  }
  // The element type and swizzle the engine will see: the descriptor's when the case has one.
  m::DType dtype = c.tensor.dtype;
  m::Swizzle swizzle = c.tensor.swizzle;
  if (c.descriptor_hex) {
    m::TensorMap map;
    if (m::CaseMap(c, &map).ok()) {
      dtype = map.dtype;
      swizzle = map.swizzle;
    }
  }
  RtlCommandKind k;
  k.op = c.op;
  k.mode = c.mode;
  k.dtype = dtype;
  k.arch = *arch;
  k.cta_group = c.cluster ? c.cluster->cta_group : 0;
  // A case whose answer is `unsupported` runs whatever the claims: the RTL must decline it.
  const bool declines = c.expect.error && *c.expect.error == m::ErrorClass::kUnsupported;
  if (std::string why = RtlUnclaimed(k, b); !why.empty() && !declines) {
    return why;
  }
  if ((c.op == m::Op::kStore || c.op == m::Op::kReduce) &&
      c.store_clip_element != b.store_clip_element) {
    return std::string("store clipping \"") + (c.store_clip_element ? "element" : "granule") +
           "\": this top is built with StoreClipElem = " + (b.store_clip_element ? "1" : "0");
  }
  if (*arch == m::Arch::kSm90 && m::IsSubByte(dtype)) {
    return std::string("sub-byte type ") + m::ToString(dtype) +
           " on sm_90: the host encoder refuses it (rule 1) and the RTL has no arch input";
  }
  if (*arch == m::Arch::kSm90 && swizzle > m::Swizzle::k128B) {
    // The RTL accepts what DecodeDescriptor accepts (the 128B-atom and 96B swizzles of
    // sm_100+, repeat field included); the sm_90 limit (rule 4) needs an arch input.
    return std::string("swizzle ") + m::ToString(swizzle) +
           " on sm_90: the host encoder refuses it (rule 4) and the RTL has no arch input";
  }
  return "";
}

bool RtlClaims(const m::GoldenCase& c, const RtlBuild& b) {
  return (c.op == m::Op::kStore || c.op == m::Op::kReduce) &&
         (c.mode == m::LoadMode::kTile || c.mode == m::LoadMode::kIm2colNoOffs) &&
         RtlSkipReason(c, b).empty();
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
