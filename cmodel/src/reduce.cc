// SPDX-License-Identifier: Apache-2.0
#include "tma/reduce.h"

#include <cmath>
#include <cstring>

#include "tma/element.h"

namespace tma::model {

bool ReductionSupported(RedOp op, DType t) {
  switch (op) {
    case RedOp::kAdd:
      // tf32.ftz executes too (H200, docs/silicon-notes.md finding 2): 17 reduce cases
      // (dir-red-denorm-00042..55, F5-00009/-00010/-00011) and none faulted.
      return t == DType::kU32 || t == DType::kS32 || t == DType::kU64 || t == DType::kF32 ||
             t == DType::kF16 || t == DType::kBF16 || t == DType::kF64 || t == DType::kTF32 ||
             t == DType::kF32Ftz || t == DType::kTF32Ftz;
    case RedOp::kMin:
    case RedOp::kMax:
      return t == DType::kU32 || t == DType::kS32 || t == DType::kU64 || t == DType::kS64 ||
             t == DType::kF16 || t == DType::kBF16;
    case RedOp::kInc:
    case RedOp::kDec:
      return t == DType::kU32;
    case RedOp::kAnd:
    case RedOp::kOr:
    case RedOp::kXor:
      return t == DType::kU32 || t == DType::kS32 || t == DType::kU64;
  }
  return false;
}

namespace {

template <typename T>
T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T>
void Store(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

// Integer ops on an unsigned (U) or signed (S) type of the same width.
template <typename U, typename S>
U IntOp(RedOp op, U d, U s, bool is_signed) {
  switch (op) {
    case RedOp::kAdd:
      return static_cast<U>(d + s);
    case RedOp::kMin:
      if (is_signed) {
        return static_cast<S>(d) < static_cast<S>(s) ? d : s;
      }
      return d < s ? d : s;
    case RedOp::kMax:
      if (is_signed) {
        return static_cast<S>(d) > static_cast<S>(s) ? d : s;
      }
      return d > s ? d : s;
    case RedOp::kInc:
      return d >= s ? U{0} : static_cast<U>(d + 1);
    case RedOp::kDec:
      return (d == 0 || d > s) ? s : static_cast<U>(d - 1);
    case RedOp::kAnd:
      return d & s;
    case RedOp::kOr:
      return d | s;
    case RedOp::kXor:
      return d ^ s;
  }
  return d;
}

bool IsNan16(uint16_t v, bool bf16) {
  return bf16 ? ((v & 0x7F80u) == 0x7F80u && (v & 0x7Fu) != 0)
              : ((v & 0x7C00u) == 0x7C00u && (v & 0x3FFu) != 0);
}

uint16_t Half(RedOp op, uint16_t d, uint16_t s, bool bf16) {
  const double a = bf16 ? Bf16ToF32(d) : F16ToF32(d);
  const double b = bf16 ? Bf16ToF32(s) : F16ToF32(s);
  if (op == RedOp::kAdd) {
    // The double sum of two f16 values is exact; for bf16 the double rounding is innocuous
    // (53 >= 2 * 8 + 2), so one RNE step to the 16-bit format is the IEEE result.
    return bf16 ? F64ToBf16(a + b) : F64ToF16(a + b);
  }
  const bool dn = IsNan16(d, bf16);
  const bool sn = IsNan16(s, bf16);
  if (dn && sn) {
    return 0x7FFF;
  }
  if (dn) {
    return s;
  }
  if (sn) {
    return d;
  }
  bool d_less;
  if (a == b) {  // +0 / -0: -0 is the smaller [INF]
    d_less = (d & 0x8000u) && !(s & 0x8000u);
  } else {
    d_less = a < b;
  }
  if (op == RedOp::kMin) {
    return d_less ? d : s;
  }
  return d_less ? s : d;
}

float FlushF32(float f) {
  if (std::fpclassify(f) == FP_SUBNORMAL) {
    return std::signbit(f) ? -0.0f : 0.0f;
  }
  return f;
}

}  // namespace

void ReduceElement(RedOp op, DType t, uint8_t* dst, const uint8_t* src) {
  if (!ReductionSupported(op, t)) {
    return;
  }
  switch (t) {
    case DType::kU32:
    case DType::kS32:
      Store<uint32_t>(dst, IntOp<uint32_t, int32_t>(op, Load<uint32_t>(dst), Load<uint32_t>(src),
                                                    t == DType::kS32));
      return;
    case DType::kU64:
    case DType::kS64:
      Store<uint64_t>(dst, IntOp<uint64_t, int64_t>(op, Load<uint64_t>(dst), Load<uint64_t>(src),
                                                    t == DType::kS64));
      return;
    case DType::kF16:
    case DType::kBF16:
      Store<uint16_t>(dst, Half(op, Load<uint16_t>(dst), Load<uint16_t>(src), t == DType::kBF16));
      return;
    case DType::kF32:
    case DType::kTF32:
    case DType::kF32Ftz:
    case DType::kTF32Ftz: {
      // tf32 / tf32.ftz add is a plain f32 add (H200, dir-red-denorm-00042..55, 7 of which
      // write): the operands are NOT rounded to tf32 first (319 of the 320 measured tf32.ftz
      // element adds would differ) and the result is not rounded to tf32 (all 320 results keep
      // low mantissa bits); the 106 inexact sums round to nearest even. The flush of tf32.ftz
      // (as for f32.ftz) is [INF]: only one measured operand was subnormal and it did not
      // change its sum.
      const bool ftz = t == DType::kF32Ftz || t == DType::kTF32Ftz;
      float a = BitsFloat(Load<uint32_t>(dst));
      float b = BitsFloat(Load<uint32_t>(src));
      if (ftz) {
        a = FlushF32(a);
        b = FlushF32(b);
      }
      // Double holds the exact sum of two floats' worth of precision closely enough that the
      // final float rounding is the single IEEE RNE rounding (53 >= 2 * 24 + 2).
      float r = static_cast<float>(static_cast<double>(a) + static_cast<double>(b));
      if (ftz) {
        r = FlushF32(r);
      }
      Store<uint32_t>(dst, std::isnan(r) ? 0x7FFFFFFFu : FloatBits(r));
      return;
    }
    case DType::kF64: {
      const double r = BitsDouble(Load<uint64_t>(dst)) + BitsDouble(Load<uint64_t>(src));
      Store<uint64_t>(dst, std::isnan(r) ? 0x7FFFFFFFFFFFFFFFull : DoubleBits(r));
      return;
    }
    default:
      return;
  }
}

}  // namespace tma::model
