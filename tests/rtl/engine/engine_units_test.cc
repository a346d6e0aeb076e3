// SPDX-License-Identifier: Apache-2.0
//
// Unit tests of engine blocks against the C++ model: the swizzle unit (tma_swizzle) against
// tma::model::SwizzleAddress for every mode and three data widths, and the burst splitter
// (tma_burst_split) against the AXI4 rules (contiguous cover, <= MaxBurstLen, no 4 KiB
// crossing) with random requests and random AR backpressure.

#include <cstdint>
#include <deque>
#include <random>

#include <gtest/gtest.h>

#include "tma/swizzle.h"
#include "tma/types.h"

#include "Vtma_burst_split_db16.h"
#include "Vtma_burst_split_db64.h"
#include "Vtma_swizzle_db128.h"
#include "Vtma_swizzle_db16.h"
#include "Vtma_swizzle_db32.h"
#include "verilated_dut.h"

namespace tma::tb {
namespace {

template <class W>
void SetByte(W& w, int byte, uint8_t v) {
  uint32_t& word = w[byte / 4];
  const int sh = (byte % 4) * 8;
  word = (word & ~(0xFFu << sh)) | (static_cast<uint32_t>(v) << sh);
}
template <class W>
uint8_t GetByte(const W& w, int byte) {
  return static_cast<uint8_t>(w[byte / 4] >> ((byte % 4) * 8));
}

// Every byte j of a logical beat at `addr` must land at SwizzleAddress(addr + j).
template <class Model, int kDataBytes>
void CheckSwizzle(uint32_t seed) {
  VerilatedContext ctx;
  Model m(&ctx, "swz");
  std::mt19937 rng(seed);
  int moved = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    const uint32_t addr = (rng() & 0xFFFFu) & ~static_cast<uint32_t>(kDataBytes - 1);
    const auto mode = static_cast<model::Swizzle>(rng() % 8);
    uint8_t data[kDataBytes];
    uint64_t strb_bits[2] = {rng() | (uint64_t{rng()} << 32), rng() | (uint64_t{rng()} << 32)};
    for (int j = 0; j < kDataBytes; ++j) {
      data[j] = static_cast<uint8_t>(rng());
      SetByte(m.data_i, j, data[j]);
    }
    for (int j = 0; j < kDataBytes / 8; ++j) {
      const uint8_t s = static_cast<uint8_t>(strb_bits[j / 8] >> ((j % 8) * 8));
      if constexpr (kDataBytes > 64) {
        SetByte(m.strb_i, j, s);
      } else {
        m.strb_i = (j == 0 ? 0 : m.strb_i) | (static_cast<uint64_t>(s) << (8 * j));
      }
    }
    m.addr_i = addr;
    m.mode_i = static_cast<uint8_t>(mode);
    m.eval();
    const uint32_t out = m.addr_o;
    for (int j = 0; j < kDataBytes; ++j) {
      const uint32_t phys = model::SwizzleAddress(addr + static_cast<uint32_t>(j), mode);
      ASSERT_EQ(phys & ~static_cast<uint32_t>(kDataBytes - 1), out)
          << "mode " << model::ToString(mode) << " addr " << addr << " byte " << j;
      const int lane = static_cast<int>(phys - out);
      ASSERT_EQ(GetByte(m.data_o, lane), data[j]) << "mode " << model::ToString(mode);
      const bool sin = (strb_bits[j / 64] >> (j % 64)) & 1;
      bool sout;
      if constexpr (kDataBytes > 64) {
        sout = (GetByte(m.strb_o, lane / 8) >> (lane % 8)) & 1;
      } else {
        sout = (static_cast<uint64_t>(m.strb_o) >> lane) & 1;
      }
      ASSERT_EQ(sout, sin) << "strobe of byte " << j;
      moved += (phys != addr + static_cast<uint32_t>(j));
    }
  }
  EXPECT_GT(moved, 1000) << "the swizzle moved almost nothing: the test checks little";
  m.final();
}

TEST(EngineSwizzle, MatchesModelDb16) {
  CheckSwizzle<Vtma_swizzle_db16, 16>(1);
}
TEST(EngineSwizzle, MatchesModelDb32) {
  CheckSwizzle<Vtma_swizzle_db32, 32>(2);
}
TEST(EngineSwizzle, MatchesModelDb128) {
  CheckSwizzle<Vtma_swizzle_db128, 128>(3);
}

template <class Model, int kDataBytes, int kMaxBurst>
void CheckBurstSplit(uint32_t seed) {
  VerilatedDut<Model> dut(seed);
  dut.Reset();
  std::mt19937 rng(seed);
  struct Req {
    uint64_t addr;
    uint32_t beats;
  };
  std::deque<Req> reqs;
  for (int i = 0; i < 300; ++i) {
    Req r;
    r.addr = (static_cast<uint64_t>(rng()) << 12 | (rng() & 0xFFF)) & ~uint64_t{kDataBytes - 1};
    if (i % 3 == 0)
      r.addr |= 0xFFFFFFFF00000000ull;  // high addresses: 64-bit arithmetic
    r.beats = 1 + rng() % (2048 / kDataBytes + 1);
    reqs.push_back(r);
  }
  std::deque<Req> pending = reqs;
  uint64_t expect_addr = 0;
  uint32_t left = 0;
  int bursts = 0;
  for (int cycle = 0; cycle < 200000 && !(pending.empty() && left == 0); ++cycle) {
    dut->req_valid_i = !pending.empty() && (rng() % 4 != 0);
    if (!pending.empty()) {
      // rd_req_t = {addr[63:0], nbeats[9:0]}: nbeats in the low bits, addr above.
      const unsigned __int128 packed =
          (static_cast<unsigned __int128>(pending.front().addr) << 10) | pending.front().beats;
      for (int w = 0; w < 3; ++w)
        dut->req_i[w] = static_cast<uint32_t>(packed >> (32 * w));
    }
    dut->ar_ready_i = rng() % 3 != 0;
    dut.Settle();
    if (dut->ar_valid_o && dut->ar_ready_i) {
      // ar_t = {addr[63:0], len[7:0]}: 72 bits, len in the low byte.
      const uint64_t addr = (static_cast<uint64_t>(dut->ar_o[0]) >> 8) |
                            (static_cast<uint64_t>(dut->ar_o[1]) << 24) |
                            (static_cast<uint64_t>(dut->ar_o[2]) << 56);
      const uint32_t len = dut->ar_o[0] & 0xFF;
      EXPECT_GT(left, 0u) << "burst without request";
      EXPECT_EQ(addr, expect_addr);
      EXPECT_LE(len + 1, static_cast<uint32_t>(kMaxBurst));
      EXPECT_LE(len + 1, left);
      EXPECT_LE(addr % 4096 + (len + 1) * kDataBytes, 4096u) << "4 KiB crossed";
      expect_addr = addr + (len + 1) * kDataBytes;
      left -= len + 1;
      ++bursts;
    }
    if (dut->req_valid_i && dut->req_ready_o) {
      EXPECT_EQ(left, 0u) << "new request before the previous one was fully split";
      expect_addr = pending.front().addr;
      left = pending.front().beats;
      pending.pop_front();
    }
    dut.Cycle();
  }
  EXPECT_TRUE(pending.empty());
  EXPECT_EQ(left, 0u);
  EXPECT_GT(bursts, 300);
  EXPECT_FALSE(dut.GotError());
}

TEST(EngineBurstSplit, AxiRulesDb16Len16) {
  CheckBurstSplit<Vtma_burst_split_db16, 16, 16>(5);
}
TEST(EngineBurstSplit, AxiRulesDb64Len4) {
  CheckBurstSplit<Vtma_burst_split_db64, 64, 4>(6);
}

}  // namespace
}  // namespace tma::tb
