// SPDX-License-Identifier: Apache-2.0
//
// The 128-byte (1024-bit) CUtensorMap: bit packing and unpacking of a TensorMap.
// The layout is the one measured on an H100 (shared/spec/silicon-findings.md, "The 128-byte
// descriptor"), extended for the sm_100-only fields; docs/descriptor.md has the field table
// and says which bits are measured and which are our choice.
#ifndef TMA_DESCRIPTOR_H_
#define TMA_DESCRIPTOR_H_

#include <array>
#include <cstdint>
#include <optional>

#include "tma/swizzle.h"  // SwizzleSpanBytes
#include "tma/types.h"

namespace tma::model {

using DescriptorBytes = std::array<uint8_t, kDescriptorBytes>;

// Bit packing only, no validation: every field is written as given (masked to its width),
// entries beyond the rank included, plus the two derived fields (box bytes at bit 512,
// swizzle repeat at bit 576). A map the driver would make encodes to the driver's bytes.
DescriptorBytes EncodeDescriptor(const TensorMap& m);

// Unpacks 128 bytes. Returns invalid_descriptor (field = the descriptor field, message with
// the bit position and value) for codes that name nothing (element type 14/15, interleave 3,
// tf32 flag on a non-f32 type, im2col with rank < 3, ...), for a set bit outside every field,
// and for derived fields that disagree with the fields they derive from. A map this accepts
// re-encodes to the same bytes: EncodeDescriptor(*out) == bytes.
Status DecodeDescriptor(const uint8_t* bytes, TensorMap* out);

// ---- Field helpers shared by the encoders and tensormap.replace -----------------------------
// The 4-bit hardware element format (bits 71-74) and the tf32 flag (bit 80) of a type.
uint8_t HardwareTypeCode(DType t);
bool HardwareTf32Flag(DType t);
// Inverse; std::nullopt for a (code, flag) pair that names no type.
std::optional<DType> DTypeFromHardware(uint8_t code, bool tf32);

// Bits one element occupies in shared memory: ElementBits for whole-byte types, 4 for b4x16,
// 8 for the padded b4x16_p64 and b6x16_p32 (16 elements fill 16 bytes).
int SmemElementBits(DType t);

// The derived field at bit 512: tiled E * prod_{i<rank} floor(box[i] / es[i]); im2col and
// im2col-wide channelsPerPixel * E * pixelsPerColumn (E in shared-memory bytes, rounded up
// to whole bytes for b4x16).
uint64_t DescriptorBoxBytes(const TensorMap& m);

// The derived field at bit 576: 16 (none), 256 (32B, 96B), 512 (64B), 1024 (128B, 128B_atom_*).
uint32_t SwizzleRepeatBytes(Swizzle s);

// Bit-field access on a 128-byte map (little-endian 1024-bit integer; width <= 64).
uint64_t GetDescriptorBits(const uint8_t* map128, int lsb, int width);
void SetDescriptorBits(uint8_t* map128, int lsb, int width, uint64_t value);

// Bit positions (see docs/descriptor.md).
namespace desc_bits {
inline constexpr int kAddress = 0;            // 64
inline constexpr int kMode = 64;              // 1: 0 tiled, 1 im2col / im2col-wide
inline constexpr int kVersion = 65;           // 3: always 0 here
inline constexpr int kRank = 68;              // 3: rank - 1
inline constexpr int kType = 71;              // 4: hardware element format
inline constexpr int kInterleave = 75;        // 2
inline constexpr int kSwizzle = 77;           // 2: span 0 none, 1 32B, 2 64B, 3 128B
inline constexpr int kOobFill = 79;           // 1
inline constexpr int kTf32 = 80;              // 1
inline constexpr int kL2Promotion = 81;       // 2
inline constexpr int kSwizzleAtom = 83;       // 2: 0 16B, 1 32B, 2 32B+8B flip, 3 64B (sm_100)
inline constexpr int kOobAddrMode = 85;       // 1: internal-header field, not modelled (must be 0)
inline constexpr int kIm2colWide = 86;        // 1: our choice (unverified)
inline constexpr int kWideMode = 87;          // 1: our choice (unverified)
inline constexpr int kSwizzle96B = 88;        // 1: our choice (unverified)
inline constexpr int kStrideLo = 96;          // 32 each, +32 per stride
inline constexpr int kStrideHi = 224;         // 4 each, +4 per stride
inline constexpr int kDim = 256;              // 32 each, +32 per dim
inline constexpr int kElemStride = 416;       // 3 each, +3 per dim
inline constexpr int kBox0 = 440;             // 8: tiled box[0]-1, im2col channelsPerPixel-1
inline constexpr int kBox1 = 448;             // 8 each for box[1..4], tiled
inline constexpr int kLowerCorner = 448;      // im2col, width 16/8/5 for rank 3/4/5
inline constexpr int kUpperCorner = 464;      // im2col
inline constexpr int kPixelsPerColumn = 480;  // 10
inline constexpr int kBoxBytes = 512;         // 32 (derived)
inline constexpr int kSwizzleRepeat = 576;    // 32 (derived)
}  // namespace desc_bits

}  // namespace tma::model

#endif  // TMA_DESCRIPTOR_H_
