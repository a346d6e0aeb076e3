// SPDX-License-Identifier: Apache-2.0
//
// Stores (shared::cta -> global): 16-byte-granule clipping along dim 0 (silicon D7) and the
// element-exact option, element strides, swizzled sources, tf32 (not rounded), scatter4,
// im2col_no_offs, packed b6 stores, bus errors and the store faults (F2, F3).
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "copy_test_util.h"
#include "tma/memory.h"
#include "tma/tensor_copy.h"

namespace tma::model {
namespace {

using testing::kGlobalBase;
using testing::ReadGlobal;
using testing::StoreInstr;
using testing::TiledMap;

constexpr uint8_t kInit = 0xEE;

// Smem byte i holds Src(i).
uint8_t Src(uint32_t i) {
  return static_cast<uint8_t>(i * 7 + 3);
}

void FillSmem(ClusterSharedMemory& s, int cta = 0) {
  for (uint32_t i = 0; i < s.WindowBytes(); ++i) {
    s.Window(cta)[i] = Src(i);
  }
}

uint8_t G(SparseGlobalMemory& g, uint64_t a) {
  return ReadGlobal<uint8_t>(g, a);
}

TEST(TileStore, GranuleClipD7) {
  // u16 dims {37, 3}, stride 80; box {16, 2} at (32, 1). In bounds: x 32..36 (bytes 64..73);
  // the 16-byte granule [64, 80) also carries x 37..39, which D7 writes; [80, 96) is not.
  for (bool exact : {false, true}) {
    SparseGlobalMemory g(kInit);
    ClusterSharedMemory s(1, 1024, 0);
    FillSmem(s);
    ExecOptions o;
    o.element_exact_store_clip = exact;
    TensorMap m = TiledMap(DType::kU16, {37, 3}, {80}, {16, 2});
    ExecResult r = ExecuteTensor(m, StoreInstr(2, {32, 1}), g, s, o);
    ASSERT_TRUE(r.status.ok()) << r.status.message;
    for (uint32_t y = 0; y < 3; ++y) {
      for (uint32_t b = 0; b < 112; ++b) {  // bytes of x 0..55 in row y (rows overlap past 80)
        if (b >= 80 && y < 2) {
          continue;  // that byte belongs to the next row too; checked there
        }
        const uint64_t a = kGlobalBase + y * 80 + b;
        const uint32_t limit = exact ? 74 : 80;
        const bool written = y >= 1 && b >= 64 && b < limit;
        const uint8_t want = written ? Src((y - 1) * 32 + (b - 64)) : kInit;
        ASSERT_EQ(G(g, a), want) << "row " << y << " byte " << b << " exact " << exact;
      }
    }
    EXPECT_EQ(r.global_bytes_written, exact ? 20u : 32u);
  }
}

TEST(TileStore, ElementStrideRows) {
  SparseGlobalMemory g(kInit);
  ClusterSharedMemory s(1, 1024, 0);
  FillSmem(s);
  TensorMap m = TiledMap(DType::kU8, {16, 8}, {16}, {16, 4}, {1, 2});
  ASSERT_TRUE(ExecuteTensor(m, StoreInstr(2, {0, 3}), g, s).status.ok());
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 0; x < 16; ++x) {
      const uint8_t want = (y == 3) ? Src(x) : (y == 5 ? Src(16 + x) : kInit);
      ASSERT_EQ(G(g, kGlobalBase + y * 16 + x), want) << y << "," << x;
    }
  }
}

TEST(TileStore, SwizzledSource) {
  // 128B swizzle: global (x, y) comes from smem at the 4.1 transform of logical y*128 + x.
  SparseGlobalMemory g(kInit);
  ClusterSharedMemory s(1, 2048, 0);
  FillSmem(s);
  TensorMap m = TiledMap(DType::kU8, {128, 8}, {128}, {128, 8});
  m.swizzle = Swizzle::k128B;
  ASSERT_TRUE(ExecuteTensor(m, StoreInstr(2, {0, 0}, 256), g, s).status.ok());
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 0; x < 128; ++x) {
      const uint32_t a = 256 + y * 128 + x;
      ASSERT_EQ(G(g, kGlobalBase + y * 128 + x), Src(a ^ (((a >> 7) & 7u) << 4)));
    }
  }
}

