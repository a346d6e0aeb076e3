// SPDX-License-Identifier: Apache-2.0
//
// tensormap.replace.tile.<field> (PTX §9.7.9.26, Table 33) on the measured 2-D u16 map of
// tensor-semantics.md §13: each field's bits, the derived fields, and the rejections.
#include "tma/tensormap_replace.h"

#include <cstdint>
#include <initializer_list>

#include <gtest/gtest.h>

#include "tma/descriptor.h"
#include "tma/types.h"

namespace tma::model {
namespace {

void PutWords32(DescriptorBytes* d, int at, std::initializer_list<uint32_t> words) {
  for (uint32_t w : words) {
    for (int j = 0; j < 4; ++j)
      (*d)[at++] = static_cast<uint8_t>(w >> (8 * j));
  }
}

// dims {200,50}, stride 400 B, box {64,8}, es {1,1}, address 0: bytes 8-79 of §13.
DescriptorBytes U16Map(bool swizzle128 = false) {
  DescriptorBytes d{};
  PutWords32(&d, 8,
             {swizzle128 ? 0x6090u : 0x90u, 0x19, 0, 0, 0, 0, 0xc7, 0x31, 0, 0, 0, 0x3f000000, 0x7,
              0, 0x400, 0, swizzle128 ? 0x400u : 0x10u, 0});
  return d;
}

// Field `lsb`, `w` (num::kDesc<Field>Lsb / W) of the descriptor.
uint64_t Field(const DescriptorBytes& d, int lsb, int w) {
  return GetDescriptorBits(d.data(), lsb, w);
}
uint64_t BoxBytes(const DescriptorBytes& d) {
  return Field(d, num::kDescBoxBytesLsb, num::kDescBoxBytesW);
}
// The control word: the 32 bits from the mode bit (mode, version, rank, type, interleave,
// swizzle span, fill, tf32, ...), compared whole against words of the measured map.
uint64_t ControlWord(const DescriptorBytes& d) {
  return Field(d, num::kDescModeLsb, 32);
}

Status Replace(DescriptorBytes* d, ReplaceField f, int ord, uint64_t v, Arch a = Arch::kSm90) {
  return TensormapReplace(d->data(), f, ord, v, a);
}

#define EXPECT_INVALID_INSTR(call, fld)                                  \
  do {                                                                   \
    const Status s_ = (call);                                            \
    EXPECT_EQ(s_.cls, ErrorClass::kInvalidInstruction) << s_.ToString(); \
    EXPECT_EQ(s_.field, fld) << s_.ToString();                           \
  } while (0)

TEST(TensormapReplaceNames, ParseAndPrint) {
  const char* names[] = {
      "global_address", "rank",     "box_dim",           "global_dim",   "global_stride",
      "element_stride", "elemtype", "interleave_layout", "swizzle_mode", "swizzle_atomicity",
      "fill_mode"};
  for (int i = 0; i < 11; ++i) {
    ASSERT_EQ(ParseReplaceField(names[i]), static_cast<ReplaceField>(i)) << names[i];
    EXPECT_STREQ(ToString(static_cast<ReplaceField>(i)), names[i]);
  }
  EXPECT_FALSE(ParseReplaceField("box").has_value());
  EXPECT_FALSE(ParseReplaceField(".box_dim").has_value());
  EXPECT_TRUE(ReplaceFieldHasOrdinal(ReplaceField::kGlobalStride));
  EXPECT_FALSE(ReplaceFieldHasOrdinal(ReplaceField::kRank));
  EXPECT_TRUE(ReplaceFieldIsB64(ReplaceField::kGlobalAddress));
  EXPECT_FALSE(ReplaceFieldIsB64(ReplaceField::kBoxDim));
}

TEST(TensormapReplaceNames, PtxElemtypeNumbering) {
  // Table 33: 0 u8 ... 8 f32.ftz, 9 f64, 10 bf16, 11 tf32, 12 tf32.ftz, 13-15 sub-byte.
  EXPECT_EQ(DTypeFromPtxElemtype(8), DType::kF32Ftz);
  EXPECT_EQ(DTypeFromPtxElemtype(9), DType::kF64);
  EXPECT_EQ(DTypeFromPtxElemtype(10), DType::kBF16);
  EXPECT_EQ(DTypeFromPtxElemtype(11), DType::kTF32);
  EXPECT_EQ(DTypeFromPtxElemtype(15), DType::kB6x16P32);
  EXPECT_FALSE(DTypeFromPtxElemtype(16).has_value());
  EXPECT_EQ(PtxElemtype(DType::kF64), 9);
  EXPECT_EQ(PtxElemtype(DType::kF32Ftz), 8);
  for (uint64_t v = 0; v < 16; ++v)
    EXPECT_EQ(PtxElemtype(*DTypeFromPtxElemtype(v)), v);
}

TEST(TensormapReplaceFields, SwizzleModeGivesThe128BExample) {
  // §13: "Same map with 128B swizzle: control word 0x6090 and repeat word 0x400".
  DescriptorBytes d = U16Map();
  ASSERT_TRUE(Replace(&d, ReplaceField::kSwizzleMode, 0, 3).ok());
  EXPECT_EQ(d, U16Map(true));
  ASSERT_TRUE(Replace(&d, ReplaceField::kSwizzleMode, 0, 0).ok());
  EXPECT_EQ(d, U16Map(false));
}

TEST(TensormapReplaceFields, BoxDim) {
  DescriptorBytes d = U16Map();
  ASSERT_TRUE(Replace(&d, ReplaceField::kBoxDim, 0, 32).ok());
  EXPECT_EQ(Field(d, num::kDescBox0Lsb, num::kDescBox0W), 31u);
  EXPECT_EQ(BoxBytes(d), 32u * 8 * 2);  // box bytes follow
  ASSERT_TRUE(Replace(&d, ReplaceField::kBoxDim, 1, 256).ok());
  EXPECT_EQ(Field(d, num::kDescBox1Lsb, num::kDescBox1W), 255u);
  EXPECT_EQ(BoxBytes(d), 32u * 256 * 2);
  ASSERT_TRUE(Replace(&d, ReplaceField::kBoxDim, 4, 2).ok());  // beyond the rank
  EXPECT_EQ(Field(d, num::kDescBox1Lsb + 3 * num::kDescBox1W, num::kDescBox1W), 1u);
  EXPECT_EQ(BoxBytes(d), 32u * 256 * 2);  // rank 2: box[4] does not count
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kBoxDim, 0, 0), "box_dim");
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kBoxDim, 0, 257), "box_dim");
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kBoxDim, 5, 8), "ord");
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kBoxDim, -1, 8), "ord");
}

