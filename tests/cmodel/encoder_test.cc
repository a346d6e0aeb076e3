// SPDX-License-Identifier: Apache-2.0
//
// The driver's acceptance rules (silicon-findings.md "Encoder rules" 1-20, measured on H100),
// one test per rule: the violation is rejected naming the parameter, and the boundary value
// just inside is accepted. Plus the measured quirks and the documented sm_100 extensions.
#include "tma/encoder.h"

#include <array>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "tma/descriptor.h"
#include "tma/types.h"

namespace tma::model {
namespace {

// cuTensorMapEncodeTiled's parameters; the default is the silicon sweep's base map.
struct Tiled {
  DType type = DType::kF16;
  uint32_t rank = 5;
  uint64_t addr = 0x7f7742000000ull;
  std::array<uint64_t, 5> dims{64, 32, 16, 8, 4};
  std::array<uint64_t, 4> strides{1ull << 12, 1ull << 18, 1ull << 24, 1ull << 30};
  std::array<uint32_t, 5> box{16, 8, 4, 2, 1};
  std::array<uint32_t, 5> es{1, 1, 1, 1, 1};
  Interleave il = Interleave::kNone;
  Swizzle sw = Swizzle::kNone;
  L2Promotion l2 = L2Promotion::kNone;
  OobFill oob = OobFill::kZero;
  Arch arch = Arch::kSm90;

  Status Encode(DescriptorBytes* out = nullptr) const {
    DescriptorBytes tmp;
    return EncodeTiled(out ? out : &tmp, type, rank, addr, dims.data(), strides.data(), box.data(),
                       es.data(), il, sw, l2, oob, arch);
  }
};

// cuTensorMapEncodeIm2col's parameters; default: the silicon sweep's im2col base map.
struct Im2col {
  DType type = DType::kF16;
  uint32_t rank = 5;
  uint64_t addr = 0x7f7742000000ull;
  std::array<uint64_t, 5> dims{64, 16, 16, 8, 4};
  std::array<uint64_t, 4> strides{1ull << 12, 1ull << 18, 1ull << 24, 1ull << 30};
  std::array<int, 3> lower{-1, -1, -1};
  std::array<int, 3> upper{-1, -1, -1};
  uint32_t cpp = 16;
  uint32_t ppc = 64;
  std::array<uint32_t, 5> es{1, 1, 1, 1, 1};
  Interleave il = Interleave::kNone;
  Swizzle sw = Swizzle::kNone;
  L2Promotion l2 = L2Promotion::kNone;
  OobFill oob = OobFill::kZero;
  Arch arch = Arch::kSm90;

  Status Encode(DescriptorBytes* out = nullptr) const {
    DescriptorBytes tmp;
    return EncodeIm2col(out ? out : &tmp, type, rank, addr, dims.data(), strides.data(),
                        lower.data(), upper.data(), cpp, ppc, es.data(), il, sw, l2, oob, arch);
  }
};

// cuTensorMapEncodeIm2colWide: NHWC f16 {C=64, W=1000, H=10, N=2}, 128B swizzle.
struct Wide {
  DType type = DType::kF16;
  uint32_t rank = 4;
  uint64_t addr = 0x10000;
  std::array<uint64_t, 5> dims{64, 1000, 10, 2, 1};
  std::array<uint64_t, 4> strides{128, 128000, 1280000, 0};
  int lower = -1;
  int upper = -1;
  uint32_t cpp = 64;
  uint32_t ppc = 256;
  std::array<uint32_t, 5> es{1, 1, 1, 1, 1};
  Interleave il = Interleave::kNone;
  WideMode mode = WideMode::kW;
  Swizzle sw = Swizzle::k128B;
  L2Promotion l2 = L2Promotion::kNone;
  OobFill oob = OobFill::kZero;
  Arch arch = Arch::kSm100;

