// SPDX-License-Identifier: Apache-2.0
//
// SwizzleAddress against the PTX 5.5.7 tables and the worked example of tensor-semantics 4.4.
#include "tma/swizzle.h"

#include <cstdint>
#include <set>

#include <gtest/gtest.h>

namespace tma::model {
namespace {

// Physical 16-byte chunk (0..7 inside the 128-byte line) of logical chunk c on line l.
uint32_t ChunkOf(uint32_t l, uint32_t c, Swizzle s) {
  return (SwizzleAddress(l * 128 + c * 16, s) % 128) / 16;
}

TEST(Swizzle, Spans) {
  EXPECT_EQ(SwizzleSpanBytes(Swizzle::kNone), 0u);
  EXPECT_EQ(SwizzleSpanBytes(Swizzle::k32B), 32u);
  EXPECT_EQ(SwizzleSpanBytes(Swizzle::k64B), 64u);
  EXPECT_EQ(SwizzleSpanBytes(Swizzle::k128B), 128u);
  EXPECT_EQ(SwizzleSpanBytes(Swizzle::k128BAtom32B), 128u);
  EXPECT_EQ(SwizzleSpanBytes(Swizzle::k128BAtom32BFlip8B), 128u);
  EXPECT_EQ(SwizzleSpanBytes(Swizzle::k128BAtom64B), 128u);
  EXPECT_EQ(SwizzleSpanBytes(Swizzle::k96B), 96u);
}

TEST(Swizzle, WorkedExample44) {
  EXPECT_EQ(SwizzleAddress(0x994, Swizzle::k128B), 0x9A4u);  // dst 0x800, element (10,3)
  EXPECT_EQ(SwizzleAddress(0xA14, Swizzle::k128B), 0xA54u);  // dst 0x880
}

TEST(Swizzle, PtxTables16ByteAtoms) {
  const uint32_t row1_32[8] = {1, 0, 3, 2, 5, 4, 7, 6};
  for (uint32_t c = 0; c < 8; ++c) {
    EXPECT_EQ(ChunkOf(0, c, Swizzle::k32B), c);
    EXPECT_EQ(ChunkOf(1, c, Swizzle::k32B), row1_32[c]);
    EXPECT_EQ(ChunkOf(3, c, Swizzle::k32B), row1_32[c]);  // repeats every 2 lines
    EXPECT_EQ(ChunkOf(1, c, Swizzle::k96B), row1_32[c]);  // [INF] same pattern
    for (uint32_t l = 0; l < 16; ++l) {
      EXPECT_EQ(ChunkOf(l, c, Swizzle::k64B), c ^ (l % 4));
      EXPECT_EQ(ChunkOf(l, c, Swizzle::k128B), c ^ (l % 8));
      EXPECT_EQ(ChunkOf(l, c, Swizzle::kNone), c);
    }
  }
  // Bytes inside a 16-byte chunk never move.
  EXPECT_EQ(SwizzleAddress(128 + 16 + 5, Swizzle::k128B), 128u + 0u + 5u);
}

TEST(Swizzle, Atom128Variants) {
  // [INF from the PTX table] 32B atoms: row r holds 32-byte pair p ^ (r mod 4).
  for (uint32_t l = 0; l < 8; ++l) {
    for (uint32_t c = 0; c < 8; ++c) {
      const uint32_t pair = (c / 2) ^ (l % 4);
      EXPECT_EQ(ChunkOf(l, c, Swizzle::k128BAtom32B), pair * 2 + c % 2);
      // 64B atoms: halves swapped on odd lines.
      EXPECT_EQ(ChunkOf(l, c, Swizzle::k128BAtom64B), (l % 2) ? c ^ 4 : c);
    }
    // 32B atoms + 8-byte flip: the two 8-byte halves of a chunk swap on odd lines.
    const uint32_t a = l * 128 + 2 * 16 + 3;  // chunk 2, byte 3
    const uint32_t want_chunk = ((2 / 2) ^ (l % 4)) * 2;
    EXPECT_EQ(SwizzleAddress(a, Swizzle::k128BAtom32BFlip8B),
              l * 128 + want_chunk * 16 + ((l % 2) ? 11u : 3u));
  }
}

TEST(Swizzle, InvolutionAndBijectionOnEveryRepeat) {
  for (Swizzle s :
       {Swizzle::kNone, Swizzle::k32B, Swizzle::k64B, Swizzle::k128B, Swizzle::k128BAtom32B,
        Swizzle::k128BAtom32BFlip8B, Swizzle::k128BAtom64B, Swizzle::k96B}) {
    for (uint32_t base : {0u, 1024u, 0x7C00u}) {
      std::set<uint32_t> seen;
      for (uint32_t a = base; a < base + 1024; ++a) {
        const uint32_t p = SwizzleAddress(a, s);
        EXPECT_EQ(SwizzleAddress(p, s), a);
        EXPECT_EQ(p / 128, a / 128);  // stays in its 128-byte line
        seen.insert(p);
      }
      EXPECT_EQ(seen.size(), 1024u);
    }
  }
}

}  // namespace
}  // namespace tma::model
