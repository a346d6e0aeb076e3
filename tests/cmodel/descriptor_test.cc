// SPDX-License-Identifier: Apache-2.0
//
// The 128-byte descriptor: the measured example maps (silicon-findings.md "Example",
// tensor-semantics.md §13) encode to the measured bytes and decode to their fields; decode
// rejects codes that name nothing; encode/decode round-trip.
#include "tma/descriptor.h"

#include <cstdint>
#include <random>

#include <gtest/gtest.h>

#include "tma/encoder.h"
#include "tma/types.h"

namespace tma::model {
namespace {

DescriptorBytes FromWords(const std::array<uint64_t, 16>& w) {
  DescriptorBytes d{};
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 8; ++j)
      d[8 * i + j] = static_cast<uint8_t>(w[i] >> (8 * j));
  }
  return d;
}

// Bytes from 32-bit little-endian words starting at byte `at`.
void PutWords32(DescriptorBytes* d, int at, std::initializer_list<uint32_t> words) {
  for (uint32_t w : words) {
    for (int j = 0; j < 4; ++j)
      (*d)[at++] = static_cast<uint8_t>(w >> (8 * j));
  }
}

// silicon-findings.md, "Example (the sweep's base maps)": tiled f16 rank 5.
TensorMap SiliconTiledMap() {
  TensorMap m;
  m.mode = MapMode::kTiled;
  m.global_address = 0x7f7742000000ull;
  m.rank = 5;
  m.dtype = DType::kF16;
  m.dims = {64, 32, 16, 8, 4};
  m.strides = {1ull << 12, 1ull << 18, 1ull << 24, 1ull << 30};
  m.box = {16, 8, 4, 2, 1};
  return m;
}

const std::array<uint64_t, 16> kSiliconTiledWords = {0x00007f7742000000ull,
                                                     0x0000010000000340ull,
                                                     0x0010000000004000ull,
                                                     0x0000000004000000ull,
                                                     0x0000001f0000003full,
                                                     0x000000070000000full,
                                                     0x0f00000000000003ull,
                                                     0x0000000000010307ull,
                                                     0x0000000000000800ull,
                                                     0x0000000000000010ull,
                                                     0,
                                                     0,
                                                     0,
                                                     0,
                                                     0,
                                                     0};

TensorMap SiliconIm2colMap() {
  TensorMap m = SiliconTiledMap();
  m.mode = MapMode::kIm2col;
  m.dims = {64, 16, 16, 8, 4};
  m.box = {1, 1, 1, 1, 1};
  m.lower = {-1, -1, -1};
  m.upper = {-1, -1, -1};
  m.channels_per_pixel = 16;
  m.pixels_per_column = 64;
  return m;
}

const std::array<uint64_t, 16> kSiliconIm2colWords = {0x00007f7742000000ull,
                                                      0x0000010000000341ull,
                                                      0x0010000000004000ull,
                                                      0x0000000004000000ull,
                                                      0x0000000f0000003full,
                                                      0x000000070000000full,
                                                      0x0f00000000000003ull,
                                                      0x0000003f7fff7fffull,
                                                      0x0000000000000800ull,
                                                      0x0000000000000010ull,
                                                      0,
                                                      0,
                                                      0,
                                                      0,
                                                      0,
                                                      0};

TEST(DescriptorSilicon, TiledExampleEncodes) {
  EXPECT_EQ(EncodeDescriptor(SiliconTiledMap()), FromWords(kSiliconTiledWords));
}

TEST(DescriptorSilicon, TiledExampleDecodes) {
  const DescriptorBytes d = FromWords(kSiliconTiledWords);
  TensorMap m;
  ASSERT_TRUE(DecodeDescriptor(d.data(), &m).ok());
  EXPECT_EQ(m, SiliconTiledMap());
  EXPECT_EQ(m.global_address, 0x7f7742000000ull);
  EXPECT_EQ(m.strides[3], 1ull << 30);
  EXPECT_EQ(m.box[1], 8u);
  EXPECT_EQ(m.swizzle, Swizzle::kNone);
}

