// SPDX-License-Identifier: Apache-2.0
//
// What the RTL engine implements (rtl_support.h), from the generated claims.
#include "sim/rtl_support.h"

#include <optional>
#include <vector>

#include "tma/descriptor.h"
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

}  // namespace tma::sim
