// SPDX-License-Identifier: Apache-2.0
//
// Unit tests of engine blocks: the swizzle unit (tma_swizzle) against
// tma::model::SwizzleAddress for every mode and three data widths; the burst splitter
// (tma_burst_split) against the AXI4 rules (contiguous cover, <= MaxBurstLen, no 4 KiB
// crossing) with random requests and random AR backpressure, and its one-burst-per-cycle rate;
// the RAM FIFO (tma_fifo_ram) against a queue; the read watchdog (tma_rd_watchdog, Watchdog 8)
// on directed silences, late beats and other IDs' beats.

#include <cstdint>
#include <deque>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "tma/swizzle.h"
#include "tma/types.h"

#include "Vtma_burst_split_db16.h"
#include "Vtma_burst_split_db64.h"
#include "Vtma_fifo_ram_d1.h"
#include "Vtma_fifo_ram_d1_noreg.h"
#include "Vtma_fifo_ram_d2_inreg_noreg.h"
#include "Vtma_fifo_ram_d4.h"
#include "Vtma_fifo_ram_d4_inreg.h"
#include "Vtma_fifo_ram_d4_noreg.h"
#include "Vtma_rd_watchdog_all.h"
#include "Vtma_rd_watchdog_burst.h"
#include "Vtma_swizzle_db128.h"
#include "Vtma_swizzle_db16.h"
#include "Vtma_swizzle_db32.h"
#include "sim/autogen/tma_structs.h"
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

template <class Model>
void DriveReq(Model* m, uint64_t addr, uint32_t beats) {
  tma::pkg::rd_req_t r;
  r.addr = addr;
  r.nbeats = static_cast<uint16_t>(beats);
  tma::pkg::Pack(r, m->req_i.data());
}

struct Burst {
  uint64_t addr;
  uint32_t len;
};
template <class Model>
Burst ReadAr(const Model& m) {
  const auto ar = tma::pkg::Unpack<tma::pkg::ar_t>(m.ar_o.data());
  return Burst{ar.addr, ar.len};
}

// Random requests and AR backpressure: the bursts cover every accepted request in order,
// contiguously, with <= MaxBurstLen beats and without crossing 4 KiB.
template <class Model, int kDataBytes, int kMaxBurst>
void CheckBurstSplit(uint32_t seed) {
  VerilatedDut<Model> dut(seed);
  dut.Reset();
  std::mt19937 rng(seed);
  struct Req {
    uint64_t addr;
    uint32_t beats;
  };
  std::deque<Req> pending;
  for (int i = 0; i < 300; ++i) {
    Req r;
    r.addr = (static_cast<uint64_t>(rng()) << 12 | (rng() & 0xFFF)) & ~uint64_t{kDataBytes - 1};
    if (i % 3 == 0)
      r.addr |= 0xFFFFFFFF00000000ull;  // high addresses: 64-bit arithmetic
    if (i % 7 == 0)
      r.addr |= 0xFFFFFFFFFFFFF000ull;  // the last page: the page number carries through
    r.beats = 1 + rng() % (2048 / kDataBytes + 1);
    pending.push_back(r);
  }
  std::deque<Req> accepted;  // taken by the splitter, not yet covered by bursts
  int bursts = 0;
  bool held = false;  // a request offered and not taken stays offered (stream contract)
  for (int cycle = 0; cycle < 200000 && !(pending.empty() && accepted.empty()); ++cycle) {
    dut->req_valid_i = held || (!pending.empty() && (rng() % 4 != 0));
    if (!pending.empty())
      DriveReq(dut.operator->(), pending.front().addr, pending.front().beats);
    dut->ar_ready_i = rng() % 3 != 0;
    dut.Settle();
    if (dut->ar_valid_o && dut->ar_ready_i) {
      const Burst b = ReadAr(*dut.operator->());
      ASSERT_FALSE(accepted.empty()) << "burst without request";
      Req& f = accepted.front();
      EXPECT_EQ(b.addr, f.addr);
      EXPECT_LE(b.len + 1, static_cast<uint32_t>(kMaxBurst));
      EXPECT_LE(b.len + 1, f.beats);
      EXPECT_LE(b.addr % 4096 + (b.len + 1) * kDataBytes, 4096u) << "4 KiB crossed";
      f.addr += (b.len + 1) * kDataBytes;
      f.beats -= b.len + 1;
      if (f.beats == 0)
        accepted.pop_front();
      ++bursts;
    }
    held = dut->req_valid_i && !dut->req_ready_o;
    if (dut->req_valid_i && dut->req_ready_o) {
      accepted.push_back(pending.front());
      pending.pop_front();
    }
    dut.Cycle();
  }
  EXPECT_TRUE(pending.empty());
  EXPECT_TRUE(accepted.empty());
  EXPECT_GT(bursts, 300);
  EXPECT_FALSE(dut.GotError());
}