  Status Encode(DescriptorBytes* out = nullptr) const {
    DescriptorBytes tmp;
    return EncodeIm2colWide(out ? out : &tmp, type, rank, addr, dims.data(), strides.data(), lower,
                            upper, cpp, ppc, es.data(), il, mode, sw, l2, oob, arch);
  }
};

#define EXPECT_ACCEPTED(call)              \
  do {                                     \
    const Status s_ = (call);              \
    EXPECT_TRUE(s_.ok()) << s_.ToString(); \
  } while (0)

#define EXPECT_REJECTED(call, fld)                                      \
  do {                                                                  \
    const Status s_ = (call);                                           \
    EXPECT_EQ(s_.cls, ErrorClass::kInvalidDescriptor) << s_.ToString(); \
    EXPECT_EQ(s_.field, fld) << s_.ToString();                          \
    EXPECT_FALSE(s_.message.empty());                                   \
  } while (0)

template <typename T, typename F>
Status With(T base, F f) {
  f(&base);
  return base.Encode();
}

TEST(EncoderBase, BaseMapsAccepted) {
  EXPECT_ACCEPTED(Tiled().Encode());
  EXPECT_ACCEPTED(Im2col().Encode());
  EXPECT_ACCEPTED(Wide().Encode());
}

TEST(EncoderRule01, DataType) {
  EXPECT_REJECTED(With(Tiled(), [](Tiled* t) { t->type = static_cast<DType>(16); }),
                  "tensorDataType");
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) { t->type = DType::kTF32Ftz; }));  // 12
  // Sub-byte types are rejected on sm_90 even with parameters that suit them.
  auto b4 = [](Tiled* t) {
    t->type = DType::kB4x16;
    t->box[0] = 32;  // 16 bytes
  };
  EXPECT_REJECTED(With(Tiled(), b4), "tensorDataType");
  EXPECT_REJECTED(With(Im2col(), [](Im2col* t) { t->type = DType::kB6x16P32; }), "tensorDataType");
  EXPECT_ACCEPTED(With(Tiled(), [&](Tiled* t) {
    b4(t);
    t->arch = Arch::kSm100;
  }));
  // The message says why, with the value.
  const Status s = With(Tiled(), [](Tiled* t) { t->type = static_cast<DType>(20); });
  EXPECT_NE(s.message.find("20"), std::string::npos) << s.message;
}

TEST(EncoderRule02, Rank) {
  EXPECT_REJECTED(With(Tiled(), [](Tiled* t) { t->rank = 0; }), "tensorRank");
  EXPECT_REJECTED(With(Tiled(), [](Tiled* t) { t->rank = 6; }), "tensorRank");
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) { t->rank = 1; }));
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) { t->rank = 5; }));
  EXPECT_REJECTED(With(Im2col(), [](Im2col* t) { t->rank = 2; }), "tensorRank");
  EXPECT_REJECTED(With(Im2col(), [](Im2col* t) { t->rank = 6; }), "tensorRank");
  EXPECT_ACCEPTED(With(Im2col(), [](Im2col* t) {
    t->rank = 3;
    t->lower[0] = -1000;  // rank 3 has 16-bit corners
  }));
}

TEST(EncoderRule03, Interleave) {
  EXPECT_REJECTED(With(Tiled(), [](Tiled* t) { t->il = static_cast<Interleave>(3); }),
                  "interleave");
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) { t->il = Interleave::k32B; }));
  auto rank = [](uint32_t r) {
    return [r](Tiled* t) {
      t->rank = r;
      t->il = Interleave::k16B;
    };
  };
  EXPECT_REJECTED(With(Tiled(), rank(2)), "interleave");
  EXPECT_ACCEPTED(With(Tiled(), rank(3)));
}

TEST(EncoderRule04, Swizzle) {
  EXPECT_REJECTED(With(Tiled(), [](Tiled* t) { t->sw = Swizzle::k128BAtom32B; }), "swizzle");
  EXPECT_REJECTED(With(Tiled(), [](Tiled* t) { t->sw = Swizzle::k128BAtom64B; }), "swizzle");
  EXPECT_REJECTED(With(Tiled(), [](Tiled* t) { t->sw = static_cast<Swizzle>(9); }), "swizzle");
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) { t->sw = Swizzle::k128B; }));
  // The 128B-atom modes exist on sm_100.
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) {
    t->sw = Swizzle::k128BAtom32BFlip8B;
    t->arch = Arch::kSm100;
  }));
  EXPECT_REJECTED(With(Im2col(), [](Im2col* t) { t->sw = Swizzle::k128BAtom64B; }), "swizzle");
}

TEST(EncoderRule05, L2PromotionAndOobFill) {
  EXPECT_REJECTED(With(Tiled(), [](Tiled* t) { t->l2 = static_cast<L2Promotion>(4); }),
                  "l2Promotion");
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) { t->l2 = L2Promotion::k256B; }));
  EXPECT_REJECTED(With(Tiled(), [](Tiled* t) { t->oob = static_cast<OobFill>(2); }), "oobFill");
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) { t->oob = OobFill::kNan; }));
}

