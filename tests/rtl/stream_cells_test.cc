// SPDX-License-Identifier: Apache-2.0
//
// Verilator + GoogleTest checks of the stream cells tma_fifo, tma_spill_reg and tma_stream_arb,
// and of tma_dup_reg.
// Every cycle the outputs are compared with a C++ reference (a queue of the items the cell
// holds): data order and integrity, in_ready_o (the capacity), out_valid_o, usage_o. Sources
// and sinks stall at random; throughput, round-robin order and fairness are checked against
// values derived by hand from the cells' specification (see each test). Every test also
// requires that no SVA fired, and the *ContractBreak tests require that one does.

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "VArb3.h"
#include "VArb4NoLock.h"
#include "VDup3.h"
#include "VFifoD1.h"
#include "VFifoD1Ft.h"
#include "VFifoD1Fw.h"
#include "VFifoD3.h"
#include "VFifoD3Ft.h"
#include "VFifoD3Fw.h"
#include "VFifoD4.h"
#include "VSpill.h"
#include "VSpillBypass.h"
#include "VSpillCopies.h"
#include "verilated_dut.h"

namespace tma::tb {
namespace {

// What the reference needs to know about a one-in, one-out cell.
struct CellSpec {
  unsigned width;       // payload bits
  unsigned capacity;    // items it holds (0: wires)
  bool fall_through;    // an item entering an empty cell is on the output in the same cycle
  bool has_fifo_ports;  // clr_i and usage_o exist
};

constexpr CellSpec kFifoD1{16, 1, false, true};
constexpr CellSpec kFifoD1Ft{16, 1, true, true};
constexpr CellSpec kFifoD3{16, 3, false, true};
constexpr CellSpec kFifoD3Ft{16, 3, true, true};
constexpr CellSpec kFifoD4{64, 4, false, true};
constexpr CellSpec kSpill{64, 2, false, false};  // A and B registers, output from flops
constexpr CellSpec kSpillBypass{64, 0, true, false};

uint64_t Mask(unsigned width) {
  return width >= 64 ? ~0ull : (1ull << width) - 1;
}

struct StreamStats {
  unsigned pushes = 0;
  unsigned pops = 0;
  unsigned clears = 0;
  unsigned max_stored = 0;
};

// Drives a one-in, one-out cell for `cycles` cycles (or until `items` items went through):
// the source raises valid with probability p_valid and then holds valid and data until the
// handshake; the sink is ready with probability p_ready; clr_i pulses with probability p_clr.
// Every cycle checks the cell against the reference queue. Returns the handshake counts.
template <class Model>
void RunStreamInto(const CellSpec& spec, uint32_t seed, double p_valid, double p_ready,
                   unsigned cycles, unsigned items, double p_clr, StreamStats* out) {
  VerilatedDut<Model> dut(seed);
  std::mt19937_64 rng(seed);
  std::bernoulli_distribution valid_dist(p_valid), ready_dist(p_ready), clr_dist(p_clr);
  const uint64_t mask = Mask(spec.width);

  dut->in_valid_i = 0;
  dut->in_data_i = 0;
  dut->out_ready_i = 0;
  if constexpr (std::is_same_v<Model, VFifoD1> || std::is_same_v<Model, VFifoD1Ft> ||
                std::is_same_v<Model, VFifoD3> || std::is_same_v<Model, VFifoD3Ft> ||
                std::is_same_v<Model, VFifoD4> || std::is_same_v<Model, VFifoD1Fw> ||
                std::is_same_v<Model, VFifoD3Fw>) {
    dut->clr_i = 0;
  }
  dut.Reset();

  std::deque<uint64_t> stored;  // items pushed in earlier cycles and not popped yet
  StreamStats& stats = *out;
  bool src_valid = false;
  uint64_t src_data = 0;
  unsigned sent = 0;
  for (unsigned cyc = 0; cyc < cycles && stats.pops < items; ++cyc) {
    if (!src_valid && sent < items && valid_dist(rng)) {
      src_valid = true;
      src_data = rng() & mask;
    }
    const bool ready = ready_dist(rng);
    bool clr = false;
    dut->in_valid_i = src_valid;
    dut->in_data_i = src_data;
    dut->out_ready_i = ready;
    if constexpr (std::is_same_v<Model, VFifoD1> || std::is_same_v<Model, VFifoD1Ft> ||
                  std::is_same_v<Model, VFifoD3> || std::is_same_v<Model, VFifoD3Ft> ||
                  std::is_same_v<Model, VFifoD4> || std::is_same_v<Model, VFifoD1Fw> ||
                  std::is_same_v<Model, VFifoD3Fw>) {
      clr = clr_dist(rng);
      dut->clr_i = clr;
    }
    dut.Settle();

    // Reference outputs for this cycle.
    bool exp_in_ready, exp_out_valid;
    uint64_t exp_out_data = 0;
    if (spec.capacity == 0) {
      exp_in_ready = ready;
      exp_out_valid = src_valid;
      exp_out_data = src_data;
    } else {
      exp_in_ready = !clr && stored.size() < spec.capacity;
      exp_out_valid = !clr && (!stored.empty() || (spec.fall_through && src_valid));
      exp_out_data = stored.empty() ? src_data : stored.front();
    }
    ASSERT_EQ(static_cast<bool>(dut->in_ready_o), exp_in_ready) << "cycle " << cyc;
    ASSERT_EQ(static_cast<bool>(dut->out_valid_o), exp_out_valid) << "cycle " << cyc;
    if (exp_out_valid) {
      ASSERT_EQ(static_cast<uint64_t>(dut->out_data_o), exp_out_data) << "cycle " << cyc;
    }
    if constexpr (std::is_same_v<Model, VFifoD1> || std::is_same_v<Model, VFifoD1Ft> ||
                  std::is_same_v<Model, VFifoD3> || std::is_same_v<Model, VFifoD3Ft> ||
                  std::is_same_v<Model, VFifoD4> || std::is_same_v<Model, VFifoD1Fw> ||
                  std::is_same_v<Model, VFifoD3Fw>) {
      ASSERT_EQ(static_cast<unsigned>(dut->usage_o), stored.size()) << "cycle " << cyc;
    }

    // Handshakes at the coming edge, applied to the reference.
    const bool push = src_valid && exp_in_ready;
    const bool pop = exp_out_valid && ready;
    if (push) {
      stored.push_back(src_data);
      src_valid = false;
      ++sent;
      ++stats.pushes;
    }
    if (pop) {
      stored.pop_front();
      ++stats.pops;
    }
    if (clr) {
      stored.clear();
      ++stats.clears;
    }
    if (spec.capacity == 0) {
      stored.clear();  // wires hold nothing
    }
    stats.max_stored = std::max<unsigned>(stats.max_stored, stored.size());
    dut.Cycle();
  }
  EXPECT_FALSE(dut.GotError()) << "an SVA fired";
}

template <class Model>
StreamStats RunStream(const CellSpec& spec, uint32_t seed, double p_valid, double p_ready,
                      unsigned cycles, unsigned items, double p_clr = 0.0) {
  StreamStats stats;
  RunStreamInto<Model>(spec, seed, p_valid, p_ready, cycles, items, p_clr, &stats);
  return stats;
}

// Random stalls on both sides, several seeds and duty cycles: every item arrives, in order,
// and the cell's ready/valid/usage match the reference every cycle.
template <class Model>
void RandomStalls(const CellSpec& spec) {
  const double duty[] = {0.25, 0.6, 1.0};
  uint32_t seed = 1;
  for (double pv : duty) {
    for (double pr : duty) {
      const StreamStats s = RunStream<Model>(spec, seed++, pv, pr, 20000, 400);
      EXPECT_EQ(s.pops, 400u) << "p_valid " << pv << " p_ready " << pr;
      if (spec.capacity > 0 && pv >= 0.6 && pr <= 0.25) {
        EXPECT_EQ(s.max_stored, spec.capacity) << "the cell never filled";
      }
    }
  }
}

// Always-valid source, always-ready sink, 200 cycles. Hand derivation: a cell that is never
// full takes an item every cycle (200 pushes) and, with one cycle of latency, delivers 199
// (200 with fall-through). A non-fall-through FIFO of depth 1 is full every other cycle and
// in_ready_o ignores out_ready_i, so it takes and delivers one item every two cycles.
template <class Model>
void Throughput(const CellSpec& spec, unsigned exp_pushes, unsigned exp_pops) {
  const StreamStats s = RunStream<Model>(spec, 7, 1.0, 1.0, 200, 1000);
  EXPECT_EQ(s.pushes, exp_pushes);
  EXPECT_EQ(s.pops, exp_pops);
}

// Sink stalled, source always valid: the cell takes exactly `capacity` items.
template <class Model>
void Capacity(const CellSpec& spec) {
  const StreamStats s = RunStream<Model>(spec, 3, 1.0, 0.0, 12, 100);
  EXPECT_EQ(s.pushes, spec.capacity);
  EXPECT_EQ(s.pops, 0u);
}

TEST(Fifo, RandomStallsDepth1) {
  RandomStalls<VFifoD1>(kFifoD1);
}
TEST(Fifo, RandomStallsDepth1FallThrough) {
  RandomStalls<VFifoD1Ft>(kFifoD1Ft);
}
TEST(Fifo, RandomStallsDepth3) {
  RandomStalls<VFifoD3>(kFifoD3);
}
TEST(Fifo, RandomStallsDepth3FallThrough) {
  RandomStalls<VFifoD3Ft>(kFifoD3Ft);
}
TEST(Fifo, RandomStallsDepth4Width64) {
  RandomStalls<VFifoD4>(kFifoD4);
}

// FlopWrEn (entries load at the write pointer whenever not full): same items, same cycles.
TEST(Fifo, RandomStallsDepth1FlopWrEn) {
  RandomStalls<VFifoD1Fw>(kFifoD1);
}
TEST(Fifo, RandomStallsDepth3FlopWrEn) {
  RandomStalls<VFifoD3Fw>(kFifoD3);
}
TEST(Fifo, ThroughputDepth3FlopWrEn) {
  Throughput<VFifoD3Fw>(kFifoD3, 200, 199);
}
TEST(Fifo, CapacityDepth3FlopWrEn) {
  Capacity<VFifoD3Fw>(kFifoD3);
}

TEST(Fifo, ThroughputDepth1IsHalf) {
  Throughput<VFifoD1>(kFifoD1, 100, 100);
}
TEST(Fifo, ThroughputDepth1FallThrough) {
  Throughput<VFifoD1Ft>(kFifoD1Ft, 200, 200);
}
TEST(Fifo, ThroughputDepth3) {
  Throughput<VFifoD3>(kFifoD3, 200, 199);
}
TEST(Fifo, ThroughputDepth3FallThrough) {
  Throughput<VFifoD3Ft>(kFifoD3Ft, 200, 200);
}
TEST(Fifo, ThroughputDepth4) {
  Throughput<VFifoD4>(kFifoD4, 200, 199);
}

TEST(Fifo, CapacityDepth1) {
  Capacity<VFifoD1>(kFifoD1);
}
TEST(Fifo, CapacityDepth1FallThrough) {
  Capacity<VFifoD1Ft>(kFifoD1Ft);
}
TEST(Fifo, CapacityDepth3) {
  Capacity<VFifoD3>(kFifoD3);
}
TEST(Fifo, CapacityDepth3FallThrough) {
  Capacity<VFifoD3Ft>(kFifoD3Ft);
}
TEST(Fifo, CapacityDepth4) {
  Capacity<VFifoD4>(kFifoD4);
}

// Random flushes in a random stream: the reference drops everything on clr_i, and no item
// from before a flush may come out after it.
TEST(Fifo, ClearFlushesDepth3) {
  const StreamStats s = RunStream<VFifoD3>(kFifoD3, 11, 0.7, 0.4, 4000, 100000, 0.05);
  EXPECT_GT(s.clears, 50u);
  EXPECT_GT(s.pops, 500u);
}
TEST(Fifo, ClearFlushesDepth3FallThrough) {
  const StreamStats s = RunStream<VFifoD3Ft>(kFifoD3Ft, 12, 0.7, 0.4, 4000, 100000, 0.05);
  EXPECT_GT(s.clears, 50u);
  EXPECT_GT(s.pops, 500u);
}

// Directed flush: three items in a stalled depth-3 FIFO, one clr_i cycle, then one new item.
TEST(Fifo, ClearDirected) {
  VerilatedDut<VFifoD3> dut(5);
  dut->clr_i = 0;
  dut->out_ready_i = 0;
  dut->in_valid_i = 0;
  dut.Reset();
  for (uint16_t v : {0x111, 0x222, 0x333}) {
    dut->in_valid_i = 1;
    dut->in_data_i = v;
    dut.Settle();
    ASSERT_TRUE(dut->in_ready_o);
    dut.Cycle();
  }
  dut->in_valid_i = 1;
  dut->in_data_i = 0x444;
  dut.Settle();
  EXPECT_FALSE(dut->in_ready_o);  // full
  EXPECT_EQ(dut->usage_o, 3);
  dut->clr_i = 1;
  dut->out_ready_i = 1;
  dut.Settle();
  EXPECT_FALSE(dut->in_ready_o);  // no handshake during a flush
  EXPECT_FALSE(dut->out_valid_o);
  dut.Cycle();
  dut->clr_i = 0;
  dut.Settle();
  EXPECT_EQ(dut->usage_o, 0);
  EXPECT_FALSE(dut->out_valid_o);
  EXPECT_TRUE(dut->in_ready_o);
  dut.Cycle();  // 0x444 goes in
  dut->in_valid_i = 0;
  dut.Settle();
  EXPECT_TRUE(dut->out_valid_o);
  EXPECT_EQ(dut->out_data_o, 0x444);
  dut.Cycle();
  dut.Settle();
  EXPECT_FALSE(dut->out_valid_o);
  EXPECT_FALSE(dut.GotError());
}

TEST(SpillReg, RandomStalls) {
  RandomStalls<VSpill>(kSpill);
}
TEST(SpillReg, RandomStallsBypass) {
  RandomStalls<VSpillBypass>(kSpillBypass);
}
TEST(SpillReg, Throughput) {
  Throughput<VSpill>(kSpill, 200, 199);
}
TEST(SpillReg, ThroughputBypass) {
  Throughput<VSpillBypass>(kSpillBypass, 200, 200);
}
TEST(SpillReg, CapacityIsTwo) {
  Capacity<VSpill>(kSpill);
}
// Copies = 5: five data slices of 13, 13, 13, 13 and 12 bits, each with its own flag copies;
// the same stream behaviour as one slice (the copies' assertion checks them every cycle).
TEST(SpillReg, CopiesRandomStalls) {
  RandomStalls<VSpillCopies>(kSpill);
}
TEST(SpillReg, CopiesThroughput) {
  Throughput<VSpillCopies>(kSpill, 200, 199);
}
TEST(SpillReg, CopiesCapacityIsTwo) {
  Capacity<VSpillCopies>(kSpill);
}

// The spill register cuts the ready path: in_ready_o does not follow out_ready_i within a
// cycle (it is a function of the two full flags only).
TEST(SpillReg, ReadyIsRegistered) {
  VerilatedDut<VSpill> dut(9);
  dut->in_valid_i = 1;
  dut->in_data_i = 0xabcdef0123456789ull;
  dut->out_ready_i = 0;
  dut.Reset();
  dut.Cycle();  // A full
  dut.Cycle();  // A -> B, A full again
  for (int r : {0, 1, 0, 1}) {
    dut->out_ready_i = r;
    dut.Settle();
    EXPECT_FALSE(dut->in_ready_o) << "out_ready_i " << r;
  }
  EXPECT_FALSE(dut.GotError());
}

// ---- Kept register copies ----

// tma_dup_reg with Copies = 3 and ResetVal = 1: every copy holds the reset value after reset
// and the input of the previous edge after each clock edge (three bits, all equal).
TEST(DupReg, CopiesFollowTheInput) {
  VerilatedDut<VDup3> dut(5);
  dut->d_i = 0;
  dut.Reset();
  dut.Settle();
  EXPECT_EQ(dut->q_o, 0x7u) << "reset value 1 in every copy";
  std::mt19937 rng(11);
  for (int cyc = 0; cyc < 200; ++cyc) {
    const unsigned d = rng() & 1u;
    dut->d_i = d;
    dut.Cycle();
    EXPECT_EQ(dut->q_o, d ? 0x7u : 0x0u) << "cycle " << cyc;
  }
  EXPECT_FALSE(dut.GotError());
}

// ---- Arbiter ----

struct ArbSpec {
  unsigned num_in;
  unsigned width;
  bool lock_in;
};
constexpr ArbSpec kArb3{3, 16, true};
constexpr ArbSpec kArb4NoLock{4, 16, false};

struct ArbStats {
  unsigned grants = 0;
  unsigned max_wait = 0;  // most grants to other inputs while one input waited
  std::vector<unsigned> order;
};

// Each input i sends `items` items tagged (i << 12 | seq); sources raise valid with
// probability p_valid and hold it, the sink is ready with probability p_ready. Every cycle:
// the output carries the granted input's current item, out_valid_o is the OR of the valids,
// only the granted input sees ready, and (LockIn) a stalled output holds. Every handshake
// takes the item the granted source offered.
template <class Model>
void RunArbInto(const ArbSpec& spec, uint32_t seed, double p_valid, double p_ready, unsigned cycles,
                unsigned items, unsigned record, ArbStats* out) {
  VerilatedDut<Model> dut(seed);
  std::mt19937_64 rng(seed);
  std::bernoulli_distribution valid_dist(p_valid), ready_dist(p_ready);
  const uint64_t mask = Mask(spec.width);
  dut->in_valid_i = 0;
  dut->in_data_i = 0;
  dut->out_ready_i = 0;
  dut.Reset();

  std::vector<bool> valid(spec.num_in, false);
  std::vector<unsigned> seq(spec.num_in, 0), wait(spec.num_in, 0);
  ArbStats& stats = *out;
  bool prev_stalled = false;
  uint64_t prev_data = 0;
  unsigned prev_idx = 0;
  const unsigned total = items * spec.num_in;
  for (unsigned cyc = 0; cyc < cycles && stats.grants < total; ++cyc) {
    uint64_t vbits = 0, flat = 0;
    for (unsigned i = 0; i < spec.num_in; ++i) {
      if (!valid[i] && seq[i] < items && valid_dist(rng)) {
        valid[i] = true;
      }
      if (valid[i]) {
        vbits |= 1ull << i;
      }
      flat |= ((static_cast<uint64_t>(i) << 12 | seq[i]) & mask) << (i * spec.width);
    }
    const bool ready = ready_dist(rng);
    dut->in_valid_i = vbits;
    dut->in_data_i = flat;
    dut->out_ready_i = ready;
    dut.Settle();

    const bool out_valid = dut->out_valid_o;
    const unsigned idx = dut->out_idx_o;
    const uint64_t data = dut->out_data_o;
    ASSERT_EQ(out_valid, vbits != 0) << "cycle " << cyc;
    if (spec.lock_in && prev_stalled) {
      ASSERT_TRUE(out_valid) << "cycle " << cyc;
      ASSERT_EQ(idx, prev_idx) << "grant moved under a stall, cycle " << cyc;
      ASSERT_EQ(data, prev_data) << "cycle " << cyc;
    }
    if (out_valid) {
      ASSERT_LT(idx, spec.num_in);
      ASSERT_TRUE(valid[idx]) << "grant to an idle input, cycle " << cyc;
      ASSERT_EQ(data, static_cast<uint64_t>(idx) << 12 | seq[idx]) << "cycle " << cyc;
    }
    const uint64_t exp_ready = (out_valid && ready) ? 1ull << idx : 0;
    ASSERT_EQ(static_cast<uint64_t>(dut->in_ready_o) & (vbits | exp_ready), exp_ready & vbits)
        << "cycle " << cyc;
    prev_stalled = out_valid && !ready;
    prev_data = data;
    prev_idx = idx;
    if (out_valid && ready) {
      ++stats.grants;
      if (stats.order.size() < record) {
        stats.order.push_back(idx);
      }
      for (unsigned i = 0; i < spec.num_in; ++i) {
        if (i != idx && valid[i]) {
          stats.max_wait = std::max(stats.max_wait, ++wait[i]);
        }
      }
      wait[idx] = 0;
      valid[idx] = false;
      ++seq[idx];
    }
    dut.Cycle();
  }
  EXPECT_FALSE(dut.GotError()) << "an SVA fired";
}

template <class Model>
ArbStats RunArb(const ArbSpec& spec, uint32_t seed, double p_valid, double p_ready, unsigned cycles,
                unsigned items, unsigned record = 0) {
  ArbStats stats;
  RunArbInto<Model>(spec, seed, p_valid, p_ready, cycles, items, record, &stats);
  return stats;
}

// Random stalls: every item of every input arrives, and round-robin fairness holds: while an
// input waits, at most NumIn - 1 other grants happen before its own.
template <class Model>
void ArbRandom(const ArbSpec& spec) {
  const double duty[] = {0.2, 0.7, 1.0};
  uint32_t seed = 100;
  for (double pv : duty) {
    for (double pr : duty) {
      const ArbStats s = RunArb<Model>(spec, seed++, pv, pr, 40000, 300);
      EXPECT_EQ(s.grants, 300u * spec.num_in) << "p_valid " << pv << " p_ready " << pr;
      EXPECT_LE(s.max_wait, spec.num_in - 1) << "p_valid " << pv << " p_ready " << pr;
    }
  }
}

TEST(StreamArb, RandomStallsNumIn3Lock) {
  ArbRandom<VArb3>(kArb3);
}
TEST(StreamArb, RandomStallsNumIn4NoLock) {
  ArbRandom<VArb4NoLock>(kArb4NoLock);
}

// All inputs always valid, sink always ready: one grant per cycle, in strict rotation from
// input 0 (the pointer resets to 0 and moves past each granted input).
TEST(StreamArb, RotationAndThroughput) {
  const ArbStats s3 = RunArb<VArb3>(kArb3, 1, 1.0, 1.0, 60, 20, 9);
  EXPECT_EQ(s3.grants, 60u);
  EXPECT_EQ(s3.order, (std::vector<unsigned>{0, 1, 2, 0, 1, 2, 0, 1, 2}));
  const ArbStats s4 = RunArb<VArb4NoLock>(kArb4NoLock, 1, 1.0, 1.0, 80, 20, 8);
  EXPECT_EQ(s4.grants, 80u);
  EXPECT_EQ(s4.order, (std::vector<unsigned>{0, 1, 2, 3, 0, 1, 2, 3}));
}

// A grant on a stalled output: input 2 alone is valid and the sink is not ready; then input 0
// (higher priority: the pointer is at 0) becomes valid. With LockIn the grant stays on 2 until
// the handshake, then goes to 0; without it, input 0 takes over at once.
template <class Model>
std::vector<unsigned> LockScenario() {
  VerilatedDut<Model> dut(21);
  dut->in_valid_i = 0;
  dut->in_data_i = 0;
  dut->out_ready_i = 0;
  dut.Reset();
  std::vector<unsigned> idx;
  dut->in_valid_i = 0b100;
  dut.Settle();
  idx.push_back(dut->out_idx_o);
  dut.Cycle();
  dut->in_valid_i = 0b101;
  dut.Settle();
  idx.push_back(dut->out_idx_o);
  const bool locked = idx.back() == 2;
  dut->out_ready_i = 1;
  dut.Settle();
  idx.push_back(dut->out_idx_o);
  dut.Cycle();  // handshake with the granted input
  dut->in_valid_i = locked ? 0b001 : 0b100;
  dut.Settle();
  idx.push_back(dut->out_idx_o);
  EXPECT_FALSE(dut.GotError());
  return idx;
}

TEST(StreamArb, LockHoldsStalledGrant) {
  EXPECT_EQ(LockScenario<VArb3>(), (std::vector<unsigned>{2, 2, 2, 0}));
}
TEST(StreamArb, NoLockLetsPriorityTakeOver) {
  EXPECT_EQ(LockScenario<VArb4NoLock>(), (std::vector<unsigned>{2, 0, 0, 2}));
}

// ---- The SVA are live: breaking the input stream contract makes them fire ----

// A full FIFO (depth 1, sink stalled) is offered an item; the source then changes the payload
// while valid is still high and ready low.
TEST(Fifo, InputContractBreakFiresSva) {
  VerilatedDut<VFifoD1> dut(31);
  dut->clr_i = 0;
  dut->out_ready_i = 0;
  dut->in_valid_i = 1;
  dut->in_data_i = 0x1;
  dut.Reset();
  dut.Cycle();  // stored, now full
  dut->in_data_i = 0x2;
  dut.Settle();
  ASSERT_FALSE(dut->in_ready_o);
  dut.Cycle();
  dut.Cycle();
  EXPECT_FALSE(dut.GotError()) << "held payload must not fire";
  dut->in_data_i = 0x3;  // payload changes while stalled
  dut.Cycle();
  dut.Cycle();
  EXPECT_TRUE(dut.GotError()) << "InStable_A did not fire";
}

TEST(SpillReg, InputContractBreakFiresSva) {
  VerilatedDut<VSpill> dut(32);
  dut->out_ready_i = 0;
  dut->in_valid_i = 1;
  dut->in_data_i = 0x1;
  dut.Reset();
  dut.Cycle();
  dut.Cycle();  // A and B full
  dut.Settle();
  ASSERT_FALSE(dut->in_ready_o);
  dut.Cycle();
  EXPECT_FALSE(dut.GotError());
  dut->in_valid_i = 0;  // valid withdrawn while stalled
  dut.Cycle();
  dut.Cycle();
  EXPECT_TRUE(dut.GotError()) << "InStable_A did not fire";
}

TEST(StreamArb, InputContractBreakFiresSva) {
  VerilatedDut<VArb3> dut(33);
  dut->out_ready_i = 0;
  dut->in_valid_i = 0b011;
  dut->in_data_i = 0x0002'0001'0000ull;
  dut.Reset();
  dut.Cycle();
  dut.Cycle();
  EXPECT_FALSE(dut.GotError());
  dut->in_data_i = 0x0002'00ff'0000ull;  // input 1 (not granted, not ready) changes payload
  dut.Cycle();
  dut.Cycle();
  EXPECT_TRUE(dut.GotError()) << "gen_in_asserts[1].InStable_A did not fire";
}

}  // namespace
}  // namespace tma::tb
