// SPDX-License-Identifier: Apache-2.0
//
// The measured H100 regression vectors V1-V20 of tensor-semantics.md section 14b (V17 = the
// im2col worked examples (a) and (b) of section 5.3). Every expectation is written out by hand
// from the tables there.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "copy_test_util.h"
#include "tma/memory.h"
#include "tma/tensor_copy.h"

namespace tma::model {
namespace {

using testing::FillT16;
using testing::kGlobalBase;
using testing::LoadInstr;
using testing::ReadSmem;
using testing::T16Map;

constexpr uint8_t kPoison = 0xA5;

uint16_t T16(int x, int y) {
  return static_cast<uint16_t>(y * 200 + x + 1);
}

struct Bench {
  SparseGlobalMemory g;
  ClusterSharedMemory s{1, 8192, kPoison};
  Bench() { FillT16(g); }
};

// Checks a dense u16 tile whose row r, element i must be `want(r, i)`.
template <typename F>
void ExpectRows(const ClusterSharedMemory& s, int rows, int row_elems, F want) {
  for (int r = 0; r < rows; ++r) {
    for (int i = 0; i < row_elems; ++i) {
      ASSERT_EQ(ReadSmem<uint16_t>(s, 0, static_cast<uint32_t>((r * row_elems + i) * 2)),
                want(r, i))
          << "row " << r << " elem " << i;
    }
  }
}

void ExpectUntouchedFrom(const ClusterSharedMemory& s, uint32_t from) {
  for (uint32_t b = from; b < s.WindowBytes(); ++b) {
    ASSERT_EQ(s.Window(0)[b], kPoison) << "byte " << b;
  }
}

TEST(MeasuredVectors, V1InBounds) {
  Bench b;
  ExecResult r = ExecuteTensor(T16Map(), LoadInstr(2, {8, 2}), b.g, b.s);
  ASSERT_TRUE(r.status.ok());
  ExpectRows(b.s, 8, 64, [](int row, int i) { return T16(8 + i, 2 + row); });
  ExpectUntouchedFrom(b.s, 1024);
  ASSERT_EQ(r.complete_tx.size(), 1u);
  EXPECT_EQ(r.complete_tx[0].bytes, 1024u);
  EXPECT_EQ(r.complete_tx[0].mbar_addr, 0x7F00u);
}

TEST(MeasuredVectors, V2LowOob) {
  Bench b;
  ExecResult r = ExecuteTensor(T16Map(), LoadInstr(2, {-8, -3}), b.g, b.s);
  ASSERT_TRUE(r.status.ok());
  ExpectRows(b.s, 8, 64, [](int row, int i) -> uint16_t {
    if (row < 3 || i < 8) {
      return 0;
    }
    return T16(i - 8, row - 3);
  });
  EXPECT_EQ(r.complete_tx[0].bytes, 1024u);
}

TEST(MeasuredVectors, V3HighOob) {
  Bench b;
  ExecResult r = ExecuteTensor(T16Map(), LoadInstr(2, {184, 46}), b.g, b.s);
  ASSERT_TRUE(r.status.ok());
  ExpectRows(b.s, 8, 64, [](int row, int i) -> uint16_t {
    if (row >= 4 || i >= 16) {
      return 0;
    }
    return T16(184 + i, 46 + row);
  });
  EXPECT_EQ(r.complete_tx[0].bytes, 1024u);
}

TEST(MeasuredVectors, V4FullyOob) {
  for (auto c : {std::vector<int32_t>{304, 100}, std::vector<int32_t>{-1000000, -5}}) {
    Bench b;
    ExecResult r = ExecuteTensor(T16Map(), LoadInstr(2, c), b.g, b.s);
    ASSERT_TRUE(r.status.ok());
    ExpectRows(b.s, 8, 64, [](int, int) -> uint16_t { return 0; });
    EXPECT_EQ(r.complete_tx[0].bytes, 1024u);
    EXPECT_EQ(r.global_bytes_read, 0u);
  }
}

TEST(MeasuredVectors, V5ElementStride2) {
  Bench b;
  TensorMap m = testing::TiledMap(DType::kU16, {200, 50}, {400}, {64, 5}, {1, 2});
  ExecResult r = ExecuteTensor(m, LoadInstr(2, {0, 1}), b.g, b.s);
  ASSERT_TRUE(r.status.ok());
  const int ys[] = {1, 3, 5};
  ExpectRows(b.s, 3, 64, [&](int row, int i) { return T16(i, ys[row]); });
  ExpectUntouchedFrom(b.s, 384);
  EXPECT_EQ(r.complete_tx[0].bytes, 384u);
}

TEST(MeasuredVectors, V6ElementStride3LastRowOob) {
  Bench b;
  TensorMap m = testing::TiledMap(DType::kU16, {200, 50}, {400}, {64, 7}, {1, 3});
  ExecResult r = ExecuteTensor(m, LoadInstr(2, {0, 45}), b.g, b.s);
  ASSERT_TRUE(r.status.ok());
  ExpectRows(b.s, 3, 64, [](int row, int i) -> uint16_t {
    if (row == 2) {
      return 0;  // y = 51 is out of bounds
    }
    return T16(i, row == 0 ? 45 : 48);
  });
  ExpectUntouchedFrom(b.s, 384);
  EXPECT_EQ(r.complete_tx[0].bytes, 384u);
}

TEST(MeasuredVectors, V7ElementStride0Ignored) {
  Bench b;
  TensorMap m = testing::TiledMap(DType::kU16, {200, 50}, {400}, {64, 4}, {2, 1});
  ExecResult r = ExecuteTensor(m, LoadInstr(2, {0, 0}), b.g, b.s);
  ASSERT_TRUE(r.status.ok());
  ExpectRows(b.s, 4, 64, [](int row, int i) { return T16(i, row); });
  EXPECT_EQ(r.complete_tx[0].bytes, 512u);
}

// Physical offset (from the window start) of the logical absolute address A under 128B
// swizzle, written from the formula of tensor-semantics 4.1.
uint32_t Swz128(uint32_t a) {
  return a ^ (((a >> 7) & 7u) << 4);
}

TEST(MeasuredVectors, V8Swizzle128At128Mod1024) {
  Bench b;
  TensorMap m = testing::TiledMap(DType::kU16, {200, 50}, {400}, {64, 16});
  m.swizzle = Swizzle::k128B;
  ExecResult r = ExecuteTensor(m, LoadInstr(2, {0, 0}, /*dst=*/128), b.g, b.s);
  ASSERT_TRUE(r.status.ok());
  for (int y = 0; y < 16; ++y) {
    for (int x = 0; x < 64; ++x) {
      const uint32_t logical = 128u + static_cast<uint32_t>(y * 128 + x * 2);
      ASSERT_EQ(ReadSmem<uint16_t>(b.s, 0, Swz128(logical)), T16(x, y)) << x << "," << y;
    }
  }
  EXPECT_EQ(r.complete_tx[0].bytes, 2048u);
}

TEST(MeasuredVectors, V9Swizzle128NarrowRowsPadded) {
  Bench b;
  TensorMap m = testing::TiledMap(DType::kU16, {200, 50}, {400}, {16, 16});
  m.swizzle = Swizzle::k128B;
  ExecResult r = ExecuteTensor(m, LoadInstr(2, {0, 0}), b.g, b.s);
  ASSERT_TRUE(r.status.ok());
  for (int row = 0; row < 16; ++row) {
    const int line = row % 8;
    std::vector<bool> written(8, false);
    for (int c = 0; c < 2; ++c) {
      const int phys_chunk = c ^ line;
      written[static_cast<size_t>(phys_chunk)] = true;
      for (int e = 0; e < 8; ++e) {
        const uint32_t off = static_cast<uint32_t>(128 * row + 16 * phys_chunk + 2 * e);
        ASSERT_EQ(ReadSmem<uint16_t>(b.s, 0, off), T16(8 * c + e, row));
      }
    }
    for (int ch = 0; ch < 8; ++ch) {
      if (!written[static_cast<size_t>(ch)]) {
        for (int k = 0; k < 16; ++k) {
          ASSERT_EQ(b.s.Window(0)[static_cast<size_t>(128 * row + 16 * ch + k)], kPoison);
        }
      }
    }
  }
  EXPECT_EQ(r.complete_tx[0].bytes, 512u);
}

TEST(MeasuredVectors, V10NanFill) {
  struct Case {
    DType t;
    uint32_t esize;
    uint64_t pattern;
  };
  for (Case c : {Case{DType::kF32, 4, 0x7FF77FF7u}, Case{DType::kF16, 2, 0x7FF7u},
                 Case{DType::kBF16, 2, 0x7FF7u}}) {
    SparseGlobalMemory g(0x11);
    ClusterSharedMemory s(1, 4096, kPoison);
    // 40 x 12 tensor, box 32 x 4 at (16, 10): x 40..47 and y 12..13 are out of bounds.
    TensorMap m = testing::TiledMap(c.t, {40, 12}, {160}, {32, 4});
    m.oob_fill = OobFill::kNan;
    ExecResult r = ExecuteTensor(m, LoadInstr(2, {16, 10}), g, s);
    ASSERT_TRUE(r.status.ok()) << r.status.message;
    for (int y = 0; y < 4; ++y) {
      for (int x = 0; x < 32; ++x) {
        const bool oob = 16 + x >= 40 || 10 + y >= 12;
        uint64_t v = 0;
        std::memcpy(&v, s.Window(0).data() + (y * 32 + x) * c.esize, c.esize);
        const uint64_t in = c.esize == 4 ? 0x11111111u : 0x1111u;
        ASSERT_EQ(v, oob ? c.pattern : in) << ToString(c.t) << " " << x << "," << y;
      }
    }
    EXPECT_EQ(r.complete_tx[0].bytes, 32u * 4u * c.esize);
  }
}

TEST(MeasuredVectors, V11MisalignedInnerCoordinate) {
  for (auto c : {std::vector<int32_t>{3, 2}, std::vector<int32_t>{-4, 2}}) {
    Bench b;
    ExecResult r = ExecuteTensor(T16Map(), LoadInstr(2, c), b.g, b.s);
    EXPECT_EQ(r.status.cls, ErrorClass::kMisalignedCoordinate);
    EXPECT_TRUE(r.complete_tx.empty());
    ExpectUntouchedFrom(b.s, 0);
  }
}

TEST(MeasuredVectors, V12MisalignedDestination) {
  for (uint32_t dst : {16u, 64u, 1024u + 16u}) {
    Bench b;
    ExecResult r = ExecuteTensor(T16Map(), LoadInstr(2, {0, 0}, dst), b.g, b.s);
    EXPECT_EQ(r.status.cls, ErrorClass::kMisaligned);
    ExpectUntouchedFrom(b.s, 0);
  }
}

TEST(MeasuredVectors, V13StoreClips) {
  SparseGlobalMemory g(0xEE);
  ClusterSharedMemory s(1, 4096, 0);
  TensorMap m = testing::TiledMap(DType::kU32, {40, 12}, {160}, {16, 4});
  for (uint32_t i = 0; i < 64; ++i) {
    testing::WriteSmem<uint32_t>(s, 0, i * 4, 0x1000u + i);
  }
  ExecResult r = ExecuteTensor(m, testing::StoreInstr(2, {32, 10}), g, s);
  ASSERT_TRUE(r.status.ok());
  for (int y = 0; y < 12; ++y) {
    for (int x = 0; x < 40; ++x) {
      const uint32_t v = testing::ReadGlobal<uint32_t>(g, kGlobalBase + y * 160u + x * 4u);
      if (x >= 32 && y >= 10) {
        ASSERT_EQ(v, 0x1000u + static_cast<uint32_t>((y - 10) * 16 + (x - 32)));
      } else {
        ASSERT_EQ(v, 0xEEEEEEEEu);
      }
    }
  }
  // Nothing past the tensor's last row.
  EXPECT_EQ(testing::ReadGlobal<uint32_t>(g, kGlobalBase + 12 * 160u), 0xEEEEEEEEu);
  EXPECT_EQ(r.global_bytes_written, 2u * 8u * 4u);
}

uint32_t ReduceU32(RedOp op, uint32_t dst, uint32_t src) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(1, 1024, 0);
  TensorMap m = testing::TiledMap(DType::kU32, {4}, {}, {4});
  testing::WriteGlobal<uint32_t>(g, kGlobalBase, dst);
  testing::WriteSmem<uint32_t>(s, 0, 0, src);
  ExecResult r = ExecuteTensor(m, testing::StoreInstr(1, {0}, 0, Op::kReduce, op), g, s);
  EXPECT_TRUE(r.status.ok());
  return testing::ReadGlobal<uint32_t>(g, kGlobalBase);
}

TEST(MeasuredVectors, V14IncDec) {
  EXPECT_EQ(ReduceU32(RedOp::kInc, 5, 5), 0u);
  EXPECT_EQ(ReduceU32(RedOp::kInc, 3, 5), 4u);
  EXPECT_EQ(ReduceU32(RedOp::kDec, 0, 7), 7u);
  EXPECT_EQ(ReduceU32(RedOp::kDec, 9, 7), 7u);
  EXPECT_EQ(ReduceU32(RedOp::kDec, 4, 7), 3u);
}

uint32_t ReduceF32(DType t, uint32_t dst, uint32_t src) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(1, 1024, 0);
  TensorMap m = testing::TiledMap(t, {4}, {}, {4});
  testing::WriteGlobal<uint32_t>(g, kGlobalBase, dst);
  testing::WriteSmem<uint32_t>(s, 0, 0, src);
  ExecResult r = ExecuteTensor(m, testing::StoreInstr(1, {0}, 0, Op::kReduce, RedOp::kAdd), g, s);
  EXPECT_TRUE(r.status.ok());
  return testing::ReadGlobal<uint32_t>(g, kGlobalBase);
}

