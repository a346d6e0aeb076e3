// SPDX-License-Identifier: Apache-2.0
//
// The firmware's encoder API (tma/fw/encoder.h): driver-shaped calls, verdicts, bytes derived
// by hand from docs/descriptor.md, and the model's forwarding (tma/encoder.h) giving the same
// answers. The 3,300 silicon verdicts are tests/silicon/encoder_verdicts_test.cc.
#include "tma/encoder.h"

#include <gtest/gtest.h>

#include "tma/descriptor.h"
#include "tma/fw/encoder.h"

namespace tma::fw {
namespace {

TEST(FwEncoder, TiledU16BytesByHand) {
  const uint64_t dims[2] = {64, 8};
  const uint64_t strides[1] = {128};
  const uint32_t box[2] = {64, 8};
  const uint32_t es[2] = {1, 1};
  TensorMap m;
  Violation why;
  ASSERT_EQ(
      EncodeTiled(&m, TensorMapDataType::kUint16, 2, 0x10000, dims, strides, box, es,
                  TensorMapInterleave::kNone, TensorMapSwizzle::k128B,
                  TensorMapL2Promotion::kL2_128B, TensorMapFloatOobFill::kNone, Arch::kSm90, &why),
      Result::kSuccess)
      << why.message;
  EXPECT_EQ(why.rule, 0);
  std::array<uint8_t, 128> want{};
  want[2] = 0x01;   // address 0x10000
  want[8] = 0x90;   // rank - 1 = 1 at bit 68, u16 format code 1 at bits 71-74
  want[9] = 0x60;   // swizzle span code 3 (128B) at bits 77-78
  want[10] = 0x04;  // L2 promotion 2 at bits 81-82
  want[12] = 0x08;  // stride 128 / 16
  want[32] = 0x3f;  // dim 0 - 1
  want[36] = 0x07;  // dim 1 - 1
  want[55] = 0x3f;  // box 0 - 1
  want[56] = 0x07;  // box 1 - 1
  want[65] = 0x04;  // box bytes 1024
  want[73] = 0x04;  // swizzle repeat 1024 (128B)
  EXPECT_EQ(m.bytes, want);
}

TEST(FwEncoder, RejectionsNameTheRuleAndLeaveZeros) {
  const uint64_t dims[3] = {64, 8, 2};
  const uint64_t strides[2] = {136, 1088};  // 136 is not a multiple of 16: rule 9
  const uint32_t box[3] = {64, 8, 1};
  const uint32_t es[3] = {1, 1, 1};
  TensorMap m;
  m.bytes.fill(0xee);
  Violation why;
  EXPECT_EQ(
      EncodeTiled(&m, TensorMapDataType::kUint16, 3, 0x10000, dims, strides, box, es,
                  TensorMapInterleave::kNone, TensorMapSwizzle::kNone, TensorMapL2Promotion::kNone,
                  TensorMapFloatOobFill::kNone, Arch::kSm90, &why),
      Result::kErrorInvalidValue);
  EXPECT_EQ(why.rule, 9);
  EXPECT_EQ(why.field, "globalStrides[0]");
  EXPECT_EQ(m.bytes, (std::array<uint8_t, 128>{}));
  // Rank 6 is refused before any array is read (the arrays are shorter).
  EXPECT_EQ(
      EncodeTiled(&m, TensorMapDataType::kUint16, 6, 0, dims, strides, box, es,
                  TensorMapInterleave::kNone, TensorMapSwizzle::kNone, TensorMapL2Promotion::kNone,
                  TensorMapFloatOobFill::kNone, Arch::kSm90, &why),
      Result::kErrorInvalidValue);
  EXPECT_EQ(why.field, "tensorRank");
  // Sub-byte types and the 128B-atom swizzles are sm_100 (rules 1 and 4).
  const uint64_t d1[1] = {256};
  const uint32_t b1[1] = {128}, e1[1] = {1};
  EXPECT_EQ(
      EncodeTiled(&m, TensorMapDataType::k16U4Align8B, 1, 0, d1, nullptr, b1, e1,
                  TensorMapInterleave::kNone, TensorMapSwizzle::kNone, TensorMapL2Promotion::kNone,
                  TensorMapFloatOobFill::kNone, Arch::kSm90, &why),
      Result::kErrorInvalidValue);
  EXPECT_EQ(why.rule, 1);
  EXPECT_EQ(EncodeTiled(&m, TensorMapDataType::k16U4Align8B, 1, 0, d1, nullptr, b1, e1,
                        TensorMapInterleave::kNone, TensorMapSwizzle::kNone,
                        TensorMapL2Promotion::kNone, TensorMapFloatOobFill::kNone, Arch::kSm100),
            Result::kSuccess);
}

TEST(FwEncoder, Im2colWideW128StoresPixelsPerColumn128) {
  const uint64_t dims[3] = {64, 32, 2};
  const uint64_t strides[2] = {128, 4096};
  const uint32_t es[3] = {1, 1, 1};
  TensorMap m;
  // pixelsPerColumn 5000 is out of range but ignored in mode W128.
  ASSERT_EQ(EncodeIm2colWide(&m, TensorMapDataType::kUint16, 3, 0, dims, strides, 0, 0, 64, 5000,
                             es, TensorMapInterleave::kNone, TensorMapIm2colWideMode::kW128,
                             TensorMapSwizzle::k128B, TensorMapL2Promotion::kNone,
                             TensorMapFloatOobFill::kNone, Arch::kSm100),
            Result::kSuccess);
  EXPECT_EQ(GetTensorMapBits(m.bytes.data(), 480, 10), 127u);  // ppc - 1
  EXPECT_EQ(GetTensorMapBits(m.bytes.data(), 86, 1), 1u);      // im2col-wide
  EXPECT_EQ(GetTensorMapBits(m.bytes.data(), 87, 1), 1u);      // mode W128
  EXPECT_EQ(GetTensorMapBits(m.bytes.data(), 512, 32), 64u * 2 * 128);
}

TEST(FwEncoder, NamesAndArch) {
  EXPECT_STREQ(ToString(TensorMapDataType::kTfloat32Ftz), "tf32.ftz");
  EXPECT_STREQ(ToString(TensorMapSwizzle::k96B), "96B");
  EXPECT_STREQ(ToString(static_cast<TensorMapSwizzle>(9)), "?");
  EXPECT_EQ(ParseArch("sm_90a"), Arch::kSm90);
  EXPECT_EQ(ParseArch("sm_101a"), Arch::kSm100);
  EXPECT_EQ(ParseArch("sm_103f"), Arch::kSm103);
  EXPECT_FALSE(ParseArch("sm_80").has_value());
  EXPECT_EQ(SwizzleSpanBytes(TensorMapSwizzle::kNone), 0u);
  EXPECT_EQ(SwizzleSpanBytes(TensorMapSwizzle::k128BAtom64B), 128u);
  EXPECT_EQ(SmemElementBits(TensorMapDataType::k16U4Align16B), 8);
  EXPECT_TRUE(IsSubByte(TensorMapDataType::k16U6Align16B));
  EXPECT_FALSE(IsSubByte(TensorMapDataType::kUint8));
}

// The model's encoder.h is the same encoder: verdict, field and bytes agree call for call.
TEST(FwEncoder, ModelForwardsToTheFirmwareEncoder) {
  namespace m = tma::model;
  const uint64_t dims[2] = {100, 7};
  const uint64_t strides[1] = {256};
  const uint32_t es[2] = {1, 1};
  for (uint32_t b0 : {8u, 16u, 24u, 64u, 300u}) {
    const uint32_t box[2] = {b0, 7};
    TensorMap f;
    Violation why;
    const Result r =
        EncodeTiled(&f, TensorMapDataType::kUint16, 2, 0x4000, dims, strides, box, es,
                    TensorMapInterleave::kNone, TensorMapSwizzle::k64B, TensorMapL2Promotion::kNone,
                    TensorMapFloatOobFill::kNone, Arch::kSm90, &why);
    m::DescriptorBytes d{};
    const m::Status s =
        m::EncodeTiled(&d, m::DType::kU16, 2, 0x4000, dims, strides, box, es, m::Interleave::kNone,
                       m::Swizzle::k64B, m::L2Promotion::kNone, m::OobFill::kZero);
    EXPECT_EQ(s.ok(), r == Result::kSuccess) << b0;
    EXPECT_EQ(s.field, why.field) << b0;
    EXPECT_EQ(d, f.bytes) << b0;
  }
}

}  // namespace
}  // namespace tma::fw