TEST(EncoderRule06, NanFillNeedsFloat) {
  auto nan = [](DType d) {
    return [d](Tiled* t) {
      t->type = d;
      t->oob = OobFill::kNan;
    };
  };
  EXPECT_REJECTED(With(Tiled(), nan(DType::kU16)), "oobFill");
  EXPECT_REJECTED(With(Tiled(), nan(DType::kS32)), "oobFill");
  EXPECT_ACCEPTED(With(Tiled(), nan(DType::kBF16)));
  EXPECT_ACCEPTED(With(Tiled(), nan(DType::kTF32Ftz)));
  EXPECT_ACCEPTED(With(Tiled(), nan(DType::kF64)));
}

TEST(EncoderRule07, GlobalAddress) {
  EXPECT_REJECTED(With(Tiled(), [](Tiled* t) { t->addr = 0x1008; }), "globalAddress");
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) { t->addr = 0x1010; }));
  auto il32 = [](uint64_t a) {
    return [a](Tiled* t) {
      t->addr = a;
      t->il = Interleave::k32B;
    };
  };
  EXPECT_REJECTED(With(Tiled(), il32(0x1010)), "globalAddress");
  EXPECT_ACCEPTED(With(Tiled(), il32(0x1020)));
}

TEST(EncoderRule08, GlobalDim) {
  EXPECT_REJECTED(With(Tiled(), [](Tiled* t) { t->dims[3] = 0; }), "globalDim[3]");
  EXPECT_REJECTED(With(Tiled(), [](Tiled* t) { t->dims[0] = (1ull << 32) + 1; }), "globalDim[0]");
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) { t->dims[0] = 1ull << 32; }));
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) { t->dims[3] = 1; }));
  // Entries beyond the rank are not read.
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) {
    t->rank = 2;
    t->dims[4] = 0;
  }));
}

TEST(EncoderRule09, GlobalStrides) {
  EXPECT_REJECTED(With(Tiled(), [](Tiled* t) { t->strides[0] = 408; }), "globalStrides[0]");
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) { t->strides[0] = 416; }));
  EXPECT_REJECTED(With(Tiled(), [](Tiled* t) { t->strides[3] = 1ull << 40; }), "globalStrides[3]");
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) { t->strides[3] = (1ull << 40) - 16; }));
  auto il32 = [](uint64_t s) {
    return [s](Tiled* t) {
      t->il = Interleave::k32B;
      t->strides[1] = s;
    };
  };
  EXPECT_REJECTED(With(Tiled(), il32(48)), "globalStrides[1]");
  EXPECT_ACCEPTED(With(Tiled(), il32(64)));
  // No ordering or overlap check: a stride below the one beneath it is accepted.
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) { t->strides = {4096, 16, 1ull << 24, 32}; }));
}

TEST(EncoderRule10, ElementStrides) {
  EXPECT_REJECTED(With(Tiled(), [](Tiled* t) { t->es[4] = 0; }), "elementStrides[4]");
  EXPECT_REJECTED(With(Tiled(), [](Tiled* t) { t->es[4] = 9; }), "elementStrides[4]");
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) { t->es[4] = 8; }));
  EXPECT_REJECTED(With(Im2col(), [](Im2col* t) { t->es[0] = 9; }), "elementStrides[0]");
  EXPECT_ACCEPTED(With(Im2col(), [](Im2col* t) { t->es[0] = 8; }));
}

TEST(EncoderRule11, BoxDim) {
  EXPECT_REJECTED(With(Tiled(), [](Tiled* t) { t->box[2] = 0; }), "boxDim[2]");
  EXPECT_REJECTED(With(Tiled(), [](Tiled* t) { t->box[2] = 257; }), "boxDim[2]");
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) { t->box[2] = 256; }));  // 2*16*8*256*2 = 131072
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) { t->box[2] = 1; }));
  // A box may exceed the tensor.
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) { t->box[1] = 200; }));
}

TEST(EncoderRule12, InnerBoxMultipleOf16Bytes) {
  EXPECT_REJECTED(With(Tiled(), [](Tiled* t) { t->box[0] = 4; }), "boxDim[0]");   // 8 B
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) { t->box[0] = 24; }));               // 48 B
  EXPECT_REJECTED(With(Tiled(), [](Tiled* t) { t->box[0] = 20; }), "boxDim[0]");  // 40 B
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) {
    t->type = DType::kU8;
    t->box[0] = 16;
  }));
}

