// SPDX-License-Identifier: Apache-2.0
//
// The model's view of the tensor-map encoder. The encoder itself (the driver's acceptance
// rules and the bit packing) is the firmware's, fw/encoder (tma/fw/encoder.h, library
// tma_fw_encoder): this header only translates between the model's vocabulary (types.h,
// TensorMap, Status) and the encoder's, so the model and the firmware share one encoder.
// Every violation is invalid_descriptor with `field` naming the driver parameter
// ("boxDim[2]", "globalStrides[0]", "swizzle", ...) and a message giving the rule and value.
#ifndef TMA_ENCODER_H_
#define TMA_ENCODER_H_

#include <cstdint>
#include <vector>

#include "tma/descriptor.h"
#include "tma/fw/encoder.h"
#include "tma/types.h"

namespace tma::model {

// The device the encoder targets: the firmware's enum (kSm90 measured; kSm100 / kSm103 the
// documented Blackwell features, unverified on silicon), with its names.
using Arch = tma::fw::Arch;
using tma::fw::ParseArch;
using tma::fw::ToString;

using tma::fw::kMaxBoxBytes;

// The model's TensorMap as the encoder's fields (the enums have the same values).
tma::fw::TensorMapFields ToFwFields(const TensorMap& m);

// One broken rule (tma::fw::Violation as a Status).
struct RuleViolation {
  int rule = 0;
  Status status;
};

// Every rule `m` breaks, by rule number then parameter index (empty = the driver accepts).
std::vector<RuleViolation> FindRuleViolations(const TensorMap& m, Arch arch = Arch::kSm90);

// The first violation of FindRuleViolations, or ok.
Status ValidateTensorMap(const TensorMap& m, Arch arch = Arch::kSm90);

// tma::fw::EncodeTiled / EncodeIm2col / EncodeIm2colWide in the model's vocabulary: ok, or
// invalid_descriptor with the first broken rule; *out all zero on a rejection.
Status EncodeTiled(DescriptorBytes* out, DType type, uint32_t rank, uint64_t global_address,
                   const uint64_t* global_dim, const uint64_t* global_strides,
                   const uint32_t* box_dim, const uint32_t* element_strides, Interleave interleave,
                   Swizzle swizzle, L2Promotion l2_promotion, OobFill oob_fill,
                   Arch arch = Arch::kSm90);
Status EncodeIm2col(DescriptorBytes* out, DType type, uint32_t rank, uint64_t addr,
                    const uint64_t* dims, const uint64_t* strides, const int* lower_corner,
                    const int* upper_corner, uint32_t channels_per_pixel,
                    uint32_t pixels_per_column, const uint32_t* element_strides,
                    Interleave interleave, Swizzle swizzle, L2Promotion l2_promotion,
                    OobFill oob_fill, Arch arch = Arch::kSm90);
// mode kW128: pixelsPerColumn is ignored (not checked) and the map stores 128.
Status EncodeIm2colWide(DescriptorBytes* out, DType type, uint32_t rank, uint64_t addr,
                        const uint64_t* dims, const uint64_t* strides, int lower_corner_w,
                        int upper_corner_w, uint32_t channels_per_pixel, uint32_t pixels_per_column,
                        const uint32_t* element_strides, Interleave interleave, WideMode mode,
                        Swizzle swizzle, L2Promotion l2_promotion, OobFill oob_fill,
                        Arch arch = Arch::kSm100);

}  // namespace tma::model

#endif  // TMA_ENCODER_H_
