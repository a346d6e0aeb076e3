// SPDX-License-Identifier: Apache-2.0
//
// Bit packing of the 128-byte tensor map (docs/descriptor.md has the field table).
#include "tma/descriptor.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "tma/encoder.h"

namespace tma::model {
namespace {

namespace n = num;
// The tables of numbering.h are indexed by a masked enum value.
static_assert((n::kNumElemTypes & (n::kNumElemTypes - 1)) == 0);
static_assert((n::kNumSwizzles & (n::kNumSwizzles - 1)) == 0);

// Two's-complement field of `width` bits to a signed value.
int32_t SignExtend(uint64_t v, int width) {
  const uint64_t sign = uint64_t{1} << (width - 1);
  return static_cast<int32_t>(static_cast<int64_t>((v ^ sign) - sign));
}

// Corner field width and count of an im2col map (the encoder's layout).
int CornerWidth(const TensorMap& m) {
  return fw::CornerFieldWidth(static_cast<fw::MapMode>(m.mode), m.rank);
}
int NumCorners(const TensorMap& m) {
  return fw::NumCornerFields(static_cast<fw::MapMode>(m.mode), m.rank);
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

// The bit packing and the element/swizzle fields are the encoder's (fw/encoder), so the
// model and the firmware write the same bytes.
uint64_t GetDescriptorBits(const uint8_t* map128, int lsb, int width) {
  return fw::GetTensorMapBits(map128, lsb, width);
}

void SetDescriptorBits(uint8_t* map128, int lsb, int width, uint64_t value) {
  fw::SetTensorMapBits(map128, lsb, width, value);
}

uint8_t HardwareTypeCode(DType t) {
  return fw::HardwareTypeCode(static_cast<fw::TensorMapDataType>(t));
}

bool HardwareTf32Flag(DType t) {
  return fw::HardwareTf32Flag(static_cast<fw::TensorMapDataType>(t));
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
  return fw::SmemElementBits(static_cast<fw::TensorMapDataType>(t));
}

uint64_t DescriptorBoxBytes(const TensorMap& m) {
  return fw::DescriptorBoxBytes(ToFwFields(m));
}

uint32_t SwizzleRepeatBytes(Swizzle s) {
  return fw::SwizzleRepeatBytes(static_cast<fw::TensorMapSwizzle>(s));
}

DescriptorBytes EncodeDescriptor(const TensorMap& m) {
  return fw::PackTensorMap(ToFwFields(m)).bytes;
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
