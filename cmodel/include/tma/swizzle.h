// SPDX-License-Identifier: Apache-2.0
//
// Shared-memory swizzle: the address permutation a tensor copy applies to the ABSOLUTE shared
// address of every 16-byte chunk (silicon finding D6, tensor-semantics.md section 4.1).
#ifndef TMA_SWIZZLE_H_
#define TMA_SWIZZLE_H_

#include <cstdint>

#include "tma/types.h"

namespace tma::model {

// Row span of a swizzle mode: 0 (none), 32, 64, 128 (all 128B variants), 96 (sm_103a 96B).
// A box row narrower than the span still occupies a whole span in shared memory (D6).
uint32_t SwizzleSpanBytes(Swizzle s);

// Bytes after which the address pattern repeats: 256 (32B, 96B, 128B_atom_64B), 512 (64B,
// 128B_atom_32B, 128B_atom_32B_flip_8B), 1024 (128B); 0 for none. (Not the descriptor's
// swizzle-repeat field, which is descriptor.h's SwizzleRepeatBytes.)
uint32_t SwizzlePatternBytes(Swizzle s);

// Smallest block the swizzle keeps together: 16 bytes, except 8 for 128B_atom_32B_flip_8B.
uint32_t SwizzleGranuleBytes(Swizzle s);

// The physical shared address of the logical (unswizzled) absolute address `a`:
//   32B   a ^ (((a >> 7) & 1) << 4)      CuTe Swizzle<1,4,3>        [HW]
//   64B   a ^ (((a >> 7) & 3) << 4)      Swizzle<2,4,3>             [HW]
//   128B  a ^ (((a >> 7) & 7) << 4)      Swizzle<3,4,3>             [HW]
//   128B_atom_32B        a ^ (((a >> 7) & 3) << 5)                  [INF] Swizzle<2,5,2>
//   128B_atom_32B_flip_8B  as atom_32B, and bit 3 ^= bit 7          [INF]
//   128B_atom_64B        a ^ (((a >> 7) & 1) << 6)                  [INF]
//   96B   same 16-byte pattern as 32B (0..7 / 1 0 3 2 5 4 7 6, 256 B repeat)  [INF]
// Every mode is an involution (applying it twice gives `a` back), so the same function maps
// physical to logical addresses.
uint32_t SwizzleAddress(uint32_t a, Swizzle s);

}  // namespace tma::model

#endif  // TMA_SWIZZLE_H_
