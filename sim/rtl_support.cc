// SPDX-License-Identifier: Apache-2.0
//
// What the RTL engine implements (rtl_support.h).
#include "sim/rtl_support.h"

#include <optional>

#include "tma/encoder.h"

namespace tma::sim {

namespace m = tma::model;

bool RtlImplementsOp(m::Op op) {
  return op == m::Op::kLoad || op == m::Op::kPrefetch || op == m::Op::kStore;
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
    return "reductions: the RTL has no reduction ALU yet";
  }
  const std::optional<m::Arch> arch = m::ParseArch(c.arch);
  if (!arch) {
    return "arch " + c.arch + " is not known";
  }
  if (*arch != m::Arch::kSm90 && c.op != m::Op::kLoad && c.op != m::Op::kPrefetch) {
    return "arch " + c.arch + ": the RTL runs the loads and prefetches of sm_100+ cases (this is " +
           "a " + m::ToString(c.op) + ")";
  }
  if (!RtlImplementsDType(c.tensor.dtype, b)) {
    return std::string("element type ") + m::ToString(c.tensor.dtype) +
           " needs the unpacker (SubByte = 1), which this top (DataBytes " +
           std::to_string(b.data_bytes) + ") is built without";
  }
  if (c.op == m::Op::kStore && c.store_clip_element != b.store_clip_element) {
    return std::string("store clipping \"") + (c.store_clip_element ? "element" : "granule") +
           "\": this top is built with StoreClipElem = " + (b.store_clip_element ? "1" : "0");
  }
  return "";
}

bool RtlClaims(const m::GoldenCase& c, const RtlBuild& b) {
  return c.op == m::Op::kStore &&
         (c.mode == m::LoadMode::kTile || c.mode == m::LoadMode::kIm2colNoOffs) &&
         RtlSkipReason(c, b).empty();
}

}  // namespace tma::sim
