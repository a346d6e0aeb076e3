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

namespace b = desc_bits;

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
    return 16;
  switch (m.rank) {
    case 3:
      return 16;
    case 4:
      return 8;
    default:
      return 5;
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
  switch (s) {
    case Swizzle::kNone:
      return {0, 0, false};
    case Swizzle::k32B:
      return {1, 0, false};
    case Swizzle::k64B:
      return {2, 0, false};
    case Swizzle::k128B:
      return {3, 0, false};
    case Swizzle::k128BAtom32B:
      return {3, 1, false};
    case Swizzle::k128BAtom32BFlip8B:
      return {3, 2, false};
    case Swizzle::k128BAtom64B:
      return {3, 3, false};
    case Swizzle::k96B:
      return {0, 0, true};
  }
  return {static_cast<uint8_t>(static_cast<uint8_t>(s) & 3), 0, false};
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
  switch (t) {
    case DType::kU8:
      return 0;
    case DType::kU16:
      return 1;
    case DType::kU32:
      return 2;
    case DType::kS32:
      return 3;
    case DType::kU64:
      return 4;
    case DType::kS64:
      return 5;
    case DType::kF16:
      return 6;
    case DType::kF32:
    case DType::kTF32:
      return 7;
    case DType::kF32Ftz:
    case DType::kTF32Ftz:
      return 8;
    case DType::kF64:
      return 9;
    case DType::kBF16:
      return 10;
    case DType::kB4x16:
      return 11;
    case DType::kB4x16P64:
      return 12;
    case DType::kB6x16P32:
      return 13;
  }
  return static_cast<uint8_t>(static_cast<uint8_t>(t) & 0xF);
}

bool HardwareTf32Flag(DType t) {
  return t == DType::kTF32 || t == DType::kTF32Ftz;
}

std::optional<DType> DTypeFromHardware(uint8_t code, bool tf32) {
  static constexpr DType kByCode[14] = {
      DType::kU8,   DType::kU16,   DType::kU32,      DType::kS32,      DType::kU64,
      DType::kS64,  DType::kF16,   DType::kF32,      DType::kF32Ftz,   DType::kF64,
      DType::kBF16, DType::kB4x16, DType::kB4x16P64, DType::kB6x16P32,
  };
  if (code >= 14)
    return std::nullopt;
  if (tf32) {
    if (code == 7)
      return DType::kTF32;
    if (code == 8)
      return DType::kTF32Ftz;
    return std::nullopt;
  }
  return kByCode[code];
}

int SmemElementBits(DType t) {
  switch (t) {
    case DType::kB4x16:
      return 4;
    case DType::kB4x16P64:
    case DType::kB6x16P32:
      return 8;
    default:
      return ElementBits(t);
  }
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
  switch (s) {
    case Swizzle::kNone:
      return 16;
    case Swizzle::k32B:
    case Swizzle::k96B:
      return 256;
    case Swizzle::k64B:
      return 512;
    default:
      return 1024;
  }
}

