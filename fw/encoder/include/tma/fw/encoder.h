// SPDX-License-Identifier: Apache-2.0
//
// The tensor-map encoder of OpenTMA: the CUDA driver's cuTensorMapEncodeTiled /
// cuTensorMapEncodeIm2col / cuTensorMapEncodeIm2colWide, parameter for parameter, with the
// driver's accept/reject verdicts and the 128 bytes it writes. The ONE encoder of the project:
// the firmware (fw/) and the reference model (cmodel/, through tma/encoder.h) both use it.
//
// Acceptance rules: the driver's, measured on an H100 (shared/spec/silicon-findings.md,
// "Encoder rules" 1-20; all 3,300 measured verdicts and the bytes of the 2,075 accepted maps in
// tests/vectors/silicon/encoder/ are reproduced), the documented sm_100 extensions and the
// im2col-wide rules of tensor-semantics.md §12.3 (21-24; unverified on silicon).
// Bit layout: docs/descriptor.md, positions from tma/autogen/numbering.h (generated from
// rtl/data/tma_numbering.json, the numbering the RTL shares).
//
// Freestanding apart from the C++17 standard library: no model, no third-party library, so it
// links on a host or on a soft/hard CPU. The C API over it is tma/tma_fw.h.
#ifndef TMA_FW_ENCODER_H_
#define TMA_FW_ENCODER_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tma::fw {

// ---- The driver's enums, with the driver's numeric values ------------------------------------
enum class TensorMapDataType : uint8_t {  // CUtensorMapDataType
  kUint8 = 0,
  kUint16 = 1,
  kUint32 = 2,
  kInt32 = 3,
  kUint64 = 4,
  kInt64 = 5,
  kFloat16 = 6,
  kFloat32 = 7,
  kFloat64 = 8,
  kBfloat16 = 9,
  kFloat32Ftz = 10,
  kTfloat32 = 11,
  kTfloat32Ftz = 12,
  k16U4Align8B = 13,   // CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B  (b4x16)      sm_100+
  k16U4Align16B = 14,  // CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B (b4x16_p64)  sm_100+
  k16U6Align16B = 15,  // CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B (b6x16_p32)  sm_100+
};
inline constexpr int kNumDataTypes = 16;

enum class TensorMapInterleave : uint8_t { kNone = 0, k16B = 1, k32B = 2 };

// 0..6 are CUtensorMapSwizzle. The sm_103 96B swizzle has no driver value in the headers this
// was written against; it is 7 here (the golden cases' "96B").
enum class TensorMapSwizzle : uint8_t {
  kNone = 0,
  k32B = 1,
  k64B = 2,
  k128B = 3,
  k128BAtom32B = 4,
  k128BAtom32BFlip8B = 5,
  k128BAtom64B = 6,
  k96B = 7,
};

enum class TensorMapL2Promotion : uint8_t { kNone = 0, kL2_64B = 1, kL2_128B = 2, kL2_256B = 3 };
// CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE / _NAN_REQUEST_ZERO_FMA.
enum class TensorMapFloatOobFill : uint8_t { kNone = 0, kNanRequestZeroFma = 1 };
enum class TensorMapIm2colWideMode : uint8_t { kW = 0, kW128 = 1 };

// CUresult values the encoders return: success, or CUDA_ERROR_INVALID_VALUE for every
// rejected parameter (the only rejection code the driver gave in the 1,225 measured rejects).
enum class Result : uint32_t { kSuccess = 0, kErrorInvalidValue = 1 };

// The device the map is encoded for (the driver takes it from the current context). kSm90 is
// what was measured; kSm100 / kSm103 add the documented Blackwell features (sub-byte types,
// 128B-atom swizzles, im2col-wide; 96B swizzle on sm_103 only), unverified on silicon.
enum class Arch : uint8_t { kSm90 = 0, kSm100 = 1, kSm103 = 2 };

enum class MapMode : uint8_t { kTiled = 0, kIm2col = 1, kIm2colWide = 2 };

