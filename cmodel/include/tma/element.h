// SPDX-License-Identifier: Apache-2.0
//
// Element-level data semantics: sizes and packing of every element type, the OOB fill pattern
// (silicon D2), the load-side tf32 rounding (D3) and the round-to-nearest-even float
// conversions the reductions use (D9).
#ifndef TMA_ELEMENT_H_
#define TMA_ELEMENT_H_

#include <cstdint>
#include <vector>

#include "tma/types.h"

namespace tma::model {

// How an element type moves. Dimension 0 is traversed in "units": one element for whole-byte
// types; for the packed sub-byte types (sm_100+, [DOC] PTX 5.5.1 / tensor-semantics 2):
//   b4x16     a unit is one byte = 2 nibbles, copied as-is (16 nibbles = 8 B per group)
//   b4x16_p64 a unit is a group of 16 nibbles: 8 B in global, 16 B in shared memory (the upper
//             8 B are "uninitialised" in PTX; this model writes zeros there [INF])
//   b6x16_p32 a unit is a group of 16 6-bit values: 12 B in global, 16 B in shared memory (the
//             upper 4 B zero [INF]); stores (.b6p2x16) pack sixteen 8-bit containers into 12 B
struct ElementLayout {
  uint32_t bits = 8;         // bits of one element in global memory: 8, 16, 32, 64, 4 or 6
  uint32_t unit_elems = 1;   // elements per unit
  uint32_t unit_gbytes = 1;  // bytes of a unit in global memory
  uint32_t unit_sbytes = 1;  // bytes of a unit in shared memory
};
ElementLayout LayoutOf(DType t);

// One element's OOB fill (one unit for sub-byte types): zeros, or for kNan the 16-bit pattern
// 0x7FF7 repeated over the element, little-endian (f16/bf16 f7 7f, f32 f7 7f f7 7f, ...).
std::vector<uint8_t> OobFillBytes(DType t, OobFill f);

// Load-side tf32 rounding (D3): mantissa rounded to 10 bits, round to nearest with ties to
// EVEN (`(u + 0xFFF + ((u >> 13) & 1)) & ~0x1FFF`; H200 measurement, docs/silicon-notes.md
// finding 1: 13 ties with an even kept LSB rounded down, 12 odd ones up); NaN inputs become
// 0x7FFFE000 (sign dropped); denormals are rounded, not flushed; a carry out of the largest
// finite value rounds to Inf (not measured: the golden fills cannot make Inf inputs).
uint32_t RoundToTf32(uint32_t f32_bits);

// Round-to-nearest-even conversions. Subnormals are kept (no flush). A NaN converts to the
// canonical NaN 0x7FFF [INF].
uint16_t F32ToF16(float f);
uint16_t F32ToBf16(float f);
float F16ToF32(uint16_t h);
float Bf16ToF32(uint16_t b);
// RNE from double (used where a double holds an exact or innocuously-rounded intermediate).
uint16_t F64ToF16(double d);
uint16_t F64ToBf16(double d);

// Bit casts.
uint32_t FloatBits(float f);
float BitsFloat(uint32_t u);
uint64_t DoubleBits(double d);
double BitsDouble(uint64_t u);

}  // namespace tma::model

#endif  // TMA_ELEMENT_H_