TEST(DescriptorSilicon, Im2colExampleEncodes) {
  EXPECT_EQ(EncodeDescriptor(SiliconIm2colMap()), FromWords(kSiliconIm2colWords));
}

TEST(DescriptorSilicon, Im2colExampleDecodes) {
  const DescriptorBytes d = FromWords(kSiliconIm2colWords);
  TensorMap m;
  ASSERT_TRUE(DecodeDescriptor(d.data(), &m).ok());
  EXPECT_EQ(m.mode, MapMode::kIm2col);
  EXPECT_EQ(m.lower[2], -1);
  EXPECT_EQ(m.upper[0], -1);
  EXPECT_EQ(m.channels_per_pixel, 16u);
  EXPECT_EQ(m.pixels_per_column, 64u);
  EXPECT_EQ(m, SiliconIm2colMap());
}

TEST(DescriptorSilicon, EncodersReproduceExamples) {
  const TensorMap t = SiliconTiledMap();
  DescriptorBytes d;
  const uint32_t es[5] = {1, 1, 1, 1, 1};
  ASSERT_TRUE(EncodeTiled(&d, t.dtype, 5, t.global_address, t.dims.data(), t.strides.data(),
                          t.box.data(), es, Interleave::kNone, Swizzle::kNone, L2Promotion::kNone,
                          OobFill::kZero)
                  .ok());
  EXPECT_EQ(d, FromWords(kSiliconTiledWords));
  const TensorMap i = SiliconIm2colMap();
  const int lo[3] = {-1, -1, -1};
  const int hi[3] = {-1, -1, -1};
  ASSERT_TRUE(EncodeIm2col(&d, i.dtype, 5, i.global_address, i.dims.data(), i.strides.data(), lo,
                           hi, 16, 64, es, Interleave::kNone, Swizzle::kNone, L2Promotion::kNone,
                           OobFill::kZero)
                  .ok());
  EXPECT_EQ(d, FromWords(kSiliconIm2colWords));
}

// tensor-semantics.md §13: 2-D u16, dims {200,50}, stride 400 B, box {64,8}; bytes 8-79.
DescriptorBytes U16Example(bool swizzle128) {
  DescriptorBytes d{};
  PutWords32(&d, 8,
             {swizzle128 ? 0x6090u : 0x90u, 0x19, 0, 0, 0, 0, 0xc7, 0x31, 0, 0, 0, 0x3f000000, 0x7,
              0, 0x400, 0, swizzle128 ? 0x400u : 0x10u, 0});
  return d;
}

TensorMap U16Map() {
  TensorMap m;
  m.rank = 2;
  m.dtype = DType::kU16;
  m.dims = {200, 50, 1, 1, 1};
  m.strides = {400, 0, 0, 0};
  m.box = {64, 8, 1, 1, 1};
  return m;
}

TEST(DescriptorSemantics, U16TwoDExample) {
  EXPECT_EQ(EncodeDescriptor(U16Map()), U16Example(false));
  TensorMap m;
  ASSERT_TRUE(DecodeDescriptor(U16Example(false).data(), &m).ok());
  EXPECT_EQ(m, U16Map());
  EXPECT_EQ(m.strides[0], 400u);
  EXPECT_EQ(m.dims[0], 200u);
  EXPECT_EQ(DescriptorBoxBytes(m), 1024u);
}

TEST(DescriptorSemantics, U16TwoDSwizzle128Example) {
  TensorMap want = U16Map();
  want.swizzle = Swizzle::k128B;
  EXPECT_EQ(EncodeDescriptor(want), U16Example(true));
  TensorMap m;
  ASSERT_TRUE(DecodeDescriptor(U16Example(true).data(), &m).ok());
  EXPECT_EQ(m.swizzle, Swizzle::k128B);
  EXPECT_EQ(m, want);
}