TEST(MeasuredVectors, V15F32AddSubnormals) {
  EXPECT_EQ(ReduceF32(DType::kF32, 0x00000100u, 0x00000200u), 0x00000300u);
  EXPECT_EQ(ReduceF32(DType::kF32Ftz, 0x00000100u, 0x00000200u), 0u);
  // tensor-semantics 9: -subnormal + min-normal keeps the subnormal result; FTZ sign-keeps zero.
  EXPECT_EQ(ReduceF32(DType::kF32, 0x80000010u, 0x00800000u), 0x007FFFF0u);
  EXPECT_EQ(ReduceF32(DType::kF32Ftz, 0x80000010u, 0x80000001u), 0x80000000u);
}

TEST(MeasuredVectors, V16F16MinNan) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(1, 1024, 0);
  TensorMap m = testing::TiledMap(DType::kF16, {8}, {}, {8});
  testing::WriteGlobal<uint16_t>(g, kGlobalBase, 0x7E00);  // NaN in global
  testing::WriteSmem<uint16_t>(s, 0, 0, 0x3C00);           // 1.0 in smem
  testing::WriteGlobal<uint16_t>(g, kGlobalBase + 2, 0x3C00);
  testing::WriteSmem<uint16_t>(s, 0, 2, 0x7E00);
  ExecResult r = ExecuteTensor(m, testing::StoreInstr(1, {0}, 0, Op::kReduce, RedOp::kMin), g, s);
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(testing::ReadGlobal<uint16_t>(g, kGlobalBase), 0x3C00);
  EXPECT_EQ(testing::ReadGlobal<uint16_t>(g, kGlobalBase + 2), 0x3C00);
}

