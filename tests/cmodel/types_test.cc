// SPDX-License-Identifier: Apache-2.0
//
// The vocabulary's names (golden-cases.md spellings), element sizes and TensorMap equality.
#include "tma/types.h"

#include <string>

#include <gtest/gtest.h>

namespace tma::model {
namespace {

TEST(TypesNames, DTypeSpellings) {
  // golden-cases.md: "u8 u16 u32 s32 u64 s64 f16 f32 f32.ftz f64 bf16 tf32 tf32.ftz b4x16
  // b4x16_p64 b6x16_p32", driver enum order in types.h.
  const char* want[kNumDTypes] = {"u8",       "u16",   "u32",       "s32",      "u64",     "s64",
                                  "f16",      "f32",   "f64",       "bf16",     "f32.ftz", "tf32",
                                  "tf32.ftz", "b4x16", "b4x16_p64", "b6x16_p32"};
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType t = static_cast<DType>(i);
    EXPECT_STREQ(ToString(t), want[i]);
    ASSERT_TRUE(ParseDType(want[i]).has_value()) << want[i];
    EXPECT_EQ(*ParseDType(want[i]), t);
  }
  EXPECT_EQ(ParseDType("b6p2x16"), DType::kB6x16P32);  // PTX store-side spelling
  EXPECT_FALSE(ParseDType("f8").has_value());
  EXPECT_FALSE(ParseDType("F16").has_value());
}

TEST(TypesNames, SwizzleSpellings) {
  const char* want[] = {
      "none",          "32B", "64B", "128B", "128B_atom_32B", "128B_atom_32B_flip_8B",
      "128B_atom_64B", "96B"};
  for (int i = 0; i < 8; ++i) {
    EXPECT_STREQ(ToString(static_cast<Swizzle>(i)), want[i]);
    EXPECT_EQ(ParseSwizzle(want[i]), static_cast<Swizzle>(i));
  }
  EXPECT_FALSE(ParseSwizzle("256B").has_value());
}

TEST(TypesNames, LoadModeSpellings) {
  const char* want[] = {"tile",          "im2col",         "im2col::w",     "im2col::w::128",
                        "tile::gather4", "tile::scatter4", "im2col_no_offs"};
  for (int i = 0; i < 7; ++i) {
    EXPECT_STREQ(ToString(static_cast<LoadMode>(i)), want[i]);
    EXPECT_EQ(ParseLoadMode(want[i]), static_cast<LoadMode>(i));
  }
  EXPECT_FALSE(ParseLoadMode("im2col::w::64").has_value());
}

TEST(TypesNames, ErrorClassSpellings) {
  const char* want[] = {"ok",
                        "invalid_descriptor",
                        "misaligned",
                        "misaligned_coordinate",
                        "invalid_coordinate",
                        "unsupported_reduction",
                        "invalid_instruction",
                        "unsupported",
                        "bus_error"};
  for (int i = 0; i < 9; ++i) {
    EXPECT_STREQ(ToString(static_cast<ErrorClass>(i)), want[i]);
    EXPECT_EQ(ParseErrorClass(want[i]), static_cast<ErrorClass>(i));
  }
}

TEST(TypesNames, SmallEnums) {
  EXPECT_STREQ(ToString(Interleave::k16B), "16B");
  EXPECT_EQ(ParseInterleave("32B"), Interleave::k32B);
  EXPECT_EQ(ParseInterleave("none"), Interleave::kNone);
  EXPECT_FALSE(ParseInterleave("64B").has_value());
  EXPECT_STREQ(ToString(L2Promotion::k256B), "256B");
  EXPECT_EQ(ParseL2Promotion("64B"), L2Promotion::k64B);
  EXPECT_STREQ(ToString(OobFill::kNan), "nan");
  EXPECT_EQ(ParseOobFill("zero"), OobFill::kZero);
  EXPECT_FALSE(ParseOobFill("inf").has_value());
  const char* ops[] = {"load", "store", "reduce", "prefetch"};
  for (int i = 0; i < 4; ++i) {
    EXPECT_STREQ(ToString(static_cast<Op>(i)), ops[i]);
    EXPECT_EQ(ParseOp(ops[i]), static_cast<Op>(i));
  }
  const char* red[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor"};
  for (int i = 0; i < 8; ++i) {
    EXPECT_STREQ(ToString(static_cast<RedOp>(i)), red[i]);
    EXPECT_EQ(ParseRedOp(red[i]), static_cast<RedOp>(i));
  }
  EXPECT_FALSE(ParseRedOp("mul").has_value());
}

TEST(TypesNames, StatusToString) {
  const Status s =
      Status::Error(ErrorClass::kInvalidDescriptor, "boxDim[0]", "must be 1..256 (got 300)");
  EXPECT_EQ(s.ToString(), "invalid_descriptor: boxDim[0]: must be 1..256 (got 300)");
  EXPECT_EQ(Status::Ok().ToString(), "ok");
  EXPECT_TRUE(Status::Ok().ok());
  EXPECT_FALSE(s.ok());
}

TEST(TypesElements, SizesAndClasses) {
  EXPECT_EQ(ElementBits(DType::kU8), 8);
  EXPECT_EQ(ElementBits(DType::kBF16), 16);
  EXPECT_EQ(ElementBits(DType::kTF32Ftz), 32);
  EXPECT_EQ(ElementBits(DType::kS64), 64);
  EXPECT_EQ(ElementBits(DType::kB4x16), 4);
  EXPECT_EQ(ElementBits(DType::kB4x16P64), 4);
  EXPECT_EQ(ElementBits(DType::kB6x16P32), 6);
  EXPECT_EQ(ElementBytes(DType::kF16), 2);
  EXPECT_EQ(ElementBytes(DType::kF64), 8);
  EXPECT_EQ(ElementBytes(DType::kF32Ftz), 4);
  EXPECT_TRUE(IsSubByte(DType::kB4x16));
  EXPECT_FALSE(IsSubByte(DType::kU8));
  int floats = 0;
  for (int i = 0; i < kNumDTypes; ++i)
    floats += IsFloat(static_cast<DType>(i)) ? 1 : 0;
  EXPECT_EQ(floats, 7);  // f16 f32 f64 bf16 f32.ftz tf32 tf32.ftz
  EXPECT_FALSE(IsFloat(DType::kS32));
  EXPECT_FALSE(IsFloat(DType::kB6x16P32));
  EXPECT_TRUE(IsFloat(DType::kTF32));
}

TEST(TypesTensorMap, EqualityIgnoresUnusedEntries) {
  TensorMap a;
  a.rank = 2;
  a.dims = {100, 37, 1, 1, 1};
  a.strides = {256, 0, 0, 0};
  a.box = {64, 8, 1, 1, 1};
  TensorMap b = a;
  b.dims[3] = 9;       // beyond rank
  b.box[4] = 7;        // beyond rank
  b.strides[2] = 512;  // stride of dim 3, beyond rank
  b.lower[0] = -3;     // im2col field in a tiled map
  EXPECT_EQ(a, b);
  b.strides[0] = 272;
  EXPECT_NE(a, b);
  b = a;
  b.box[1] = 9;
  EXPECT_NE(a, b);
}

TEST(TypesTensorMap, Im2colEqualityComparesCornersNotBox) {
  TensorMap a;
  a.mode = MapMode::kIm2col;
  a.rank = 4;
  a.lower = {-1, -2, 0};
  a.upper = {1, 2, 0};
  TensorMap b = a;
  b.box[0] = 64;   // not an im2col field
  b.lower[2] = 5;  // rank 4 has two corners
  EXPECT_EQ(a, b);
  b.upper[1] = 3;
  EXPECT_NE(a, b);
  b = a;
  b.pixels_per_column = 2;
  EXPECT_NE(a, b);
  b = a;
  b.mode = MapMode::kTiled;
  EXPECT_NE(a, b);
}

}  // namespace
}  // namespace tma::model
