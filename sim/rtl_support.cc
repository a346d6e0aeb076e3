// SPDX-License-Identifier: Apache-2.0
//
// What the RTL engine implements (rtl_support.h).
#include "sim/rtl_support.h"

#include <optional>

#include "tma/encoder.h"

namespace tma::sim {

namespace m = tma::model;

bool RtlImplementsOp(m::Op op) {
  static_cast<void>(op);
  return true;  // loads, prefetches, stores, reductions (read-modify-write)
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
  if ((c.op == m::Op::kStore || c.op == m::Op::kReduce) &&
      c.store_clip_element != b.store_clip_element) {
    return std::string("store clipping \"") + (c.store_clip_element ? "element" : "granule") +
           "\": this top is built with StoreClipElem = " + (b.store_clip_element ? "1" : "0");
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

bool RtlClaims(const m::GoldenCase& c, const RtlBuild& b) {
  return (c.op == m::Op::kStore || c.op == m::Op::kReduce) &&
         (c.mode == m::LoadMode::kTile || c.mode == m::LoadMode::kIm2colNoOffs) &&
         RtlSkipReason(c, b).empty();
}

}  // namespace tma::sim
