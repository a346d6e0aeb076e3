// SPDX-License-Identifier: Apache-2.0
//
// The model's adapter to the firmware's encoder (fw/encoder): vocabulary translation only.
#include "tma/encoder.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace tma::model {
namespace {

namespace fw = tma::fw;

// The model's enums are numbered as the driver's, as the encoder's are.
static_assert(static_cast<int>(DType::kB6x16P32) ==
              static_cast<int>(fw::TensorMapDataType::k16U6Align16B));
static_assert(kNumDTypes == fw::kNumDataTypes);
static_assert(static_cast<int>(Swizzle::k96B) == static_cast<int>(fw::TensorMapSwizzle::k96B));
static_assert(static_cast<int>(OobFill::kNan) ==
              static_cast<int>(fw::TensorMapFloatOobFill::kNanRequestZeroFma));
static_assert(static_cast<int>(MapMode::kIm2colWide) == static_cast<int>(fw::MapMode::kIm2colWide));
static_assert(kMaxRank == fw::kMaxRank && kDescriptorBytes == fw::kTensorMapBytes);

fw::TensorMapDataType Fw(DType v) {
  return static_cast<fw::TensorMapDataType>(v);
}
fw::TensorMapInterleave Fw(Interleave v) {
  return static_cast<fw::TensorMapInterleave>(v);
}
fw::TensorMapSwizzle Fw(Swizzle v) {
  return static_cast<fw::TensorMapSwizzle>(v);
}
fw::TensorMapL2Promotion Fw(L2Promotion v) {
  return static_cast<fw::TensorMapL2Promotion>(v);
}
fw::TensorMapFloatOobFill Fw(OobFill v) {
  return static_cast<fw::TensorMapFloatOobFill>(v);
}

Status ToStatus(fw::Violation v) {
  return Status::Error(ErrorClass::kInvalidDescriptor, std::move(v.field), std::move(v.message));
}

// The encoder's verdict and bytes as the model's.
Status Verdict(fw::Result r, fw::Violation why, const fw::TensorMap& map, DescriptorBytes* out) {
  *out = map.bytes;
  return r == fw::Result::kSuccess ? Status::Ok() : ToStatus(std::move(why));
}

}  // namespace

fw::TensorMapFields ToFwFields(const TensorMap& m) {
  fw::TensorMapFields f;
  f.mode = static_cast<fw::MapMode>(m.mode);
  f.global_address = m.global_address;
  f.rank = m.rank;
  f.dtype = Fw(m.dtype);
  f.dims = m.dims;
  f.strides = m.strides;
  f.box = m.box;
  f.element_strides = m.element_strides;
  f.interleave = Fw(m.interleave);
  f.swizzle = Fw(m.swizzle);
  f.l2_promotion = Fw(m.l2_promotion);
  f.oob_fill = Fw(m.oob_fill);
  f.lower = m.lower;
  f.upper = m.upper;
  f.channels_per_pixel = m.channels_per_pixel;
  f.pixels_per_column = m.pixels_per_column;
  f.wide_mode = static_cast<fw::TensorMapIm2colWideMode>(m.wide_mode);
  return f;
}

std::vector<RuleViolation> FindRuleViolations(const TensorMap& m, Arch arch) {
  std::vector<RuleViolation> out;
  for (fw::Violation& v : fw::FindRuleViolations(ToFwFields(m), arch))
    out.push_back({v.rule, ToStatus(std::move(v))});
  return out;
}

Status ValidateTensorMap(const TensorMap& m, Arch arch) {
  std::vector<fw::Violation> v = fw::FindRuleViolations(ToFwFields(m), arch);
  return v.empty() ? Status::Ok() : ToStatus(std::move(v.front()));
}

Status EncodeTiled(DescriptorBytes* out, DType type, uint32_t rank, uint64_t global_address,
                   const uint64_t* global_dim, const uint64_t* global_strides,
                   const uint32_t* box_dim, const uint32_t* element_strides, Interleave interleave,
                   Swizzle swizzle, L2Promotion l2_promotion, OobFill oob_fill, Arch arch) {
  fw::TensorMap map;
  fw::Violation why;
  const fw::Result r = fw::EncodeTiled(&map, Fw(type), rank, global_address, global_dim,
                                       global_strides, box_dim, element_strides, Fw(interleave),
                                       Fw(swizzle), Fw(l2_promotion), Fw(oob_fill), arch, &why);
  return Verdict(r, std::move(why), map, out);
}

Status EncodeIm2col(DescriptorBytes* out, DType type, uint32_t rank, uint64_t addr,
                    const uint64_t* dims, const uint64_t* strides, const int* lower_corner,
                    const int* upper_corner, uint32_t channels_per_pixel,
                    uint32_t pixels_per_column, const uint32_t* element_strides,
                    Interleave interleave, Swizzle swizzle, L2Promotion l2_promotion,
                    OobFill oob_fill, Arch arch) {
  fw::TensorMap map;
  fw::Violation why;
  const fw::Result r =
      fw::EncodeIm2col(&map, Fw(type), rank, addr, dims, strides, lower_corner, upper_corner,
                       channels_per_pixel, pixels_per_column, element_strides, Fw(interleave),
                       Fw(swizzle), Fw(l2_promotion), Fw(oob_fill), arch, &why);
  return Verdict(r, std::move(why), map, out);
}

Status EncodeIm2colWide(DescriptorBytes* out, DType type, uint32_t rank, uint64_t addr,
                        const uint64_t* dims, const uint64_t* strides, int lower_corner_w,
                        int upper_corner_w, uint32_t channels_per_pixel, uint32_t pixels_per_column,
                        const uint32_t* element_strides, Interleave interleave, WideMode mode,
                        Swizzle swizzle, L2Promotion l2_promotion, OobFill oob_fill, Arch arch) {
  fw::TensorMap map;
  fw::Violation why;
  const fw::Result r =
      fw::EncodeIm2colWide(&map, Fw(type), rank, addr, dims, strides, lower_corner_w,
                           upper_corner_w, channels_per_pixel, pixels_per_column, element_strides,
                           Fw(interleave), static_cast<fw::TensorMapIm2colWideMode>(mode),
                           Fw(swizzle), Fw(l2_promotion), Fw(oob_fill), arch, &why);
  return Verdict(r, std::move(why), map, out);
}

}  // namespace tma::model