DescriptorBytes EncodeDescriptor(const TensorMap& m) {
  DescriptorBytes d{};
  uint8_t* p = d.data();
  SetDescriptorBits(p, b::kAddress, 64, m.global_address);
  SetDescriptorBits(p, b::kMode, 1, m.mode == MapMode::kTiled ? 0 : 1);
  SetDescriptorBits(p, b::kRank, 3, static_cast<uint64_t>(m.rank - 1));
  SetDescriptorBits(p, b::kType, 4, HardwareTypeCode(m.dtype));
  SetDescriptorBits(p, b::kInterleave, 2, static_cast<uint64_t>(m.interleave));
  const SwizzleBits sw = SwizzleToBits(m.swizzle);
  SetDescriptorBits(p, b::kSwizzle, 2, sw.span);
  SetDescriptorBits(p, b::kOobFill, 1, static_cast<uint64_t>(m.oob_fill));
  SetDescriptorBits(p, b::kTf32, 1, HardwareTf32Flag(m.dtype) ? 1 : 0);
  SetDescriptorBits(p, b::kL2Promotion, 2, static_cast<uint64_t>(m.l2_promotion));
  SetDescriptorBits(p, b::kSwizzleAtom, 2, sw.atom);
  SetDescriptorBits(p, b::kSwizzle96B, 1, sw.b96 ? 1 : 0);
  if (m.mode == MapMode::kIm2colWide) {
    SetDescriptorBits(p, b::kIm2colWide, 1, 1);
    SetDescriptorBits(p, b::kWideMode, 1, static_cast<uint64_t>(m.wide_mode));
  }
  for (int i = 0; i < kMaxRank - 1; ++i) {
    SetDescriptorBits(p, b::kStrideLo + 32 * i, 32, m.strides[i] >> 4);
    SetDescriptorBits(p, b::kStrideHi + 4 * i, 4, m.strides[i] >> 36);
  }
  for (int i = 0; i < kMaxRank; ++i) {
    SetDescriptorBits(p, b::kDim + 32 * i, 32, m.dims[i] - 1);
    SetDescriptorBits(p, b::kElemStride + 3 * i, 3, m.element_strides[i] - 1);
  }
  if (m.mode == MapMode::kTiled) {
    SetDescriptorBits(p, b::kBox0, 8, m.box[0] - 1);
    for (int i = 1; i < kMaxRank; ++i) {
      SetDescriptorBits(p, b::kBox1 + 8 * (i - 1), 8, m.box[i] - 1);
    }
  } else {
    SetDescriptorBits(p, b::kBox0, 8, m.channels_per_pixel - 1);
    const int w = CornerWidth(m);
    for (int k = 0; k < NumCorners(m); ++k) {
      SetDescriptorBits(p, b::kLowerCorner + w * k, w, static_cast<uint32_t>(m.lower[k]));
      SetDescriptorBits(p, b::kUpperCorner + w * k, w, static_cast<uint32_t>(m.upper[k]));
    }
    SetDescriptorBits(p, b::kPixelsPerColumn, 10, m.pixels_per_column - 1);
  }
  SetDescriptorBits(p, b::kBoxBytes, 32, DescriptorBoxBytes(m));
  SetDescriptorBits(p, b::kSwizzleRepeat, 32, SwizzleRepeatBytes(m.swizzle));
  return d;
}