// Requests that fit one burst each (inside a page, <= MaxBurstLen beats), a source that is
// always valid and an always-ready AR channel: one burst per cycle after the pipeline fills.
template <class Model, int kDataBytes, int kMaxBurst>
void CheckBurstRate() {
  VerilatedDut<Model> dut(1);
  dut.Reset();
  constexpr int kReqs = 200;
  int sent = 0, bursts = 0, first = -1, last = -1;
  for (int cycle = 0; cycle < 10 * kReqs && bursts < kReqs; ++cycle) {
    const uint32_t beats = 1 + static_cast<uint32_t>(sent) % kMaxBurst;
    dut->req_valid_i = sent < kReqs;
    DriveReq(dut.operator->(), 0x10000ull * static_cast<uint64_t>(sent + 1), beats);
    dut->ar_ready_i = 1;
    dut.Settle();
    if (dut->ar_valid_o) {
      if (first < 0)
        first = cycle;
      last = cycle;
      ++bursts;
    }
    if (dut->req_valid_i && dut->req_ready_o)
      ++sent;
    dut.Cycle();
  }
  EXPECT_EQ(bursts, kReqs);
  EXPECT_EQ(last - first + 1, kReqs) << "not one burst per cycle";
  EXPECT_FALSE(dut.GotError());
}

TEST(EngineBurstSplit, AxiRulesDb16Len16) {
  CheckBurstSplit<Vtma_burst_split_db16, 16, 16>(5);
}
TEST(EngineBurstSplit, AxiRulesDb64Len4) {
  CheckBurstSplit<Vtma_burst_split_db64, 64, 4>(6);
}
TEST(EngineBurstSplit, OneBurstPerCycleDb16) {
  CheckBurstRate<Vtma_burst_split_db16, 16, 16>();
}
TEST(EngineBurstSplit, OneBurstPerCycleDb64) {
  CheckBurstRate<Vtma_burst_split_db64, 64, 4>();
}

// tma_fifo_ram against a queue: random valid/ready on both sides; order kept, nothing lost,
// in_ready low only with Depth items in the RAM (or Depth - 1 in the cycle after a read: the
// write side sees a read a cycle late), full rate with both sides always active.
// kOutReg: the fabric register after the RAM read register (parameter OutReg); kInReg: the
// staging register in front of the RAM (parameter InReg: one entry is kept for the staged
// item, so the input closes with Depth - 1 counted items, the staged one on top).
template <class Model, int kDepth, int kOutReg, int kInReg = 0>
void CheckFifoRam(uint32_t seed) {
  VerilatedDut<Model> dut(seed);
  dut.Reset();
  std::mt19937 rng(seed);
  std::deque<uint32_t> ref;
  uint32_t next_in = 1;
  int popped = 0;
  bool held = false;  // an item offered and not taken stays offered (stream contract)
  for (int cycle = 0; cycle < 20000; ++cycle) {
    const bool burst_phase = (cycle / 1000) % 2 == 1;  // both sides always active
    dut->in_valid_i = held || burst_phase || rng() % 3 != 0;
    dut->in_data_i = next_in & 0xFFFF;
    dut->out_ready_i = burst_phase || rng() % 3 != 0;
    dut.Settle();
    // The FIFO refuses input only with Depth items in the RAM, or Depth - 1 and the item
    // read in the previous cycle in the read register; beyond them it holds the one in the
    // read register and, with OutReg, the one on the output. Without OutReg the read register
    // is the output, so in the second case the output's item is one of the Depth.
    if (!dut->in_ready_o) {
      EXPECT_GE(ref.size() + (kOutReg ? 0 : 1) + kInReg,
                static_cast<size_t>(kDepth) + (dut->out_valid_o ? 1 : 0));
      EXPECT_LE(ref.size(), static_cast<size_t>(kDepth + 1 + kOutReg + kInReg));
    }
    EXPECT_EQ(static_cast<bool>(dut->nonempty_o), !ref.empty());
    if (dut->out_valid_o && dut->out_ready_i) {
      ASSERT_FALSE(ref.empty());
      EXPECT_EQ(dut->out_data_o, ref.front());
      ref.pop_front();
      ++popped;
    }
    held = dut->in_valid_i && !dut->in_ready_o;
    if (dut->in_valid_i && dut->in_ready_o) {
      ref.push_back(next_in & 0xFFFF);
      ++next_in;
    }
    dut.Cycle();
  }
  // Full rate (Depth >= 2; with InReg Depth >= 4) half of the time. Depth 1 moves one item
  // every three cycles (a push, the read a cycle later, the write side sees the read a cycle
  // after that); Depth 2 with InReg two items every five (a write is counted two cycles after
  // its push, a read a cycle late, and one entry is kept for the staged item).
  EXPECT_GT(popped, kDepth >= 2 + 2 * kInReg ? 12000 : 5000) << "the FIFO moved too little";
  EXPECT_FALSE(dut.GotError());
}