TEST(DescriptorSemantics, Im2colU32FourDExample) {
  // NHWC {C=8, W=7, H=7, N=2} u32, corners {-1,-1} / {-1,-1}, cpp 8, ppc 16.
  TensorMap want;
  want.mode = MapMode::kIm2col;
  want.rank = 4;
  want.dtype = DType::kU32;
  want.dims = {8, 7, 7, 2, 1};
  want.strides = {32, 224, 1568, 0};
  want.lower = {-1, -1, 0};
  want.upper = {-1, -1, 0};
  want.channels_per_pixel = 8;
  want.pixels_per_column = 16;
  const DescriptorBytes d = EncodeDescriptor(want);
  // the control word: the 32 bits from the mode bit
  EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescModeLsb, 32), 0x131u);
  const uint8_t bytes55[7] = {0x07, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00};
  for (int i = 0; i < 7; ++i)
    EXPECT_EQ(d[55 + i], bytes55[i]) << "byte " << 55 + i;
  EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescBoxBytesLsb, num::kDescBoxBytesW), 0x200u);
  TensorMap m;
  ASSERT_TRUE(DecodeDescriptor(d.data(), &m).ok());
  EXPECT_EQ(m, want);
  EXPECT_TRUE(ValidateTensorMap(want).ok());
}

TEST(DescriptorFields, Tf32IsFormat7PlusBit80) {
  TensorMap m = U16Map();
  m.dtype = DType::kTF32;
  DescriptorBytes d = EncodeDescriptor(m);
  EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescTypeLsb, num::kDescTypeW), 7u);
  EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescTf32Lsb, num::kDescTf32W), 1u);
  m.dtype = DType::kTF32Ftz;
  d = EncodeDescriptor(m);
  EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescTypeLsb, num::kDescTypeW), 8u);
  EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescTf32Lsb, num::kDescTf32W), 1u);
  m.dtype = DType::kF32Ftz;  // driver enum 10 -> hardware code 8, no flag
  d = EncodeDescriptor(m);
  EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescTypeLsb, num::kDescTypeW), 8u);
  EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescTf32Lsb, num::kDescTf32W), 0u);
  m.dtype = DType::kF64;  // driver 8 -> hardware 9
  EXPECT_EQ(GetDescriptorBits(EncodeDescriptor(m).data(), num::kDescTypeLsb, num::kDescTypeW), 9u);
  m.dtype = DType::kBF16;  // driver 9 -> hardware 10
  EXPECT_EQ(GetDescriptorBits(EncodeDescriptor(m).data(), num::kDescTypeLsb, num::kDescTypeW), 10u);
}

TEST(DescriptorFields, StrideHighNibbleAndMaxDim) {
  TensorMap m = U16Map();
  m.strides[0] = (1ull << 40) - 16;  // largest legal stride
  m.dims[1] = 1ull << 32;            // largest legal dim
  const DescriptorBytes d = EncodeDescriptor(m);
  EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescStrideLoLsb, num::kDescStrideLoW), 0xFFFFFFFFu);
  EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescStrideHiLsb, num::kDescStrideHiW), 0xFu);
  EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescDimLsb + num::kDescDimW, num::kDescDimW),
            0xFFFFFFFFu);
  TensorMap back;
  ASSERT_TRUE(DecodeDescriptor(d.data(), &back).ok());
  EXPECT_EQ(back.strides[0], (1ull << 40) - 16);
  EXPECT_EQ(back.dims[1], 1ull << 32);
}

TEST(DescriptorFields, SwizzleDerivedAndAtomicity) {
  TensorMap m = U16Map();
  m.box[0] = 16;
  const struct {
    Swizzle s;
    uint64_t span, atom, b96, repeat;
  } cases[] = {{Swizzle::kNone, 0, 0, 0, 16},          {Swizzle::k32B, 1, 0, 0, 256},
               {Swizzle::k64B, 2, 0, 0, 512},          {Swizzle::k128B, 3, 0, 0, 1024},
               {Swizzle::k128BAtom32B, 3, 1, 0, 1024}, {Swizzle::k128BAtom32BFlip8B, 3, 2, 0, 1024},
               {Swizzle::k128BAtom64B, 3, 3, 0, 1024}, {Swizzle::k96B, 0, 0, 1, 256}};
  for (const auto& c : cases) {
    m.swizzle = c.s;
    const DescriptorBytes d = EncodeDescriptor(m);
    EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescSwizzleSpanLsb, num::kDescSwizzleSpanW), c.span)
        << ToString(c.s);
    EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescSwizzleAtomLsb, num::kDescSwizzleAtomW), c.atom)
        << ToString(c.s);
    EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescSwizzle96BLsb, num::kDescSwizzle96BW), c.b96)
        << ToString(c.s);
    EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescSwizzleRepeatLsb, num::kDescSwizzleRepeatW),
              c.repeat)
        << ToString(c.s);
    TensorMap back;
    ASSERT_TRUE(DecodeDescriptor(d.data(), &back).ok()) << ToString(c.s);
    EXPECT_EQ(back.swizzle, c.s);
  }
}

