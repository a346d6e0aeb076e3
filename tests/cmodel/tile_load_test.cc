// SPDX-License-Identifier: Apache-2.0
//
// Loads (global -> shared): worked examples per rank, element stride, OOB side, swizzle mode,
// interleave, element type, multicast and destination CTA, gather4, im2col variants, prefetch,
// bus errors and the faults. Expected bytes are derived by hand from silicon-findings.md and
// tensor-semantics.md (the formulas are re-written here, not taken from the model).
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "copy_test_util.h"
#include "tma/descriptor.h"
#include "tma/encoder.h"
#include "tma/memory.h"
#include "tma/tensor_copy.h"
#include "tma/traversal.h"

namespace tma::model {
namespace {

using testing::kGlobalBase;
using testing::LoadInstr;
using testing::ReadSmem;
using testing::TiledMap;

constexpr uint8_t kPoison = 0xA5;

// Global byte at address a (a pattern that identifies the address).
uint8_t Pat(uint64_t a) {
  return static_cast<uint8_t>((a * 131u) ^ (a >> 8));
}

void FillPattern(SparseGlobalMemory& g, uint64_t n) {
  std::vector<uint8_t> buf(n);
  for (uint64_t i = 0; i < n; ++i) {
    buf[i] = Pat(kGlobalBase + i);
  }
  g.Write(kGlobalBase, buf.data(), buf.size());
}

// Smem bytes [off, off+n) equal the global bytes at `addr`.
void ExpectFromGlobal(const ClusterSharedMemory& s, int cta, uint32_t off, uint64_t addr,
                      uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(s.Window(cta)[off + i], Pat(addr + i)) << "smem byte " << off + i;
  }
}

void ExpectFill(const ClusterSharedMemory& s, int cta, uint32_t off, uint32_t n, uint8_t v) {
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(s.Window(cta)[off + i], v) << "smem byte " << off + i;
  }
}