TEST(EngineFifoRam, QueueDepth4) {
  CheckFifoRam<Vtma_fifo_ram_d4, 4, 1>(7);
}
TEST(EngineFifoRam, QueueDepth1) {
  CheckFifoRam<Vtma_fifo_ram_d1, 1, 1>(8);
}
TEST(EngineFifoRam, QueueDepth4NoOutReg) {
  CheckFifoRam<Vtma_fifo_ram_d4_noreg, 4, 0>(9);
}
TEST(EngineFifoRam, QueueDepth4InReg) {
  CheckFifoRam<Vtma_fifo_ram_d4_inreg, 4, 1, 1>(11);
}
TEST(EngineFifoRam, QueueDepth2InRegNoOutReg) {
  CheckFifoRam<Vtma_fifo_ram_d2_inreg_noreg, 2, 0, 1>(12);
}
TEST(EngineFifoRam, QueueDepth1NoOutReg) {
  CheckFifoRam<Vtma_fifo_ram_d1_noreg, 1, 0>(10);
}

// ---- Read watchdog (tma_rd_watchdog, Watchdog 8) ----
// The harness plays the read engine: each cycle it sets the R channel's state (a beat, of
// this ID, last) and the consumer takes what is offered (take_i: an error beat when inj_o, a
// port beat of the ID when neither inj_o nor drop_o). Expected values follow from the
// module's rule: a cycle with beats owed (from the cycle after their AR), no error beat to
// offer and an empty R channel is counted; a beat of the ID clears the count, a beat of
// another ID holds it; the timeout comes in the cycle after Watchdog - 1 = 7 counted cycles.
template <class Model>
class WatchdogBench {
 public:
  WatchdogBench() : dut_(5) {
    Idle();
    dut_.Reset();
  }
  void Idle() {
    dut_->ar_fire_i = 0;
    dut_->ar_len_i = 0;
    dut_->r_valid_i = 0;
    dut_->r_mine_i = 0;
    dut_->r_last_i = 0;
    dut_->take_i = 0;
  }
  // One cycle: an AR of `len` (when len >= 0), the R channel's beat (0 none, 1 of this ID, 2
  // of another ID), the consumer taking what is offered. Returns what was offered: 'E' an
  // error beat, 'D' a dropped late beat, 'B' a port beat passed on, '-' nothing; counts
  // timeouts.
  char Step(int len = -1, int beat = 0, bool last = false) {
    Idle();
    dut_->ar_fire_i = len >= 0;
    dut_->ar_len_i = static_cast<uint8_t>(len < 0 ? 0 : len);
    dut_->r_valid_i = beat != 0;
    dut_->r_mine_i = beat == 1;
    dut_->r_last_i = last;
    dut_.Settle();
    char got = '-';
    if (dut_->inj_o) {
      got = 'E';
    } else if (beat == 1 && dut_->drop_o) {
      got = 'D';
    } else if (beat == 1) {
      got = 'B';
    }
    dut_->take_i = got == 'E' || got == 'B';
    dut_.Settle();
    EXPECT_EQ(static_cast<bool>(dut_->busy_o), static_cast<bool>(dut_->inj_o));
    timeouts_ += dut_->timeout_o;
    dut_.Cycle();
    return got;
  }
  // `n` cycles of the same R channel state (0 empty, 2 a beat of another ID); the offers.
  std::string Run(int n, int beat = 0) {
    std::string s;
    for (int i = 0; i < n; ++i)
      s += Step(-1, beat);
    return s;
  }
  // `n` beats of the ID in a row, of bursts of `burst` beats (every burst-th is last).
  std::string Beats(int n, int burst) {
    std::string s;
    for (int i = 0; i < n; ++i)
      s += Step(-1, 1, (i + 1) % burst == 0);
    return s;
  }
  int timeouts() const { return timeouts_; }
  bool GotError() const { return dut_.GotError(); }

