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
  // The element type the engine will see: the descriptor's when the case has one.
  m::DType dtype = c.tensor.dtype;
  if (c.descriptor_hex) {
    m::TensorMap map;
    if (m::CaseMap(c, &map).ok()) {
      dtype = map.dtype;
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
  return "";
}

bool RtlClaims(const m::GoldenCase& c, const RtlBuild& b) {
  return (c.op == m::Op::kStore || c.op == m::Op::kReduce) &&
         (c.mode == m::LoadMode::kTile || c.mode == m::LoadMode::kIm2colNoOffs) &&
         RtlSkipReason(c, b).empty();
}

std::string RtlCaseDescriptor(const m::GoldenCase& c, uint8_t* desc) {
  if (c.descriptor_hex) {
    std::vector<uint8_t> d;
    if (!m::FromHex(*c.descriptor_hex, &d) || d.size() != m::kDescriptorBytes) {
      return "descriptor_hex is not 128 bytes";
    }
    std::memcpy(desc, d.data(), m::kDescriptorBytes);
  } else {
    m::TensorMap map;
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
  }
  // Maps go to the engine even when the case's encoder refuses them: the RTL checks the encoder
  // rules of its architecture (arch_i) itself, the sm_100 / sm_103 ones (sub-byte types,
  // 128B-atom and 96B swizzles, im2col-wide maps) included, and the CTA operands against the
  // cluster size (cluster_i).
  return "";
}

}  // namespace tma::sim
