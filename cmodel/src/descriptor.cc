// SPDX-License-Identifier: Apache-2.0
//
// Bit packing of the 128-byte tensor map (docs/descriptor.md has the field table).
#include "tma/descriptor.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

namespace tma::model {
namespace {

namespace n = num;
// The tables of numbering.h are indexed by a masked enum value.
static_assert((n::kNumElemTypes & (n::kNumElemTypes - 1)) == 0);
static_assert((n::kNumSwizzles & (n::kNumSwizzles - 1)) == 0);

uint64_t Mask(int width) {
  return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

// Two's-complement field of `width` bits to a signed value.
int32_t SignExtend(uint64_t v, int width) {
  const uint64_t sign = uint64_t{1} << (width - 1);
  return static_cast<int32_t>(static_cast<int64_t>((v ^ sign) - sign));
}

int ClampRank(int rank) {
  return std::clamp(rank, 0, kMaxRank);
}

// Corner field width of an im2col map of this rank (im2col-wide: 16).
int CornerWidth(const TensorMap& m) {
  if (m.mode == MapMode::kIm2colWide)
    return n::kDescCornerWRank3;
  switch (m.rank) {
    case 3:
      return n::kDescCornerWRank3;
    case 4:
      return n::kDescCornerWRank4;
    default:
      return n::kDescCornerWRank5;
  }
}

int NumCorners(const TensorMap& m) {
  if (m.mode == MapMode::kIm2colWide)
    return 1;
  return std::clamp(m.rank - 2, 0, kMaxRank - 2);
}

struct SwizzleBits {
  uint8_t span;
  uint8_t atom;
  bool b96;
};

SwizzleBits SwizzleToBits(Swizzle s) {
  const int i = static_cast<int>(s) & (n::kNumSwizzles - 1);
  return {n::kSwzSpanCode[i], n::kSwzAtomCode[i], n::kSwz96BBit[i]};
}

// "bit 64" / "bits 68-70": where a field sits, for the messages.
std::string Where(int lsb, int width) {
  return width == 1 ? "bit " + std::to_string(lsb)
                    : "bits " + std::to_string(lsb) + "-" + std::to_string(lsb + width - 1);
}

Status Invalid(const std::string& field, const std::string& msg) {
  return Status::Error(ErrorClass::kInvalidDescriptor, field, msg);
}

}  // namespace

uint64_t GetDescriptorBits(const uint8_t* map128, int lsb, int width) {
  uint64_t v = 0;
  for (int i = 0; i < width; ++i) {
    const int bit = lsb + i;
    v |= static_cast<uint64_t>((map128[bit / 8] >> (bit % 8)) & 1) << i;
  }
  return v;
}

void SetDescriptorBits(uint8_t* map128, int lsb, int width, uint64_t value) {
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

uint8_t HardwareTypeCode(DType t) {
  return n::kElemDt[static_cast<int>(t) & (n::kNumElemTypes - 1)];
}

bool HardwareTf32Flag(DType t) {
  return n::kElemTf32[static_cast<int>(t) & (n::kNumElemTypes - 1)];
}

std::optional<DType> DTypeFromHardware(uint8_t code, bool tf32) {
  // The one type with this (format code, tf32 bit), if any (docs/descriptor.md section 2).
  for (int i = 0; i < n::kNumElemTypes; ++i) {
    if (n::kElemDt[i] == code && n::kElemTf32[i] == tf32)
      return static_cast<DType>(i);
  }
  return std::nullopt;
}

int SmemElementBits(DType t) {
  return n::kElemSmemBits[static_cast<int>(t) & (n::kNumElemTypes - 1)];
}

uint64_t DescriptorBoxBytes(const TensorMap& m) {
  const uint64_t bits = static_cast<uint64_t>(SmemElementBits(m.dtype));
  uint64_t elems = 0;
  if (m.mode == MapMode::kTiled) {
    elems = 1;
    for (int i = 0; i < ClampRank(m.rank); ++i) {
      const uint32_t es = m.element_strides[i] == 0 ? 1 : m.element_strides[i];
      elems *= m.box[i] / es;
    }
  } else {
    elems = static_cast<uint64_t>(m.channels_per_pixel) * m.pixels_per_column;
  }
  return (elems * bits + 7) / 8;
}

uint32_t SwizzleRepeatBytes(Swizzle s) {
  return n::kSwzRepeatBytes[static_cast<int>(s) & (n::kNumSwizzles - 1)];
}

DescriptorBytes EncodeDescriptor(const TensorMap& m) {
  DescriptorBytes d{};
  uint8_t* p = d.data();
  SetDescriptorBits(p, n::kDescAddressLsb, n::kDescAddressW, m.global_address);
  SetDescriptorBits(p, n::kDescModeLsb, n::kDescModeW, m.mode == MapMode::kTiled ? 0 : 1);
  SetDescriptorBits(p, n::kDescRankLsb, n::kDescRankW, static_cast<uint64_t>(m.rank - 1));
  SetDescriptorBits(p, n::kDescTypeLsb, n::kDescTypeW, HardwareTypeCode(m.dtype));
  SetDescriptorBits(p, n::kDescInterleaveLsb, n::kDescInterleaveW,
                    static_cast<uint64_t>(m.interleave));
  const SwizzleBits sw = SwizzleToBits(m.swizzle);
  SetDescriptorBits(p, n::kDescSwizzleSpanLsb, n::kDescSwizzleSpanW, sw.span);
  SetDescriptorBits(p, n::kDescOobFillLsb, n::kDescOobFillW, static_cast<uint64_t>(m.oob_fill));
  SetDescriptorBits(p, n::kDescTf32Lsb, n::kDescTf32W, HardwareTf32Flag(m.dtype) ? 1 : 0);
  SetDescriptorBits(p, n::kDescL2PromotionLsb, n::kDescL2PromotionW,
                    static_cast<uint64_t>(m.l2_promotion));
  SetDescriptorBits(p, n::kDescSwizzleAtomLsb, n::kDescSwizzleAtomW, sw.atom);
  SetDescriptorBits(p, n::kDescSwizzle96BLsb, n::kDescSwizzle96BW, sw.b96 ? 1 : 0);
  if (m.mode == MapMode::kIm2colWide) {
    SetDescriptorBits(p, n::kDescIm2colWideLsb, n::kDescIm2colWideW, 1);
    SetDescriptorBits(p, n::kDescWideModeLsb, n::kDescWideModeW,
                      static_cast<uint64_t>(m.wide_mode));
  }
  for (int i = 0; i < kMaxRank - 1; ++i) {
    SetDescriptorBits(p, n::kDescStrideLoLsb + n::kDescStrideLoW * i, n::kDescStrideLoW,
                      m.strides[i] >> 4);
    SetDescriptorBits(p, n::kDescStrideHiLsb + n::kDescStrideHiW * i, n::kDescStrideHiW,
                      m.strides[i] >> 36);
  }
  for (int i = 0; i < kMaxRank; ++i) {
    SetDescriptorBits(p, n::kDescDimLsb + n::kDescDimW * i, n::kDescDimW, m.dims[i] - 1);
    SetDescriptorBits(p, n::kDescElemStrideLsb + n::kDescElemStrideW * i, n::kDescElemStrideW,
                      m.element_strides[i] - 1);
  }
  if (m.mode == MapMode::kTiled) {
    SetDescriptorBits(p, n::kDescBox0Lsb, n::kDescBox0W, m.box[0] - 1);
    for (int i = 1; i < kMaxRank; ++i) {
      SetDescriptorBits(p, n::kDescBox1Lsb + n::kDescBox1W * (i - 1), n::kDescBox1W, m.box[i] - 1);
    }
  } else {
    SetDescriptorBits(p, n::kDescBox0Lsb, n::kDescBox0W, m.channels_per_pixel - 1);
    const int w = CornerWidth(m);
    for (int k = 0; k < NumCorners(m); ++k) {
      SetDescriptorBits(p, n::kDescLowerCornerLsb + w * k, w, static_cast<uint32_t>(m.lower[k]));
      SetDescriptorBits(p, n::kDescUpperCornerLsb + w * k, w, static_cast<uint32_t>(m.upper[k]));
    }
    SetDescriptorBits(p, n::kDescPixelsPerColumnLsb, n::kDescPixelsPerColumnW,
                      m.pixels_per_column - 1);
  }
  SetDescriptorBits(p, n::kDescBoxBytesLsb, n::kDescBoxBytesW, DescriptorBoxBytes(m));
  SetDescriptorBits(p, n::kDescSwizzleRepeatLsb, n::kDescSwizzleRepeatW,
                    SwizzleRepeatBytes(m.swizzle));
  return d;
}

Status DecodeDescriptor(const uint8_t* bytes, TensorMap* out) {
  const uint8_t* p = bytes;
  TensorMap m;
  const bool im2col = GetDescriptorBits(p, n::kDescModeLsb, n::kDescModeW) != 0;
  const bool wide = GetDescriptorBits(p, n::kDescIm2colWideLsb, n::kDescIm2colWideW) != 0;
  if (wide && !im2col) {
    return Invalid("mode", Where(n::kDescIm2colWideLsb, n::kDescIm2colWideW) +
                               " (im2col-wide) is set but " +
                               Where(n::kDescModeLsb, n::kDescModeW) + " (im2col) is not");
  }
  m.mode = !im2col ? MapMode::kTiled : (wide ? MapMode::kIm2colWide : MapMode::kIm2col);
  m.global_address = GetDescriptorBits(p, n::kDescAddressLsb, n::kDescAddressW);
  m.rank = static_cast<int>(GetDescriptorBits(p, n::kDescRankLsb, n::kDescRankW)) + 1;
  if (m.rank > kMaxRank) {
    return Invalid("rank", Where(n::kDescRankLsb, n::kDescRankW) + " hold rank-1 = " +
                               std::to_string(m.rank - 1) + ": rank must be 1..5");
  }
  if (m.mode != MapMode::kTiled && m.rank < 3) {
    return Invalid("rank", "an im2col map needs rank 3..5 (" +
                               Where(n::kDescRankLsb, n::kDescRankW) + " give rank " +
                               std::to_string(m.rank) + ")");
  }
  const uint8_t code = static_cast<uint8_t>(GetDescriptorBits(p, n::kDescTypeLsb, n::kDescTypeW));
  const bool tf32 = GetDescriptorBits(p, n::kDescTf32Lsb, n::kDescTf32W) != 0;
  const std::optional<DType> t = DTypeFromHardware(code, tf32);
  if (!t) {
    return Invalid(
        "elementType",
        Where(n::kDescTypeLsb, n::kDescTypeW) + " hold format code " + std::to_string(code) +
            (tf32 ? " with the tf32 flag (" + Where(n::kDescTf32Lsb, n::kDescTf32W) + ")" : "") +
            ", which names no element type");
  }
  m.dtype = *t;
  const uint64_t il = GetDescriptorBits(p, n::kDescInterleaveLsb, n::kDescInterleaveW);
  if (il > 2)
    return Invalid("interleave", Where(n::kDescInterleaveLsb, n::kDescInterleaveW) +
                                     " hold 3, which names no interleave");
  m.interleave = static_cast<Interleave>(il);
  const uint64_t span = GetDescriptorBits(p, n::kDescSwizzleSpanLsb, n::kDescSwizzleSpanW);
  const uint64_t atom = GetDescriptorBits(p, n::kDescSwizzleAtomLsb, n::kDescSwizzleAtomW);
  const bool b96 = GetDescriptorBits(p, n::kDescSwizzle96BLsb, n::kDescSwizzle96BW) != 0;
  // The swizzle with this (span, atomicity, 96B bit) encoding (docs/descriptor.md section 3).
  int swz = -1;
  for (int s = 0; s < n::kNumSwizzles; ++s) {
    if (n::kSwzSpanCode[s] == span && n::kSwzAtomCode[s] == atom && n::kSwz96BBit[s] == b96)
      swz = s;
  }
  const std::string span_at = Where(n::kDescSwizzleSpanLsb, n::kDescSwizzleSpanW);
  const std::string atom_at = Where(n::kDescSwizzleAtomLsb, n::kDescSwizzleAtomW);
  if (swz < 0 && b96) {
    return Invalid("swizzle", Where(n::kDescSwizzle96BLsb, n::kDescSwizzle96BW) +
                                  " (96B swizzle) needs span " + span_at + " and atomicity " +
                                  atom_at + " zero (got span " + std::to_string(span) +
                                  ", atomicity " + std::to_string(atom) + ")");
  }
  if (swz < 0) {
    return Invalid("swizzle", "swizzle atomicity " + std::to_string(atom) + " (" + atom_at +
                                  ") is only modelled with the 128B span (" + span_at + " hold " +
                                  std::to_string(span) + ")");
  }
  m.swizzle = static_cast<Swizzle>(swz);
  m.oob_fill = static_cast<OobFill>(GetDescriptorBits(p, n::kDescOobFillLsb, n::kDescOobFillW));
  m.l2_promotion =
      static_cast<L2Promotion>(GetDescriptorBits(p, n::kDescL2PromotionLsb, n::kDescL2PromotionW));
  if (wide)
    m.wide_mode =
        static_cast<WideMode>(GetDescriptorBits(p, n::kDescWideModeLsb, n::kDescWideModeW));
  for (int i = 0; i < kMaxRank - 1; ++i) {
    const uint64_t lo =
        GetDescriptorBits(p, n::kDescStrideLoLsb + n::kDescStrideLoW * i, n::kDescStrideLoW);
    const uint64_t hi =
        GetDescriptorBits(p, n::kDescStrideHiLsb + n::kDescStrideHiW * i, n::kDescStrideHiW);
    m.strides[i] = (lo | (hi << 32)) << 4;
  }
  for (int i = 0; i < kMaxRank; ++i) {
    m.dims[i] = GetDescriptorBits(p, n::kDescDimLsb + n::kDescDimW * i, n::kDescDimW) + 1;
    m.element_strides[i] =
        static_cast<uint32_t>(GetDescriptorBits(p, n::kDescElemStrideLsb + n::kDescElemStrideW * i,
                                                n::kDescElemStrideW)) +
        1;
  }
  if (m.mode == MapMode::kTiled) {
    m.box[0] = static_cast<uint32_t>(GetDescriptorBits(p, n::kDescBox0Lsb, n::kDescBox0W)) + 1;
    for (int i = 1; i < kMaxRank; ++i) {
      m.box[i] = static_cast<uint32_t>(GetDescriptorBits(
                     p, n::kDescBox1Lsb + n::kDescBox1W * (i - 1), n::kDescBox1W)) +
                 1;
    }
  } else {
    m.channels_per_pixel =
        static_cast<uint32_t>(GetDescriptorBits(p, n::kDescBox0Lsb, n::kDescBox0W)) + 1;
    const int w = CornerWidth(m);
    for (int k = 0; k < NumCorners(m); ++k) {
      m.lower[k] = SignExtend(GetDescriptorBits(p, n::kDescLowerCornerLsb + w * k, w), w);
      m.upper[k] = SignExtend(GetDescriptorBits(p, n::kDescUpperCornerLsb + w * k, w), w);
    }
    m.pixels_per_column = static_cast<uint32_t>(GetDescriptorBits(p, n::kDescPixelsPerColumnLsb,
                                                                  n::kDescPixelsPerColumnW)) +
                          1;
  }
  // Every field is read; what re-encoding does not reproduce is a reserved bit or a derived
  // field that disagrees with its sources.
  const DescriptorBytes again = EncodeDescriptor(m);
  for (int bit = 0; bit < static_cast<int>(kDescriptorBytes) * 8; ++bit) {
    const int have = (p[bit / 8] >> (bit % 8)) & 1;
    const int want = (again[bit / 8] >> (bit % 8)) & 1;
    if (have == want)
      continue;
    if (bit >= n::kDescBoxBytesLsb && bit < n::kDescBoxBytesLsb + n::kDescBoxBytesW) {
      return Invalid(
          "boxBytes",
          Where(n::kDescBoxBytesLsb, n::kDescBoxBytesW) + " hold " +
              std::to_string(GetDescriptorBits(p, n::kDescBoxBytesLsb, n::kDescBoxBytesW)) +
              " but the box fields give " + std::to_string(DescriptorBoxBytes(m)));
    }
    if (bit >= n::kDescSwizzleRepeatLsb &&
        bit < n::kDescSwizzleRepeatLsb + n::kDescSwizzleRepeatW) {
      return Invalid("swizzleRepeat",
                     Where(n::kDescSwizzleRepeatLsb, n::kDescSwizzleRepeatW) + " hold " +
                         std::to_string(GetDescriptorBits(p, n::kDescSwizzleRepeatLsb,
                                                          n::kDescSwizzleRepeatW)) +
                         " but swizzle " + ToString(m.swizzle) + " gives " +
                         std::to_string(SwizzleRepeatBytes(m.swizzle)));
    }
    return Invalid("reserved",
                   "bit " + std::to_string(bit) + " is set but belongs to no field of a " +
                       (m.mode == MapMode::kTiled ? std::string("tiled") : std::string("im2col")) +
                       " map");
  }
  *out = m;
  return Status::Ok();
}

}  // namespace tma::model
