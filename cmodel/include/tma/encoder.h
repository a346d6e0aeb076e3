// SPDX-License-Identifier: Apache-2.0
//
// The CUDA driver's tensor-map encoders (cuTensorMapEncodeTiled / Im2col / Im2colWide): the
// acceptance rules measured on an H100 (shared/spec/silicon-findings.md, "Encoder rules"
// 1-20), the documented sm_100 extensions, and the bit packing of descriptor.h.
// Every violation is invalid_descriptor with `field` naming the driver parameter
// ("boxDim[2]", "globalStrides[0]", "swizzle", ...) and a message giving the rule and value.
#ifndef TMA_ENCODER_H_
#define TMA_ENCODER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tma/descriptor.h"
#include "tma/types.h"

namespace tma::model {

// The device the encoder targets. kSm90 is what was measured; kSm100 / kSm103 add the
// documented Blackwell features (sub-byte types, 128B-atom swizzles, im2col-wide; 96B
// swizzle on sm_103 only), unverified on silicon.
enum class Arch : uint8_t { kSm90 = 0, kSm100 = 1, kSm103 = 2 };

// "sm_90", "sm_90a" -> kSm90; "sm_100", "sm_100a", "sm_100f", "sm_101a", "sm_110a", "sm_110f"
// -> kSm100; "sm_103", "sm_103a", "sm_103f" -> kSm103; anything else -> nullopt.
std::optional<Arch> ParseArch(const std::string& s);
const char* ToString(Arch a);  // "sm_90", "sm_100", "sm_103"

inline constexpr uint64_t kMaxBoxBytes = 233472;  // 228 KiB, measured (rule 14 / 20)

// One broken rule. `rule` is the number of silicon-findings.md "Encoder rules" (1-20); the
// im2col-wide rules of tensor-semantics.md §12.3 are 21 (device is sm_100+), 22 (mode),
// 23 (no interleave) and 24 (swizzle set). Documented sm_100 restrictions of the packed
// sub-byte types are reported under the rule of the parameter they restrict.
struct RuleViolation {
  int rule = 0;
  Status status;
};

// Every rule `m` breaks, by rule number then parameter index (empty = the driver accepts).
std::vector<RuleViolation> FindRuleViolations(const TensorMap& m, Arch arch = Arch::kSm90);

// The first violation of FindRuleViolations, or ok.
Status ValidateTensorMap(const TensorMap& m, Arch arch = Arch::kSm90);

// The encoders, parameter for parameter the driver's. On success *out holds the map the
// driver writes. On a rejection the driver still writes a partial map (zeroed, then filled
// up to the failing check); these leave *out all zero instead.
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