TEST(TileStore, Tf32StoreDoesNotRound) {
  SparseGlobalMemory g(kInit);
  ClusterSharedMemory s(1, 1024, 0);
  testing::WriteSmem<uint32_t>(s, 0, 0, 0x3F800FFFu);
  testing::WriteSmem<uint32_t>(s, 0, 4, 0x7FC00001u);
  TensorMap m = TiledMap(DType::kTF32, {4}, {}, {4});
  ASSERT_TRUE(ExecuteTensor(m, StoreInstr(1, {0}), g, s).status.ok());
  EXPECT_EQ(ReadGlobal<uint32_t>(g, kGlobalBase), 0x3F800FFFu);
  EXPECT_EQ(ReadGlobal<uint32_t>(g, kGlobalBase + 4), 0x7FC00001u);
}

TEST(TileStore, Scatter4) {
  SparseGlobalMemory g(kInit);
  ClusterSharedMemory s(1, 1024, 0);
  FillSmem(s);
  TensorMap m = TiledMap(DType::kU16, {64, 16}, {128}, {16, 1});
  TensorInstr ins = StoreInstr(2, {16, 3, 0, 7, 1});
  ins.mode = LoadMode::kTileScatter4;
  ExecOptions o;
  o.arch = Arch::kSm100;
  ASSERT_TRUE(ExecuteTensor(m, ins, g, s, o).status.ok());
  const uint32_t rows[4] = {3, 0, 7, 1};
  for (uint32_t k = 0; k < 4; ++k) {
    for (uint32_t b = 0; b < 32; ++b) {
      ASSERT_EQ(G(g, kGlobalBase + rows[k] * 128 + 32 + b), Src(k * 32 + b));
    }
  }
  EXPECT_EQ(G(g, kGlobalBase + 2 * 128 + 32), kInit);
}

TEST(TileStore, Im2colNoOffs) {
  // NWC u32 {C=4, W=6, N=1}, corners 0/0, cpp 4, ppc 3 at (c=0, w=2, n=0): pixels w = 2, 3, 4.
  SparseGlobalMemory g(kInit);
  ClusterSharedMemory s(1, 1024, 0);
  FillSmem(s);
  TensorMap m;
  m.mode = MapMode::kIm2col;
  m.dtype = DType::kU32;
  m.rank = 3;
  m.global_address = kGlobalBase;
  m.dims = {4, 6, 1, 1, 1};
  m.strides = {16, 96, 0, 0};
  m.channels_per_pixel = 4;
  m.pixels_per_column = 3;
  TensorInstr ins = StoreInstr(3, {0, 2, 0});
  ins.mode = LoadMode::kIm2colNoOffs;
  ASSERT_TRUE(ExecuteTensor(m, ins, g, s).status.ok());
  for (uint32_t b = 0; b < 96; ++b) {
    const bool written = b >= 32 && b < 80;
    ASSERT_EQ(G(g, kGlobalBase + b), written ? Src(b - 32) : kInit) << b;
  }
  m.lower[0] = -1;  // PTX: the store box must stay inside the tensor
  EXPECT_EQ(ExecuteTensor(m, ins, g, s).status.cls, ErrorClass::kInvalidInstruction);
}

