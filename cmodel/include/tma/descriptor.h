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

#include "tma/autogen/numbering.h"

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

// Bit positions: num::kDesc<Field>Lsb / kDesc<Field>W (tma/autogen/numbering.h, generated from
// rtl/data/tma_numbering.json; docs/descriptor.md has the field table).

}  // namespace tma::model

#endif  // TMA_DESCRIPTOR_H_
