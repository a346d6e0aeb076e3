// SPDX-License-Identifier: Apache-2.0
//
// The C API (tma/tma_fw.h) over the encoder (tma/fw/encoder.h).
#include <cstring>

#include "tma/fw/encoder.h"
#include "tma/tma_fw.h"

namespace {

namespace fw = tma::fw;

static_assert(sizeof(tma_fw_tensor_map_t) == fw::kTensorMapBytes);
static_assert(TMA_FW_DATA_TYPE_16U6_ALIGN16B ==
              static_cast<int>(fw::TensorMapDataType::k16U6Align16B));
static_assert(TMA_FW_SWIZZLE_96B == static_cast<int>(fw::TensorMapSwizzle::k96B));
static_assert(TMA_FW_ERROR_INVALID_VALUE == static_cast<int>(fw::Result::kErrorInvalidValue));
static_assert(TMA_FW_ARCH_SM103 == static_cast<int>(fw::Arch::kSm103));

// A C enum argument as the encoder's 8-bit enum: a value beyond 8 bits becomes 255, which no
// enum names, so the encoder rejects it as the driver would (not a silent wrap to a valid one).
template <typename E>
E Enum(int v) {
  return static_cast<E>(v < 0 || v > 255 ? 255 : v);
}

void CopyCut(char* dst, size_t cap, const std::string& s) {
  const size_t n = s.size() < cap - 1 ? s.size() : cap - 1;
  std::memcpy(dst, s.data(), n);
  dst[n] = '\0';
}

tma_fw_result_t Finish(fw::Result r, const fw::TensorMap& map, const fw::Violation& v,
                       tma_fw_tensor_map_t* out, tma_fw_violation_t* why) {
  std::memcpy(out->opaque, map.bytes.data(), fw::kTensorMapBytes);
  if (why != nullptr) {
    why->rule = v.rule;
    CopyCut(why->field, sizeof(why->field), v.field);
    CopyCut(why->message, sizeof(why->message), v.message);
  }
  return static_cast<tma_fw_result_t>(r);
}

}  // namespace

extern "C" {

tma_fw_result_t tma_fw_encode_tiled(tma_fw_tensor_map_t* tensor_map, tma_fw_data_type_t data_type,
                                    uint32_t rank, uint64_t global_address,
                                    const uint64_t* global_dim, const uint64_t* global_strides,
                                    const uint32_t* box_dim, const uint32_t* element_strides,
                                    tma_fw_interleave_t interleave, tma_fw_swizzle_t swizzle,
                                    tma_fw_l2_promotion_t l2_promotion, tma_fw_oob_fill_t oob_fill,
                                    tma_fw_arch_t arch, tma_fw_violation_t* why) {
  fw::TensorMap map;
  fw::Violation v;
  const fw::Result r = fw::EncodeTiled(
      &map, Enum<fw::TensorMapDataType>(data_type), rank, global_address, global_dim,
      global_strides, box_dim, element_strides, Enum<fw::TensorMapInterleave>(interleave),
      Enum<fw::TensorMapSwizzle>(swizzle), Enum<fw::TensorMapL2Promotion>(l2_promotion),
      Enum<fw::TensorMapFloatOobFill>(oob_fill), Enum<fw::Arch>(arch), &v);
  return Finish(r, map, v, tensor_map, why);
}

tma_fw_result_t tma_fw_encode_im2col(tma_fw_tensor_map_t* tensor_map, tma_fw_data_type_t data_type,
                                     uint32_t rank, uint64_t global_address,
                                     const uint64_t* global_dim, const uint64_t* global_strides,
                                     const int* pixel_box_lower_corner,
                                     const int* pixel_box_upper_corner, uint32_t channels_per_pixel,
                                     uint32_t pixels_per_column, const uint32_t* element_strides,
                                     tma_fw_interleave_t interleave, tma_fw_swizzle_t swizzle,
                                     tma_fw_l2_promotion_t l2_promotion, tma_fw_oob_fill_t oob_fill,
                                     tma_fw_arch_t arch, tma_fw_violation_t* why) {
  fw::TensorMap map;
  fw::Violation v;
  const fw::Result r = fw::EncodeIm2col(
      &map, Enum<fw::TensorMapDataType>(data_type), rank, global_address, global_dim,
      global_strides, pixel_box_lower_corner, pixel_box_upper_corner, channels_per_pixel,
      pixels_per_column, element_strides, Enum<fw::TensorMapInterleave>(interleave),
      Enum<fw::TensorMapSwizzle>(swizzle), Enum<fw::TensorMapL2Promotion>(l2_promotion),
      Enum<fw::TensorMapFloatOobFill>(oob_fill), Enum<fw::Arch>(arch), &v);
  return Finish(r, map, v, tensor_map, why);
}

tma_fw_result_t tma_fw_encode_im2col_wide(
    tma_fw_tensor_map_t* tensor_map, tma_fw_data_type_t data_type, uint32_t rank,
    uint64_t global_address, const uint64_t* global_dim, const uint64_t* global_strides,
    int pixel_box_lower_corner_width, int pixel_box_upper_corner_width, uint32_t channels_per_pixel,
    uint32_t pixels_per_column, const uint32_t* element_strides, tma_fw_interleave_t interleave,
    tma_fw_im2col_wide_mode_t mode, tma_fw_swizzle_t swizzle, tma_fw_l2_promotion_t l2_promotion,
    tma_fw_oob_fill_t oob_fill, tma_fw_arch_t arch, tma_fw_violation_t* why) {
  fw::TensorMap map;
  fw::Violation v;
  const fw::Result r = fw::EncodeIm2colWide(
      &map, Enum<fw::TensorMapDataType>(data_type), rank, global_address, global_dim,
      global_strides, pixel_box_lower_corner_width, pixel_box_upper_corner_width,
      channels_per_pixel, pixels_per_column, element_strides,
      Enum<fw::TensorMapInterleave>(interleave), Enum<fw::TensorMapIm2colWideMode>(mode),
      Enum<fw::TensorMapSwizzle>(swizzle), Enum<fw::TensorMapL2Promotion>(l2_promotion),
      Enum<fw::TensorMapFloatOobFill>(oob_fill), Enum<fw::Arch>(arch), &v);
  return Finish(r, map, v, tensor_map, why);
}

const char* tma_fw_data_type_name(tma_fw_data_type_t t) {
  return fw::ToString(Enum<fw::TensorMapDataType>(t));
}
const char* tma_fw_swizzle_name(tma_fw_swizzle_t s) {
  return fw::ToString(Enum<fw::TensorMapSwizzle>(s));
}
const char* tma_fw_arch_name(tma_fw_arch_t a) {
  return fw::ToString(Enum<fw::Arch>(a));
}

}  // extern "C"