TEST(TileStore, PackedB6Store) {
  // [INF bit order] .b6p2x16: sixteen 8-bit containers -> 12 bytes, value k at bits [6k, 6k+6).
  SparseGlobalMemory g(kInit);
  ClusterSharedMemory s(1, 1024, 0);
  for (uint32_t i = 0; i < 128; ++i) {
    s.Window(0)[i] = static_cast<uint8_t>((i % 16) | 0xC0);  // two MSBs dropped
  }
  TensorMap m = TiledMap(DType::kB6x16P32, {128}, {}, {128});
  ExecOptions o;
  o.arch = Arch::kSm100;
  ExecResult r = ExecuteTensor(m, StoreInstr(1, {0}), g, s, o);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  const uint8_t want[6] = {0x40, 0x20, 0x0C, 0x44, 0x61, 0x1C};  // values 0..7
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(G(g, kGlobalBase + static_cast<uint64_t>(i)), want[i]) << i;
  }
  EXPECT_EQ(r.global_bytes_written, 96u);
  // b4x16_p64 has no store direction.
  TensorMap m64 = TiledMap(DType::kB4x16P64, {128}, {}, {128});
  EXPECT_EQ(ExecuteTensor(m64, StoreInstr(1, {0}), g, s, o).status.cls,
            ErrorClass::kInvalidInstruction);
}

TEST(TileStore, BusErrorWritesNothing) {
  SparseGlobalMemory g(kInit);
  ClusterSharedMemory s(1, 1024, 0);
  FillSmem(s);
  g.AddErrorRange(kGlobalBase + 2 * 64 + 5, kGlobalBase + 2 * 64 + 6);  // inside row 2
  TensorMap m = TiledMap(DType::kU8, {64, 4}, {64}, {32, 4});
  ExecResult r = ExecuteTensor(m, StoreInstr(2, {0, 0}), g, s);
  EXPECT_EQ(r.status.cls, ErrorClass::kBusError);
  g.ClearErrorRanges();
  for (uint64_t b = 0; b < 256; ++b) {
    ASSERT_EQ(G(g, kGlobalBase + b), kInit) << b;
  }
}

TEST(TileStoreFaults, F3NegativeCoordinate) {
  SparseGlobalMemory g(kInit);
  ClusterSharedMemory s(1, 1024, 0);
  TensorMap m = TiledMap(DType::kU8, {64, 4}, {64}, {32, 4});
  EXPECT_EQ(ExecuteTensor(m, StoreInstr(2, {0, -1}), g, s).status.cls,
            ErrorClass::kInvalidCoordinate);
  EXPECT_EQ(ExecuteTensor(m, StoreInstr(2, {-16, 0}), g, s).status.cls,
            ErrorClass::kInvalidCoordinate);
  TensorMap m32 = TiledMap(DType::kU32, {64, 4}, {256}, {8, 4});
  EXPECT_EQ(
      ExecuteTensor(m32, StoreInstr(2, {0, -1}, 0, Op::kReduce, RedOp::kAnd), g, s).status.cls,
      ErrorClass::kInvalidCoordinate);
  for (uint64_t b = 0; b < 256; ++b) {
    ASSERT_EQ(G(g, kGlobalBase + b), kInit);
  }
}

TEST(TileStoreFaults, F2MisalignedSource) {
  SparseGlobalMemory g(kInit);
  ClusterSharedMemory s(1, 1024, 0);
  TensorMap m = TiledMap(DType::kU8, {64, 4}, {64}, {32, 4});
  EXPECT_EQ(ExecuteTensor(m, StoreInstr(2, {0, 0}, 64), g, s).status.cls, ErrorClass::kMisaligned);
}

TEST(TileStoreFaults, F1MisalignedCoordinate) {
  SparseGlobalMemory g(kInit);
  ClusterSharedMemory s(1, 1024, 0);
  TensorMap m = TiledMap(DType::kU32, {64, 4}, {256}, {8, 4});
  EXPECT_EQ(ExecuteTensor(m, StoreInstr(2, {2, 0}), g, s).status.cls,
            ErrorClass::kMisalignedCoordinate);
}

}  // namespace
}  // namespace tma::model
