// SPDX-License-Identifier: Apache-2.0
//
// Element semantics: layouts, OOB fill bytes (D2), tf32 rounding (D3), RNE conversions.
#include "tma/element.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace tma::model {
namespace {

TEST(Element, OobFillBytes) {
  using V = std::vector<uint8_t>;
  EXPECT_EQ(OobFillBytes(DType::kF16, OobFill::kNan), (V{0xF7, 0x7F}));
  EXPECT_EQ(OobFillBytes(DType::kBF16, OobFill::kNan), (V{0xF7, 0x7F}));
  for (DType t : {DType::kF32, DType::kF32Ftz, DType::kTF32, DType::kTF32Ftz}) {
    EXPECT_EQ(OobFillBytes(t, OobFill::kNan), (V{0xF7, 0x7F, 0xF7, 0x7F}));
  }
  EXPECT_EQ(OobFillBytes(DType::kF64, OobFill::kNan),
            (V{0xF7, 0x7F, 0xF7, 0x7F, 0xF7, 0x7F, 0xF7, 0x7F}));
  EXPECT_EQ(OobFillBytes(DType::kU32, OobFill::kZero), (V{0, 0, 0, 0}));
  EXPECT_EQ(OobFillBytes(DType::kB4x16P64, OobFill::kZero), V(16, 0));
}

TEST(Element, Layouts) {
  EXPECT_EQ(LayoutOf(DType::kU8).unit_sbytes, 1u);
  EXPECT_EQ(LayoutOf(DType::kBF16).unit_sbytes, 2u);
  EXPECT_EQ(LayoutOf(DType::kTF32Ftz).unit_sbytes, 4u);
  EXPECT_EQ(LayoutOf(DType::kS64).unit_sbytes, 8u);
  EXPECT_EQ(LayoutOf(DType::kB4x16).bits, 4u);
  EXPECT_EQ(LayoutOf(DType::kB4x16P64).unit_gbytes, 8u);
  EXPECT_EQ(LayoutOf(DType::kB4x16P64).unit_sbytes, 16u);
  EXPECT_EQ(LayoutOf(DType::kB6x16P32).unit_gbytes, 12u);
  EXPECT_EQ(LayoutOf(DType::kB6x16P32).unit_elems, 16u);
}

TEST(Element, Tf32Rounding) {
  EXPECT_EQ(RoundToTf32(0x3F800FFFu), 0x3F800000u);  // below half: down
  EXPECT_EQ(RoundToTf32(0x3F801001u), 0x3F802000u);  // above half: up
  EXPECT_EQ(RoundToTf32(0x3F9FFFFFu), 0x3FA00000u);  // carry into the exponent
  EXPECT_EQ(RoundToTf32(0x7FC00000u), 0x7FFFE000u);  // NaN, sign dropped
  EXPECT_EQ(RoundToTf32(0xFF800001u), 0x7FFFE000u);
  EXPECT_EQ(RoundToTf32(0x7F800000u), 0x7F800000u);  // inf stays
  EXPECT_EQ(RoundToTf32(0x80001800u), 0x80002000u);  // denormals round, not flush
}

// Ties go to even (H200, docs/silicon-notes.md finding 1). Hand-decoded from silicon case
// dir-D3-tf32-00004 (tile.jsonl.gz): element (22,12) of the 2-D tf32 map (row stride 288 B) is
// global byte 3544, splitmix64(2471814251 + 3544..3547) & 0xFF = 00 d0 70 b8, i.e. 0xB870D000:
// dropped bits exactly 0x1000, kept LSB (bit 13) 0. Silicon wrote c0 at byte 1 of the element
// (0xB870C000, rounded down); ties-away would give 0xB870E000.
TEST(Element, Tf32RoundingTiesToEven) {
  EXPECT_EQ(RoundToTf32(0xB870D000u), 0xB870C000u);  // the measured tie: down to even
  // An odd-LSB tie, dir-D3-tf32-00015 (box {64,16} at {0,0}, row stride 352 B, tensor at buffer
  // offset 256, dstMem 384): element (33,15) is buffer byte 256 + 15 * 352 + 33 * 4 = 5668,
  // splitmix64(1785217428 + 5668..5671) = 0x6A30B000; silicon wrote 0x6A30C000 at smem byte
  // 384 + 15 * 256 + 33 * 4 = 4356 (rounded up to even, so not "ties toward zero").
  EXPECT_EQ(RoundToTf32(0x6A30B000u), 0x6A30C000u);
  EXPECT_EQ(RoundToTf32(0x3F801000u), 0x3F800000u);  // tie, even LSB: down
  EXPECT_EQ(RoundToTf32(0x3F803000u), 0x3F804000u);  // tie, odd LSB: up to even
  EXPECT_EQ(RoundToTf32(0x00001000u), 0x00000000u);  // denormal tie: down to 0
  EXPECT_EQ(RoundToTf32(0x7F7FFFFFu), 0x7F800000u);  // carry out of the largest finite: Inf
}

TEST(Element, HalfConversions) {
  EXPECT_EQ(F32ToF16(1.0f), 0x3C00);
  EXPECT_EQ(F32ToF16(-2.0f), 0xC000);
  EXPECT_EQ(F32ToF16(65504.0f), 0x7BFF);
  EXPECT_EQ(F32ToF16(65520.0f), 0x7C00);  // rounds to inf
  EXPECT_EQ(F32ToF16(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(F32ToF16(std::ldexp(1.0f, -25)), 0x0000);         // tie -> even (0)
  EXPECT_EQ(F32ToF16(std::ldexp(3.0f, -25)), 0x0002);         // 1.5 -> 2
  EXPECT_EQ(F32ToF16(1.0f + std::ldexp(1.0f, -11)), 0x3C00);  // tie -> even
  EXPECT_EQ(F32ToF16(1.0f + std::ldexp(3.0f, -11)), 0x3C02);
  EXPECT_EQ(F32ToF16(std::ldexp(1023.0f, -24) + std::ldexp(1.0f, -25)), 0x0400);  // to normal
  EXPECT_EQ(F32ToF16(NAN), 0x7FFF);
  EXPECT_EQ(F16ToF32(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(F16ToF32(0x3555), 0.333251953125f);
  EXPECT_TRUE(std::isinf(F16ToF32(0xFC00)));
}

TEST(Element, Bf16Conversions) {
  EXPECT_EQ(F32ToBf16(1.0f), 0x3F80);
  EXPECT_EQ(F32ToBf16(BitsFloat(0x3F808000u)), 0x3F80);  // tie -> even
  EXPECT_EQ(F32ToBf16(BitsFloat(0x3F818000u)), 0x3F82);  // tie -> even (up)
  EXPECT_EQ(F32ToBf16(BitsFloat(0x3F808001u)), 0x3F81);
  EXPECT_EQ(F32ToBf16(BitsFloat(0x00010000u)), 0x0001);  // subnormal kept
  EXPECT_EQ(Bf16ToF32(0xC040), -3.0f);
}

}  // namespace
}  // namespace tma::model