TEST(DescriptorFields, SubByteCodes) {
  TensorMap m = U16Map();
  m.box[0] = 128;
  const struct {
    DType t;
    uint64_t code, box_bytes;
  } cases[] = {{DType::kB4x16, 11, 128 * 8 / 2},
               {DType::kB4x16P64, 12, 128 * 8},
               {DType::kB6x16P32, 13, 128 * 8}};
  for (const auto& c : cases) {
    m.dtype = c.t;
    const DescriptorBytes d = EncodeDescriptor(m);
    EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescTypeLsb, num::kDescTypeW), c.code);
    EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescBoxBytesLsb, num::kDescBoxBytesW), c.box_bytes);
    TensorMap back;
    ASSERT_TRUE(DecodeDescriptor(d.data(), &back).ok());
    EXPECT_EQ(back.dtype, c.t);
  }
}

TEST(DescriptorFields, BoxBytesUsesFloorOverAllDims) {
  TensorMap m = U16Map();  // box {64, 8}
  m.element_strides = {3, 3, 1, 1, 1};
  // 2 * floor(64/3) * floor(8/3) = 2 * 21 * 2 = 84 (not the bytes the engine moves).
  EXPECT_EQ(DescriptorBoxBytes(m), 84u);
  EXPECT_EQ(
      GetDescriptorBits(EncodeDescriptor(m).data(), num::kDescBoxBytesLsb, num::kDescBoxBytesW),
      84u);
  m.element_strides = {1, 8, 1, 1, 1};  // floor(8/8) = 1
  EXPECT_EQ(DescriptorBoxBytes(m), 128u);
}

TEST(DescriptorFields, Im2colWideLayout) {
  TensorMap m;
  m.mode = MapMode::kIm2colWide;
  m.rank = 4;
  m.dtype = DType::kF16;
  m.dims = {64, 1000, 10, 2, 1};
  m.strides = {128, 128000, 1280000, 0};
  m.lower[0] = -300;
  m.upper[0] = 200;
  m.channels_per_pixel = 64;
  m.pixels_per_column = 256;
  m.wide_mode = WideMode::kW128;
  m.swizzle = Swizzle::k128B;
  const DescriptorBytes d = EncodeDescriptor(m);
  EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescModeLsb, num::kDescModeW), 1u);
  EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescIm2colWideLsb, num::kDescIm2colWideW), 1u);
  EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescWideModeLsb, num::kDescWideModeW), 1u);
  EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescLowerCornerLsb, num::kDescLowerCornerW),
            static_cast<uint16_t>(-300));
  EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescUpperCornerLsb, num::kDescUpperCornerW), 200u);
  EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescBox0Lsb, num::kDescBox0W), 63u);
  EXPECT_EQ(GetDescriptorBits(d.data(), num::kDescPixelsPerColumnLsb, num::kDescPixelsPerColumnW),
            255u);
  TensorMap back;
  ASSERT_TRUE(DecodeDescriptor(d.data(), &back).ok());
  EXPECT_EQ(back, m);
}

Status DecodeStatus(const DescriptorBytes& d) {
  TensorMap m;
  return DecodeDescriptor(d.data(), &m);
}