TEST(TileLoad, Rank1TailOob) {
  SparseGlobalMemory g;
  FillPattern(g, 100);
  ClusterSharedMemory s(1, 1024, kPoison);
  ExecResult r = ExecuteTensor(TiledMap(DType::kU8, {100}, {}, {32}), LoadInstr(1, {80}), g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  ExpectFromGlobal(s, 0, 0, kGlobalBase + 80, 20);  // elements 80..99
  ExpectFill(s, 0, 20, 12, 0);                      // 100..111 out of bounds
  ExpectFill(s, 0, 32, 64, kPoison);
  EXPECT_EQ(r.complete_tx[0].bytes, 32u);
  EXPECT_EQ(r.global_bytes_read, 20u);
}

TEST(TileLoad, Rank3ElementStrideAndHighOob) {
  // u16 {16, 5, 4} dense; box {8, 2, 3}, es {1, 1, 2} at (8, 4, 1): rows (y, z) in order
  // (4,1) (5,1)=OOB (4,3) (5,3)=OOB; ceil(3/2) = 2 steps in z.
  SparseGlobalMemory g;
  FillPattern(g, 16 * 5 * 4 * 2);
  ClusterSharedMemory s(1, 1024, kPoison);
  TensorMap m = TiledMap(DType::kU16, {16, 5, 4}, {32, 160}, {8, 2, 3}, {1, 1, 2});
  ExecResult r = ExecuteTensor(m, LoadInstr(3, {8, 4, 1}), g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  ExpectFromGlobal(s, 0, 0, kGlobalBase + 8 * 2 + 4 * 32 + 1 * 160, 16);
  ExpectFill(s, 0, 16, 16, 0);
  ExpectFromGlobal(s, 0, 32, kGlobalBase + 8 * 2 + 4 * 32 + 3 * 160, 16);
  ExpectFill(s, 0, 48, 16, 0);
  ExpectFill(s, 0, 64, 64, kPoison);
  EXPECT_EQ(r.complete_tx[0].bytes, 64u);
}

TEST(TileLoad, Rank5BoxOrderDim1Fastest) {
  // u16 {16,3,3,3,3} dense, box {8,2,2,2,2} at (8,1,1,1,1): all in bounds; row R =
  // ((i4*2 + i3)*2 + i2)*2 + i1 holds coordinates (8.., 1+i1, 1+i2, 1+i3, 1+i4).
  SparseGlobalMemory g;
  const uint64_t s1 = 32, s2 = 96, s3 = 288, s4 = 864;
  FillPattern(g, s4 * 3);
  ClusterSharedMemory s(1, 1024, kPoison);
  TensorMap m = TiledMap(DType::kU16, {16, 3, 3, 3, 3}, {s1, s2, s3, s4}, {8, 2, 2, 2, 2});
  ExecResult r = ExecuteTensor(m, LoadInstr(5, {8, 1, 1, 1, 1}), g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  for (int row = 0; row < 16; ++row) {
    const int i1 = row & 1, i2 = (row >> 1) & 1, i3 = (row >> 2) & 1, i4 = (row >> 3) & 1;
    const uint64_t a =
        kGlobalBase + 16 + (1 + i1) * s1 + (1 + i2) * s2 + (1 + i3) * s3 + (1 + i4) * s4;
    ExpectFromGlobal(s, 0, static_cast<uint32_t>(row * 16), a, 16);
  }
  EXPECT_EQ(r.complete_tx[0].bytes, 256u);
}

TEST(TileLoad, Rank4NegativeOuterCoordinate) {
  SparseGlobalMemory g;
  FillPattern(g, 4096);
  ClusterSharedMemory s(1, 1024, kPoison);
  TensorMap m = TiledMap(DType::kU32, {8, 2, 2, 2}, {32, 64, 128}, {4, 1, 1, 2});
  ExecResult r = ExecuteTensor(m, LoadInstr(4, {4, 1, 0, -1}), g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  ExpectFill(s, 0, 0, 16, 0);  // w = -1
  ExpectFromGlobal(s, 0, 16, kGlobalBase + 16 + 32, 16);
}

// Chunk permutation tables of PTX 5.5.7 (physical chunk of logical chunk c on 128-B line l).
int Table32(int l, int c) {
  return (l % 2) ? (c ^ 1) : c;
}
int Table64(int l, int c) {
  return c ^ (l % 4);
}
int Table128(int l, int c) {
  return c ^ (l % 8);
}

void CheckSwizzledLoad(Swizzle sw, uint32_t row_bytes, int rows, uint32_t dst,
                       int (*table)(int, int)) {
  SparseGlobalMemory g;
  FillPattern(g, 256 * 64);
  ClusterSharedMemory s(1, 8192, kPoison);
  TensorMap m = TiledMap(DType::kU8, {256, 64}, {256}, {row_bytes, static_cast<uint32_t>(rows)});
  m.swizzle = sw;
  ExecResult r = ExecuteTensor(m, LoadInstr(2, {0, 0}, dst), g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  const uint32_t span = sw == Swizzle::k32B ? 32 : (sw == Swizzle::k64B ? 64 : 128);
  for (int y = 0; y < rows; ++y) {
    for (uint32_t x = 0; x < row_bytes; ++x) {
      const uint32_t a = dst + static_cast<uint32_t>(y) * span + x;  // padded to the span
      const int line = static_cast<int>(a / 128), chunk = static_cast<int>((a / 16) % 8);
      const uint32_t phys = (a & ~127u) + static_cast<uint32_t>(table(line, chunk)) * 16 + a % 16;
      ASSERT_EQ(s.Window(0)[phys], Pat(kGlobalBase + static_cast<uint64_t>(y) * 256 + x))
          << "row " << y << " byte " << x;
    }
  }
  EXPECT_EQ(r.complete_tx[0].bytes, row_bytes * static_cast<uint32_t>(rows));
}

TEST(TileLoad, Swizzle32BTable) {
  CheckSwizzledLoad(Swizzle::k32B, 32, 16, 0, Table32);
}
TEST(TileLoad, Swizzle64BTable) {
  CheckSwizzledLoad(Swizzle::k64B, 64, 16, 0, Table64);
}
TEST(TileLoad, Swizzle128BTable) {
  CheckSwizzledLoad(Swizzle::k128B, 128, 16, 0, Table128);
}
TEST(TileLoad, Swizzle128BAt384) {
  CheckSwizzledLoad(Swizzle::k128B, 128, 8, 384, Table128);
}
TEST(TileLoad, Swizzle64BNarrowRows) {
  CheckSwizzledLoad(Swizzle::k64B, 32, 8, 128, Table64);
}
TEST(TileLoad, Swizzle32BSixteenByteRows) {
  CheckSwizzledLoad(Swizzle::k32B, 16, 8, 0, Table32);
}

TEST(TileLoad, SwizzleWorkedExample44) {
  // tensor-semantics 4.4: u16 box {64,16}, element (10,3) -> offset 420 at dst 0x800, 468 at
  // dst 0x880.
  for (auto [dst, off] : {std::pair<uint32_t, uint32_t>{0x800, 420}, {0x880, 468}}) {
    SparseGlobalMemory g;
    testing::FillT16(g);
    ClusterSharedMemory s(1, 8192, kPoison);
    TensorMap m = testing::T16Map();
    m.box = {64, 16, 1, 1, 1};
    m.swizzle = Swizzle::k128B;
    ExecResult r = ExecuteTensor(m, LoadInstr(2, {0, 0}, dst), g, s);
    ASSERT_TRUE(r.status.ok());
    EXPECT_EQ(ReadSmem<uint16_t>(s, 0, dst + off), 3 * 200 + 10 + 1);
  }
}

TEST(TileLoad, Interleave16BMeasured) {
  // tensor-semantics 8 / D5: 16B interleave, u16 dims {8,10,15}, strides {64,640}, box
  // {8,b1,2} at (0,1,2): per dim-2 index, 8 chunks = 128 contiguous bytes from the box origin
  // (stride[0] ignored inside the row), box[1] ignored, stride[1] for dim 2.
  for (uint32_t b1 : {1u, 2u, 4u}) {
    SparseGlobalMemory g;
    FillPattern(g, 640 * 15);
    ClusterSharedMemory s(1, 1024, kPoison);
    TensorMap m = TiledMap(DType::kU16, {8, 10, 15}, {64, 640}, {8, b1, 2});
    m.interleave = Interleave::k16B;
    ExecResult r = ExecuteTensor(m, LoadInstr(3, {0, 1, 2}), g, s);
    ASSERT_TRUE(r.status.ok()) << r.status.message;
    ExpectFromGlobal(s, 0, 0, kGlobalBase + 64 + 2 * 640, 128);
    ExpectFromGlobal(s, 0, 128, kGlobalBase + 64 + 3 * 640, 128);
    ExpectFill(s, 0, 256, 64, kPoison);
    EXPECT_EQ(r.complete_tx[0].bytes, 256u);
  }
}

TEST(TileLoad, Interleave32BMeasuredTx) {
  // 32B interleave with box {16,2,1} moved 16 x 32 = 512 bytes.
  SparseGlobalMemory g;
  ClusterSharedMemory s(1, 1024, kPoison);
  TensorMap m = TiledMap(DType::kU16, {16, 4, 4}, {512, 2048}, {16, 2, 1});
  m.interleave = Interleave::k32B;
  ExecResult r = ExecuteTensor(m, LoadInstr(3, {0, 0, 0}), g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  EXPECT_EQ(r.complete_tx[0].bytes, 512u);
}

TEST(TileLoad, InterleaveElementStrideAndChunkOob) {
  // es[0] = 2 applies with interleave: chunks x0, x0+2, ...; dims[0] bounds count chunks;
  // coords[0] needs no 16-byte alignment (it counts chunks).
  SparseGlobalMemory g;
  FillPattern(g, 4096);
  ClusterSharedMemory s(1, 1024, kPoison);
  TensorMap m = TiledMap(DType::kU8, {5, 2, 2}, {80, 160}, {16, 1, 1}, {2, 1, 1});
  m.interleave = Interleave::k16B;
  ExecResult r = ExecuteTensor(m, LoadInstr(3, {1, 1, 0}), g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  // ceil(16/2) = 8 chunks: x = 1, 3 in bounds, 5.. OOB; dim 1 (= rank-2) at coordinate 1.
  ExpectFromGlobal(s, 0, 0, kGlobalBase + 80 + 1 * 16, 16);
  ExpectFromGlobal(s, 0, 16, kGlobalBase + 80 + 3 * 16, 16);
  ExpectFill(s, 0, 32, 96, 0);
  EXPECT_EQ(r.complete_tx[0].bytes, 128u);
}

TEST(TileLoad, Tf32RoundsLoadsNotFill) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(1, 1024, kPoison);
  const uint32_t in[8] = {0x3F800FFFu, 0x3F801000u, 0x7FC00001u, 0xFFC00000u,
                          0x00001000u, 0x00000FFFu, 0xBF9FF000u, 0x7F800000u};
  // Ties (0x3F801000, 0x00001000: dropped bits exactly 0x1000, kept LSB even) round to even,
  // i.e. down (H200, silicon-notes finding 1: 10 measured decisive ties, all down).
  const uint32_t want[8] = {0x3F800000u, 0x3F800000u, 0x7FFFE000u, 0x7FFFE000u,
                            0x00000000u, 0x00000000u, 0xBFA00000u, 0x7F800000u};
  for (int i = 0; i < 8; ++i) {
    testing::WriteGlobal<uint32_t>(g, kGlobalBase + 4u * static_cast<uint32_t>(i), in[i]);
  }
  for (DType t : {DType::kTF32, DType::kTF32Ftz, DType::kF32}) {
    TensorMap m = TiledMap(t, {8}, {}, {12});
    m.oob_fill = OobFill::kNan;
    ExecResult r = ExecuteTensor(m, LoadInstr(1, {0}), g, s);
    ASSERT_TRUE(r.status.ok()) << r.status.message;
    for (int i = 0; i < 8; ++i) {
      EXPECT_EQ(ReadSmem<uint32_t>(s, 0, 4u * static_cast<uint32_t>(i)),
                t == DType::kF32 ? in[i] : want[i])
          << ToString(t) << " element " << i;
    }
    for (uint32_t i = 8; i < 12; ++i) {
      EXPECT_EQ(ReadSmem<uint32_t>(s, 0, 4 * i), 0x7FF77FF7u);  // fill is not rounded
    }
  }
}

TEST(TileLoad, F64NanFillAndWholeTypes) {
  SparseGlobalMemory g(0x3C);
  ClusterSharedMemory s(1, 1024, kPoison);
  TensorMap m = TiledMap(DType::kF64, {3}, {}, {4});
  m.oob_fill = OobFill::kNan;
  ExecResult r = ExecuteTensor(m, LoadInstr(1, {2}), g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  EXPECT_EQ(ReadSmem<uint64_t>(s, 0, 0), 0x3C3C3C3C3C3C3C3Cull);
  for (uint32_t i = 1; i < 4; ++i) {
    EXPECT_EQ(ReadSmem<uint64_t>(s, 0, 8 * i), 0x7FF77FF77FF77FF7ull);
  }
  EXPECT_EQ(r.complete_tx[0].bytes, 32u);
  // Integer types fill zeros.
  for (DType t : {DType::kU8, DType::kU16, DType::kU32, DType::kS32, DType::kU64, DType::kS64}) {
    ClusterSharedMemory s2(1, 1024, kPoison);
    const uint32_t e = LayoutOf(t).unit_gbytes;
    TensorMap mi = TiledMap(t, {1}, {}, {32 / e});
    ExecResult ri = ExecuteTensor(mi, LoadInstr(1, {0}), g, s2);
    ASSERT_TRUE(ri.status.ok()) << ToString(t);
    ExpectFill(s2, 0, 0, e, 0x3C);
    ExpectFill(s2, 0, e, 32 - e, 0);
  }
}

TEST(TileLoad, MulticastIssuerOutsideMask) {
  SparseGlobalMemory g;
  FillPattern(g, 4096);
  ClusterSharedMemory s(3, 1024, kPoison);
  TensorInstr ins = LoadInstr(1, {16}, 256, 8);
  ins.multicast = true;
  ins.cta_mask = 0b110;
  ins.issuer_cta = 0;
  ExecResult r = ExecuteTensor(TiledMap(DType::kU8, {64}, {}, {32}), ins, g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  ExpectFill(s, 0, 0, 1024, kPoison);
  ExpectFromGlobal(s, 1, 256, kGlobalBase + 16, 32);
  ExpectFromGlobal(s, 2, 256, kGlobalBase + 16, 32);
  ASSERT_EQ(r.complete_tx.size(), 2u);
  EXPECT_EQ(r.complete_tx[0], (CompleteTx{1, 8, 32}));
  EXPECT_EQ(r.complete_tx[1], (CompleteTx{2, 8, 32}));
}

TEST(TileLoad, ClusterDestinationCta) {
  SparseGlobalMemory g;
  FillPattern(g, 4096);
  ClusterSharedMemory s(2, 1024, kPoison);
  TensorInstr ins = LoadInstr(1, {0}, 128, 16);
  ins.issuer_cta = 0;
  ins.dst_cta = 1;
  ExecResult r = ExecuteTensor(TiledMap(DType::kU8, {64}, {}, {16}), ins, g, s);
  ASSERT_TRUE(r.status.ok());
  ExpectFill(s, 0, 0, 1024, kPoison);
  ExpectFromGlobal(s, 1, 128, kGlobalBase, 16);
  ASSERT_EQ(r.complete_tx.size(), 1u);
  EXPECT_EQ(r.complete_tx[0], (CompleteTx{1, 16, 16}));
  // .shared::cta must stay in the executing CTA.
  ins.smem_space = SmemSpace::kSharedCta;
  EXPECT_EQ(ExecuteTensor(TiledMap(DType::kU8, {64}, {}, {16}), ins, g, s).status.cls,
            ErrorClass::kInvalidInstruction);
}

TEST(TileLoad, SubByteB4x16CopiedAsIs) {
  SparseGlobalMemory g;
  FillPattern(g, 4096);
  ClusterSharedMemory s(1, 1024, kPoison);
  // 256 nibbles per row (128 B), box 64 nibbles (32 B) at nibble 32 (byte 16).
  TensorMap m = TiledMap(DType::kB4x16, {256, 2}, {128}, {64, 2});
  ExecOptions o;
  o.arch = Arch::kSm100;
  ExecResult r = ExecuteTensor(m, LoadInstr(2, {32, 0}), g, s, o);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  ExpectFromGlobal(s, 0, 0, kGlobalBase + 16, 32);
  ExpectFromGlobal(s, 0, 32, kGlobalBase + 128 + 16, 32);
  EXPECT_EQ(r.complete_tx[0].bytes, 64u);
  // Not on sm_90.
  EXPECT_EQ(ExecuteTensor(m, LoadInstr(2, {32, 0}), g, s).status.cls,
            ErrorClass::kInvalidDescriptor);
}

TEST(TileLoad, SubBytePaddedTypesExpandTo16Bytes) {
  struct Case {
    DType t;
    uint32_t group_g;  // bytes of a 16-element group in global memory
    uint64_t stride;
  };
  for (Case c : {Case{DType::kB4x16P64, 8, 128}, Case{DType::kB6x16P32, 12, 192}}) {
    SparseGlobalMemory g;
    FillPattern(g, 4096);
    ClusterSharedMemory s(1, 1024, kPoison);
    TensorMap m = TiledMap(c.t, {256, 2}, {c.stride}, {128, 1});
    ExecOptions o;
    o.arch = Arch::kSm100;
    ExecResult r = ExecuteTensor(m, LoadInstr(2, {128, 1}), g, s, o);
    ASSERT_TRUE(r.status.ok()) << ToString(c.t) << ": " << r.status.message;
    // Group j (elements 128 + 16 j ..) sits at global byte (8 + j) * group_g of row 1.
    for (uint32_t j = 0; j < 8; ++j) {
      ExpectFromGlobal(s, 0, 16 * j, kGlobalBase + c.stride + (8 + j) * c.group_g, c.group_g);
      ExpectFill(s, 0, 16 * j + c.group_g, 16 - c.group_g, 0);
    }
    // complete-tx counts the packed payload, 128 elements of 4 / 6 bits (silicon finding B1:
    // 64 / 96 bytes a row), not the 128-byte shared row.
    EXPECT_EQ(r.complete_tx[0].bytes, 8u * c.group_g);
    // The first coordinate must be a multiple of 128.
    EXPECT_EQ(ExecuteTensor(m, LoadInstr(2, {32, 1}), g, s, o).status.cls,
              ErrorClass::kMisalignedCoordinate);
  }
}

TEST(TileLoad, Gather4FourRows) {
  SparseGlobalMemory g;
  FillPattern(g, 128 * 16);
  ClusterSharedMemory s(1, 1024, kPoison);
  TensorMap m = TiledMap(DType::kU16, {64, 16}, {128}, {32, 1});
  TensorInstr ins = LoadInstr(2, {16, 2, 5, 20, 9});
  ins.mode = LoadMode::kTileGather4;
  ExecOptions o;
  o.arch = Arch::kSm100;
  ExecResult r = ExecuteTensor(m, ins, g, s, o);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  ExpectFromGlobal(s, 0, 0, kGlobalBase + 2 * 128 + 32, 64);
  ExpectFromGlobal(s, 0, 64, kGlobalBase + 5 * 128 + 32, 64);
  ExpectFill(s, 0, 128, 64, 0);  // row 20 is out of bounds
  ExpectFromGlobal(s, 0, 192, kGlobalBase + 9 * 128 + 32, 64);
  EXPECT_EQ(r.complete_tx[0].bytes, 256u);
  EXPECT_EQ(ExecuteTensor(m, ins, g, s).status.cls, ErrorClass::kUnsupported);  // sm_90
  TensorMap m2 = m;
  m2.box[1] = 2;
  EXPECT_EQ(ExecuteTensor(m2, ins, g, s, o).status.cls, ErrorClass::kInvalidInstruction);
}

TEST(TileLoad, InterleavedIm2colOneChunkPerPixel) {
  // D8: 16B interleave, rank 4 {W=6 chunks, H=5, CG=2, N=2}; spatial dims 0 and 1, dim 2 the
  // channel group (fixed at 1). Boxes W [0,5], H [0,4]; start (w=4, h=3): pixels (4,3) (5,3)
  // (0,4) (1,4), one 16-byte chunk each.
  SparseGlobalMemory g;
  FillPattern(g, 4096);
  ClusterSharedMemory s(1, 1024, kPoison);
  TensorMap m;
  m.mode = MapMode::kIm2col;
  m.dtype = DType::kU16;
  m.rank = 4;
  m.global_address = kGlobalBase;
  m.dims = {6, 5, 2, 2, 1};
  m.strides = {96, 480, 960, 0};
  m.interleave = Interleave::k16B;
  m.channels_per_pixel = 8;
  m.pixels_per_column = 4;
  TensorInstr ins = LoadInstr(4, {4, 3, 1, 0});
  ins.mode = LoadMode::kIm2col;
  ins.im2col_info = {0, 0};
  ExecResult r = ExecuteTensor(m, ins, g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  const int px[4][2] = {{4, 3}, {5, 3}, {0, 4}, {1, 4}};
  for (uint32_t k = 0; k < 4; ++k) {
    ExpectFromGlobal(s, 0, 16 * k, kGlobalBase + px[k][0] * 16u + px[k][1] * 96u + 480, 16);
  }
  EXPECT_EQ(r.complete_tx[0].bytes, 64u);
}

// D8 with element strides (H200, docs/silicon-notes.md): N advances by its own element stride
// es[rank-1] when the spatial walk wraps. The geometry of silicon case im2col-01132
// (im2col.jsonl.gz): u64 NWC {C=1, W=8, N=3}, strides {16, 128}, es {2, 1, 2}, W corners
// lower 1 / upper 1 (W box [1, 8]), cpp 4, ppc 47, swizzle 32B, start (c=0, w=4, n=0), offset 1.
// Matching each 32-byte smem row of that case against the splitmix64 global fill gives the
// pixel sequence (w, n) = (5,0) (6,0) (7,0) OOB OOB | (2,2) (3,2) (4,2) (5,2) (6,2) (7,2) OOB
// OOB | 34 x OOB: the walk w = 4..8 (+1) wraps to the lower corner 1 and n goes 0 -> 2 -> 4
// (N + 1 would have read (2,1)..(7,1) into rows 5..10). Channels 1..3 are past C = 1 (zero).
TEST(TileLoad, Im2colNStepsByItsElementStride) {
  SparseGlobalMemory g;
  FillPattern(g, 1024);
  ClusterSharedMemory s(1, 2048, kPoison);
  TensorMap m;
  m.mode = MapMode::kIm2col;
  m.dtype = DType::kU64;
  m.rank = 3;
  m.global_address = kGlobalBase;
  m.dims = {1, 8, 3, 1, 1};
  m.strides = {16, 128, 0, 0};
  m.element_strides = {2, 1, 2, 1, 1};
  m.lower = {1, 0, 0};
  m.upper = {1, 0, 0};
  m.channels_per_pixel = 4;
  m.pixels_per_column = 47;
  m.swizzle = Swizzle::k32B;
  TensorInstr ins = LoadInstr(3, {0, 4, 0});
  ins.mode = LoadMode::kIm2col;
  ins.im2col_info = {1};
  ExecResult r = ExecuteTensor(m, ins, g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  // Pixel (w, n) of each row as read off silicon; w < 0 marks an OOB (zero-filled) row.
  const int px[13][2] = {{5, 0}, {6, 0}, {7, 0}, {-1, 0}, {-1, 0}, {2, 2}, {3, 2},
                         {4, 2}, {5, 2}, {6, 2}, {7, 2},  {-1, 0}, {-1, 0}};
  for (uint32_t k = 0; k < 47; ++k) {
    const uint32_t a = 32 * k;                         // pitch 32 = the 32B span
    const uint32_t phys = a ^ (((a >> 7) & 1u) << 4);  // 32B swizzle of each 16-byte half
    const uint32_t phys_hi = (a + 16) ^ ((((a + 16) >> 7) & 1u) << 4);
    if (k < 13 && px[k][0] >= 0) {
      ExpectFromGlobal(s, 0, phys, kGlobalBase + px[k][0] * 16u + px[k][1] * 128u, 8);
      ExpectFill(s, 0, phys + 8, 8, 0);
    } else {
      ExpectFill(s, 0, phys, 16, 0);
    }
    ExpectFill(s, 0, phys_hi, 16, 0);
  }
  EXPECT_EQ(r.complete_tx[0].bytes, 1504u);  // measured: 47 x 4 x 8
}

TEST(TileLoad, Im2colWideHaloContinuesWalk) {
  // [INF] im2col::w: NWC u32 {C=8, W=10, N=2}, W corners -1/-1, wOffset 1 -> W box [0, 9],
  // start w = 2 + 1 = 3; ppc 4 then wHalo 2 halo pixels: w = 3,4,5,6 | 7,8. 128B swizzle pads
  // each 32-byte pixel row to 128 bytes.
  SparseGlobalMemory g;
  FillPattern(g, 4096);
  ClusterSharedMemory s(1, 2048, kPoison);
  TensorMap m;
  m.mode = MapMode::kIm2colWide;
  m.wide_mode = WideMode::kW;
  m.dtype = DType::kU32;
  m.rank = 3;
  m.global_address = kGlobalBase;
  m.dims = {8, 10, 2, 1, 1};
  m.strides = {32, 320, 0, 0};
  m.lower = {-1, 0, 0};
  m.upper = {-1, 0, 0};
  m.channels_per_pixel = 8;
  m.pixels_per_column = 4;
  m.swizzle = Swizzle::k128B;
  TensorInstr ins = LoadInstr(3, {0, 2, 0});
  ins.mode = LoadMode::kIm2colW;
  ins.im2col_info = {2, 1};
  ExecOptions o;
  o.arch = Arch::kSm100;
  ExecResult r = ExecuteTensor(m, ins, g, s, o);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  const int ws[6] = {3, 4, 5, 6, 7, 8};
  for (uint32_t k = 0; k < 6; ++k) {
    for (uint32_t c = 0; c < 2; ++c) {  // two 16-byte chunks per row
      const uint32_t a = 128 * k + 16 * c;
      const uint32_t phys = a ^ (((a >> 7) & 7u) << 4);
      ExpectFromGlobal(s, 0, phys, kGlobalBase + ws[k] * 32u + 16 * c, 16);
    }
  }
  EXPECT_EQ(r.complete_tx[0].bytes, 6u * 32u);
  ins.mode = LoadMode::kIm2colW128;
  EXPECT_EQ(ExecuteTensor(m, ins, g, s, o).status.cls, ErrorClass::kInvalidInstruction);
}

TEST(TileLoad, Im2colW128GroupsOf32WithHalo) {
  // [INF] 128 pixels in 4 groups of 32, each followed by wHalo pixels continuing the walk.
  TensorMap m;
  m.mode = MapMode::kIm2colWide;
  m.wide_mode = WideMode::kW128;
  m.dtype = DType::kU32;
  m.rank = 3;
  m.dims = {8, 1000, 1, 1, 1};
  m.strides = {32, 32000, 0, 0};
  m.channels_per_pixel = 8;
  m.pixels_per_column = 128;
  m.swizzle = Swizzle::k128B;
  TensorInstr ins = LoadInstr(3, {0, 0, 0});
  ins.mode = LoadMode::kIm2colW128;
  ins.im2col_info = {3, 0};
  std::vector<int64_t> w_of_slot;
  TraversalPlan p = PlanTraversal(m, ins);
  ForEachRow(m, ins, p, [&](const RowVisit& row) { w_of_slot.push_back(row.coords[1]); });
  ASSERT_EQ(w_of_slot.size(), 128u + 4u * 3u);
  EXPECT_EQ(w_of_slot[31], 31);
  EXPECT_EQ(w_of_slot[32], 32);  // halo of group 0: w = 32, 33, 34
  EXPECT_EQ(w_of_slot[34], 34);
  EXPECT_EQ(w_of_slot[35], 32);  // group 1 starts at w = 32
  EXPECT_EQ(w_of_slot[139], 130);
  EXPECT_EQ(CompleteTxBytes(m, ins), (128u + 12u) * 32u);
}

TEST(TileLoad, PrefetchMovesNothing) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(1, 1024, kPoison);
  TensorInstr ins = LoadInstr(2, {8, 2}, 16);  // dstMem plays no part in a prefetch
  ins.op = Op::kPrefetch;
  ExecResult r = ExecuteTensor(testing::T16Map(), ins, g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  EXPECT_TRUE(r.complete_tx.empty());
  ExpectFill(s, 0, 0, 1024, kPoison);
  EXPECT_EQ(g.PagesAllocated(), 0u);
  ins.coords = {3, 2};
  EXPECT_EQ(ExecuteTensor(testing::T16Map(), ins, g, s).status.cls,
            ErrorClass::kMisalignedCoordinate);
}

TEST(TileLoad, BusErrorWritesNothing) {
  SparseGlobalMemory g;
  testing::FillT16(g);
  g.AddErrorRange(kGlobalBase + 5 * 400 + 20, kGlobalBase + 5 * 400 + 21);  // inside row y=5
  ClusterSharedMemory s(2, 2048, kPoison);
  TensorInstr ins = LoadInstr(2, {8, 2});
  ins.multicast = true;
  ins.cta_mask = 0b11;
  ExecResult r = ExecuteTensor(testing::T16Map(), ins, g, s);
  EXPECT_EQ(r.status.cls, ErrorClass::kBusError);
  EXPECT_TRUE(r.complete_tx.empty());
  ExpectFill(s, 0, 0, 2048, kPoison);
  ExpectFill(s, 1, 0, 2048, kPoison);
  // A box that does not fit in the shared window is refused before anything is written.
  ClusterSharedMemory small(1, 1000, kPoison);
  SparseGlobalMemory g2;
  EXPECT_EQ(ExecuteTensor(testing::T16Map(), LoadInstr(2, {0, 0}), g2, small).status.cls,
            ErrorClass::kBusError);
  ExpectFill(small, 0, 0, 1000, kPoison);
}

TEST(TileLoad, HugeFloorSizedBoxIsRefusedNotAllocated) {
  // The encoder's size rule uses floor(box/es), so box {256,256,256,256,7} with es[4] = 8
  // encodes (0 bytes) although the engine would move 256^4 bytes: it cannot fit any window.
  SparseGlobalMemory g;
  ClusterSharedMemory s(1, 4096, kPoison);
  TensorMap m = TiledMap(DType::kU8, {1, 1, 1, 1, 1}, {16, 16, 16, 16}, {256, 256, 256, 256, 7},
                         {1, 1, 1, 1, 8});
  ASSERT_TRUE(ValidateTensorMap(m).ok());
  EXPECT_EQ(ExecuteTensor(m, LoadInstr(5, {0, 0, 0, 0, 0}), g, s).status.cls,
            ErrorClass::kBusError);
  TensorInstr st = testing::StoreInstr(5, {0, 0, 0, 0, 0});
  EXPECT_EQ(ExecuteTensor(m, st, g, s).status.cls, ErrorClass::kBusError);
  ExpectFill(s, 0, 0, 4096, kPoison);
}

TEST(TileLoad, ExecuteAtReadsTheDescriptor) {
  SparseGlobalMemory g;
  testing::FillT16(g);
  const DescriptorBytes d = EncodeDescriptor(testing::T16Map());
  const uint64_t map_addr = 0x40000;
  g.Write(map_addr, d.data(), d.size());
  ClusterSharedMemory s1(1, 2048, kPoison), s2(1, 2048, kPoison);
  ExecResult a = ExecuteTensorAt(map_addr, LoadInstr(2, {8, 2}), g, s1);
  ExecResult b = ExecuteTensor(testing::T16Map(), LoadInstr(2, {8, 2}), g, s2);
  ASSERT_TRUE(a.status.ok()) << a.status.message;
  EXPECT_EQ(s1.Window(0), s2.Window(0));
  EXPECT_EQ(a.complete_tx, b.complete_tx);
  g.AddErrorRange(map_addr + 100, map_addr + 101);
  EXPECT_EQ(ExecuteTensorAt(map_addr, LoadInstr(2, {8, 2}), g, s1).status.cls,
            ErrorClass::kBusError);
}

TEST(TileLoad, EffectLog) {
  SparseGlobalMemory g(0x11);
  ClusterSharedMemory s(1, 1024, kPoison);
  std::vector<std::string> lines;
  ExecOptions o;
  o.on_effect = [&](const Effect& e) { lines.push_back(e.ToString()); };
  ExecResult r =
      ExecuteTensor(TiledMap(DType::kU8, {64}, {}, {16}), LoadInstr(1, {0}, 128, 8), g, s, o);
  ASSERT_TRUE(r.status.ok());
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "smem_write cta=0 addr=0x00000080 len=16 data=11111111111111111111111111111111");
  EXPECT_EQ(lines[1], "complete_tx cta=0 mbar=0x00000008 bytes=16");
}

// ---- One test per fault ----

TEST(TileLoadFaults, F1MisalignedCoordinateIm2colChannel) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(1, 4096, kPoison);
  TensorMap m;
  m.mode = MapMode::kIm2col;
  m.dtype = DType::kU32;
  m.rank = 3;
  m.dims = {8, 8, 2, 1, 1};
  m.strides = {32, 256, 0, 0};
  m.channels_per_pixel = 4;
  m.pixels_per_column = 4;
  TensorInstr ins = LoadInstr(3, {2, 0, 0});  // c * 4 = 8 bytes
  ins.mode = LoadMode::kIm2col;
  EXPECT_EQ(ExecuteTensor(m, ins, g, s).status.cls, ErrorClass::kMisalignedCoordinate);
  ins.coords = {4, 0, 0};
  EXPECT_TRUE(ExecuteTensor(m, ins, g, s).status.ok());
}

TEST(TileLoadFaults, F2MisalignedMbarrier) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(1, 4096, kPoison);
  EXPECT_EQ(ExecuteTensor(testing::T16Map(), LoadInstr(2, {0, 0}, 0, 4), g, s).status.cls,
            ErrorClass::kMisaligned);
}

TEST(TileLoadFaults, F4Im2colStartOutsideBox) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(1, 4096, kPoison);
  TensorMap m;
  m.mode = MapMode::kIm2col;
  m.dtype = DType::kU32;
  m.rank = 4;
  m.dims = {8, 7, 7, 2, 1};
  m.strides = {32, 224, 1568, 0};
  m.lower = {-1, -1, 0};
  m.upper = {-1, -1, 0};
  m.channels_per_pixel = 8;
  m.pixels_per_column = 4;
  TensorInstr ins = LoadInstr(4, {0, 6, 0, 0});  // W box is [-1, 5]
  ins.mode = LoadMode::kIm2col;
  ins.im2col_info = {0, 0};
  EXPECT_EQ(ExecuteTensor(m, ins, g, s).status.cls, ErrorClass::kInvalidCoordinate);
  ins.coords = {0, 0, -2, 0};  // H below the lower corner
  EXPECT_EQ(ExecuteTensor(m, ins, g, s).status.cls, ErrorClass::kInvalidCoordinate);
  ins.op = Op::kPrefetch;
  EXPECT_EQ(ExecuteTensor(m, ins, g, s).status.cls, ErrorClass::kInvalidCoordinate);
  ins.op = Op::kLoad;
  ins.coords = {0, -1, 5, 0};  // both corners inclusive
  EXPECT_TRUE(ExecuteTensor(m, ins, g, s).status.ok());
  ins.im2col_info = {256, 0};  // rank 4 offsets are 0..255
  EXPECT_EQ(ExecuteTensor(m, ins, g, s).status.cls, ErrorClass::kInvalidCoordinate);
}

TEST(TileLoadFaults, F6MulticastMaskBeyondCluster) {
  // Silicon: unspecified launch failure (719); the golden class is invalid_instruction.
  SparseGlobalMemory g;
  ClusterSharedMemory s(2, 4096, kPoison);
  TensorInstr ins = LoadInstr(2, {0, 0});
  ins.multicast = true;
  ins.cta_mask = 0b101;
  EXPECT_EQ(ExecuteTensor(testing::T16Map(), ins, g, s).status.cls,
            ErrorClass::kInvalidInstruction);
  ExpectFill(s, 0, 0, 4096, kPoison);
}

TEST(TileLoadFaults, InvalidDescriptor) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(1, 4096, kPoison);
  TensorMap m = testing::T16Map();
  m.box[0] = 300;
  EXPECT_EQ(ExecuteTensor(m, LoadInstr(2, {0, 0}), g, s).status.cls,
            ErrorClass::kInvalidDescriptor);
}

TEST(TileLoadFaults, IllegalCombinations) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(1, 4096, kPoison);
  TensorMap m = testing::T16Map();
  EXPECT_EQ(ExecuteTensor(m, LoadInstr(3, {0, 0, 0}), g, s).status.cls,
            ErrorClass::kInvalidInstruction);  // .3d on a rank-2 map
  EXPECT_EQ(ExecuteTensor(m, LoadInstr(2, {0}), g, s).status.cls,
            ErrorClass::kInvalidInstruction);  // operand count
  TensorInstr ins = LoadInstr(2, {0, 0});
  ins.mode = LoadMode::kIm2col;  // im2col on a tiled map
  EXPECT_EQ(ExecuteTensor(m, ins, g, s).status.cls, ErrorClass::kInvalidInstruction);
  ins.mode = LoadMode::kTileScatter4;  // scatter4 is a store mode
  EXPECT_EQ(ExecuteTensor(m, ins, g, s).status.cls, ErrorClass::kInvalidInstruction);
  ins.mode = LoadMode::kTile;
  ins.cta_group = 2;  // sm_100 only
  EXPECT_EQ(ExecuteTensor(m, ins, g, s).status.cls, ErrorClass::kUnsupported);
}

}  // namespace
}  // namespace tma::model
