// SPDX-License-Identifier: Apache-2.0
//
// The model's values against the generated numbering (rtl/data/tma_numbering.json): the enums
// and limits by the static_asserts of numbering_check.h (compiled here and in the model), the
// element-size helpers of types.cc, which are written by hand, entry by entry here.
#include "tma/autogen/numbering.h"

#include <gtest/gtest.h>

#include "tma/descriptor.h"
#include "tma/types.h"

#include "tma/autogen/numbering_check.h"

namespace tma::model {
namespace {

TEST(Numbering, StaticAssertsCoverEveryModelEnum) {
  // Op 4, LoadMode 7, RedOp 8, ErrorClass 9, Swizzle 8, Interleave 3, OobFill 2, L2Promotion 4,
  // MapMode 3, WideMode 2, Arch 3, BulkType 10, DType 16 + its count, and 4 limits.
  EXPECT_EQ(kNumNumberingChecks, 4 + 7 + 8 + 9 + 8 + 3 + 2 + 4 + 3 + 2 + 3 + 10 + 16 + 1 + 4);
}

TEST(Numbering, ElementSizesMatchTheTable) {
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType t = static_cast<DType>(i);
    EXPECT_EQ(ElementBits(t), num::kElemBits[i]) << ToString(t);
    EXPECT_EQ(SmemElementBits(t), num::kElemSmemBits[i]) << ToString(t);
    EXPECT_EQ(IsFloat(t), num::kElemFloat[i]) << ToString(t);
    EXPECT_EQ(IsSubByte(t), num::kElemBits[i] < 8) << ToString(t);
    EXPECT_EQ(IsSubByte(t) && t != DType::kB4x16, num::kElemPk[i] != num::kPkNone) << ToString(t);
  }
}

// Each descriptor field through the model's bit access: a field written at its generated
// position reads back there and touches no other bit.
TEST(Numbering, DescriptorFieldsAreDisjointBitRanges) {
  struct F {
    int lsb, w, n;
  };
  const F fields[] = {
      {num::kDescAddressLsb, num::kDescAddressW, 1},
      {num::kDescModeLsb, num::kDescModeW, 1},
      {num::kDescVersionLsb, num::kDescVersionW, 1},
      {num::kDescRankLsb, num::kDescRankW, 1},
      {num::kDescTypeLsb, num::kDescTypeW, 1},
      {num::kDescInterleaveLsb, num::kDescInterleaveW, 1},
      {num::kDescSwizzleSpanLsb, num::kDescSwizzleSpanW, 1},
      {num::kDescOobFillLsb, num::kDescOobFillW, 1},
      {num::kDescTf32Lsb, num::kDescTf32W, 1},
      {num::kDescL2PromotionLsb, num::kDescL2PromotionW, 1},
      {num::kDescSwizzleAtomLsb, num::kDescSwizzleAtomW, 1},
      {num::kDescOobAddrModeLsb, num::kDescOobAddrModeW, 1},
      {num::kDescIm2colWideLsb, num::kDescIm2colWideW, 1},
      {num::kDescWideModeLsb, num::kDescWideModeW, 1},
      {num::kDescSwizzle96BLsb, num::kDescSwizzle96BW, 1},
      {num::kDescStrideLoLsb, num::kDescStrideLoW, num::kDescStrideLoN},
      {num::kDescStrideHiLsb, num::kDescStrideHiW, num::kDescStrideHiN},
      {num::kDescDimLsb, num::kDescDimW, num::kDescDimN},
      {num::kDescElemStrideLsb, num::kDescElemStrideW, num::kDescElemStrideN},
      {num::kDescBox0Lsb, num::kDescBox0W, 1},
      {num::kDescBox1Lsb, num::kDescBox1W, num::kDescBox1N},
      {num::kDescPixelsPerColumnLsb, num::kDescPixelsPerColumnW, 1},
      {num::kDescBoxBytesLsb, num::kDescBoxBytesW, 1},
      {num::kDescSwizzleRepeatLsb, num::kDescSwizzleRepeatW, 1},
  };
  int owner[kDescriptorBytes * 8];
  for (int& o : owner)
    o = -1;
  for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); ++f) {
    for (int e = 0; e < fields[f].n; ++e) {
      const int lsb = fields[f].lsb + e * fields[f].w;
      DescriptorBytes d{};
      SetDescriptorBits(d.data(), lsb, fields[f].w, ~uint64_t{0});
      int set = 0;
      for (int b = 0; b < static_cast<int>(kDescriptorBytes) * 8; ++b) {
        if (!((d[b / 8] >> (b % 8)) & 1))
          continue;
        ++set;
        EXPECT_TRUE(b >= lsb && b < lsb + fields[f].w) << "field " << f << " bit " << b;
        EXPECT_EQ(owner[b], -1) << "fields " << owner[b] << " and " << f << " share bit " << b;
        owner[b] = static_cast<int>(f);
      }
      EXPECT_EQ(set, fields[f].w) << "field " << f;
    }
  }
  // The im2col corners reuse the box 1..4 bits: all three 5-bit pairs of a rank-5 map, the two
  // 8-bit pairs of rank 4 and the 16-bit pair of rank 3 lie inside them.
  const int box_end = num::kDescBox1Lsb + num::kDescBox1W * num::kDescBox1N;
  EXPECT_EQ(num::kDescLowerCornerLsb, num::kDescBox1Lsb);
  EXPECT_LE(num::kDescUpperCornerLsb + 3 * num::kDescCornerWRank5, box_end);
  EXPECT_LE(num::kDescUpperCornerLsb + 2 * num::kDescCornerWRank4, box_end);
  EXPECT_LE(num::kDescUpperCornerLsb + num::kDescCornerWRank3, box_end);
  EXPECT_LE(num::kDescLowerCornerLsb + 3 * num::kDescCornerWRank5, num::kDescUpperCornerLsb);
}

}  // namespace
}  // namespace tma::model