 private:
  VerilatedDut<Model> dut_;
  int timeouts_ = 0;
};

// PerBurst: a silent 4-beat burst times out alone; its 4 error beats come first; the next
// burst (2 beats) waits on; the late beats are dropped, then the next burst passes.
TEST(EngineRdWatchdog, PerBurstFailsOldestBurst) {
  WatchdogBench<Vtma_rd_watchdog_burst> b;
  b.Step(3);                      // AR: 4 beats (counted from the next cycle on)
  b.Step(1);                      // AR: 2 beats; counted 1
  EXPECT_EQ(b.Run(6), "------");  // counted 2 .. 7
  EXPECT_EQ(b.timeouts(), 0);
  EXPECT_EQ(b.Run(1), "-");  // the timeout
  EXPECT_EQ(b.timeouts(), 1);
  EXPECT_EQ(b.Run(5), "EEEE-");  // the oldest burst's 4 beats, no more
  // The slave answers late: its 4 beats are dropped, then the second burst's 2 pass.
  EXPECT_EQ(b.Beats(4, 4), "DDDD");
  EXPECT_EQ(b.Beats(2, 2), "BB");
  EXPECT_EQ(b.timeouts(), 1);
  // Nothing owed: silence never times out.
  EXPECT_EQ(b.Run(40), std::string(40, '-'));
  EXPECT_EQ(b.timeouts(), 1);
  EXPECT_FALSE(b.GotError());
}

// A burst partly answered fails only its remaining beats; beats of another ID hold the count
// (they neither count nor clear it), a beat of the ID clears it.
TEST(EngineRdWatchdog, PartlyAnsweredAndOtherIds) {
  WatchdogBench<Vtma_rd_watchdog_burst> b;
  b.Step(4);                                      // AR: 5 beats
  EXPECT_EQ(b.Beats(2, 5), "BB");                 // 2 of them
  EXPECT_EQ(b.Run(5), "-----");                   // 5 counted
  EXPECT_EQ(b.Run(30, 2), std::string(30, '-'));  // another ID's beats: held
  EXPECT_EQ(b.timeouts(), 0);
  EXPECT_EQ(b.Run(2), "--");  // counted 6, 7
  EXPECT_EQ(b.timeouts(), 0);
  EXPECT_EQ(b.Run(1), "-");  // the timeout
  EXPECT_EQ(b.timeouts(), 1);
  EXPECT_EQ(b.Run(4), "EEE-");       // the 3 beats left
  EXPECT_EQ(b.Beats(4, 3), "DDDB");  // 3 late beats dropped; a 4th beat is not owed ...
  EXPECT_TRUE(b.GotError());         // ... TakeMine_A: a beat passed on must be owed
}

// PerBurst 0: a timeout fails every owed beat (two bursts: 4 + 2).
TEST(EngineRdWatchdog, AllOwedFail) {
  WatchdogBench<Vtma_rd_watchdog_all> b;
  b.Step(3);
  b.Step(1);                       // counted 1
  EXPECT_EQ(b.Run(7), "-------");  // counted 2 .. 7, then the timeout
  EXPECT_EQ(b.timeouts(), 1);
  EXPECT_EQ(b.Run(7), "EEEEEE-");
  EXPECT_EQ(b.Beats(6, 4), "DDDDDD");  // (the bursts' last flags do not matter here)
  // A new burst after the late beats passes.
  b.Step(0);
  EXPECT_EQ(b.Beats(1, 1), "B");
  EXPECT_EQ(b.timeouts(), 1);
  EXPECT_FALSE(b.GotError());
}

}  // namespace
}  // namespace tma::tb