TEST(EncoderRule12, QuirkAlsoWithInterleave) {
  // The documentation asks for it only with interleave none; the driver asks always.
  auto f = [](uint32_t b0) {
    return [b0](Tiled* t) {
      t->il = Interleave::k16B;
      t->box[0] = b0;
    };
  };
  EXPECT_REJECTED(With(Tiled(), f(4)), "boxDim[0]");
  EXPECT_ACCEPTED(With(Tiled(), f(8)));
}

TEST(EncoderRule13, InnerBoxWithinSwizzleSpan) {
  auto f = [](Swizzle s, uint32_t b0) {
    return [s, b0](Tiled* t) {
      t->sw = s;
      t->box[0] = b0;
    };
  };
  EXPECT_REJECTED(With(Tiled(), f(Swizzle::k32B, 32)), "boxDim[0]");  // 64 B > 32
  EXPECT_ACCEPTED(With(Tiled(), f(Swizzle::k32B, 16)));               // 32 B
  EXPECT_REJECTED(With(Tiled(), f(Swizzle::k64B, 40)), "boxDim[0]");  // 80 B
  EXPECT_ACCEPTED(With(Tiled(), f(Swizzle::k64B, 32)));
  EXPECT_REJECTED(With(Tiled(), f(Swizzle::k128B, 72)), "boxDim[0]");  // 144 B
  EXPECT_ACCEPTED(With(Tiled(), f(Swizzle::k128B, 64)));               // 128 B
  // Only with interleave none.
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) {
    t->sw = Swizzle::k32B;
    t->box[0] = 64;
    t->il = Interleave::k16B;
  }));
}

TEST(EncoderRule14, BoxSizeLimitWithFloor) {
  auto u8 = [](std::array<uint32_t, 5> box, std::array<uint32_t, 5> es) {
    return [box, es](Tiled* t) {
      t->type = DType::kU8;
      t->box = box;
      t->es = es;
    };
  };
  const std::array<uint32_t, 5> ones{1, 1, 1, 1, 1};
  EXPECT_ACCEPTED(With(Tiled(), u8({256, 57, 16, 1, 1}, ones)));            // 233472 B exactly
  EXPECT_REJECTED(With(Tiled(), u8({256, 58, 16, 1, 1}, ones)), "boxDim");  // 237568 B
  // floor over dim 0 too (es[0] counts although the engine ignores it): 128*58*16.
  EXPECT_ACCEPTED(With(Tiled(), u8({256, 58, 16, 1, 1}, {2, 1, 1, 1, 1})));
  // Some box[i] < es[i]: floor 0, so any size passes.
  EXPECT_ACCEPTED(With(Tiled(), u8({256, 256, 256, 256, 4}, {1, 1, 1, 1, 8})));
  EXPECT_REJECTED(With(Tiled(), u8({256, 256, 256, 256, 8}, {1, 1, 1, 1, 8})), "boxDim");
  // f64: 8 * 256 * 114 = 233472, 8 * 256 * 115 = 235520.
  auto f64 = [](uint32_t b1) {
    return [b1](Tiled* t) {
      t->type = DType::kF64;
      t->rank = 2;
      t->box = {256, b1, 1, 1, 1};
    };
  };
  EXPECT_ACCEPTED(With(Tiled(), f64(114)));
  EXPECT_REJECTED(With(Tiled(), f64(115)), "boxDim");
}

