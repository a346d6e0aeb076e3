// SPDX-License-Identifier: Apache-2.0
//
// PTX tensormap.replace on the 128-byte map (docs/descriptor.md, "tensormap.replace").
#include "tma/tensormap_replace.h"

#include <cstdint>
#include <string>

#include "tma/descriptor.h"

namespace tma::model {
namespace {

namespace b = desc_bits;
using std::to_string;

constexpr const char* kNames[] = {
    "global_address", "rank",     "box_dim",           "global_dim",   "global_stride",
    "element_stride", "elemtype", "interleave_layout", "swizzle_mode", "swizzle_atomicity",
    "fill_mode",
};

constexpr DType kPtxElemtype[16] = {
    DType::kU8,      DType::kU16,   DType::kU32,      DType::kS32,      DType::kU64,  DType::kS64,
    DType::kF16,     DType::kF32,   DType::kF32Ftz,   DType::kF64,      DType::kBF16, DType::kTF32,
    DType::kTF32Ftz, DType::kB4x16, DType::kB4x16P64, DType::kB6x16P32,
};

Status Bad(ReplaceField f, const std::string& msg) {
  return Status::Error(ErrorClass::kInvalidInstruction, ToString(f), msg);
}

// Recomputes bits 512 (box bytes) and 576 (swizzle repeat) from the raw fields. A field
// combination that names nothing (unknown type code) leaves the box-bytes field as it was.
void RecomputeDerived(uint8_t* p) {
  TensorMap m;
  m.mode = GetDescriptorBits(p, b::kMode, 1) ? MapMode::kIm2col : MapMode::kTiled;
  m.rank = static_cast<int>(GetDescriptorBits(p, b::kRank, 3)) + 1;
  if (m.rank > kMaxRank)
    m.rank = kMaxRank;
  for (int i = 0; i < kMaxRank; ++i) {
    m.element_strides[i] =
        static_cast<uint32_t>(GetDescriptorBits(p, b::kElemStride + 3 * i, 3)) + 1;
    m.box[i] =
        static_cast<uint32_t>(GetDescriptorBits(p, i == 0 ? b::kBox0 : b::kBox1 + 8 * (i - 1), 8)) +
        1;
  }
  m.channels_per_pixel = static_cast<uint32_t>(GetDescriptorBits(p, b::kBox0, 8)) + 1;
  m.pixels_per_column = static_cast<uint32_t>(GetDescriptorBits(p, b::kPixelsPerColumn, 10)) + 1;
  const std::optional<DType> t = DTypeFromHardware(
      static_cast<uint8_t>(GetDescriptorBits(p, b::kType, 4)), GetDescriptorBits(p, b::kTf32, 1));
  if (t) {
    m.dtype = *t;
    SetDescriptorBits(p, b::kBoxBytes, 32, DescriptorBoxBytes(m));
  }
  uint32_t repeat = 0;
  if (GetDescriptorBits(p, b::kSwizzle96B, 1)) {
    repeat = SwizzleRepeatBytes(Swizzle::k96B);
  } else {
    // The repeat is a function of the span (bits 77-78) alone: 16, 256, 512, 1024.
    static constexpr uint32_t kBySpan[4] = {16, 256, 512, 1024};
    repeat = kBySpan[GetDescriptorBits(p, b::kSwizzle, 2)];
  }
  SetDescriptorBits(p, b::kSwizzleRepeat, 32, repeat);
}

}  // namespace

std::optional<ReplaceField> ParseReplaceField(const std::string& ptx_name) {
  for (size_t i = 0; i < sizeof(kNames) / sizeof(kNames[0]); ++i) {
    if (ptx_name == kNames[i])
      return static_cast<ReplaceField>(i);
  }
  return std::nullopt;
}

const char* ToString(ReplaceField f) {
  const size_t i = static_cast<size_t>(f);
  return i < sizeof(kNames) / sizeof(kNames[0]) ? kNames[i] : "?";
}

bool ReplaceFieldHasOrdinal(ReplaceField f) {
  return f == ReplaceField::kBoxDim || f == ReplaceField::kGlobalDim ||
         f == ReplaceField::kGlobalStride || f == ReplaceField::kElementStride;
}

bool ReplaceFieldIsB64(ReplaceField f) {
  return f == ReplaceField::kGlobalAddress || f == ReplaceField::kGlobalStride;
}

std::optional<DType> DTypeFromPtxElemtype(uint64_t v) {
  if (v >= 16)
    return std::nullopt;
  return kPtxElemtype[v];
}

uint8_t PtxElemtype(DType t) {
  for (uint8_t i = 0; i < 16; ++i) {
    if (kPtxElemtype[i] == t)
      return i;
  }
  return 0xFF;
}

Status TensormapReplace(uint8_t* map128, ReplaceField f, int ordinal, uint64_t new_val, Arch arch) {
  if (static_cast<size_t>(f) >= sizeof(kNames) / sizeof(kNames[0])) {
    return Status::Error(ErrorClass::kInvalidInstruction, "field",
                         "unknown tensormap.replace field " + to_string(static_cast<int>(f)));
  }
  if (GetDescriptorBits(map128, b::kMode, 1) != 0) {
    return Status::Error(ErrorClass::kInvalidInstruction, "mode",
                         "tensormap.replace.tile on an im2col map (bit 64 set)");
  }
  if (!ReplaceFieldIsB64(f) && new_val > 0xFFFFFFFFull) {
    return Bad(f, "new_val " + to_string(new_val) + " does not fit the .b32 operand");
  }
  if (ReplaceFieldHasOrdinal(f)) {
    const int max_ord = f == ReplaceField::kGlobalStride ? 3 : 4;
    if (ordinal < 0 || ordinal > max_ord) {
      return Status::Error(ErrorClass::kInvalidInstruction, "ord",
                           std::string("ordinal of .") + ToString(f) + " must be 0.." +
                               to_string(max_ord) + " (got " + to_string(ordinal) + ")");
    }
  }
  const std::string got = " (got " + to_string(new_val) + ")";
  uint8_t* p = map128;
  switch (f) {
    case ReplaceField::kGlobalAddress:
      if (new_val % 16 != 0)
        return Bad(f, "must be a multiple of 16" + got);
      SetDescriptorBits(p, b::kAddress, 64, new_val);
      break;
    case ReplaceField::kRank:
      if (new_val > 4)
        return Bad(f, "new_val is rank-1 and must be 0..4" + got);
      SetDescriptorBits(p, b::kRank, 3, new_val);
      break;
    case ReplaceField::kBoxDim:
      if (new_val < 1 || new_val > 256)
        return Bad(f, "must be 1..256" + got);
      SetDescriptorBits(p, ordinal == 0 ? b::kBox0 : b::kBox1 + 8 * (ordinal - 1), 8, new_val - 1);
      break;
    case ReplaceField::kGlobalDim:
      if (new_val < 1)
        return Bad(f, "must be 1..2^32-1" + got);
      SetDescriptorBits(p, b::kDim + 32 * ordinal, 32, new_val - 1);
      break;
    case ReplaceField::kGlobalStride:
      if (new_val % 16 != 0)
        return Bad(f, "must be a multiple of 16 bytes" + got);
      if (new_val >= (uint64_t{1} << 40))
        return Bad(f, "must be < 2^40 bytes" + got);
      SetDescriptorBits(p, b::kStrideLo + 32 * ordinal, 32, new_val >> 4);
      SetDescriptorBits(p, b::kStrideHi + 4 * ordinal, 4, new_val >> 36);
      break;
    case ReplaceField::kElementStride:
      if (new_val < 1 || new_val > 8)
        return Bad(f, "must be 1..8" + got);
      SetDescriptorBits(p, b::kElemStride + 3 * ordinal, 3, new_val - 1);
      break;
    case ReplaceField::kElemType: {
      const std::optional<DType> t = DTypeFromPtxElemtype(new_val);
      if (!t)
        return Bad(f, "must be 0..15 (Table 33)" + got);
      if (IsSubByte(*t) && arch == Arch::kSm90) {
        return Bad(f, std::string("elemtype ") + to_string(new_val) + " (" + ToString(*t) +
                          ") needs sm_100 or later");
      }
      SetDescriptorBits(p, b::kType, 4, HardwareTypeCode(*t));
      SetDescriptorBits(p, b::kTf32, 1, HardwareTf32Flag(*t) ? 1 : 0);
      break;
    }
    case ReplaceField::kInterleaveLayout:
      if (new_val > 2)
        return Bad(f, "must be 0..2 (Table 33)" + got);
      SetDescriptorBits(p, b::kInterleave, 2, new_val);
      break;
    case ReplaceField::kSwizzleMode:
      if (new_val > 4)
        return Bad(f, "must be 0..4 (Table 33)" + got);
      if (new_val == 4) {
        if (arch != Arch::kSm103)
          return Bad(f, "swizzle_mode 4 (96B) needs sm_103a");
        SetDescriptorBits(p, b::kSwizzle, 2, 0);
        SetDescriptorBits(p, b::kSwizzle96B, 1, 1);
      } else {
        SetDescriptorBits(p, b::kSwizzle, 2, new_val);
        SetDescriptorBits(p, b::kSwizzle96B, 1, 0);
      }
      break;
    case ReplaceField::kSwizzleAtomicity:
      if (arch == Arch::kSm90)
        return Bad(f, ".swizzle_atomicity needs sm_100 or later");
      if (new_val > 3)
        return Bad(f, "must be 0..3 (Table 33)" + got);
      SetDescriptorBits(p, b::kSwizzleAtom, 2, new_val);
      break;
    case ReplaceField::kFillMode:
      if (new_val > 1)
        return Bad(f, "must be 0..1 (Table 33)" + got);
      SetDescriptorBits(p, b::kOobFill, 1, new_val);
      break;
  }
  RecomputeDerived(p);
  return Status::Ok();
}

}  // namespace tma::model
