// SPDX-License-Identifier: Apache-2.0
//
// Unit test of the completion unit (tma_cpl_unit) against a reference written from its contract
// (docs/interfaces.md `cpl_info_t` / `cpl_t`, docs/rtl.md "Write port and completion"):
//   a finished command of kind CplTx gives one complete-tx per set bit of cta_mask, lowest CTA
//   first, each {kind, cta = the bit's index, mbar_addr, bytes, err = 0, tag}; an empty mask
//   gives none; kind CplError gives one completion {cta = the issuer, err, bytes = 0}; kind
//   CplDone one {cta = the issuer, err = 0, bytes = 0}.
// Sweeps: every single-bit mask, the full mask, the empty mask, masks with two bits at every
// distance, random masks; each kind; random idle cycles on the input and random backpressure
// on the output. With the input always valid and the output always ready it emits one
// completion per cycle, across command boundaries. The reference is checked against hand
// vectors, and a deliberately wrong reference must make the RTL comparison fail.

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "Vtma_cpl_unit.h"
#include "sim/autogen/tma_structs.h"
#include "verilated_dut.h"

namespace tma::tb {
namespace {

// tma_pkg::Cpl* and the error classes used here.
constexpr int kCplTx = tma::pkg::CplTx;
constexpr int kCplError = tma::pkg::CplError;
constexpr int kCplDone = tma::pkg::CplDone;
constexpr int kErrBusError = tma::pkg::ErrBusError;

struct Info {  // tma_pkg::cpl_info_t
  int kind = kCplTx;
  int err = 0;
  uint32_t cta_mask = 0;
  int cta = 0;
  uint32_t mbar_addr = 0;
  uint32_t bytes = 0;
  int tag = 0;
};

struct Cpl {  // tma_pkg::cpl_t
  int kind = 0;
  int cta = 0;
  uint32_t mbar_addr = 0;
  uint32_t bytes = 0;
  int err = 0;
  int tag = 0;
  bool operator==(const Cpl& o) const {
    return kind == o.kind && cta == o.cta && mbar_addr == o.mbar_addr && bytes == o.bytes &&
           err == o.err && tag == o.tag;
  }
};

std::string Str(const Cpl& c) {
  return "{kind " + std::to_string(c.kind) + " cta " + std::to_string(c.cta) + " mbar " +
         std::to_string(c.mbar_addr) + " bytes " + std::to_string(c.bytes) + " err " +
         std::to_string(c.err) + " tag " + std::to_string(c.tag) + "}";
}

// ---- Port adapter: the only code that names the block's ports and struct layouts ----
// Ports relied on: clk_i, rst_ni, info_valid_i, info_ready_o, info_i (cpl_info_t),
// cpl_valid_o, cpl_ready_i, cpl_o (cpl_t), packed by the codecs generated from tma_pkg.

struct CplPorts {
  Vtma_cpl_unit* m;
  void DriveInfo(bool valid, const Info& i) {
    m->info_valid_i = valid;
    tma::pkg::cpl_info_t t;
    t.kind = static_cast<uint8_t>(i.kind);
    t.err = static_cast<uint8_t>(i.err);
    t.cta_mask = static_cast<uint16_t>(i.cta_mask);
    t.cta = static_cast<uint8_t>(i.cta);
    t.mbar_addr = i.mbar_addr;
    t.bytes = i.bytes;
    t.tag = static_cast<uint8_t>(i.tag);
    tma::pkg::Pack(t, m->info_i.data());
  }
  bool InfoReady() const { return m->info_ready_o; }
  void DriveReady(bool r) { m->cpl_ready_i = r; }
  bool CplValid() const { return m->cpl_valid_o; }
  Cpl ReadCpl() const {
    const auto t = tma::pkg::Unpack<tma::pkg::cpl_t>(m->cpl_o.data());
    Cpl c;
    c.kind = t.kind;
    c.cta = t.cta;
    c.mbar_addr = t.mbar_addr;
    c.bytes = t.bytes;
    c.err = t.err;
    c.tag = t.tag;
    return c;
  }
};

// ---- The reference ----
enum class Bug { kNone, kHighestFirst };

std::vector<Cpl> Reference(const Info& i, Bug bug = Bug::kNone) {
  std::vector<Cpl> out;
  if (i.kind == kCplTx) {
    for (int b = 0; b < 16; ++b) {
      const int cta = bug == Bug::kHighestFirst ? 15 - b : b;
      if ((i.cta_mask >> cta) & 1u) {
        out.push_back(Cpl{kCplTx, cta, i.mbar_addr, i.bytes, 0, i.tag});
      }
    }
  } else {
    out.push_back(Cpl{i.kind, i.cta, i.mbar_addr, 0, i.kind == kCplError ? i.err : 0, i.tag});
  }
  return out;
}

TEST(CplUnitReference, HandVectors) {
  // Mask 0b1010_0000_0000_0110: CTAs 1, 2, 13, 15 in that order.
  const Info tx{kCplTx, 0, 0xA006, 9, 0x400, 2048, 0x5A};
  const std::vector<Cpl> want = {{kCplTx, 1, 0x400, 2048, 0, 0x5A},
                                 {kCplTx, 2, 0x400, 2048, 0, 0x5A},
                                 {kCplTx, 13, 0x400, 2048, 0, 0x5A},
                                 {kCplTx, 15, 0x400, 2048, 0, 0x5A}};
  EXPECT_EQ(Reference(tx), want);
  EXPECT_NE(Reference(tx, Bug::kHighestFirst), want);
  EXPECT_TRUE(Reference(Info{kCplTx, 0, 0, 3, 8, 64, 1}).empty());
  const std::vector<Cpl> err = {{kCplError, 3, 0x10, 0, kErrBusError, 7}};
  EXPECT_EQ(Reference(Info{kCplError, kErrBusError, 0x00F0, 3, 0x10, 512, 7}), err);
  const std::vector<Cpl> done = {{kCplDone, 12, 0x20, 0, 0, 255}};
  EXPECT_EQ(Reference(Info{kCplDone, 5, 0xFFFF, 12, 0x20, 99, 255}), done);
}

// ---- The RTL against the reference ----
struct Knobs {
  int in_valid_pct = 100;
  int out_ready_pct = 100;
  int randoms = 3000;
  bool empty_masks = true;
  Bug bug = Bug::kNone;
};

struct Outcome {
  int infos = 0;
  int cpls = 0;
  int mismatches = 0;
  int first_out = -1;
  int last_out = -1;
  bool done = false;
  bool sva_error = false;
  std::string first_mismatch;
};

std::vector<Info> Commands(std::mt19937& rng, const Knobs& k) {
  std::vector<Info> v;
  auto rnd = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  auto fill = [&](Info i) {
    i.mbar_addr = rng();
    i.bytes = rng();
    i.tag = static_cast<int>(rnd(256));
    i.cta = static_cast<int>(rnd(16));
    i.err = static_cast<int>(1 + rnd(15));
    return i;
  };
  for (int b = 0; b < 16; ++b) {
    v.push_back(fill(Info{kCplTx, 0, 1u << b}));
  }
  v.push_back(fill(Info{kCplTx, 0, 0xFFFF}));
  for (int d = 1; d < 16; ++d) {
    for (int b = 0; b + d < 16; ++b) {
      v.push_back(fill(Info{kCplTx, 0, (1u << b) | (1u << (b + d))}));
    }
  }
  if (k.empty_masks) {
    v.push_back(fill(Info{kCplTx, 0, 0}));
  }
  for (int i = 0; i < 16; ++i) {
    v.push_back(fill(Info{kCplError}));
    v.push_back(fill(Info{kCplDone}));
  }
  for (int n = 0; n < k.randoms; ++n) {
    const uint32_t r = rnd(100);
    Info i;
    i.kind = r < 70 ? kCplTx : (r < 85 ? kCplError : kCplDone);
    // Masks of every population: sparse, dense, and now and then empty.
    const uint32_t shape = rnd(4);
    i.cta_mask = shape == 0   ? (1u << rnd(16))
                 : shape == 1 ? (rng() & 0xFFFF)
                 : shape == 2 ? (rng() & rng() & rng() & 0xFFFF)
                              : (0xFFFF & ~(1u << rnd(16)));
    if (k.empty_masks && rnd(50) == 0) {
      i.cta_mask = 0;
    }
    if (!k.empty_masks && i.kind == kCplTx && i.cta_mask == 0) {
      i.cta_mask = 1;
    }
    Info f = fill(i);
    f.kind = i.kind;
    f.cta_mask = i.cta_mask;
    v.push_back(f);
  }
  std::shuffle(v.begin() + 16, v.end(), rng);
  return v;
}

Outcome RunBench(uint32_t seed, const Knobs& k) {
  VerilatedDut<Vtma_cpl_unit> dut(seed);
  CplPorts io{dut.operator->()};
  std::mt19937 rng(seed);
  const std::vector<Info> cmds = Commands(rng, k);
  std::deque<Info> in_q(cmds.begin(), cmds.end());
  std::deque<Cpl> want_q;
  for (const Info& i : cmds) {
    for (const Cpl& c : Reference(i, k.bug)) {
      want_q.push_back(c);
    }
  }
  Outcome res;
  res.infos = static_cast<int>(cmds.size());
  dut.Reset();
  bool shown = false;
  const int max_cycles = 20 * static_cast<int>(want_q.size() + in_q.size()) + 1000;
  for (int cycle = 0; cycle < max_cycles; ++cycle) {
    // An offered command stays offered, unchanged, until taken (stream contract).
    shown = !in_q.empty() && (shown || static_cast<int>(rng() % 100) < k.in_valid_pct);
    io.DriveInfo(shown, in_q.empty() ? Info{} : in_q.front());
    io.DriveReady(static_cast<int>(rng() % 100) < k.out_ready_pct);
    dut.Settle();
    if (shown && io.InfoReady()) {
      in_q.pop_front();
      shown = false;
    }
    if (io.CplValid() && dut->cpl_ready_i) {
      const Cpl got = io.ReadCpl();
      if (want_q.empty()) {
        ++res.mismatches;
        if (res.first_mismatch.empty())
          res.first_mismatch = "extra completion " + Str(got);
      } else {
        if (!(got == want_q.front())) {
          ++res.mismatches;
          if (res.first_mismatch.empty()) {
            res.first_mismatch = "completion " + std::to_string(res.cpls) + "\n got  " + Str(got) +
                                 "\n want " + Str(want_q.front());
          }
        }
        want_q.pop_front();
      }
      ++res.cpls;
      if (res.first_out < 0)
        res.first_out = cycle;
      res.last_out = cycle;
    }
    dut.Cycle();
    if (in_q.empty() && want_q.empty()) {
      for (int i = 0; i < 8; ++i) {  // nothing else may come out
        io.DriveInfo(false, Info{});
        io.DriveReady(true);
        dut.Settle();
        if (io.CplValid()) {
          ++res.mismatches;
          if (res.first_mismatch.empty())
            res.first_mismatch = "extra completion at the end";
        }
        dut.Cycle();
      }
      res.done = true;
      break;
    }
  }
  res.sva_error = dut.GotError();
  return res;
}

TEST(CplUnit, MatchesReference) {
  const Knobs presets[] = {
      {100, 100, 3000, true, Bug::kNone}, {60, 100, 3000, true, Bug::kNone},
      {100, 40, 3000, true, Bug::kNone},  {30, 30, 3000, true, Bug::kNone},
      {80, 70, 3000, true, Bug::kNone},
  };
  int n = 0;
  for (const Knobs& k : presets) {
    SCOPED_TRACE("preset " + std::to_string(n));
    const Outcome o = RunBench(1000 + 31 * n++, k);
    EXPECT_TRUE(o.done) << "did not drain";
    EXPECT_EQ(o.mismatches, 0) << o.first_mismatch;
    EXPECT_FALSE(o.sva_error) << "an RTL assertion fired";
    EXPECT_GT(o.cpls, o.infos);
  }
}

// One completion per cycle with the input always valid and the output always ready, across
// command boundaries (no empty masks: a command that signals nothing takes its cycle too).
TEST(CplUnit, OnePerCycle) {
  Knobs k;
  k.empty_masks = false;
  const Outcome o = RunBench(77, k);
  ASSERT_TRUE(o.done);
  EXPECT_EQ(o.mismatches, 0) << o.first_mismatch;
  EXPECT_EQ(o.last_out - o.first_out + 1, o.cpls);
  EXPECT_FALSE(o.sva_error);
}

// The comparison can fail: a reference that signals the highest CTA first disagrees.
TEST(CplUnit, WrongReferenceIsCaught) {
  Knobs k;
  k.randoms = 200;
  k.bug = Bug::kHighestFirst;
  const Outcome o = RunBench(5, k);
  EXPECT_GT(o.mismatches, 0);
}

}  // namespace
}  // namespace tma::tb
