// SPDX-License-Identifier: Apache-2.0
//
// Reductions: the F5 support table, the D9 arithmetic of every op (hand-computed values), the
// granule clipping of D7 for reductions, and unsupported pairs as errors.
#include "tma/reduce.h"

#include <cstdint>
#include <cstring>
#include <set>
#include <utility>

#include <gtest/gtest.h>

#include "copy_test_util.h"
#include "tma/memory.h"
#include "tma/tensor_copy.h"

namespace tma::model {
namespace {

using testing::kGlobalBase;

template <typename T>
T Red(RedOp op, DType t, T dst, T src) {
  uint8_t d[sizeof(T)], s[sizeof(T)];
  std::memcpy(d, &dst, sizeof(T));
  std::memcpy(s, &src, sizeof(T));
  ReduceElement(op, t, d, s);
  T out;
  std::memcpy(&out, d, sizeof(T));
  return out;
}

TEST(Reduce, SupportTableF5) {
  using P = std::pair<RedOp, DType>;
  const std::set<P> yes = {
      {RedOp::kAdd, DType::kU32},     {RedOp::kAdd, DType::kS32},  {RedOp::kAdd, DType::kU64},
      {RedOp::kAdd, DType::kF32},     {RedOp::kAdd, DType::kF16},  {RedOp::kAdd, DType::kBF16},
      {RedOp::kAdd, DType::kF64},     {RedOp::kAdd, DType::kTF32}, {RedOp::kAdd, DType::kF32Ftz},
      {RedOp::kAdd, DType::kTF32Ftz},  // measured on an H200 (silicon-notes finding 2)
      {RedOp::kMin, DType::kU32},     {RedOp::kMin, DType::kS32},  {RedOp::kMin, DType::kU64},
      {RedOp::kMin, DType::kS64},     {RedOp::kMin, DType::kF16},  {RedOp::kMin, DType::kBF16},
      {RedOp::kMax, DType::kU32},     {RedOp::kMax, DType::kS32},  {RedOp::kMax, DType::kU64},
      {RedOp::kMax, DType::kS64},     {RedOp::kMax, DType::kF16},  {RedOp::kMax, DType::kBF16},
      {RedOp::kInc, DType::kU32},     {RedOp::kDec, DType::kU32},  {RedOp::kAnd, DType::kU32},
      {RedOp::kAnd, DType::kS32},     {RedOp::kAnd, DType::kU64},  {RedOp::kOr, DType::kU32},
      {RedOp::kOr, DType::kS32},      {RedOp::kOr, DType::kU64},   {RedOp::kXor, DType::kU32},
      {RedOp::kXor, DType::kS32},     {RedOp::kXor, DType::kU64},
  };
  for (int o = 0; o <= static_cast<int>(RedOp::kXor); ++o) {
    for (int t = 0; t < kNumDTypes; ++t) {
      const P p{static_cast<RedOp>(o), static_cast<DType>(t)};
      EXPECT_EQ(ReductionSupported(p.first, p.second), yes.count(p) == 1)
          << ToString(p.first) << " " << ToString(p.second);
    }
  }
}

TEST(Reduce, IntegerOps) {
  EXPECT_EQ(Red<uint32_t>(RedOp::kAdd, DType::kU32, 0xFFFFFFFFu, 2), 1u);
  EXPECT_EQ(Red<int32_t>(RedOp::kAdd, DType::kS32, -5, 3), -2);
  EXPECT_EQ(Red<uint64_t>(RedOp::kAdd, DType::kU64, 0xFFFFFFFFull, 1), 0x100000000ull);
  EXPECT_EQ(Red<int32_t>(RedOp::kMin, DType::kS32, -1, 1), -1);
  EXPECT_EQ(Red<uint32_t>(RedOp::kMin, DType::kU32, 0xFFFFFFFFu, 1), 1u);
  EXPECT_EQ(Red<int32_t>(RedOp::kMax, DType::kS32, -1, 1), 1);
  EXPECT_EQ(Red<uint32_t>(RedOp::kMax, DType::kU32, 0xFFFFFFFFu, 1), 0xFFFFFFFFu);
  EXPECT_EQ(Red<int64_t>(RedOp::kMin, DType::kS64, -7, 3), -7);
  EXPECT_EQ(Red<uint64_t>(RedOp::kMax, DType::kU64, 1ull << 63, 5), 1ull << 63);
  EXPECT_EQ(Red<int64_t>(RedOp::kMax, DType::kS64, INT64_MIN, 5), 5);
  EXPECT_EQ(Red<uint32_t>(RedOp::kAnd, DType::kU32, 0xF0F0u, 0xFF00u), 0xF000u);
  EXPECT_EQ(Red<uint32_t>(RedOp::kOr, DType::kS32, 0xF0F0u, 0xFF00u), 0xFFF0u);
  EXPECT_EQ(Red<uint64_t>(RedOp::kXor, DType::kU64, 0xF0F0ull << 32, 0xFF00ull << 32),
            0x0FF0ull << 32);
  EXPECT_EQ(Red<uint32_t>(RedOp::kInc, DType::kU32, 0xFFFFFFFFu, 0xFFFFFFFFu), 0u);
  EXPECT_EQ(Red<uint32_t>(RedOp::kDec, DType::kU32, 1, 0), 0u);  // 1 > 0 -> src
}

TEST(Reduce, HalfAddRoundsToNearestEven) {
  EXPECT_EQ(Red<uint16_t>(RedOp::kAdd, DType::kF16, 0x3C00, 0x1000), 0x3C00);   // 1 + ulp/2
  EXPECT_EQ(Red<uint16_t>(RedOp::kAdd, DType::kF16, 0x3C00, 0x1600), 0x3C02);   // 1 + 1.5 ulp
  EXPECT_EQ(Red<uint16_t>(RedOp::kAdd, DType::kF16, 0x0001, 0x0001), 0x0002);   // subnormals kept
  EXPECT_EQ(Red<uint16_t>(RedOp::kAdd, DType::kF16, 0x7BFF, 0x7BFF), 0x7C00);   // overflow -> inf
  EXPECT_EQ(Red<uint16_t>(RedOp::kAdd, DType::kF16, 0x3C00, 0xBC00), 0x0000);   // 1 - 1 = +0
  EXPECT_EQ(Red<uint16_t>(RedOp::kAdd, DType::kBF16, 0x3F80, 0x3B80), 0x3F80);  // tie -> even
  EXPECT_EQ(Red<uint16_t>(RedOp::kAdd, DType::kBF16, 0x3F80, 0x3C40), 0x3F82);
  EXPECT_EQ(Red<uint16_t>(RedOp::kAdd, DType::kBF16, 0x0001, 0x0001), 0x0002);
}

TEST(Reduce, HalfMinMax) {
  EXPECT_EQ(Red<uint16_t>(RedOp::kMax, DType::kF16, 0x7E00, 0xC000), 0xC000);   // NaN, -2
  EXPECT_EQ(Red<uint16_t>(RedOp::kMin, DType::kBF16, 0x3F80, 0x7FC0), 0x3F80);  // 1, NaN
  EXPECT_EQ(Red<uint16_t>(RedOp::kMin, DType::kF16, 0x4000, 0xC000), 0xC000);   // 2, -2
  EXPECT_EQ(Red<uint16_t>(RedOp::kMax, DType::kBF16, 0x4000, 0xC000), 0x4000);
  EXPECT_EQ(Red<uint16_t>(RedOp::kMin, DType::kF16, 0x0000, 0x8000), 0x8000);  // -0 < +0 [INF]
}

TEST(Reduce, FloatAdd) {
  // f32: 1 + 2^-24 is a tie -> 1.0; 1 + 3 * 2^-24 -> 1 + 2^-22.
  EXPECT_EQ(Red<uint32_t>(RedOp::kAdd, DType::kF32, 0x3F800000u, 0x33800000u), 0x3F800000u);
  EXPECT_EQ(Red<uint32_t>(RedOp::kAdd, DType::kF32, 0x3F800000u, 0x34400000u), 0x3F800002u);
  EXPECT_EQ(Red<uint32_t>(RedOp::kAdd, DType::kTF32, 0x00000100u, 0x00000200u), 0x00000300u);
  // f64: exact IEEE; 0.1 + 0.2 = 0x3FD3333333333334, 1 + 2^-53 -> 1.
  EXPECT_EQ(Red<uint64_t>(RedOp::kAdd, DType::kF64, 0x3FB999999999999Aull, 0x3FC999999999999Aull),
            0x3FD3333333333334ull);
  EXPECT_EQ(Red<uint64_t>(RedOp::kAdd, DType::kF64, 0x3FF0000000000000ull, 0x3CA0000000000000ull),
            0x3FF0000000000000ull);
}

// tf32.ftz add executes and is a plain f32 add on the full operands (H200). Hand-decoded from
// silicon case dir-red-denorm-00042 (reduce.jsonl.gz; 3-D tf32.ftz map, coords {8,0,0}, swizzle
// 128B, global seed 53222886, smem seed 1560830091): global byte 52 is element x = 13 of row 0,
// old value splitmix bytes 33 bd 03 26 = 0x2603BD33; it is box element 5, smem byte 20 (the
// 128B swizzle leaves row 0 in place), splitmix bytes f6 89 3a ad = 0xAD3A89F6; silicon wrote
// e7 87 3a ad. The f32 sum rounds (inexact) and keeps the 13 low mantissa bits; with the inputs
// rounded to tf32 first (0x2603C000 + 0xAD3A8000) the low bits would differ.
TEST(Reduce, Tf32FtzAddIsF32Add) {
  EXPECT_EQ(Red<uint32_t>(RedOp::kAdd, DType::kTF32Ftz, 0x2603BD33u, 0xAD3A89F6u), 0xAD3A87E7u);
  EXPECT_EQ(Red<uint32_t>(RedOp::kAdd, DType::kTF32, 0x2603BD33u, 0xAD3A89F6u), 0xAD3A87E7u);
  // A NaN operand gives the canonical NaN 0x7FFFFFFF (same case, global bytes 32..35: old
  // 0xFFFDED92; src smem bytes 0..3 = 0x9C31BD83; silicon wrote ff ff ff 7f).
  EXPECT_EQ(Red<uint32_t>(RedOp::kAdd, DType::kTF32Ftz, 0xFFFDED92u, 0x9C31BD83u), 0x7FFFFFFFu);
}

TEST(Reduce, UnsupportedPairsFault) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(1, 1024, 0);
  struct Case {
    DType t;
    RedOp op;
    uint32_t box;
  };
  for (Case c : {Case{DType::kS64, RedOp::kAnd, 2}, Case{DType::kF32, RedOp::kMin, 4},
                 Case{DType::kU8, RedOp::kAdd, 16}, Case{DType::kU16, RedOp::kAdd, 8},
                 Case{DType::kS32, RedOp::kInc, 4}, Case{DType::kF64, RedOp::kMax, 2},
                 Case{DType::kTF32Ftz, RedOp::kMin, 4}}) {
    TensorMap m = testing::TiledMap(c.t, {c.box}, {}, {c.box});
    ExecResult r = ExecuteTensor(m, testing::StoreInstr(1, {0}, 0, Op::kReduce, c.op), g, s);
    EXPECT_EQ(r.status.cls, ErrorClass::kUnsupportedReduction) << ToString(c.t);
  }
  EXPECT_EQ(g.PagesAllocated(), 0u);
  // Sub-byte types never reduce (PTX restriction).
  TensorMap m = testing::TiledMap(DType::kB4x16, {64}, {}, {64});
  ExecOptions o;
  o.arch = Arch::kSm100;
  EXPECT_EQ(ExecuteTensor(m, testing::StoreInstr(1, {0}, 0, Op::kReduce, RedOp::kAnd), g, s, o)
                .status.cls,
            ErrorClass::kUnsupportedReduction);
}

TEST(Reduce, GranuleClipAppliesToReductions) {
  // u32 dims {6}, box {8}: bytes 24..31 share the granule [16, 32) with in-bounds elements 4, 5
  // and are reduced too (D7); element-exact leaves them alone.
  for (bool exact : {false, true}) {
    SparseGlobalMemory g;
    ClusterSharedMemory s(1, 1024, 0);
    for (uint32_t i = 0; i < 8; ++i) {
      testing::WriteGlobal<uint32_t>(g, kGlobalBase + 4 * i, 10);
      testing::WriteSmem<uint32_t>(s, 0, 4 * i, i);
    }
    ExecOptions o;
    o.element_exact_store_clip = exact;
    TensorMap m = testing::TiledMap(DType::kU32, {6}, {}, {8});
    ASSERT_TRUE(ExecuteTensor(m, testing::StoreInstr(1, {0}, 0, Op::kReduce, RedOp::kAdd), g, s, o)
                    .status.ok());
    for (uint32_t i = 0; i < 8; ++i) {
      const uint32_t want = (i < 6 || !exact) ? 10 + i : 10;
      EXPECT_EQ(testing::ReadGlobal<uint32_t>(g, kGlobalBase + 4 * i), want) << i;
    }
  }
}

// With 16B/32B interleave the traversal unit is a whole chunk, but the reduction still works
// on every element inside it (H200: 27 interleaved reductions, e.g. reduce-00187, s32 xor on a
// 16B-interleaved map, changed bytes 4..15 of the chunks, i.e. elements 1..3, not only
// element 0). u32 add on one row of two in-bounds chunks (dim 0 counts chunks, D5): every
// element of both chunks becomes old + src, nothing past them changes.
TEST(Reduce, InterleavedReducesEveryElementOfAChunk) {
  for (Interleave il : {Interleave::k16B, Interleave::k32B}) {
    const uint32_t chunk = il == Interleave::k16B ? 16 : 32;
    const uint32_t n = 2 * chunk / 4;  // u32 elements in the two chunks
    SparseGlobalMemory g;
    ClusterSharedMemory s(1, 1024, 0);
    for (uint32_t i = 0; i < n + 8; ++i) {
      testing::WriteGlobal<uint32_t>(g, kGlobalBase + 4 * i, 1000);
    }
    for (uint32_t i = 0; i < 2 * n; ++i) {
      testing::WriteSmem<uint32_t>(s, 0, 4 * i, 7 * i + 1);
    }
    // box[0] = 4 (the encoder wants box[0] x 4 B to be a multiple of 16): chunks 2, 3 are OOB.
    TensorMap m = testing::TiledMap(DType::kU32, {2, 1, 1}, {2 * chunk, 2 * chunk}, {4, 1, 1});
    m.interleave = il;
    if (il == Interleave::k32B) {
      m.swizzle = Swizzle::k32B;
    }
    const ExecResult r =
        ExecuteTensor(m, testing::StoreInstr(3, {0, 0, 0}, 0, Op::kReduce, RedOp::kAdd), g, s);
    ASSERT_TRUE(r.status.ok()) << r.status.message;
    for (uint32_t i = 0; i < n; ++i) {
      EXPECT_EQ(testing::ReadGlobal<uint32_t>(g, kGlobalBase + 4 * i), 1000 + 7 * i + 1) << i;
    }
    for (uint32_t i = n; i < n + 8; ++i) {
      EXPECT_EQ(testing::ReadGlobal<uint32_t>(g, kGlobalBase + 4 * i), 1000u) << i;
    }
  }
}

}  // namespace
}  // namespace tma::model