TEST(DescriptorDecode, RejectsCodesThatNameNothing) {
  const DescriptorBytes base = EncodeDescriptor(U16Map());
  ASSERT_TRUE(DecodeStatus(base).ok());
  struct Case {
    int lsb, width;
    uint64_t value;
    const char* field;
  };
  const Case cases[] = {
      {num::kDescTypeLsb, num::kDescTypeW, 14, "elementType"},            // format 14: nothing
      {num::kDescTypeLsb, num::kDescTypeW, 15, "elementType"},            // format 15: nothing
      {num::kDescTf32Lsb, num::kDescTf32W, 1, "elementType"},             // tf32 flag on u16
      {num::kDescInterleaveLsb, num::kDescInterleaveW, 3, "interleave"},  // interleave 3
      {num::kDescRankLsb, num::kDescRankW, 5, "rank"},                    // rank 6
      {num::kDescSwizzleAtomLsb, num::kDescSwizzleAtomW, 1, "swizzle"},   // atomicity w/o 128B span
      {num::kDescIm2colWideLsb, 1, 1, "mode"},          // im2col-wide flag on a tiled map
      {num::kDescSwizzle96BLsb + 2, 1, 1, "reserved"},  // between the enums and the strides
      {num::kDescStrideHiLsb + num::kDescStrideHiN * num::kDescStrideHiW, 1, 1,
       "reserved"},  // after the stride high nibbles
      {num::kDescElemStrideLsb + num::kDescElemStrideN * num::kDescElemStrideW + 4, 1, 1,
       "reserved"},                                              // between element strides and box
      {num::kDescSwizzleRepeatLsb + 24, 1, 1, "swizzleRepeat"},  // derived field disagrees
      {num::kDescBoxBytesLsb + 1, 1, 1, "boxBytes"},             // derived field disagrees
      {8 * static_cast<int>(kDescriptorBytes) - 1, 1, 1, "reserved"},  // last bit
      {num::kDescOobAddrModeLsb, num::kDescOobAddrModeW, 1,
       "reserved"},  // OOB address-generation mode: not modelled
      {num::kDescVersionLsb, num::kDescVersionW, 1, "reserved"},  // version
  };
  for (const Case& c : cases) {
    DescriptorBytes d = base;
    SetDescriptorBits(d.data(), c.lsb, c.width, c.value);
    const Status s = DecodeStatus(d);
    EXPECT_EQ(s.cls, ErrorClass::kInvalidDescriptor) << c.lsb;
    EXPECT_EQ(s.field, c.field) << c.lsb << ": " << s.ToString();
  }
  // An im2col map needs rank >= 3.
  DescriptorBytes d = base;
  SetDescriptorBits(d.data(), num::kDescModeLsb, num::kDescModeW, 1);
  EXPECT_EQ(DecodeStatus(d).field, "rank");
}

TEST(DescriptorDecode, Rank5Im2colSpareCornerBitIsReserved) {
  DescriptorBytes d = FromWords(kSiliconIm2colWords);
  // rank 5's three 5-bit lower corners use the 15 bits from their LSB; the next bit is spare
  SetDescriptorBits(d.data(), num::kDescLowerCornerLsb + 3 * num::kDescCornerWRank5, 1, 1);
  EXPECT_EQ(DecodeStatus(d).field, "reserved");
}

TEST(DescriptorDecode, AllZeroMapIsTiledRank1U8) {
  // Not something the driver makes (derived fields are zero), so it is rejected.
  DescriptorBytes d{};
  EXPECT_EQ(DecodeStatus(d).cls, ErrorClass::kInvalidDescriptor);
}