TEST(EncoderRule15, CornerRanges) {
  auto r3 = [](int lo, int hi) {
    return [lo, hi](Im2col* t) {
      t->rank = 3;
      t->dims = {16, 100000, 4, 1, 1};
      t->lower = {lo, 0, 0};
      t->upper = {hi, 0, 0};
    };
  };
  EXPECT_REJECTED(With(Im2col(), r3(-32769, 0)), "pixelBoxLowerCorner[0]");
  EXPECT_ACCEPTED(With(Im2col(), r3(-32768, 0)));
  EXPECT_REJECTED(With(Im2col(), r3(0, 32768)), "pixelBoxUpperCorner[0]");
  EXPECT_ACCEPTED(With(Im2col(), r3(0, 32767)));
  auto r4 = [](int lo1, int hi1) {
    return [lo1, hi1](Im2col* t) {
      t->rank = 4;
      t->dims = {16, 1000, 1000, 2, 1};
      t->lower = {0, lo1, 0};
      t->upper = {0, hi1, 0};
    };
  };
  EXPECT_REJECTED(With(Im2col(), r4(-129, 0)), "pixelBoxLowerCorner[1]");
  EXPECT_ACCEPTED(With(Im2col(), r4(-128, 127)));
  EXPECT_REJECTED(With(Im2col(), r4(0, 128)), "pixelBoxUpperCorner[1]");
  auto r5 = [](int lo2, int hi2) {
    return [lo2, hi2](Im2col* t) {
      t->lower = {0, 0, lo2};
      t->upper = {0, 0, hi2};
    };
  };
  EXPECT_REJECTED(With(Im2col(), r5(-17, 0)), "pixelBoxLowerCorner[2]");
  EXPECT_ACCEPTED(With(Im2col(), r5(-16, 15)));
  EXPECT_REJECTED(With(Im2col(), r5(0, 16)), "pixelBoxUpperCorner[2]");
}

TEST(EncoderRule16, BoundingBoxNonEmpty) {
  // Rank 5, no interleave: corner k applies to dim k+1 (dims 1, 2, 3 = W, H, D).
  auto f = [](int lo, int hi) {
    return [lo, hi](Im2col* t) {
      t->dims[2] = 4;
      t->lower = {0, lo, 0};
      t->upper = {0, hi, 0};
    };
  };
  EXPECT_REJECTED(With(Im2col(), f(2, -2)), "pixelBoxLowerCorner[1]");  // 4 - 2 - 2 = 0
  EXPECT_ACCEPTED(With(Im2col(), f(2, -1)));                            // 1
}

TEST(EncoderRule16, QuirkExtentWrapsIn32Bits) {
  auto f = [](int lo, int hi) {
    return [lo, hi](Im2col* t) {
      t->rank = 3;
      t->dims = {16, (1ull << 32) - 1, 4, 1, 1};
      t->lower = {lo, 0, 0};
      t->upper = {hi, 0, 0};
    };
  };
  EXPECT_ACCEPTED(With(Im2col(), f(-6, 3)));                            // wraps to 8
  EXPECT_REJECTED(With(Im2col(), f(3, -4)), "pixelBoxLowerCorner[0]");  // wraps to -8
  // Without padding the extent itself wraps: (2^32 - 1) + 0 - 0 = -1 as s32, rejected.
  EXPECT_REJECTED(With(Im2col(), f(0, 0)), "pixelBoxLowerCorner[0]");
  EXPECT_ACCEPTED(With(Im2col(), f(-1, 1)));  // 2^32 + 1 wraps to 1
}

TEST(EncoderRule16, QuirkDimPlusUpperWrapsBeforeLower) {
  // Silicon verdicts (tests/vectors/silicon/encoder/encoder_verdicts.jsonl.gz) at W = 2^31: the
  // driver wraps dim + upper to s32 and then compares with lower, so upper >= 0 fails
  // whatever lower is, and upper < 0 passes even when dim + upper - lower >= 2^31.
  auto f = [](int lo, int hi) {
    return [lo, hi](Im2col* t) {
      t->rank = 3;
      t->dims = {16, 1ull << 31, 4, 1, 1};
      t->lower = {lo, 0, 0};
      t->upper = {hi, 0, 0};
    };
  };
  EXPECT_ACCEPTED(With(Im2col(), f(-3, -3)));                           // enc-03146
  EXPECT_ACCEPTED(With(Im2col(), f(-2, -1)));                           // enc-01220
  EXPECT_ACCEPTED(With(Im2col(), f(1, -1)));                            // enc-00870
  EXPECT_REJECTED(With(Im2col(), f(0, 0)), "pixelBoxLowerCorner[0]");   // enc-00937
  EXPECT_REJECTED(With(Im2col(), f(1, 0)), "pixelBoxLowerCorner[0]");   // enc-00565
  EXPECT_REJECTED(With(Im2col(), f(-1, 0)), "pixelBoxLowerCorner[0]");  // enc-00520
}

