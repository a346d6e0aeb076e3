// SPDX-License-Identifier: Apache-2.0
//
// Unit test of tma_desc_check (Verilated C++): the verdict and the derived fields of decoded
// maps, nine cycles after the start.
//  - Hand-derived maps: a 2-D u16 tile (walker view, step, box bytes), element strides (the
//    floor(box / es) factors and the es x stride steps of every es), the box-size limit
//    MaxBoxBytes (tiled, b4x16 in nibbles, im2col cpp x E x ppc), reserved bits, the swizzle
//    repeat, the im2col bounding box (rule 16).
//  - The box-size product against the C++ model's DescriptorBoxBytes over random tiled maps
//    (ranks 1..5, boxes 1..256, element strides 1..8): a map is good iff its box-bytes field
//    equals the model's value and that value is at most MaxBoxBytes.
//  - The reciprocal table of the product: floor(b * ceil(4096/es) / 4096) == floor(b/es) for
//    every b in 1..256 (1..1024 for es = 1) and es in 1..8.

#include <algorithm>
#include <cstdint>
#include <random>

#include <gtest/gtest.h>

#include "tma/descriptor.h"

#include "Vtma_desc_check.h"
#include "sim/autogen/tma_structs.h"
#include "verilated_dut.h"

namespace tma::tb {
namespace {

namespace pkg = tma::pkg;

struct Map {
  uint64_t addr = 0x200000;
  bool im2col = false;
  int rank = 2;
  int dtype = pkg::DtU16;  // the hardware element format (docs/descriptor.md sec. 2)
  int il = 0, swz = 0;
  uint64_t stride[4] = {};  // 16-byte units
  uint64_t dim[5] = {1, 1, 1, 1, 1};
  int es[5] = {1, 1, 1, 1, 1};
  int box[5] = {1, 1, 1, 1, 1};  // im2col: box[0] = channels per pixel
  uint32_t box_hi = 0;           // im2col: the corners (else from box[1..4])
  int ppc = 1;
  // check-only fields
  int span = 0, atom = 0;
  bool rsv = false;
  uint64_t box_bytes = 0;
  uint64_t swz_repeat = 16;
};

struct Result {
  bool bad;
  int kind[4], tdim[4];
  uint64_t step[4], dim_m1[4], es_m1[4], box_m1[4], stride[4];
  int cycles;  // start to map valid
};

Result Check(const Map& m, uint32_t seed = 1) {
  VerilatedDut<Vtma_desc_check> dut(seed);
  dut->start_i = 0;
  dut.Reset();
  pkg::desc_fields_t f;
  f.addr = m.addr;
  f.im2col = m.im2col;
  f.rank_m1 = static_cast<uint8_t>(m.rank - 1);
  f.dtype = static_cast<uint8_t>(m.dtype);
  f.il = static_cast<uint8_t>(m.il);
  f.swz = static_cast<uint8_t>(m.swz);
  for (int i = 0; i < 4; ++i)
    f.stride[i] = m.stride[i];
  for (int i = 0; i < 5; ++i) {
    f.dim_m1[i] = static_cast<uint32_t>(m.dim[i] - 1);
    f.es_m1[i] = static_cast<uint8_t>(m.es[i] - 1);
  }
  f.box0_m1 = static_cast<uint8_t>(m.box[0] - 1);
  f.box_hi = m.box_hi;
  if (!m.im2col) {  // box_hi holds the descriptor's box[1..4] fields
    for (int i = 1; i < 5; ++i)
      f.box_hi |= static_cast<uint32_t>(m.box[i] - 1) << (pkg::DescBox1W * (i - 1));
  }
  f.ppc_m1 = static_cast<uint16_t>(m.ppc - 1);
  pkg::desc_chk_fields_t c;
  c.span = static_cast<uint8_t>(m.span);
  c.atom = static_cast<uint8_t>(m.atom);
  c.rsv = m.rsv;
  c.box_bytes = static_cast<uint32_t>(m.box_bytes);
  c.swz_repeat = static_cast<uint32_t>(m.swz_repeat);
  pkg::Pack(f, dut->fields_i.data());
  pkg::Pack(c, dut->chk_i.data());
  dut->start_i = 1;
  dut.Cycle();
  dut->start_i = 0;
  Result r{};
  for (r.cycles = 1; r.cycles < 20; ++r.cycles) {
    dut.Settle();
    if (dut->map_valid_o)
      break;
    dut.Cycle();
  }
  const auto map = pkg::Unpack<pkg::map_t>(dut->map_o.data());
  r.bad = map.bad;
  for (int d = 0; d < 4; ++d) {
    r.kind[d] = map.derived.walk_kind[d];
    r.tdim[d] = map.derived.walk_tdim[d];
    r.step[d] = map.derived.walk_step[d];
    r.dim_m1[d] = map.derived.walk_dim_m1[d];
    r.es_m1[d] = map.derived.walk_es_m1[d];
    r.box_m1[d] = map.derived.walk_box_m1[d];
    r.stride[d] = map.derived.walk_stride[d];
  }
  EXPECT_FALSE(dut.GotError()) << "assertion failed";
  return r;
}

// 2-D u16 tile, dims {100, 50}, row stride 256 B (16 units), box {32, 8}: E x 32 x 8 = 512.
Map Tile2d() {
  Map m;
  m.dim[0] = 100;
  m.dim[1] = 50;
  m.stride[0] = 16;
  m.box[0] = 32;
  m.box[1] = 8;
  m.box_bytes = 512;
  return m;
}

TEST(DescCheck, HandDerivedTile) {
  const Result r = Check(Tile2d());
  EXPECT_FALSE(r.bad);
  EXPECT_EQ(r.cycles, 9);               // cycles 0..8 after the start
  EXPECT_EQ(r.kind[0], pkg::WalkTile);  // walker dim 1 is tensor dim 1
  EXPECT_EQ(r.tdim[0], 1);
  for (int d = 1; d < 4; ++d)
    EXPECT_EQ(r.kind[d], pkg::WalkNone) << d;
  EXPECT_EQ(r.step[0], 16u);
  EXPECT_EQ(r.dim_m1[0], 49u);
  EXPECT_EQ(r.box_m1[0], 7u);
  EXPECT_EQ(r.stride[0], 16u);
  Map m = Tile2d();
  for (uint64_t bb : {511ull, 513ull, 0ull, 1024ull}) {
    m.box_bytes = bb;
    EXPECT_TRUE(Check(m).bad) << "box bytes " << bb;
  }
}

// Element stride es on dim 1 (box 8): the factor is floor(8 / es), the step es x stride.
TEST(DescCheck, ElementStrides) {
  for (int es = 1; es <= 8; ++es) {
    Map m = Tile2d();
    m.stride[0] = 0x123;
    m.es[1] = es;
    m.box_bytes = 2 * 32 * (8 / es);
    const Result r = Check(m);
    EXPECT_FALSE(r.bad) << "es " << es;
    EXPECT_EQ(r.step[0], 0x123u * static_cast<uint64_t>(es)) << "es " << es;
    EXPECT_EQ(r.es_m1[0], static_cast<uint64_t>(es - 1));
  }
  // es 3 on a box of 2: floor(2 / 3) = 0, the size is 0: the field must be 0
  Map m = Tile2d();
  m.box[1] = 2;
  m.es[1] = 3;
  m.box_bytes = 0;
  EXPECT_FALSE(Check(m).bad);
  m.box_bytes = 64;
  EXPECT_TRUE(Check(m).bad);
}

// The limit: u8 {256, 256, 3} = 196,608 bytes is allowed, {256, 256, 4} = 262,144 is not even
// with a matching field; b4x16 {64, 64, 57}: 233,472 nibbles (116,736 bytes) allowed, and
// {64, 64, 58} = 237,568 nibbles too (the limit counts nibbles: 2 x 233,472).
TEST(DescCheck, BoxSizeLimit) {
  Map m;
  m.dtype = pkg::DtU8;
  m.rank = 3;
  m.dim[0] = m.dim[1] = m.dim[2] = 1000;
  m.stride[0] = 64;
  m.stride[1] = 64 * 1000;
  m.box[0] = 256;
  m.box[1] = 256;
  m.box[2] = 3;
  m.box_bytes = 196608;
  EXPECT_FALSE(Check(m).bad);
  m.box[2] = 4;
  m.box_bytes = 262144;
  EXPECT_TRUE(Check(m).bad);
  Map b = m;
  b.dtype = pkg::DtB4x16;
  b.box[0] = 64;  // 32 bytes a row
  b.box[1] = 64;
  b.box[2] = 57;
  b.box_bytes = 64 * 64 * 57 / 2;
  EXPECT_FALSE(Check(b).bad);
  b.box[2] = 58;
  b.box_bytes = 64 * 64 * 58 / 2;
  EXPECT_FALSE(Check(b).bad);
  b.box[2] = 114;  // 466,944 nibbles: the limit
  b.box_bytes = 64 * 64 * 114 / 2;
  EXPECT_FALSE(Check(b).bad);
  b.box[2] = 115;
  b.box_bytes = 64 * 64 * 115 / 2;
  EXPECT_TRUE(Check(b).bad);
  // b4x16 with an odd nibble count, rounded up: es 3 on dim 0 gives floor(64 / 3) = 21
  // nibbles, the field is 11 bytes
  Map o = b;
  o.rank = 2;
  o.es[0] = 3;
  o.box[1] = 1;
  o.box_bytes = 11;
  EXPECT_FALSE(Check(o).bad);
  o.box_bytes = 10;
  EXPECT_TRUE(Check(o).bad);
  o.box_bytes = 12;
  EXPECT_TRUE(Check(o).bad);
}

// im2col rank 3, u16: cpp 64 x E 2 x ppc 32 = 4,096 bytes; 128 x 2 x 1024 = 262,144 is over.
TEST(DescCheck, Im2colSize) {
  Map m;
  m.im2col = true;
  m.rank = 3;
  m.dim[0] = 64;
  m.dim[1] = 100;
  m.dim[2] = 4;
  m.stride[0] = 8;
  m.stride[1] = 800;
  m.box[0] = 64;
  m.ppc = 32;
  m.box_bytes = 4096;
  EXPECT_FALSE(Check(m).bad);
  m.box_bytes = 4094;
  EXPECT_TRUE(Check(m).bad);
  m.box[0] = 128;
  m.ppc = 1024;
  m.box_bytes = 262144;
  EXPECT_TRUE(Check(m).bad);
  // rule 16: the bounding box must not be empty: dim 100 + upper -101 <= lower 0
  Map c = m;
  c.box[0] = 64;
  c.ppc = 32;
  c.box_bytes = 4096;
  c.box_hi = static_cast<uint32_t>(static_cast<uint16_t>(-101)) << 16;
  EXPECT_TRUE(Check(c).bad);
  c.box_hi = static_cast<uint32_t>(static_cast<uint16_t>(-99)) << 16;
  EXPECT_FALSE(Check(c).bad);
}

TEST(DescCheck, ReservedBitsAndSwizzleRepeat) {
  Map m = Tile2d();
  m.rsv = true;
  EXPECT_TRUE(Check(m).bad);
  m = Tile2d();
  m.swz_repeat = 256;
  EXPECT_TRUE(Check(m).bad);
  // 64B swizzle: span 64 bytes = the row (32 x 2), repeat 512
  m = Tile2d();
  m.swz = 2;
  m.span = 2;
  m.swz_repeat = 512;
  EXPECT_FALSE(Check(m).bad);
  m.swz_repeat = 1024;
  EXPECT_TRUE(Check(m).bad);
}

// The product against the C++ model (DescriptorBoxBytes) over random tiled maps.
TEST(DescCheck, BoxBytesMatchModel) {
  std::mt19937 rng(5);
  const int types[4] = {pkg::DtU8, pkg::DtU16, pkg::DtU32, pkg::DtU64};
  const model::DType model_types[4] = {model::DType::kU8, model::DType::kU16, model::DType::kU32,
                                       model::DType::kU64};
  int good = 0, over = 0;
  for (int n = 0; n < 400; ++n) {
    const int t = static_cast<int>(rng() % 4);
    const int e = 1 << (t == 3 ? 3 : t);
    model::TensorMap tm;
    tm.rank = 1 + static_cast<int>(rng() % 5);
    tm.dtype = model_types[t];
    Map m;
    m.dtype = types[t];
    m.rank = tm.rank;
    for (int i = 0; i < 5; ++i) {
      m.dim[i] = 1000;
      m.es[i] = 1 + static_cast<int>(rng() % 8);
      m.box[i] = 1 + static_cast<int>(rng() % 256);
    }
    m.box[0] = std::max(1, (16 / e) * (1 + static_cast<int>(rng() % (256 * e / 16))));
    if (m.box[0] > 256)
      m.box[0] = 256;
    for (int i = 0; i < 4; ++i)
      m.stride[i] = 1 + rng() % 1000;
    for (int i = 0; i < 5; ++i) {
      tm.box[i] = static_cast<uint32_t>(m.box[i]);
      tm.element_strides[i] = static_cast<uint32_t>(m.es[i]);
    }
    const uint64_t want = model::DescriptorBoxBytes(tm);
    const int delta = static_cast<int>(rng() % 3) - 1;  // -1, 0, +1
    m.box_bytes = want + static_cast<uint64_t>(delta);
    if (want == 0 && delta < 0)
      m.box_bytes = 0;
    const bool expect_bad = m.box_bytes != want || want > pkg::MaxBoxBytes;
    EXPECT_EQ(Check(m, static_cast<uint32_t>(n)).bad, expect_bad)
        << "map " << n << ": rank " << m.rank << " E " << e << " model " << want << " field "
        << m.box_bytes;
    good += !expect_bad;
    over += want > pkg::MaxBoxBytes;
  }
  EXPECT_GT(good, 50);
  EXPECT_GT(over, 10);
}

TEST(DescCheck, ReciprocalTableIsExact) {
  const int recip[8] = {4096, 2048, 1366, 1024, 820, 683, 586, 512};  // ceil(4096 / es)
  for (int es = 1; es <= 8; ++es) {
    ASSERT_EQ(recip[es - 1], (4096 + es - 1) / es);
    const int bmax = es == 1 ? 1024 : 256;
    for (int b = 1; b <= bmax; ++b) {
      EXPECT_EQ((b * recip[es - 1]) >> 12, b / es) << "b " << b << " es " << es;
    }
  }
}

}  // namespace
}  // namespace tma::tb
