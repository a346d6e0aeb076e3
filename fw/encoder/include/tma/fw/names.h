// SPDX-License-Identifier: Apache-2.0
//
// The spellings the model, the golden cases and the firmware share, indexed by the enum value
// (tma/fw/encoder.h's driver enums and Arch; the engine's error classes, tma_pkg Err*). One
// table each: the model's ToString / Parse functions (cmodel/src/types.cc) read these too.
#ifndef TMA_FW_NAMES_H_
#define TMA_FW_NAMES_H_

namespace tma::fw {

inline constexpr const char* kDataTypeNames[] = {
    "u8",  "u16",  "u32",     "s32",  "u64",      "s64",   "f16",       "f32",
    "f64", "bf16", "f32.ftz", "tf32", "tf32.ftz", "b4x16", "b4x16_p64", "b6x16_p32",
};
inline constexpr const char* kInterleaveNames[] = {"none", "16B", "32B"};
inline constexpr const char* kSwizzleNames[] = {
    "none", "32B", "64B", "128B", "128B_atom_32B", "128B_atom_32B_flip_8B", "128B_atom_64B", "96B",
};
inline constexpr const char* kArchNames[] = {"sm_90", "sm_100", "sm_103"};
// Error classes in the order of shared/spec/golden-cases.md (= tma_pkg Err*); 0 is "ok".
inline constexpr const char* kErrorClassNames[] = {
    "ok",
    "invalid_descriptor",
    "misaligned",
    "misaligned_coordinate",
    "invalid_coordinate",
    "unsupported_reduction",
    "invalid_instruction",
    "unsupported",
    "bus_error",
};

// The name of value `v` in `names`, or "?" beyond the table.
template <typename E, unsigned long N>
const char* NameOf(const char* const (&names)[N], E v) {
  const auto i = static_cast<unsigned long>(v);
  return i < N ? names[i] : "?";
}

}  // namespace tma::fw

#endif  // TMA_FW_NAMES_H_