// Random maps that the driver rules accept, tiled and im2col, sm_90 and sm_100 features.
TensorMap RandomMap(std::mt19937_64* rng, bool sm100) {
  auto U = [rng](uint64_t lo, uint64_t hi) {
    return std::uniform_int_distribution<uint64_t>(lo, hi)(*rng);
  };
  TensorMap m;
  const int mode = static_cast<int>(U(0, sm100 ? 2 : 1));
  m.mode = static_cast<MapMode>(mode);
  m.rank = static_cast<int>(m.mode == MapMode::kTiled ? U(1, 5) : U(3, 5));
  m.dtype = static_cast<DType>(U(0, sm100 ? 15 : 12));
  m.global_address = U(0, 1ull << 48) & ~uint64_t{31};
  for (int i = 0; i < m.rank; ++i) {
    m.dims[i] = U(0, 3) == 0 ? (1ull << 32) : U(1, 100000);
    m.element_strides[i] = static_cast<uint32_t>(U(1, 8));
    m.box[i] = static_cast<uint32_t>(U(1, 256));
    if (i > 0)
      m.strides[i - 1] = U(1, (1ull << 36) - 1) << 4;
  }
  m.interleave = m.rank >= 3 ? static_cast<Interleave>(U(0, 2)) : Interleave::kNone;
  m.swizzle = static_cast<Swizzle>(U(0, sm100 ? 7 : 3));
  m.l2_promotion = static_cast<L2Promotion>(U(0, 3));
  m.oob_fill = static_cast<OobFill>(U(0, 1));
  m.channels_per_pixel = static_cast<uint32_t>(U(1, 256));
  m.pixels_per_column = static_cast<uint32_t>(U(1, 1024));
  m.wide_mode = static_cast<WideMode>(U(0, 1));
  const int lim = m.mode == MapMode::kIm2colWide || m.rank == 3 ? 32768 : m.rank == 4 ? 128 : 16;
  for (int k = 0; k < 3; ++k) {
    m.lower[k] = static_cast<int32_t>(U(0, 2 * lim - 1)) - lim;
    m.upper[k] = static_cast<int32_t>(U(0, 2 * lim - 1)) - lim;
  }
  if (m.mode != MapMode::kIm2col)
    m.lower[1] = m.lower[2] = m.upper[1] = m.upper[2] = 0;
  if (m.mode == MapMode::kTiled)
    m.lower = m.upper = {0, 0, 0};
  if (m.mode != MapMode::kTiled)
    m.box = {1, 1, 1, 1, 1};
  if (m.mode == MapMode::kIm2colWide)
    m.interleave = Interleave::kNone;
  if (m.mode == MapMode::kIm2colWide && m.wide_mode == WideMode::kW128) {
    m.pixels_per_column = 128;
  }
  return m;
}

TEST(DescriptorRoundTrip, RandomValidMaps) {
  std::mt19937_64 rng(20240611);
  int valid[2] = {0, 0};
  for (int iter = 0; iter < 200000 && (valid[0] < 2000 || valid[1] < 2000); ++iter) {
    const bool sm100 = iter % 2 == 1;
    const TensorMap m = RandomMap(&rng, sm100);
    if (!ValidateTensorMap(m, sm100 ? Arch::kSm103 : Arch::kSm90).ok())
      continue;
    ++valid[sm100];
    const DescriptorBytes d = EncodeDescriptor(m);
    TensorMap back;
    const Status s = DecodeDescriptor(d.data(), &back);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_EQ(back, m) << "iteration " << iter;
    ASSERT_EQ(EncodeDescriptor(back), d) << "iteration " << iter;
  }
  EXPECT_GE(valid[0], 2000);
  EXPECT_GE(valid[1], 2000);
}

TEST(DescriptorRoundTrip, AnyDecodableMutationReencodesExactly) {
  // Flip random bits of valid maps: whatever decodes must re-encode to the same bytes.
  std::mt19937_64 rng(7);
  int decoded = 0;
  int rejected = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    const TensorMap m = RandomMap(&rng, iter % 2 == 1);
    DescriptorBytes d = EncodeDescriptor(m);
    const int flips = 1 + static_cast<int>(rng() % 3);
    for (int f = 0; f < flips; ++f) {
      const int bit = static_cast<int>(rng() % 1024);
      d[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    }
    TensorMap back;
    const Status s = DecodeDescriptor(d.data(), &back);
    if (s.ok()) {
      ++decoded;
      ASSERT_EQ(EncodeDescriptor(back), d) << "iteration " << iter;
    } else {
      ++rejected;
      ASSERT_EQ(s.cls, ErrorClass::kInvalidDescriptor);
      ASSERT_FALSE(s.field.empty());
    }
  }
  EXPECT_GT(decoded, 1000);
  EXPECT_GT(rejected, 1000);
}

}  // namespace
}  // namespace tma::model
