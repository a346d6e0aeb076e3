// SPDX-License-Identifier: Apache-2.0
//
// PTX tensormap.replace on the 128-byte map (docs/descriptor.md, "tensormap.replace").
#include "tma/tensormap_replace.h"

#include <cstdint>
#include <string>

#include "tma/descriptor.h"

namespace tma::model {
namespace {

namespace n = num;
using std::to_string;

constexpr const char* kNames[] = {
    "global_address", "rank",     "box_dim",           "global_dim",   "global_stride",
    "element_stride", "elemtype", "interleave_layout", "swizzle_mode", "swizzle_atomicity",
    "fill_mode",
};

// The box field of dimension i (box 0 and boxes 1..4 have the same width).
static_assert(n::kDescBox0W == n::kDescBox1W);
int BoxLsb(int i) {
  return i == 0 ? n::kDescBox0Lsb : n::kDescBox1Lsb + n::kDescBox1W * (i - 1);
}

Status Bad(ReplaceField f, const std::string& msg) {
  return Status::Error(ErrorClass::kInvalidInstruction, ToString(f), msg);
}

// Recomputes the derived fields (box bytes, swizzle repeat) from the raw fields. A field
// combination that names nothing (unknown type code) leaves the box-bytes field as it was.
void RecomputeDerived(uint8_t* p) {
  TensorMap m;
  m.mode =
      GetDescriptorBits(p, n::kDescModeLsb, n::kDescModeW) ? MapMode::kIm2col : MapMode::kTiled;
  m.rank = static_cast<int>(GetDescriptorBits(p, n::kDescRankLsb, n::kDescRankW)) + 1;
  if (m.rank > kMaxRank)
    m.rank = kMaxRank;
  for (int i = 0; i < kMaxRank; ++i) {
    m.element_strides[i] =
        static_cast<uint32_t>(GetDescriptorBits(p, n::kDescElemStrideLsb + n::kDescElemStrideW * i,
                                                n::kDescElemStrideW)) +
        1;
    m.box[i] = static_cast<uint32_t>(GetDescriptorBits(p, BoxLsb(i), n::kDescBox1W)) + 1;
  }
  m.channels_per_pixel =
      static_cast<uint32_t>(GetDescriptorBits(p, n::kDescBox0Lsb, n::kDescBox0W)) + 1;
  m.pixels_per_column = static_cast<uint32_t>(GetDescriptorBits(p, n::kDescPixelsPerColumnLsb,
                                                                n::kDescPixelsPerColumnW)) +
                        1;
  const std::optional<DType> t =
      DTypeFromHardware(static_cast<uint8_t>(GetDescriptorBits(p, n::kDescTypeLsb, n::kDescTypeW)),
                        GetDescriptorBits(p, n::kDescTf32Lsb, n::kDescTf32W));
  if (t) {
    m.dtype = *t;
    SetDescriptorBits(p, n::kDescBoxBytesLsb, n::kDescBoxBytesW, DescriptorBoxBytes(m));
  }
  uint32_t repeat = 0;
  if (GetDescriptorBits(p, n::kDescSwizzle96BLsb, n::kDescSwizzle96BW)) {
    repeat = SwizzleRepeatBytes(Swizzle::k96B);
  } else {
    // The repeat is a function of the span alone (16, 256, 512, 1024): that of the swizzle
    // with this span and the 16-byte atomicity.
    const uint64_t span = GetDescriptorBits(p, n::kDescSwizzleSpanLsb, n::kDescSwizzleSpanW);
    for (int s = 0; s < n::kNumSwizzles; ++s) {
      if (n::kSwzSpanCode[s] == span && n::kSwzAtomCode[s] == n::kSwzAtom16B && !n::kSwz96BBit[s])
        repeat = n::kSwzRepeatBytes[s];
    }
  }
  SetDescriptorBits(p, n::kDescSwizzleRepeatLsb, n::kDescSwizzleRepeatW, repeat);
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
  for (int i = 0; i < n::kNumElemTypes; ++i) {
    if (n::kElemPtx[i] == v)
      return static_cast<DType>(i);
  }
  return std::nullopt;
}

uint8_t PtxElemtype(DType t) {
  const int i = static_cast<int>(t);
  return i < n::kNumElemTypes ? n::kElemPtx[i] : 0xFF;
}

Status TensormapReplace(uint8_t* map128, ReplaceField f, int ordinal, uint64_t new_val, Arch arch) {
  if (static_cast<size_t>(f) >= sizeof(kNames) / sizeof(kNames[0])) {
    return Status::Error(ErrorClass::kInvalidInstruction, "field",
                         "unknown tensormap.replace field " + to_string(static_cast<int>(f)));
  }
  if (GetDescriptorBits(map128, n::kDescModeLsb, n::kDescModeW) != 0) {
    return Status::Error(ErrorClass::kInvalidInstruction, "mode",
                         "tensormap.replace.tile on an im2col map (bit " +
                             std::to_string(n::kDescModeLsb) + " set)");
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
      SetDescriptorBits(p, n::kDescAddressLsb, n::kDescAddressW, new_val);
      break;
    case ReplaceField::kRank:
      if (new_val > 4)
        return Bad(f, "new_val is rank-1 and must be 0..4" + got);
      SetDescriptorBits(p, n::kDescRankLsb, n::kDescRankW, new_val);
      break;
    case ReplaceField::kBoxDim:
      if (new_val < 1 || new_val > 256)
        return Bad(f, "must be 1..256" + got);
      SetDescriptorBits(p, BoxLsb(ordinal), n::kDescBox1W, new_val - 1);
      break;
    case ReplaceField::kGlobalDim:
      if (new_val < 1)
        return Bad(f, "must be 1..2^32-1" + got);
      SetDescriptorBits(p, n::kDescDimLsb + n::kDescDimW * ordinal, n::kDescDimW, new_val - 1);
      break;
    case ReplaceField::kGlobalStride:
      if (new_val % 16 != 0)
        return Bad(f, "must be a multiple of 16 bytes" + got);
      if (new_val >= (uint64_t{1} << 40))
        return Bad(f, "must be < 2^40 bytes" + got);
      SetDescriptorBits(p, n::kDescStrideLoLsb + n::kDescStrideLoW * ordinal, n::kDescStrideLoW,
                        new_val >> 4);
      SetDescriptorBits(p, n::kDescStrideHiLsb + n::kDescStrideHiW * ordinal, n::kDescStrideHiW,
                        new_val >> 36);
      break;
    case ReplaceField::kElementStride:
      if (new_val < 1 || new_val > 8)
        return Bad(f, "must be 1..8" + got);
      SetDescriptorBits(p, n::kDescElemStrideLsb + n::kDescElemStrideW * ordinal,
                        n::kDescElemStrideW, new_val - 1);
      break;
    case ReplaceField::kElemType: {
      const std::optional<DType> t = DTypeFromPtxElemtype(new_val);
      if (!t)
        return Bad(f, "must be 0..15 (Table 33)" + got);
      if (IsSubByte(*t) && arch == Arch::kSm90) {
        return Bad(f, std::string("elemtype ") + to_string(new_val) + " (" + ToString(*t) +
                          ") needs sm_100 or later");
      }
      SetDescriptorBits(p, n::kDescTypeLsb, n::kDescTypeW, HardwareTypeCode(*t));
      SetDescriptorBits(p, n::kDescTf32Lsb, n::kDescTf32W, HardwareTf32Flag(*t) ? 1 : 0);
      break;
    }
    case ReplaceField::kInterleaveLayout:
      if (new_val > 2)
        return Bad(f, "must be 0..2 (Table 33)" + got);
      SetDescriptorBits(p, n::kDescInterleaveLsb, n::kDescInterleaveW, new_val);
      break;
    case ReplaceField::kSwizzleMode:
      if (new_val > 4)
        return Bad(f, "must be 0..4 (Table 33)" + got);
      if (new_val == 4) {
        if (arch != Arch::kSm103)
          return Bad(f, "swizzle_mode 4 (96B) needs sm_103a");
        SetDescriptorBits(p, n::kDescSwizzleSpanLsb, n::kDescSwizzleSpanW, 0);
        SetDescriptorBits(p, n::kDescSwizzle96BLsb, n::kDescSwizzle96BW, 1);
      } else {
        SetDescriptorBits(p, n::kDescSwizzleSpanLsb, n::kDescSwizzleSpanW, new_val);
        SetDescriptorBits(p, n::kDescSwizzle96BLsb, n::kDescSwizzle96BW, 0);
      }
      break;
    case ReplaceField::kSwizzleAtomicity:
      if (arch == Arch::kSm90)
        return Bad(f, ".swizzle_atomicity needs sm_100 or later");
      if (new_val > 3)
        return Bad(f, "must be 0..3 (Table 33)" + got);
      SetDescriptorBits(p, n::kDescSwizzleAtomLsb, n::kDescSwizzleAtomW, new_val);
      break;
    case ReplaceField::kFillMode:
      if (new_val > 1)
        return Bad(f, "must be 0..1 (Table 33)" + got);
      SetDescriptorBits(p, n::kDescOobFillLsb, n::kDescOobFillW, new_val);
      break;
  }
  RecomputeDerived(p);
  return Status::Ok();
}

}  // namespace tma::model
