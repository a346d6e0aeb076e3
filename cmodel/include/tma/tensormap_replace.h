// SPDX-License-Identifier: Apache-2.0
//
// PTX tensormap.replace.tile.<field> (PTX ISA §9.7.9.26, Table 33): edits one field of a
// 128-byte tile-mode tensor map in place.
#ifndef TMA_TENSORMAP_REPLACE_H_
#define TMA_TENSORMAP_REPLACE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "tma/encoder.h"
#include "tma/types.h"

namespace tma::model {

enum class ReplaceField : uint8_t {
  kGlobalAddress,     // field1, .b64: the new base address
  kRank,              // field1, .b32: new_val = rank - 1 (0..4)
  kBoxDim,            // field2, .b32, ordinal 0..4: 1..256
  kGlobalDim,         // field2, .b32, ordinal 0..4: 1..2^32-1
  kGlobalStride,      // field2, .b64, ordinal 0..3 (= globalStrides[ord]): bytes
  kElementStride,     // field2, .b32, ordinal 0..4: 1..8
  kElemType,          // field3: PTX numbering 0..15 (Table 33), not the driver enum
  kInterleaveLayout,  // field3: 0 none, 1 16B, 2 32B
  kSwizzleMode,       // field3: 0 none, 1 32B, 2 64B, 3 128B, 4 96B (sm_103 only)
  kSwizzleAtomicity,  // field3: 0 16B, 1 32B, 2 32B + 8B flip, 3 64B (sm_100+)
  kFillMode,          // field3: 0 zero, 1 OOB-NaN
};

// The PTX qualifier without the dot: "global_address", "rank", "box_dim", "global_dim",
// "global_stride", "element_stride", "elemtype", "interleave_layout", "swizzle_mode",
// "swizzle_atomicity", "fill_mode".
std::optional<ReplaceField> ParseReplaceField(const std::string& ptx_name);
const char* ToString(ReplaceField f);
bool ReplaceFieldHasOrdinal(ReplaceField f);  // field2
bool ReplaceFieldIsB64(ReplaceField f);       // global_address, global_stride

// PTX .elemtype numbering (Table 33) <-> DType.
std::optional<DType> DTypeFromPtxElemtype(uint64_t v);
uint8_t PtxElemtype(DType t);

// Replaces field `f` (element `ordinal` for field2; ignored otherwise) of the tile-mode map
// at `map128` with `new_val`, then recomputes the two derived fields (box bytes, swizzle
// repeat) from the map's fields. Only that field's bits change otherwise: no check is made
// that the resulting map is a valid one (the engine checks a map when it uses it).
// Rejects, leaving the map unchanged, with invalid_instruction and field = the PTX
// qualifier ("box_dim", "swizzle_mode", ...) or "ord": a new_val Table 33 marks x, a value
// outside the field's range, an ordinal out of range, a .b32 operand above 2^32-1, a
// qualifier value the architecture lacks (elemtype 13-15 and swizzle_atomicity before
// sm_100, swizzle_mode 4 except on sm_103), or an im2col map (mode "tile" only).
Status TensormapReplace(uint8_t* map128, ReplaceField f, int ordinal, uint64_t new_val,
                        Arch arch = Arch::kSm90);

}  // namespace tma::model

#endif  // TMA_TENSORMAP_REPLACE_H_
