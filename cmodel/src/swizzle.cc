// SPDX-License-Identifier: Apache-2.0
#include "tma/swizzle.h"

#include "tma/fw/encoder.h"

namespace tma::model {

uint32_t SwizzleSpanBytes(Swizzle s) {
  return fw::SwizzleSpanBytes(static_cast<fw::TensorMapSwizzle>(s));
}

uint32_t SwizzlePatternBytes(Swizzle s) {
  switch (s) {
    case Swizzle::kNone:
      return 0;
    case Swizzle::k32B:
    case Swizzle::k96B:
    case Swizzle::k128BAtom64B:
      return 256;
    case Swizzle::k64B:
    case Swizzle::k128BAtom32B:
    case Swizzle::k128BAtom32BFlip8B:
      return 512;
    case Swizzle::k128B:
      return 1024;
  }
  return 0;
}

uint32_t SwizzleGranuleBytes(Swizzle s) {
  return s == Swizzle::k128BAtom32BFlip8B ? 8 : 16;
}

uint32_t SwizzleAddress(uint32_t a, Swizzle s) {
  const uint32_t line = a >> 7;  // 128-byte line index
  switch (s) {
    case Swizzle::kNone:
      return a;
    case Swizzle::k32B:
    case Swizzle::k96B:
      return a ^ ((line & 1u) << 4);
    case Swizzle::k64B:
      return a ^ ((line & 3u) << 4);
    case Swizzle::k128B:
      return a ^ ((line & 7u) << 4);
    case Swizzle::k128BAtom32B:
      return a ^ ((line & 3u) << 5);
    case Swizzle::k128BAtom32BFlip8B:
      return a ^ ((line & 3u) << 5) ^ ((line & 1u) << 3);
    case Swizzle::k128BAtom64B:
      return a ^ ((line & 1u) << 6);
  }
  return a;
}

}  // namespace tma::model