inline constexpr int kMaxRank = 5;
inline constexpr uint32_t kTensorMapBytes = 128;
inline constexpr uint64_t kMaxBoxBytes = 233472;  // 228 KiB, measured (rules 14 and 20)

// The 128 bytes of a CUtensorMap (the driver's type is 64-byte aligned).
struct alignas(64) TensorMap {
  std::array<uint8_t, kTensorMapBytes> bytes{};
};

// ---- Names -------------------------------------------------------------------------------------
// The golden-case spellings: "u8" ... "b6x16_p32"; "none", "16B", "32B"; "none", "32B", ...,
// "96B"; "sm_90", "sm_100", "sm_103". "?" for a value outside the enum.
const char* ToString(TensorMapDataType t);
const char* ToString(TensorMapInterleave v);
const char* ToString(TensorMapSwizzle v);
const char* ToString(Arch a);
// "sm_90", "sm_90a" -> kSm90; "sm_100", "sm_100a", "sm_100f", "sm_101*", "sm_110*" -> kSm100;
// "sm_103", "sm_103a", "sm_103f" -> kSm103; anything else -> nullopt.
std::optional<Arch> ParseArch(const std::string& s);

// ---- Element and swizzle properties (tables of tma/autogen/numbering.h) ------------------------
bool IsSubByte(TensorMapDataType t);  // the three packed 4/6-bit types
bool IsFloat(TensorMapDataType t);    // f16, f32, f64, bf16, f32.ftz, tf32, tf32.ftz
// Bits one element occupies in shared memory: whole-byte types their size, 4 for b4x16, 8 for
// the padded b4x16_p64 and b6x16_p32.
int SmemElementBits(TensorMapDataType t);
uint8_t HardwareTypeCode(TensorMapDataType t);  // the descriptor's 4-bit format (bits 71-74)
bool HardwareTf32Flag(TensorMapDataType t);     // the descriptor's tf32 bit (bit 80)
// Longest swizzled row: 32, 64, 128 (every 128B variant), 96; 0 for none.
uint32_t SwizzleSpanBytes(TensorMapSwizzle s);
// The descriptor's swizzle-repeat field (bit 576): 16, 256, 512 or 1024.
uint32_t SwizzleRepeatBytes(TensorMapSwizzle s);

// ---- The decoded map
// ----------------------------------------------------------------------------- Every field of a
// map, arrays innermost first; entries at or beyond `rank` keep their neutral value (dims 1,
// strides 0, box 1, element strides 1). The model's tma::model::TensorMap has the same fields in
// its own vocabulary (same numeric values).
struct TensorMapFields {
  MapMode mode = MapMode::kTiled;
  uint64_t global_address = 0;
  int rank = 1;
  TensorMapDataType dtype = TensorMapDataType::kUint8;
  std::array<uint64_t, kMaxRank> dims{1, 1, 1, 1, 1};
  std::array<uint64_t, kMaxRank - 1> strides{0, 0, 0, 0};  // bytes, of dims 1..rank-1
  std::array<uint32_t, kMaxRank> box{1, 1, 1, 1, 1};
  std::array<uint32_t, kMaxRank> element_strides{1, 1, 1, 1, 1};
  TensorMapInterleave interleave = TensorMapInterleave::kNone;
  TensorMapSwizzle swizzle = TensorMapSwizzle::kNone;
  TensorMapL2Promotion l2_promotion = TensorMapL2Promotion::kNone;
  TensorMapFloatOobFill oob_fill = TensorMapFloatOobFill::kNone;
  std::array<int32_t, kMaxRank - 2> lower{0, 0, 0};  // im2col corners W, H, D; wide: [0]
  std::array<int32_t, kMaxRank - 2> upper{0, 0, 0};
  uint32_t channels_per_pixel = 1;
  uint32_t pixels_per_column = 1;
  TensorMapIm2colWideMode wide_mode = TensorMapIm2colWideMode::kW;
};

