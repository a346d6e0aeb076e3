// SPDX-License-Identifier: Apache-2.0
//
// Names, element and swizzle properties, and the bit packing of the 128-byte tensor map
// (docs/descriptor.md has the field table; positions from tma/autogen/numbering.h).
#include <algorithm>
#include <cstdint>
#include <string>

#include "tma/fw/encoder.h"
#include "tma/fw/names.h"

#include "tma/autogen/numbering.h"

namespace tma::fw {
namespace {

namespace n = tma::model::num;
// The tables of numbering.h are indexed by a masked enum value.
static_assert((n::kNumElemTypes & (n::kNumElemTypes - 1)) == 0);
static_assert((n::kNumSwizzles & (n::kNumSwizzles - 1)) == 0);
static_assert(n::kNumElemTypes == kNumDataTypes);
static_assert(n::kDescBytes == kTensorMapBytes);
static_assert(n::kMaxBoxBytes == kMaxBoxBytes);
static_assert(n::kMaxDims == kMaxRank);

static_assert(sizeof(kDataTypeNames) / sizeof(kDataTypeNames[0]) == kNumDataTypes);

int ElemIndex(TensorMapDataType t) {
  return static_cast<int>(t) & (n::kNumElemTypes - 1);
}
int SwzIndex(TensorMapSwizzle s) {
  return static_cast<int>(s) & (n::kNumSwizzles - 1);
}

uint64_t Mask(int width) {
  return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

}  // namespace

int CornerFieldWidth(MapMode mode, int rank) {
  if (mode == MapMode::kIm2colWide)
    return n::kDescCornerWRank3;
  switch (rank) {
    case 3:
      return n::kDescCornerWRank3;
    case 4:
      return n::kDescCornerWRank4;
    default:
      return n::kDescCornerWRank5;
  }
}

int NumCornerFields(MapMode mode, int rank) {
  if (mode == MapMode::kIm2colWide)
    return 1;
  return std::clamp(rank - 2, 0, kMaxRank - 2);
}

const char* ToString(TensorMapDataType t) {
  return NameOf(kDataTypeNames, t);
}
const char* ToString(TensorMapInterleave v) {
  return NameOf(kInterleaveNames, v);
}
const char* ToString(TensorMapSwizzle v) {
  return NameOf(kSwizzleNames, v);
}
const char* ToString(Arch a) {
  return NameOf(kArchNames, a);
}

std::optional<Arch> ParseArch(const std::string& s) {
  static const char* const k90[] = {"sm_90", "sm_90a"};
  static const char* const k100[] = {"sm_100",  "sm_100a", "sm_100f", "sm_101", "sm_101a",
                                     "sm_101f", "sm_110",  "sm_110a", "sm_110f"};
  static const char* const k103[] = {"sm_103", "sm_103a", "sm_103f"};
  for (const char* name : k90) {
    if (s == name)
      return Arch::kSm90;
  }
  for (const char* name : k100) {
    if (s == name)
      return Arch::kSm100;
  }
  for (const char* name : k103) {
    if (s == name)
      return Arch::kSm103;
  }
  return std::nullopt;
}

bool IsSubByte(TensorMapDataType t) {
  return n::kElemBits[ElemIndex(t)] < 8;
}
bool IsFloat(TensorMapDataType t) {
  return n::kElemFloat[ElemIndex(t)];
}
int SmemElementBits(TensorMapDataType t) {
  return n::kElemSmemBits[ElemIndex(t)];
}
uint8_t HardwareTypeCode(TensorMapDataType t) {
  return n::kElemDt[ElemIndex(t)];
}
bool HardwareTf32Flag(TensorMapDataType t) {
  return n::kElemTf32[ElemIndex(t)];
}
uint32_t SwizzleSpanBytes(TensorMapSwizzle s) {
  return s == TensorMapSwizzle::kNone ? 0 : n::kSwzSpanBytes[SwzIndex(s)];
}
uint32_t SwizzleRepeatBytes(TensorMapSwizzle s) {
  return n::kSwzRepeatBytes[SwzIndex(s)];
}

uint64_t GetTensorMapBits(const uint8_t* map128, int lsb, int width) {
  uint64_t v = 0;
  for (int i = 0; i < width; ++i) {
    const int bit = lsb + i;
    v |= static_cast<uint64_t>((map128[bit / 8] >> (bit % 8)) & 1) << i;
  }
  return v;
}

void SetTensorMapBits(uint8_t* map128, int lsb, int width, uint64_t value) {
  value &= Mask(width);
  for (int i = 0; i < width; ++i) {
    const int bit = lsb + i;
    const uint8_t m = static_cast<uint8_t>(1u << (bit % 8));
    if ((value >> i) & 1) {
      map128[bit / 8] |= m;
    } else {
      map128[bit / 8] &= static_cast<uint8_t>(~m);
    }
  }
}

uint64_t DescriptorBoxBytes(const TensorMapFields& m) {
  const uint64_t bits = static_cast<uint64_t>(SmemElementBits(m.dtype));
  uint64_t elems = 0;
  if (m.mode == MapMode::kTiled) {
    elems = 1;
    for (int i = 0; i < std::clamp(m.rank, 0, kMaxRank); ++i) {
      const uint32_t es = m.element_strides[i] == 0 ? 1 : m.element_strides[i];
      elems *= m.box[i] / es;
    }
  } else {
    elems = static_cast<uint64_t>(m.channels_per_pixel) * m.pixels_per_column;
  }
  return (elems * bits + 7) / 8;
}

TensorMap PackTensorMap(const TensorMapFields& m) {
  TensorMap d;
  uint8_t* p = d.bytes.data();
  const int sw = SwzIndex(m.swizzle);
  SetTensorMapBits(p, n::kDescAddressLsb, n::kDescAddressW, m.global_address);
  SetTensorMapBits(p, n::kDescModeLsb, n::kDescModeW, m.mode == MapMode::kTiled ? 0 : 1);
  SetTensorMapBits(p, n::kDescRankLsb, n::kDescRankW, static_cast<uint64_t>(m.rank - 1));
  SetTensorMapBits(p, n::kDescTypeLsb, n::kDescTypeW, HardwareTypeCode(m.dtype));
  SetTensorMapBits(p, n::kDescInterleaveLsb, n::kDescInterleaveW,
                   static_cast<uint64_t>(m.interleave));
  SetTensorMapBits(p, n::kDescSwizzleSpanLsb, n::kDescSwizzleSpanW, n::kSwzSpanCode[sw]);
  SetTensorMapBits(p, n::kDescOobFillLsb, n::kDescOobFillW, static_cast<uint64_t>(m.oob_fill));
  SetTensorMapBits(p, n::kDescTf32Lsb, n::kDescTf32W, HardwareTf32Flag(m.dtype) ? 1 : 0);
  SetTensorMapBits(p, n::kDescL2PromotionLsb, n::kDescL2PromotionW,
                   static_cast<uint64_t>(m.l2_promotion));
  SetTensorMapBits(p, n::kDescSwizzleAtomLsb, n::kDescSwizzleAtomW, n::kSwzAtomCode[sw]);
  SetTensorMapBits(p, n::kDescSwizzle96BLsb, n::kDescSwizzle96BW, n::kSwz96BBit[sw] ? 1 : 0);
  if (m.mode == MapMode::kIm2colWide) {
    SetTensorMapBits(p, n::kDescIm2colWideLsb, n::kDescIm2colWideW, 1);
    SetTensorMapBits(p, n::kDescWideModeLsb, n::kDescWideModeW, static_cast<uint64_t>(m.wide_mode));
  }
  for (int i = 0; i < kMaxRank - 1; ++i) {
    SetTensorMapBits(p, n::kDescStrideLoLsb + n::kDescStrideLoW * i, n::kDescStrideLoW,
                     m.strides[i] >> n::kDescStrideShift);
    SetTensorMapBits(p, n::kDescStrideHiLsb + n::kDescStrideHiW * i, n::kDescStrideHiW,
                     m.strides[i] >> (n::kDescStrideShift + n::kDescStrideLoW));
  }
  for (int i = 0; i < kMaxRank; ++i) {
    SetTensorMapBits(p, n::kDescDimLsb + n::kDescDimW * i, n::kDescDimW, m.dims[i] - 1);
    SetTensorMapBits(p, n::kDescElemStrideLsb + n::kDescElemStrideW * i, n::kDescElemStrideW,
                     m.element_strides[i] - 1);
  }
  if (m.mode == MapMode::kTiled) {
    SetTensorMapBits(p, n::kDescBox0Lsb, n::kDescBox0W, m.box[0] - 1);
    for (int i = 1; i < kMaxRank; ++i)
      SetTensorMapBits(p, n::kDescBox1Lsb + n::kDescBox1W * (i - 1), n::kDescBox1W, m.box[i] - 1);
  } else {
    SetTensorMapBits(p, n::kDescBox0Lsb, n::kDescBox0W, m.channels_per_pixel - 1);
    const int w = CornerFieldWidth(m.mode, m.rank);
    for (int k = 0; k < NumCornerFields(m.mode, m.rank); ++k) {
      SetTensorMapBits(p, n::kDescLowerCornerLsb + w * k, w, static_cast<uint32_t>(m.lower[k]));
      SetTensorMapBits(p, n::kDescUpperCornerLsb + w * k, w, static_cast<uint32_t>(m.upper[k]));
    }
    SetTensorMapBits(p, n::kDescPixelsPerColumnLsb, n::kDescPixelsPerColumnW,
                     m.pixels_per_column - 1);
  }
  SetTensorMapBits(p, n::kDescBoxBytesLsb, n::kDescBoxBytesW, DescriptorBoxBytes(m));
  SetTensorMapBits(p, n::kDescSwizzleRepeatLsb, n::kDescSwizzleRepeatW,
                   SwizzleRepeatBytes(m.swizzle));
  return d;
}

}  // namespace tma::fw