TEST(EncoderRule16, InterleavedSpatialDimsStartAtDim0) {
  // Rank 4 with 16B interleave: corners apply to dims 0 and 1; without, to dims 1 and 2.
  auto f = [](Interleave il) {
    return [il](Im2col* t) {
      t->rank = 4;
      t->il = il;
      t->dims = {4, 100, 100, 2, 1};
      t->lower = {2, 0, 0};
      t->upper = {-2, 0, 0};
    };
  };
  EXPECT_REJECTED(With(Im2col(), f(Interleave::k16B)), "pixelBoxLowerCorner[0]");
  EXPECT_ACCEPTED(With(Im2col(), f(Interleave::kNone)));
}

TEST(EncoderRule17, ChannelsPerPixel) {
  auto u8 = [](uint32_t cpp) {
    return [cpp](Im2col* t) {
      t->type = DType::kU8;
      t->cpp = cpp;
    };
  };
  EXPECT_REJECTED(With(Im2col(), u8(257)), "channelsPerPixel");
  EXPECT_REJECTED(With(Im2col(), u8(0)), "channelsPerPixel");
  EXPECT_ACCEPTED(With(Im2col(), u8(256)));
  EXPECT_REJECTED(With(Im2col(), [](Im2col* t) { t->cpp = 4; }), "channelsPerPixel");  // 8 B
  EXPECT_ACCEPTED(With(Im2col(), [](Im2col* t) { t->cpp = 8; }));                      // 16 B
}

TEST(EncoderRule18, PixelsPerColumn) {
  EXPECT_REJECTED(With(Im2col(), [](Im2col* t) { t->ppc = 1025; }), "pixelsPerColumn");
  EXPECT_REJECTED(With(Im2col(), [](Im2col* t) { t->ppc = 0; }), "pixelsPerColumn");
  EXPECT_ACCEPTED(With(Im2col(), [](Im2col* t) { t->ppc = 1024; }));
  EXPECT_ACCEPTED(With(Im2col(), [](Im2col* t) { t->ppc = 1; }));
}

TEST(EncoderRule19, ChannelsWithinSwizzleSpan) {
  auto f = [](Swizzle s, uint32_t cpp) {
    return [s, cpp](Im2col* t) {
      t->sw = s;
      t->cpp = cpp;
    };
  };
  EXPECT_REJECTED(With(Im2col(), f(Swizzle::k32B, 32)), "channelsPerPixel");  // 64 B
  EXPECT_ACCEPTED(With(Im2col(), f(Swizzle::k32B, 16)));                      // 32 B
  EXPECT_REJECTED(With(Im2col(), f(Swizzle::k128B, 72)), "channelsPerPixel");
  EXPECT_ACCEPTED(With(Im2col(), f(Swizzle::k128B, 64)));
  EXPECT_ACCEPTED(With(Im2col(), [](Im2col* t) {
    t->sw = Swizzle::k32B;
    t->cpp = 32;
    t->il = Interleave::k16B;
  }));
}

TEST(EncoderRule20, Im2colSize) {
  // f64: cpp 256 -> 2048 B per pixel; 114 pixels = 233472 B.
  auto f = [](uint32_t ppc, uint32_t es) {
    return [ppc, es](Im2col* t) {
      t->type = DType::kF64;
      t->cpp = 256;
      t->ppc = ppc;
      t->es = {es, es, es, es, es};
    };
  };
  EXPECT_ACCEPTED(With(Im2col(), f(114, 1)));
  EXPECT_REJECTED(With(Im2col(), f(115, 1)), "pixelsPerColumn");
  EXPECT_REJECTED(With(Im2col(), f(115, 8)), "pixelsPerColumn");  // es do not enter
}

TEST(EncoderQuirks, NullAddressAccepted) {
  EXPECT_ACCEPTED(With(Tiled(), [](Tiled* t) { t->addr = 0; }));
  EXPECT_ACCEPTED(With(Im2col(), [](Im2col* t) { t->addr = 0; }));
}

TEST(EncoderQuirks, Interleave32BWithoutSwizzle32B) {
  for (Swizzle s : {Swizzle::kNone, Swizzle::k64B, Swizzle::k128B, Swizzle::k32B}) {
    EXPECT_ACCEPTED(With(Tiled(), [s](Tiled* t) {
      t->il = Interleave::k32B;
      t->sw = s;
    }));
  }
}

TEST(EncoderQuirks, RejectedEncodeLeavesMapZeroed) {
  DescriptorBytes d;
  d.fill(0xCD);
  Tiled t;
  t.box[2] = 300;
  EXPECT_FALSE(t.Encode(&d).ok());
  EXPECT_EQ(d, DescriptorBytes{});
  d.fill(0xCD);
  Im2col i;
  i.rank = 7;
  EXPECT_FALSE(i.Encode(&d).ok());
  EXPECT_EQ(d, DescriptorBytes{});
}