// One broken acceptance rule: its number (silicon-findings.md "Encoder rules" 1-20; 21 device,
// 22 mode, 23 interleave, 24 swizzle of im2col-wide), the driver parameter it concerns
// ("boxDim[2]", "globalStrides[0]", "swizzle", ...) and a sentence with the rule and value.
struct Violation {
  int rule = 0;
  std::string field;
  std::string message;
};

// Every rule `m` breaks, by rule number then parameter index (empty: the driver accepts it).
std::vector<Violation> FindRuleViolations(const TensorMapFields& m, Arch arch = Arch::kSm90);

// The box bytes field (bit 512): tiled E * prod_{i<rank} floor(box[i] / es[i]); im2col and
// im2col-wide channelsPerPixel * E * pixelsPerColumn (E in shared-memory bits, rounded up to
// whole bytes).
uint64_t DescriptorBoxBytes(const TensorMapFields& m);

// Bit packing only, no validation: every field as given (masked to its width), plus the two
// derived fields. A map the driver accepts packs to the driver's bytes.
TensorMap PackTensorMap(const TensorMapFields& m);

// The im2col corner fields: bits per corner (16, 8 or 5 by rank; im2col-wide 16) and how many
// (rank - 2; im2col-wide 1).
int CornerFieldWidth(MapMode mode, int rank);
int NumCornerFields(MapMode mode, int rank);

// Bit-field access on 128 bytes (a little-endian 1024-bit integer; width <= 64).
uint64_t GetTensorMapBits(const uint8_t* map128, int lsb, int width);
void SetTensorMapBits(uint8_t* map128, int lsb, int width, uint64_t value);

// ---- The encoders
// --------------------------------------------------------------------------------- Parameters as
// the driver's (globalStrides has rank - 1 entries; the corners rank - 2). On kSuccess *tensor_map
// holds the driver's bytes. On a rejection the driver leaves a partial map; these leave all zero.
// `why`, if given, receives the first broken rule (rule 0 on success).
Result EncodeTiled(TensorMap* tensor_map, TensorMapDataType data_type, uint32_t rank,
                   uint64_t global_address, const uint64_t* global_dim,
                   const uint64_t* global_strides, const uint32_t* box_dim,
                   const uint32_t* element_strides, TensorMapInterleave interleave,
                   TensorMapSwizzle swizzle, TensorMapL2Promotion l2_promotion,
                   TensorMapFloatOobFill oob_fill, Arch arch = Arch::kSm90,
                   Violation* why = nullptr);

Result EncodeIm2col(TensorMap* tensor_map, TensorMapDataType data_type, uint32_t rank,
                    uint64_t global_address, const uint64_t* global_dim,
                    const uint64_t* global_strides, const int* pixel_box_lower_corner,
                    const int* pixel_box_upper_corner, uint32_t channels_per_pixel,
                    uint32_t pixels_per_column, const uint32_t* element_strides,
                    TensorMapInterleave interleave, TensorMapSwizzle swizzle,
                    TensorMapL2Promotion l2_promotion, TensorMapFloatOobFill oob_fill,
                    Arch arch = Arch::kSm90, Violation* why = nullptr);

// mode kW128: pixelsPerColumn is not checked and the map stores 128.
Result EncodeIm2colWide(TensorMap* tensor_map, TensorMapDataType data_type, uint32_t rank,
                        uint64_t global_address, const uint64_t* global_dim,
                        const uint64_t* global_strides, int pixel_box_lower_corner_width,
                        int pixel_box_upper_corner_width, uint32_t channels_per_pixel,
                        uint32_t pixels_per_column, const uint32_t* element_strides,
                        TensorMapInterleave interleave, TensorMapIm2colWideMode mode,
                        TensorMapSwizzle swizzle, TensorMapL2Promotion l2_promotion,
                        TensorMapFloatOobFill oob_fill, Arch arch = Arch::kSm100,
                        Violation* why = nullptr);

// Validates already-filled fields and packs them: the three encoders end here.
Result EncodeFields(TensorMap* tensor_map, const TensorMapFields& m, Arch arch,
                    Violation* why = nullptr);

}  // namespace tma::fw

#endif  // TMA_FW_ENCODER_H_
