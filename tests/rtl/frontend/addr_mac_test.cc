// SPDX-License-Identifier: Apache-2.0
//
// Unit test of tma_addr_mac (Verilated C++): each slot's write-back is operand x stride in
// bytes (x 16: the strides count 16-byte units), the gaddr slot's plus its base, computed here
// in 64-bit wrapping arithmetic from the operands; slots without partial products are skipped;
// a clear drops a running list. Slot lists with every mix of operand sizes (one signed piece,
// two pieces, zero pieces), random gaps between jobs and random aborts.

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "Vtma_addr_mac.h"
#include "sim/autogen/tma_structs.h"
#include "verilated_dut.h"

namespace tma::tb {
namespace {

namespace pkg = tma::pkg;

constexpr int kSlots = pkg::MacSlots;
constexpr int kDims = pkg::MaxDims;

struct Slot {
  int64_t a = 0;   // 34-bit signed operand
  uint64_t s = 0;  // 36-bit stride (16-byte units)
};

// Slots: astart of walker dim d at MacSlotAstart + d - 1 (0..3), alo at MacSlotAlo + d - 1
// (4..7), gaddr at MacSlotGaddr (8). The alo slots use the stride of their walker dim, the
// astart slot's: the generators below keep slot[4 + k].s == slot[k].s.
struct Job {
  Slot slot[kSlots];
  uint64_t gaddr = 0;
  bool skip[kSlots] = {};  // the slot list leaves it out (its product is zero)
};

// The slot list of a job as the job setup forms it (tma_pkg::mac_req_t): the pieces of a
// (one signed 18-bit piece when a is in [-2^17, 2^17)) times the non-zero pieces of s.
pkg::mac_req_t SlotList(const Job& j) {
  pkg::mac_req_t req;
  for (int t = 0; t < kSlots; ++t) {
    if (j.skip[t])
      continue;
    const int64_t a = j.slot[t].a;
    const uint64_t s = j.slot[t].s;
    const bool one = a >= -(int64_t{1} << 17) && a < (int64_t{1} << 17);
    const uint64_t au = static_cast<uint64_t>(a);
    const int anz =
        one ? ((au & 0x3FFFF) != 0) : (((au >> 17) & 0x1FFFF) != 0) << 1 | ((au & 0x1FFFF) != 0);
    const int snz =
        ((s >> 34) != 0) << 2 | (((s >> 17) & 0x1FFFF) != 0) << 1 | ((s & 0x1FFFF) != 0);
    req.pieces[t] = static_cast<uint8_t>((anz & 2 ? snz : 0) << 3 | (anz & 1 ? snz : 0));
    req.one_piece = static_cast<uint16_t>(req.one_piece | one << t);
  }
  return req;
}

// The slots' operands (tma_pkg::mac_opnd_t; the codec keeps the low 34 bits of a).
pkg::mac_opnd_t Operands(const Job& j) {
  pkg::mac_opnd_t o;
  for (int d = 1; d < kDims; ++d) {
    o.coord.v[d] = static_cast<uint64_t>(j.slot[pkg::MacSlotAstart + d - 1].a);
    o.lo.v[d] = static_cast<uint64_t>(j.slot[pkg::MacSlotAlo + d - 1].a);
    o.stride.v[d] = j.slot[pkg::MacSlotAstart + d - 1].s;  // shared by the astart and alo slots
  }
  o.fix_coord = static_cast<uint64_t>(j.slot[pkg::MacSlotGaddr].a);
  o.fix_stride = j.slot[pkg::MacSlotGaddr].s;
  o.gaddr = j.gaddr;
  return o;
}

uint64_t Expected(const Job& j, int t) {
  const uint64_t prod = static_cast<uint64_t>(j.slot[t].a) * j.slot[t].s * 16u;
  return t == pkg::MacSlotGaddr ? j.gaddr + prod : prod;
}

int64_t RandOperand(std::mt19937_64& rng) {
  switch (rng() % 5) {
    case 0:
      return 0;
    case 1:
      return static_cast<int64_t>(rng() % (1u << 18)) - (1 << 17);  // one piece
    case 2:
      return -(int64_t{1} << 17);  // the most negative one-piece value
    case 3:
      return static_cast<int64_t>(rng() % (uint64_t{1} << 34)) - (int64_t{1} << 33);
    default:
      return (int64_t{1} << 33) - 1 - static_cast<int64_t>(rng() % 7);  // near the maximum
  }
}

uint64_t RandStride(std::mt19937_64& rng) {
  switch (rng() % 4) {
    case 0:
      return rng() % (1u << 17);
    case 1:
      return rng() % (uint64_t{1} << 34);
    case 2:
      return (uint64_t{1} << 36) - 1;
    default:
      return rng() % (uint64_t{1} << 36);
  }
}

// Runs the jobs; a job may be aborted (cleared) after `abort_after` cycles (-1: never); the
// job register holds the gaddr base from `own_from` cycles after the request (empty: at once)
// and takes the other slots' write-backs from two cycles earlier (the job setup's W1B and W2).
void RunJobs(const std::vector<Job>& jobs, const std::vector<int>& abort_after, uint32_t seed,
             const std::vector<int>& own_from = {}) {
  VerilatedDut<Vtma_addr_mac> dut(seed);
  std::mt19937 rng(seed);
  dut->clr_i = 0;
  dut->req_valid_i = 0;
  dut->req_i = 0;
  dut->own_next_i = 1;
  dut->wb_next_i = 1;
  dut.Reset();
  for (size_t n = 0; n < jobs.size(); ++n) {
    const Job& j = jobs[n];
    const int own = own_from.empty() ? 0 : own_from[n];
    // a clear between jobs (as after an aborted one) leaves the MAC idle
    dut->clr_i = 1;
    dut.Cycle();
    dut->clr_i = 0;
    const pkg::mac_req_t req = SlotList(j);
    pkg::Pack(Operands(j), dut->opnd_i.data());
    dut->req_i = pkg::PackU64(req);
    dut->req_valid_i = 1;
    dut->own_next_i = own <= 1;
    dut->wb_next_i = own <= 3;
    dut.Settle();
    ASSERT_TRUE(dut->req_ready_o) << "job " << n;
    dut.Cycle();
    dut->req_valid_i = 0;
    bool owned = own <= 1;  // the job register holds the gaddr base in this cycle
    bool wb_ok = own <= 3;  // ... takes the other write-backs
    std::map<int, uint64_t> got;
    int products = 0;
    for (int t = 0; t < kSlots; ++t) {
      if (!j.skip[t])
        products += __builtin_popcount(req.pieces[t]);
    }
    int cycles = 0;
    bool aborted = false;
    for (;;) {
      dut.Settle();
      if (dut->wb_valid_o) {
        const auto wb = pkg::Unpack<pkg::mac_wb_t>(dut->wb_o.data());
        const int slot = wb.slot;
        EXPECT_TRUE(slot == pkg::MacSlotGaddr ? owned : wb_ok)
            << "job " << n << " slot " << slot << ": a write-back without the job register";
        EXPECT_EQ(got.count(slot), 0u) << "job " << n << " slot " << slot << " written twice";
        got[slot] = wb.value;
      }
      if (dut->idle_o)
        break;
      if (abort_after[n] >= 0 && cycles == abort_after[n]) {
        dut->clr_i = 1;
        dut.Cycle();
        dut->clr_i = 0;
        dut.Settle();
        EXPECT_TRUE(dut->idle_o) << "job " << n << ": a clear leaves the MAC idle";
        EXPECT_FALSE(dut->wb_valid_o);
        aborted = true;
        break;
      }
      dut->own_next_i = cycles + 2 >= own;
      dut->wb_next_i = cycles + 4 >= own;
      dut.Cycle();
      owned = cycles + 2 >= own;
      wb_ok = cycles + 4 >= own;
      ASSERT_LT(++cycles, 200) << "job " << n << " never ends";
    }
    dut->own_next_i = 1;
    dut->wb_next_i = 1;
    if (!aborted) {
      // one partial product per cycle, back to back across slots: the request registers the
      // first slot number, the next cycle loads the slot, the next its first product's
      // operands; P operand cycles, then the copy and the product: idle P + 4 cycles after the
      // request's next cycle (the last accumulate is in that cycle; at once without products)
      // (held back by the job register: at least that, and not before it is owned)
      if (own == 0) {
        EXPECT_EQ(cycles, products == 0 ? 0 : products + 4) << "job " << n;
      } else {
        EXPECT_GE(cycles, products == 0 ? 0 : products + 4) << "job " << n;
      }
      for (int t = 0; t < kSlots; ++t) {
        if (req.pieces[t] == 0) {
          EXPECT_EQ(got.count(t), 0u) << "job " << n << " slot " << t << " has no products";
          if (!j.skip[t])
            EXPECT_EQ(Expected(j, t),
                      t == pkg::MacSlotGaddr ? j.gaddr : 0u);  // a zero product: nothing to add
        } else {
          ASSERT_EQ(got.count(t), 1u) << "job " << n << " slot " << t;
          EXPECT_EQ(got[t], Expected(j, t))
              << "job " << n << " slot " << t << " a " << j.slot[t].a << " s " << j.slot[t].s;
        }
      }
    }
    dut.Cycle();
    for (int gap = static_cast<int>(rng() % 3); gap > 0; --gap)
      dut.Cycle();
  }
  EXPECT_FALSE(dut.GotError()) << "assertion failed";
}

// Hand-derived: astart of walker dim 1 = 3 x 256 B (stride 16 units): 768; a two-piece
// coordinate 0x12345 x 32 units x 16 = 0x12345 x 512; alo of walker dim 2 (the stride of
// walker dim 2, 32 units) = -2 x 32 x 16 = -1024 B; gaddr 0x200000 + 5 x 4 units x 16 =
// 0x200140; the other slots are skipped.
TEST(AddrMac, HandDerivedSlots) {
  Job j;
  for (bool& s : j.skip)
    s = true;
  j.slot[0] = {3, 16};
  j.slot[1] = {0x12345, 32};
  j.slot[5] = {-2, 32};
  j.slot[8] = {5, 4};
  j.gaddr = 0x200000;
  j.skip[0] = j.skip[1] = j.skip[5] = j.skip[8] = false;
  ASSERT_EQ(Expected(j, 0), 768u);
  ASSERT_EQ(Expected(j, 1), 0x12345ull * 512);
  ASSERT_EQ(Expected(j, 5), static_cast<uint64_t>(-1024));
  ASSERT_EQ(Expected(j, 8), 0x200140u);
  RunJobs({j}, {-1}, 1);
}

// A random slot list: each slot skipped one time in `skip_one_in`; alo slot k + 4 has the
// stride of astart slot k (the same walker dim).
Job RandomJob(std::mt19937_64& rng, int skip_one_in) {
  Job j;
  for (int t = 0; t < kSlots; ++t) {
    j.slot[t] = {RandOperand(rng), RandStride(rng)};
    j.skip[t] = rng() % static_cast<uint64_t>(skip_one_in) == 0;
  }
  for (int k = 0; k < 4; ++k)
    j.slot[4 + k].s = j.slot[k].s;
  j.gaddr = rng();
  return j;
}

TEST(AddrMac, RandomSlotLists) {
  std::mt19937_64 rng(42);
  std::vector<Job> jobs(400);
  std::vector<int> abort_after(jobs.size(), -1);
  for (size_t n = 0; n < jobs.size(); ++n) {
    jobs[n] = RandomJob(rng, 4);
    if (n % 10 == 9)
      abort_after[n] = static_cast<int>(rng() % 12);
  }
  RunJobs(jobs, abort_after, 7);
}

// The same kind of lists with the job register taken later (the frontend runs the MAC of the
// next command while the previous job waits for the walker): the MAC freezes before a
// write-back, or before the gaddr slot's first product reaches the accumulator (it reads the
// job register's gaddr), and the sums are the same.
TEST(AddrMac, FrozenUntilTheJobRegisterIsOwned) {
  std::mt19937_64 rng(43);
  std::vector<Job> jobs(300);
  std::vector<int> abort_after(jobs.size(), -1);
  std::vector<int> own_from(jobs.size(), 0);
  for (size_t n = 0; n < jobs.size(); ++n) {
    jobs[n] = RandomJob(rng, 3);
    own_from[n] = static_cast<int>(rng() % 30);
    if (n % 10 == 9)
      abort_after[n] = static_cast<int>(rng() % 12);
  }
  RunJobs(jobs, abort_after, 9, own_from);
}

}  // namespace
}  // namespace tma::tb
