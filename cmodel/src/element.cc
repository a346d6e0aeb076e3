// SPDX-License-Identifier: Apache-2.0
#include "tma/element.h"

#include <cmath>
#include <cstring>

namespace tma::model {

ElementLayout LayoutOf(DType t) {
  switch (t) {
    case DType::kB4x16:
      return {4, 2, 1, 1};
    case DType::kB4x16P64:
      return {4, 16, 8, 16};
    case DType::kB6x16P32:
      return {6, 16, 12, 16};
    default: {  // whole-byte types: one element per unit, same size in global and shared memory
      const uint32_t bits = static_cast<uint32_t>(ElementBits(t));
      return {bits, 1, bits / 8, bits / 8};
    }
  }
}

std::vector<uint8_t> OobFillBytes(DType t, OobFill f) {
  std::vector<uint8_t> v(LayoutOf(t).unit_sbytes, 0);
  if (f == OobFill::kNan) {
    for (size_t i = 0; i + 1 < v.size(); i += 2) {
      v[i] = 0xF7;
      v[i + 1] = 0x7F;
    }
  }
  return v;
}

uint32_t RoundToTf32(uint32_t u) {
  if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu) != 0) {
    return 0x7FFFE000u;
  }
  // Round to nearest, ties to even on the 13 dropped bits. Silicon (H200, docs/silicon-notes.md
  // finding 1): the loads hold 25 ties (dropped bits exactly 0x1000). The 13 with an even kept
  // LSB rounded down (10 in the directed dir-D3-tf32-* cases, tile-03942, tile-04634 and the
  // multicast im2col mc-00754: ties-away mispredicted exactly these 13 cases); the 12 with an
  // odd kept LSB rounded up (so not "ties toward zero" either). RNE reproduces every case.
  const uint32_t lsb = (u >> 13) & 1u;
  return (u + 0x0FFFu + lsb) & ~0x1FFFu;
}

namespace {

// RNE of `x` to a binary format with `man` fraction bits and `exp` exponent bits.
uint32_t RoundToSmallFloat(double x, int man, int exp) {
  const uint32_t sign = std::signbit(x) ? 1u << (man + exp) : 0u;
  const uint32_t exp_all = (1u << exp) - 1u;
  if (std::isnan(x)) {
    return (exp_all << man) | ((1u << man) - 1u);  // canonical NaN (0x7FFF for f16/bf16)
  }
  const double a = std::fabs(x);
  if (std::isinf(a)) {
    return sign | (exp_all << man);
  }
  if (a == 0.0) {
    return sign;
  }
  const int bias = (1 << (exp - 1)) - 1;
  const int emin = 1 - bias;
  int e = 0;
  std::frexp(a, &e);
  e -= 1;  // a = m * 2^e with m in [1, 2)
  if (e < emin) {
    // Subnormal: an integer multiple of 2^(emin - man); 2^man rounds up into the min normal.
    const double r = std::nearbyint(std::ldexp(a, man - emin));
    return sign | static_cast<uint32_t>(r);
  }
  double r = std::nearbyint(std::ldexp(a, man - e));
  if (r >= std::ldexp(1.0, man + 1)) {
    r = std::ldexp(1.0, man);
    ++e;
  }
  if (e > bias) {
    return sign | (exp_all << man);
  }
  return sign | (static_cast<uint32_t>(e + bias) << man) | (static_cast<uint32_t>(r) - (1u << man));
}

double SmallFloatToDouble(uint32_t v, int man, int exp) {
  const bool neg = (v >> (man + exp)) & 1u;
  const uint32_t e = (v >> man) & ((1u << exp) - 1u);
  const uint32_t f = v & ((1u << man) - 1u);
  const int bias = (1 << (exp - 1)) - 1;
  double r;
  if (e == (1u << exp) - 1u) {
    r = f ? std::nan("") : INFINITY;
  } else if (e == 0) {
    r = std::ldexp(static_cast<double>(f), 1 - bias - man);
  } else {
    r = std::ldexp(static_cast<double>(f | (1u << man)), static_cast<int>(e) - bias - man);
  }
  return neg ? -r : r;
}

}  // namespace

uint16_t F64ToF16(double d) {
  return static_cast<uint16_t>(RoundToSmallFloat(d, 10, 5));
}
uint16_t F64ToBf16(double d) {
  return static_cast<uint16_t>(RoundToSmallFloat(d, 7, 8));
}
uint16_t F32ToF16(float f) {
  return F64ToF16(static_cast<double>(f));
}
uint16_t F32ToBf16(float f) {
  return F64ToBf16(static_cast<double>(f));
}
float F16ToF32(uint16_t h) {
  return static_cast<float>(SmallFloatToDouble(h, 10, 5));
}
float Bf16ToF32(uint16_t b) {
  return BitsFloat(static_cast<uint32_t>(b) << 16);
}

uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float BitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint64_t DoubleBits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
double BitsDouble(uint64_t u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}

}  // namespace tma::model