TEST(TensormapReplaceFields, GlobalDim) {
  DescriptorBytes d = U16Map();
  ASSERT_TRUE(Replace(&d, ReplaceField::kGlobalDim, 1, 100).ok());
  EXPECT_EQ(Field(d, num::kDescDimLsb + num::kDescDimW, num::kDescDimW), 99u);
  ASSERT_TRUE(Replace(&d, ReplaceField::kGlobalDim, 0, 0xFFFFFFFFu).ok());
  EXPECT_EQ(Field(d, num::kDescDimLsb, num::kDescDimW), 0xFFFFFFFEu);
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kGlobalDim, 0, 0), "global_dim");
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kGlobalDim, 0, 1ull << 32), "global_dim");
}

TEST(TensormapReplaceFields, GlobalStrideInBytes) {
  DescriptorBytes d = U16Map();
  ASSERT_TRUE(Replace(&d, ReplaceField::kGlobalStride, 0, 512).ok());
  EXPECT_EQ(Field(d, num::kDescStrideLoLsb, num::kDescStrideLoW), 0x20u);
  ASSERT_TRUE(Replace(&d, ReplaceField::kGlobalStride, 3, 1ull << 39).ok());
  EXPECT_EQ(Field(d, num::kDescStrideLoLsb + 3 * num::kDescStrideLoW, num::kDescStrideLoW),
            0u);  // (2^39 >> 4) & 0xFFFFFFFF
  EXPECT_EQ(Field(d, num::kDescStrideHiLsb + 3 * num::kDescStrideHiW, num::kDescStrideHiW),
            8u);  // the high nibble of stride 3
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kGlobalStride, 0, 520), "global_stride");
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kGlobalStride, 0, 1ull << 40), "global_stride");
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kGlobalStride, 4, 512), "ord");
}

TEST(TensormapReplaceFields, ElementStride) {
  DescriptorBytes d = U16Map();
  ASSERT_TRUE(Replace(&d, ReplaceField::kElementStride, 1, 3).ok());
  EXPECT_EQ(Field(d, num::kDescElemStrideLsb + num::kDescElemStrideW, num::kDescElemStrideW),
            2u);                        // es[1] - 1
  EXPECT_EQ(BoxBytes(d), 2u * 64 * 2);  // 2 * floor(64/1) * floor(8/3)
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kElementStride, 1, 9), "element_stride");
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kElementStride, 1, 0), "element_stride");
}

TEST(TensormapReplaceFields, ElemtypeUsesPtxNumbering) {
  DescriptorBytes d = U16Map();
  ASSERT_TRUE(Replace(&d, ReplaceField::kElemType, 0, 11).ok());  // .tf32
  EXPECT_EQ(Field(d, num::kDescTypeLsb, num::kDescTypeW), 7u);
  EXPECT_EQ(Field(d, num::kDescTf32Lsb, num::kDescTf32W), 1u);
  EXPECT_EQ(BoxBytes(d), 64u * 8 * 4);
  ASSERT_TRUE(Replace(&d, ReplaceField::kElemType, 0, 9).ok());  // .f64: hardware 9
  EXPECT_EQ(Field(d, num::kDescTypeLsb, num::kDescTypeW), 9u);
  EXPECT_EQ(Field(d, num::kDescTf32Lsb, num::kDescTf32W), 0u);
  EXPECT_EQ(BoxBytes(d), 64u * 8 * 8);
  TensorMap m;
  ASSERT_TRUE(DecodeDescriptor(d.data(), &m).ok());
  EXPECT_EQ(m.dtype, DType::kF64);
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kElemType, 0, 13), "elemtype");  // sm_90
  ASSERT_TRUE(Replace(&d, ReplaceField::kElemType, 0, 13, Arch::kSm100).ok());
  EXPECT_EQ(Field(d, num::kDescTypeLsb, num::kDescTypeW), 11u);
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kElemType, 0, 16, Arch::kSm100), "elemtype");
}