TEST(EncoderQuirks, AllViolationsListedWithRuleNumbers) {
  Tiled t;
  t.box[1] = 0;
  t.es[2] = 9;
  t.addr = 8;
  TensorMap m;
  m.rank = 5;
  m.dtype = t.type;
  m.global_address = t.addr;
  m.dims = t.dims;
  m.strides = t.strides;
  m.box = t.box;
  m.element_strides = t.es;
  const auto v = FindRuleViolations(m);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].rule, 7);
  EXPECT_EQ(v[1].rule, 10);
  EXPECT_EQ(v[1].status.field, "elementStrides[2]");
  EXPECT_EQ(v[2].rule, 11);
  EXPECT_EQ(ValidateTensorMap(m).field, "globalAddress");
}

// ---- sm_100 / sm_103 (documented, unverified on silicon) ------------------------------------

TEST(EncoderSm100, PackedSubByteRestrictions) {
  auto p64 = [](Tiled* t) {
    t->arch = Arch::kSm100;
    t->type = DType::kB4x16P64;
    t->rank = 2;
    t->dims = {256, 8, 1, 1, 1};
    t->strides = {128, 0, 0, 0};
    t->box = {128, 8, 1, 1, 1};
    t->addr = 0x1000;
  };
  EXPECT_ACCEPTED(With(Tiled(), p64));
  EXPECT_REJECTED(With(Tiled(),
                       [&](Tiled* t) {
                         p64(t);
                         t->box[0] = 64;
                       }),
                  "boxDim[0]");
  EXPECT_REJECTED(With(Tiled(),
                       [&](Tiled* t) {
                         p64(t);
                         t->addr = 0x1010;
                       }),
                  "globalAddress");
  EXPECT_REJECTED(With(Tiled(),
                       [&](Tiled* t) {
                         p64(t);
                         t->dims[0] = 192;
                       }),
                  "globalDim[0]");
  EXPECT_REJECTED(With(Tiled(),
                       [&](Tiled* t) {
                         p64(t);
                         t->strides[0] = 144;
                       }),
                  "globalStrides[0]");
  EXPECT_REJECTED(With(Tiled(),
                       [&](Tiled* t) {
                         p64(t);
                         t->sw = Swizzle::k64B;
                       }),
                  "swizzle");
  EXPECT_ACCEPTED(With(Tiled(), [&](Tiled* t) {
    p64(t);
    t->sw = Swizzle::k128BAtom32B;
  }));
  EXPECT_REJECTED(With(Tiled(),
                       [&](Tiled* t) {
                         p64(t);
                         t->type = DType::kB6x16P32;
                         t->sw = Swizzle::k128B;
                         t->rank = 3;
                         t->il = Interleave::k16B;
                       }),
                  "interleave");
  // b4x16: 16 elements per 8 bytes, so box[0] must be a multiple of 32.
  auto b4 = [](uint32_t b0) {
    return [b0](Tiled* t) {
      t->arch = Arch::kSm100;
      t->type = DType::kB4x16;
      t->box[0] = b0;
    };
  };
  EXPECT_REJECTED(With(Tiled(), b4(16)), "boxDim[0]");
  EXPECT_ACCEPTED(With(Tiled(), b4(32)));
  EXPECT_REJECTED(With(Tiled(),
                       [](Tiled* t) {
                         t->arch = Arch::kSm100;
                         t->type = DType::kB4x16;
                         t->box[0] = 32;
                         t->oob = OobFill::kNan;
                       }),
                  "oobFill");
}

TEST(EncoderSm103, Swizzle96B) {
  auto f = [](Arch a, uint32_t b0) {
    return [a, b0](Tiled* t) {
      t->arch = a;
      t->type = DType::kU8;
      t->sw = Swizzle::k96B;
      t->box[0] = b0;
    };
  };
  EXPECT_REJECTED(With(Tiled(), f(Arch::kSm90, 96)), "swizzle");
  EXPECT_REJECTED(With(Tiled(), f(Arch::kSm100, 96)), "swizzle");
  EXPECT_ACCEPTED(With(Tiled(), f(Arch::kSm103, 96)));
  EXPECT_REJECTED(With(Tiled(), f(Arch::kSm103, 112)), "boxDim[0]");
}