// An NHWC u32 im2col map: dims {C, W, H, N}, dense strides.
TensorMap Nhwc(uint64_t c, uint64_t w, uint64_t h, uint64_t n, int lo_w, int lo_h, int up_w,
               int up_h, uint32_t cpp, uint32_t ppc) {
  TensorMap m;
  m.mode = MapMode::kIm2col;
  m.dtype = DType::kU32;
  m.rank = 4;
  m.global_address = kGlobalBase;
  m.dims = {c, w, h, n, 1};
  m.strides = {c * 4, c * 4 * w, c * 4 * w * h, 0};
  m.lower = {lo_w, lo_h, 0};
  m.upper = {up_w, up_h, 0};
  m.channels_per_pixel = cpp;
  m.pixels_per_column = ppc;
  return m;
}

// Element (c, w, h, n) holds pixel_id * 1000 + c, pixel_id = ((n * H + h) * W + w) + 1.
void FillNhwc(GlobalMemoryIf& g, const TensorMap& m) {
  for (uint64_t n = 0; n < m.dims[3]; ++n) {
    for (uint64_t h = 0; h < m.dims[2]; ++h) {
      for (uint64_t w = 0; w < m.dims[1]; ++w) {
        for (uint64_t c = 0; c < m.dims[0]; ++c) {
          const uint32_t id = static_cast<uint32_t>((n * m.dims[2] + h) * m.dims[1] + w + 1);
          testing::WriteGlobal<uint32_t>(
              g, kGlobalBase + n * m.strides[2] + h * m.strides[1] + w * m.strides[0] + c * 4,
              id * 1000 + static_cast<uint32_t>(c));
        }
      }
    }
  }
}