Status DecodeDescriptor(const uint8_t* bytes, TensorMap* out) {
  const uint8_t* p = bytes;
  TensorMap m;
  const bool im2col = GetDescriptorBits(p, b::kMode, 1) != 0;
  const bool wide = GetDescriptorBits(p, b::kIm2colWide, 1) != 0;
  if (wide && !im2col) {
    return Invalid("mode", "bit 86 (im2col-wide) is set but bit 64 (im2col) is not");
  }
  m.mode = !im2col ? MapMode::kTiled : (wide ? MapMode::kIm2colWide : MapMode::kIm2col);
  m.global_address = GetDescriptorBits(p, b::kAddress, 64);
  m.rank = static_cast<int>(GetDescriptorBits(p, b::kRank, 3)) + 1;
  if (m.rank > kMaxRank) {
    return Invalid(
        "rank", "bits 68-70 hold rank-1 = " + std::to_string(m.rank - 1) + ": rank must be 1..5");
  }
  if (m.mode != MapMode::kTiled && m.rank < 3) {
    return Invalid("rank", "an im2col map needs rank 3..5 (bits 68-70 give rank " +
                               std::to_string(m.rank) + ")");
  }
  const uint8_t code = static_cast<uint8_t>(GetDescriptorBits(p, b::kType, 4));
  const bool tf32 = GetDescriptorBits(p, b::kTf32, 1) != 0;
  const std::optional<DType> t = DTypeFromHardware(code, tf32);
  if (!t) {
    return Invalid("elementType", "bits 71-74 hold format code " + std::to_string(code) +
                                      (tf32 ? " with the tf32 flag (bit 80)" : "") +
                                      ", which names no element type");
  }
  m.dtype = *t;
  const uint64_t il = GetDescriptorBits(p, b::kInterleave, 2);
  if (il > 2)
    return Invalid("interleave", "bits 75-76 hold 3, which names no interleave");
  m.interleave = static_cast<Interleave>(il);
  const uint64_t span = GetDescriptorBits(p, b::kSwizzle, 2);
  const uint64_t atom = GetDescriptorBits(p, b::kSwizzleAtom, 2);
  const bool b96 = GetDescriptorBits(p, b::kSwizzle96B, 1) != 0;
  if (b96) {
    if (span != 0 || atom != 0) {
      return Invalid("swizzle",
                     "bit 88 (96B swizzle) needs span bits 77-78 and atomicity bits "
                     "83-84 zero (got span " +
                         std::to_string(span) + ", atomicity " + std::to_string(atom) + ")");
    }
    m.swizzle = Swizzle::k96B;
  } else if (span == 3) {
    static constexpr Swizzle k128[4] = {Swizzle::k128B, Swizzle::k128BAtom32B,
                                        Swizzle::k128BAtom32BFlip8B, Swizzle::k128BAtom64B};
    m.swizzle = k128[atom];
  } else {
    if (atom != 0) {
      return Invalid("swizzle", "swizzle atomicity " + std::to_string(atom) +
                                    " (bits 83-84) is only modelled with the 128B span (bits "
                                    "77-78 hold " +
                                    std::to_string(span) + ")");
    }
    m.swizzle = static_cast<Swizzle>(span);
  }
  m.oob_fill = static_cast<OobFill>(GetDescriptorBits(p, b::kOobFill, 1));
  m.l2_promotion = static_cast<L2Promotion>(GetDescriptorBits(p, b::kL2Promotion, 2));
  if (wide)
    m.wide_mode = static_cast<WideMode>(GetDescriptorBits(p, b::kWideMode, 1));
  for (int i = 0; i < kMaxRank - 1; ++i) {
    const uint64_t lo = GetDescriptorBits(p, b::kStrideLo + 32 * i, 32);
    const uint64_t hi = GetDescriptorBits(p, b::kStrideHi + 4 * i, 4);
    m.strides[i] = (lo | (hi << 32)) << 4;
  }
  for (int i = 0; i < kMaxRank; ++i) {
    m.dims[i] = GetDescriptorBits(p, b::kDim + 32 * i, 32) + 1;
    m.element_strides[i] =
        static_cast<uint32_t>(GetDescriptorBits(p, b::kElemStride + 3 * i, 3)) + 1;
  }
  if (m.mode == MapMode::kTiled) {
    m.box[0] = static_cast<uint32_t>(GetDescriptorBits(p, b::kBox0, 8)) + 1;
    for (int i = 1; i < kMaxRank; ++i) {
      m.box[i] = static_cast<uint32_t>(GetDescriptorBits(p, b::kBox1 + 8 * (i - 1), 8)) + 1;
    }
  } else {
    m.channels_per_pixel = static_cast<uint32_t>(GetDescriptorBits(p, b::kBox0, 8)) + 1;
    const int w = CornerWidth(m);
    for (int k = 0; k < NumCorners(m); ++k) {
      m.lower[k] = SignExtend(GetDescriptorBits(p, b::kLowerCorner + w * k, w), w);
      m.upper[k] = SignExtend(GetDescriptorBits(p, b::kUpperCorner + w * k, w), w);
    }
    m.pixels_per_column = static_cast<uint32_t>(GetDescriptorBits(p, b::kPixelsPerColumn, 10)) + 1;
  }
  // Every field is read; what re-encoding does not reproduce is a reserved bit or a derived
  // field that disagrees with its sources.
  const DescriptorBytes again = EncodeDescriptor(m);
  for (int bit = 0; bit < static_cast<int>(kDescriptorBytes) * 8; ++bit) {
    const int have = (p[bit / 8] >> (bit % 8)) & 1;
    const int want = (again[bit / 8] >> (bit % 8)) & 1;
    if (have == want)
      continue;
    if (bit >= b::kBoxBytes && bit < b::kBoxBytes + 32) {
      return Invalid("boxBytes",
                     "bits 512-543 hold " + std::to_string(GetDescriptorBits(p, b::kBoxBytes, 32)) +
                         " but the box fields give " + std::to_string(DescriptorBoxBytes(m)));
    }
    if (bit >= b::kSwizzleRepeat && bit < b::kSwizzleRepeat + 32) {
      return Invalid("swizzleRepeat",
                     "bits 576-607 hold " +
                         std::to_string(GetDescriptorBits(p, b::kSwizzleRepeat, 32)) +
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