TEST(EncoderIm2colWide, Rules) {
  EXPECT_REJECTED(With(Wide(), [](Wide* w) { w->arch = Arch::kSm90; }), "arch");
  EXPECT_REJECTED(With(Wide(), [](Wide* w) { w->sw = Swizzle::kNone; }), "swizzle");
  EXPECT_REJECTED(With(Wide(),
                       [](Wide* w) {
                         w->sw = Swizzle::k32B;
                         w->cpp = 16;  // 32 B: only the swizzle mode is wrong
                       }),
                  "swizzle");
  EXPECT_REJECTED(With(Wide(), [](Wide* w) { w->sw = Swizzle::k128BAtom32BFlip8B; }), "swizzle");
  EXPECT_ACCEPTED(With(Wide(), [](Wide* w) {
    w->sw = Swizzle::k64B;
    w->cpp = 32;
  }));
  EXPECT_ACCEPTED(With(Wide(), [](Wide* w) { w->sw = Swizzle::k128BAtom32B; }));
  EXPECT_REJECTED(With(Wide(), [](Wide* w) { w->il = Interleave::k16B; }), "interleave");
  EXPECT_REJECTED(With(Wide(), [](Wide* w) { w->mode = static_cast<WideMode>(2); }), "mode");
  EXPECT_REJECTED(With(Wide(), [](Wide* w) { w->lower = -32769; }), "pixelBoxLowerCornerWidth");
  EXPECT_ACCEPTED(With(Wide(), [](Wide* w) { w->lower = -32768; }));
  EXPECT_REJECTED(With(Wide(), [](Wide* w) { w->upper = 32768; }), "pixelBoxUpperCornerWidth");
  EXPECT_REJECTED(With(Wide(),
                       [](Wide* w) {
                         w->lower = 600;
                         w->upper = -400;
                       }),
                  "pixelBoxLowerCornerWidth");  // 1000 - 400 - 600 = 0
  EXPECT_ACCEPTED(With(Wide(), [](Wide* w) {
    w->lower = 600;
    w->upper = -399;
  }));
  EXPECT_REJECTED(With(Wide(), [](Wide* w) { w->ppc = 1025; }), "pixelsPerColumn");
  EXPECT_REJECTED(With(Wide(), [](Wide* w) { w->cpp = 72; }), "channelsPerPixel");  // 144 B
  // 96B: sm_103 with mode W only.
  EXPECT_ACCEPTED(With(Wide(), [](Wide* w) {
    w->arch = Arch::kSm103;
    w->sw = Swizzle::k96B;
    w->cpp = 48;
  }));
  EXPECT_REJECTED(With(Wide(),
                       [](Wide* w) {
                         w->arch = Arch::kSm103;
                         w->sw = Swizzle::k96B;
                         w->cpp = 48;
                         w->mode = WideMode::kW128;
                       }),
                  "swizzle");
}

TEST(EncoderIm2colWide, W128IgnoresPixelsPerColumn) {
  Wide w;
  w.mode = WideMode::kW128;
  w.ppc = 5000;
  DescriptorBytes d;
  ASSERT_TRUE(w.Encode(&d).ok());
  TensorMap m;
  ASSERT_TRUE(DecodeDescriptor(d.data(), &m).ok());
  EXPECT_EQ(m.mode, MapMode::kIm2colWide);
  EXPECT_EQ(m.wide_mode, WideMode::kW128);
  EXPECT_EQ(m.pixels_per_column, 128u);
  EXPECT_EQ(m.lower[0], -1);
  EXPECT_EQ(m.channels_per_pixel, 64u);
}

TEST(EncoderArch, ParseArch) {
  EXPECT_EQ(ParseArch("sm_90"), Arch::kSm90);
  EXPECT_EQ(ParseArch("sm_90a"), Arch::kSm90);
  EXPECT_EQ(ParseArch("sm_100a"), Arch::kSm100);
  EXPECT_EQ(ParseArch("sm_100f"), Arch::kSm100);
  EXPECT_EQ(ParseArch("sm_103a"), Arch::kSm103);
  EXPECT_FALSE(ParseArch("sm_80").has_value());
  EXPECT_FALSE(ParseArch("sm_120a").has_value());
  EXPECT_STREQ(ToString(Arch::kSm103), "sm_103");
}

}  // namespace
}  // namespace tma::model