TensorInstr Im2colLoad(std::vector<int32_t> coords, std::vector<uint16_t> offsets) {
  const int dim = static_cast<int>(coords.size());
  TensorInstr ins = LoadInstr(dim, std::move(coords));
  ins.mode = LoadMode::kIm2col;
  ins.im2col_info = std::move(offsets);
  return ins;
}

// Checks pixel slot k holds pixel id ids[k] (0 = padding) for channels c0 .. c0+cpp-1.
void ExpectPixels(const ClusterSharedMemory& s, const std::vector<uint32_t>& ids, uint32_t cpp,
                  uint32_t c0 = 0) {
  for (size_t k = 0; k < ids.size(); ++k) {
    for (uint32_t j = 0; j < cpp; ++j) {
      const uint32_t got = ReadSmem<uint32_t>(s, 0, static_cast<uint32_t>((k * cpp + j) * 4));
      const uint32_t want = ids[k] == 0 ? 0 : ids[k] * 1000 + c0 + j;
      ASSERT_EQ(got, want) << "pixel slot " << k << " channel " << j;
    }
  }
}

TEST(MeasuredVectors, V17aIm2colTritonExample5) {
  // N=2, H=W=4, C=32; corners -1/-1 -> W, H boxes [-1, 2]; start (n=0, h=1, w=2), ppc 16.
  SparseGlobalMemory g;
  ClusterSharedMemory s(1, 4096, kPoison);
  TensorMap m = Nhwc(32, 4, 4, 2, -1, -1, -1, -1, 32, 16);
  FillNhwc(g, m);
  ExecResult r = ExecuteTensor(m, Im2colLoad({0, 2, 1, 0}, {0, 0}), g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  // pixel id = n*16 + h*4 + w + 1; 0 = padding.
  ExpectPixels(s, {7, 0, 9, 10, 11, 0, 0, 0, 0, 0, 17, 18, 19, 0, 21, 22}, 32);
  EXPECT_EQ(r.complete_tx[0].bytes, 16u * 32u * 4u);
}

TEST(MeasuredVectors, V17bIm2colStrided) {
  // N=2, H=W=7, C=8; lower {W:-1, H:0}, upper {W:-1, H:0}; es {1,2,2,1}; offsets (1, 0).
  SparseGlobalMemory g;
  ClusterSharedMemory s(1, 4096, kPoison);
  TensorMap m = Nhwc(8, 7, 7, 2, -1, 0, -1, 0, 8, 16);
  m.element_strides = {1, 2, 2, 1, 1};
  FillNhwc(g, m);
  ExecResult r = ExecuteTensor(m, Im2colLoad({0, 0, 0, 0}, {1, 0}), g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  auto id = [](int n, int h, int w) { return static_cast<uint32_t>((n * 7 + h) * 7 + w + 1); };
  ExpectPixels(s,
               {id(0, 0, 1), id(0, 0, 3), id(0, 0, 5), id(0, 2, 0), id(0, 2, 2), id(0, 2, 4),
                id(0, 2, 6), id(0, 4, 0), id(0, 4, 2), id(0, 4, 4), id(0, 4, 6), id(0, 6, 0),
                id(0, 6, 2), id(0, 6, 4), id(0, 6, 6), id(1, 0, 0)},
               8);
  EXPECT_EQ(r.complete_tx[0].bytes, 512u);
}

TEST(MeasuredVectors, V18Im2colWrapIntoNextImage) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(1, 4096, kPoison);
  TensorMap m = Nhwc(8, 7, 7, 2, -1, -1, -1, -1, 8, 16);
  FillNhwc(g, m);
  ExecResult r = ExecuteTensor(m, Im2colLoad({0, 3, 4, 1}, {2, 0}), g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  auto id = [](int n, int h, int w) { return static_cast<uint32_t>((n * 7 + h) * 7 + w + 1); };
  ExpectPixels(s,
               {id(1, 4, 5), id(1, 4, 6), 0, id(1, 5, 1), id(1, 5, 2), id(1, 5, 3), id(1, 5, 4),
                id(1, 5, 5), id(1, 5, 6), 0, 0, 0, 0, 0, 0, 0},
               8);
  EXPECT_EQ(r.complete_tx[0].bytes, 512u);
}

TEST(MeasuredVectors, V19Im2colChannelsOob) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(1, 4096, kPoison);
  TensorMap m = Nhwc(8, 7, 7, 2, -1, -1, -1, -1, 4, 16);
  FillNhwc(g, m);
  ExecResult r = ExecuteTensor(m, Im2colLoad({8, 0, 0, 0}, {0, 0}), g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  ExpectPixels(s, std::vector<uint32_t>(16, 0), 4);
  EXPECT_EQ(r.complete_tx[0].bytes, 256u);
  EXPECT_EQ(s.Window(0)[256], kPoison);
}

TEST(MeasuredVectors, V20Multicast) {
  SparseGlobalMemory g;
  FillT16(g);
  ClusterSharedMemory s(2, 2048, kPoison);
  TensorInstr ins = LoadInstr(2, {8, 2}, 0, 0x400);
  ins.multicast = true;
  ins.cta_mask = 0b11;
  ins.issuer_cta = 0;
  ExecResult r = ExecuteTensor(T16Map(), ins, g, s);
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(s.Window(0), s.Window(1));
  EXPECT_EQ(ReadSmem<uint16_t>(s, 1, 0), T16(8, 2));
  ASSERT_EQ(r.complete_tx.size(), 2u);
  EXPECT_EQ(r.complete_tx[0], (CompleteTx{0, 0x400, 1024}));
  EXPECT_EQ(r.complete_tx[1], (CompleteTx{1, 0x400, 1024}));
}

}  // namespace
}  // namespace tma::model