TEST(TensormapReplaceFields, InterleaveFillRankAddress) {
  DescriptorBytes d = U16Map();
  ASSERT_TRUE(Replace(&d, ReplaceField::kInterleaveLayout, 0, 2).ok());
  EXPECT_EQ(ControlWord(d), 0x1090u);
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kInterleaveLayout, 0, 3), "interleave_layout");
  d = U16Map();
  ASSERT_TRUE(Replace(&d, ReplaceField::kFillMode, 0, 1).ok());
  EXPECT_EQ(ControlWord(d), 0x8090u);
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kFillMode, 0, 2), "fill_mode");
  d = U16Map();
  ASSERT_TRUE(Replace(&d, ReplaceField::kRank, 0, 2).ok());  // rank 3
  EXPECT_EQ(ControlWord(d), 0xA0u);
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kRank, 0, 5), "rank");
  d = U16Map();
  ASSERT_TRUE(Replace(&d, ReplaceField::kGlobalAddress, 0, 0x7f7742000000ull).ok());
  EXPECT_EQ(Field(d, num::kDescAddressLsb, num::kDescAddressW), 0x7f7742000000ull);
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kGlobalAddress, 0, 0x1008), "global_address");
  // A .b32 field with a value above 32 bits.
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kRank, 0, 1ull << 32), "rank");
}

TEST(TensormapReplaceFields, SwizzleModeAndAtomicityPerArch) {
  DescriptorBytes d = U16Map();
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kSwizzleMode, 0, 4), "swizzle_mode");
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kSwizzleMode, 0, 4, Arch::kSm100), "swizzle_mode");
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kSwizzleMode, 0, 5, Arch::kSm103), "swizzle_mode");
  EXPECT_EQ(d, U16Map());  // rejections leave the map alone
  ASSERT_TRUE(Replace(&d, ReplaceField::kSwizzleMode, 0, 4, Arch::kSm103).ok());
  EXPECT_EQ(Field(d, num::kDescSwizzle96BLsb, num::kDescSwizzle96BW), 1u);
  EXPECT_EQ(Field(d, num::kDescSwizzleRepeatLsb, num::kDescSwizzleRepeatW), 256u);
  TensorMap m;
  ASSERT_TRUE(DecodeDescriptor(d.data(), &m).ok());
  EXPECT_EQ(m.swizzle, Swizzle::k96B);

  d = U16Map(true);
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kSwizzleAtomicity, 0, 1), "swizzle_atomicity");
  ASSERT_TRUE(Replace(&d, ReplaceField::kSwizzleAtomicity, 0, 2, Arch::kSm100).ok());
  EXPECT_EQ(Field(d, num::kDescSwizzleAtomLsb, num::kDescSwizzleAtomW), 2u);
  ASSERT_TRUE(DecodeDescriptor(d.data(), &m).ok());
  EXPECT_EQ(m.swizzle, Swizzle::k128BAtom32BFlip8B);
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kSwizzleAtomicity, 0, 4, Arch::kSm100),
                       "swizzle_atomicity");
}

TEST(TensormapReplaceFields, RejectsIm2colMap) {
  DescriptorBytes d = U16Map();
  SetDescriptorBits(d.data(), num::kDescModeLsb, num::kDescModeW, 1);
  EXPECT_INVALID_INSTR(Replace(&d, ReplaceField::kBoxDim, 0, 8), "mode");
}

TEST(TensormapReplaceFields, ResultDecodesAndMatchesEncoder) {
  // Rewriting the u16 map into another map field by field gives the encoder's bytes for it.
  DescriptorBytes d = U16Map();
  ASSERT_TRUE(Replace(&d, ReplaceField::kRank, 0, 2).ok());
  ASSERT_TRUE(Replace(&d, ReplaceField::kGlobalDim, 2, 7).ok());
  ASSERT_TRUE(Replace(&d, ReplaceField::kGlobalStride, 1, 400 * 50).ok());
  ASSERT_TRUE(Replace(&d, ReplaceField::kBoxDim, 2, 4).ok());
  ASSERT_TRUE(Replace(&d, ReplaceField::kElemType, 0, 6).ok());  // f16
  ASSERT_TRUE(Replace(&d, ReplaceField::kSwizzleMode, 0, 3).ok());
  TensorMap want;
  want.rank = 3;
  want.dtype = DType::kF16;
  want.dims = {200, 50, 7, 1, 1};
  want.strides = {400, 20000, 0, 0};
  want.box = {64, 8, 4, 1, 1};
  want.swizzle = Swizzle::k128B;
  EXPECT_EQ(d, EncodeDescriptor(want));
  TensorMap m;
  ASSERT_TRUE(DecodeDescriptor(d.data(), &m).ok());
  EXPECT_EQ(m, want);
}

}  // namespace
}  // namespace tma::model
