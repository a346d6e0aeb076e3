// SPDX-License-Identifier: Apache-2.0
//
// Unit test of the im2col::w::128 walker (tma_w128_walker) against the row order its header
// documents: one im2col::w walk seq[0], seq[1], ... (W, walker dim 1, from coord stepping es,
// restarting at lo when pos + es > hi, each restart stepping N, the walker dim among 2..4 with
// hi = 2^33 - 1, by es[N] and a[N] by step[N]; the other dims fixed at their coordinates),
// taken in four groups of 32 + wHalo consecutive positions from seq[32 g]. Row k: address
// gaddr + head + sum a[d]; no read (head = dend = gaddr = 0) when W, N or a fixed dim is
// outside [0, dim_m1] or dend <= head; smem = smem_addr + k x pitch; complete-tx bytes
// (k + 1) x tx_row; the last row is row 128 + 4 wHalo - 1. Jobs use random 64-bit addresses
// and steps, negative and out-of-range positions, W starts above its restart position, random
// job gaps and row backpressure. With an always-ready sink, back-to-back jobs must run at one
// row per cycle with no gap between jobs, and a job that finds the walker idle must bring its
// first row to the output 3 cycles after its valid (walk state, S, output register).

#include <cstdint>
#include <cstdio>
#include <ostream>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "walker_harness.h"

#include "Vtma_w128_walker.h"
#include "sim/autogen/tma_structs.h"
#include "verilated_dut.h"

namespace tma::tb {
namespace {

constexpr int kDims = pkg::MaxDims;
constexpr int64_t kNoWrap = (int64_t{1} << 33) - 1;  // hi of N

using Cpl = pkg::cpl_info_t;
using Row = pkg::row_t;
static_assert(sizeof(Vtma_w128_walker::job_i) == 4 * pkg::job_t::kWords);
static_assert(sizeof(Vtma_w128_walker::row_o) == 4 * pkg::row_t::kWords);

struct Job {
  uint32_t halo = 0;  // wHalo
  int nd = 2;         // walker dim of N (2..4)
  uint64_t gaddr = 0;
  uint64_t step[kDims] = {}, astart[kDims] = {}, alo[kDims] = {};
  int64_t coord[kDims] = {}, lo[kDims] = {}, hi[kDims] = {};
  uint32_t dim_m1[kDims] = {}, es[kDims] = {};
  uint32_t row_bytes = 0, tx_row = 0, head = 0, dend = 0, pitch = 0, smem = 0;
  bool fill_nan = false, tf32 = false;
  uint32_t swz = 0, pk = 0;
  Cpl cpl;
};

pkg::job_t ToPkg(const Job& j) {
  pkg::job_t p;
  p.w128 = true;
  p.i2c = true;
  p.nrows_m1 = static_cast<uint16_t>(j.halo);
  p.gaddr = j.gaddr;
  for (int d = 0; d < kDims; ++d) {
    p.step.v[d] = j.step[d];
    p.astart.v[d] = j.astart[d];
    p.alo.v[d] = j.alo[d];
    p.coord.v[d] = static_cast<uint64_t>(j.coord[d]);
    p.lo.v[d] = static_cast<uint64_t>(j.lo[d]);
    p.hi.v[d] = static_cast<uint64_t>(j.hi[d]);
    p.dim_m1.v[d] = j.dim_m1[d];
    p.es.v[d] = static_cast<uint8_t>(j.es[d]);
  }
  p.row_bytes = static_cast<uint16_t>(j.row_bytes);
  p.tx_row = static_cast<uint16_t>(j.tx_row);
  p.head = static_cast<uint16_t>(j.head);
  p.dend = static_cast<uint16_t>(j.dend);
  p.pitch = static_cast<uint16_t>(j.pitch);
  p.smem_addr = j.smem;
  p.fill_nan = j.fill_nan;
  p.tf32 = j.tf32;
  p.swz = static_cast<uint8_t>(j.swz);
  p.pk = static_cast<uint8_t>(j.pk);
  p.cpl = j.cpl;
  return p;
}

// The walk position seq[i]: W, N and their address contributions.
struct Pos {
  int64_t w, n;
  uint64_t aw, an;
};

std::vector<Row> ExpectedRows(const Job& j) {
  // The walk, long enough for group 3's halo.
  std::vector<Pos> seq;
  Pos p{j.coord[1], j.coord[j.nd], j.astart[1], j.astart[j.nd]};
  for (uint32_t i = 0; i < 128 + j.halo; ++i) {
    seq.push_back(p);
    if (p.w + j.es[1] > j.hi[1]) {
      p.w = j.lo[1];
      p.aw = j.alo[1];
      p.n += j.es[j.nd];
      p.an += j.step[j.nd];
    } else {
      p.w += j.es[1];
      p.aw += j.step[1];
    }
  }
  const auto out = [&](int64_t x, int d) { return x < 0 || x > static_cast<int64_t>(j.dim_m1[d]); };
  uint64_t fixed = j.gaddr + j.head;
  bool fixed_oob = false;
  for (int d = 2; d < kDims; ++d) {
    if (d == j.nd)
      continue;
    fixed += j.astart[d];
    fixed_oob = fixed_oob || out(j.coord[d], d);
  }
  std::vector<Row> rows;
  const uint32_t total = 128 + 4 * j.halo;
  for (uint32_t g = 0; g < 4; ++g) {
    for (uint32_t k = 0; k < 32 + j.halo; ++k) {
      const Pos& s = seq[32 * g + k];
      const uint32_t n = static_cast<uint32_t>(rows.size());
      Row r;
      r.has_data = true;
      r.last = n + 1 == total;
      r.smem_addr = j.smem + n * j.pitch;
      r.row_bytes = static_cast<uint16_t>(j.row_bytes);
      r.fill_nan = j.fill_nan;
      r.tf32 = j.tf32;
      r.swz = static_cast<uint8_t>(j.swz);
      r.pk = static_cast<uint8_t>(j.pk);
      r.cpl = j.cpl;
      r.cpl.bytes = (n + 1) * j.tx_row;
      if (!fixed_oob && !out(s.w, 1) && !out(s.n, j.nd) && j.dend > j.head) {
        r.head = static_cast<uint16_t>(j.head);
        r.dend = static_cast<uint16_t>(j.dend);
        r.gaddr = fixed + s.aw + s.an;
      }
      rows.push_back(r);
    }
  }
  return rows;
}

Job RandomJob(std::mt19937_64& rng) {
  Job j;
  j.halo = rng() % 4 == 0 ? static_cast<uint32_t>(rng() % 32) : static_cast<uint32_t>(rng() % 5);
  j.nd = 2 + static_cast<int>(rng() % 3);
  j.gaddr = rng();
  for (int d = 0; d < kDims; ++d) {
    j.es[d] = 1;
    j.step[d] = rng();  // dim 0's fields must be ignored; fixed dims' steps too
    j.alo[d] = rng();
    j.astart[d] = rng();
    j.dim_m1[d] = static_cast<uint32_t>(rng());
  }
  // W: a window of a few positions, the start anywhere in it, bounds that cut it sometimes.
  const uint32_t es = 1 + static_cast<uint32_t>(rng() % 8);
  const int count = 1 + static_cast<int>(rng() % 40);
  int64_t lo;
  switch (rng() % 8) {
    case 0:
      lo = -static_cast<int64_t>(rng() % 40);
      break;
    case 1:
      lo = (int64_t{1} << 32) - static_cast<int64_t>(rng() % 200);  // past any dim_m1
      break;
    default:
      lo = static_cast<int64_t>(rng() % 50);
      break;
  }
  j.es[1] = es;
  j.lo[1] = lo;
  j.hi[1] = lo + static_cast<int64_t>(es) * (count - 1) + static_cast<int64_t>(rng() % es);
  j.coord[1] = lo + static_cast<int64_t>(es) * static_cast<int64_t>(rng() % count);
  j.dim_m1[1] = rng() % 4 == 0 ? static_cast<uint32_t>(rng() % 64) : 0xFFFFFFF0u;
  j.step[1] = rng() % 3 == 0 ? rng() : (rng() % 4096) << (rng() % 40);
  // N: never wraps; runs past its bound sometimes.
  j.es[j.nd] = 1 + static_cast<uint32_t>(rng() % 8);
  j.coord[j.nd] = static_cast<int64_t>(rng() % 40) - (rng() % 5 == 0 ? 20 : 0);
  j.lo[j.nd] = j.coord[j.nd];
  j.hi[j.nd] = kNoWrap;
  j.dim_m1[j.nd] = rng() % 4 == 0 ? static_cast<uint32_t>(rng() % 200) : 0xFFFFFFFFu;
  // The fixed dims (box 1): mostly in bounds.
  for (int d = 2; d < kDims; ++d) {
    if (d == j.nd)
      continue;
    j.coord[d] = rng() % 20 == 0 ? -1 : static_cast<int64_t>(rng() % 16);
    j.lo[d] = j.hi[d] = j.coord[d];
    j.dim_m1[d] = rng() % 20 == 0 ? 0 : 0xFFFFFFFFu;
  }
  j.row_bytes = 16 * (1 + static_cast<uint32_t>(rng() % 16));
  j.tx_row = rng() % 4 == 0 ? j.row_bytes / 2 : j.row_bytes;
  j.head = static_cast<uint32_t>(rng() % (j.row_bytes + 1));
  j.dend =
      rng() % 8 == 0 ? j.head : j.head + static_cast<uint32_t>(rng() % (j.row_bytes - j.head + 1));
  j.pitch = static_cast<uint32_t>(rng() % 4096);
  j.smem = static_cast<uint32_t>(rng());
  j.fill_nan = rng() & 1;
  j.tf32 = rng() & 1;
  j.swz = rng() % 8;
  j.pk = rng() % 3;
  j.cpl.kind = pkg::CplTx;
  j.cpl.cta_mask = rng() % 65536;
  j.cpl.cta = rng() % 16;
  j.cpl.mbar_addr = rng() & 0xFFFFFFFFu;
  j.cpl.bytes = rng() & 0xFFFFFFFFu;  // replaced by the walker
  j.cpl.tag = rng() % 256;
  return j;
}

using Result = WalkResult;

TEST(W128Walker, RandomJobsWithGapsAndStalls) {
  VerilatedDut<Vtma_w128_walker> dut(21);
  dut->job_valid_i = 0;
  dut->row_ready_i = 0;
  dut.Reset();
  std::mt19937_64 rng(21);
  uint64_t rows = 0, oob = 0, halo = 0;
  for (int round = 0; round < 12; ++round) {
    std::vector<Job> jobs;
    for (int i = 0; i < 8; ++i) {
      jobs.push_back(RandomJob(rng));
      const std::vector<Row> r = ExpectedRows(jobs.back());
      for (const Row& x : r)
        oob += x.dend == 0;
      halo += jobs.back().halo > 4;
    }
    const int gap = static_cast<int>(rng() % 60);
    rows += RunJobList(dut, jobs, ExpectedRows, ToPkg, rng, gap, static_cast<int>(rng() % 60)).rows;
    ASSERT_FALSE(::testing::Test::HasFailure()) << "round " << round;
  }
  EXPECT_GT(rows, 12000u);
  EXPECT_GT(oob, 1000u);
  EXPECT_GT(halo, 10u);
  std::printf("%llu rows (%llu without a read)\n", static_cast<unsigned long long>(rows),
              static_cast<unsigned long long>(oob));
  EXPECT_FALSE(dut.GotError()) << "an assertion fired";
}

// Back-to-back jobs with an always-ready sink: one row per cycle across job boundaries (the
// next job loads with the last row), and row 0 of the first job 3 cycles after its valid.
TEST(W128Walker, OneRowPerCycleBackToBack) {
  VerilatedDut<Vtma_w128_walker> dut(22);
  dut->job_valid_i = 0;
  dut->row_ready_i = 0;
  dut.Reset();
  std::mt19937_64 rng(22);
  for (int round = 0; round < 6; ++round) {
    std::vector<Job> jobs;
    uint64_t rows = 0;
    for (int i = 0; i < 6; ++i) {
      jobs.push_back(RandomJob(rng));
      rows += 128 + 4 * jobs.back().halo;
    }
    const Result r = RunJobList(dut, jobs, ExpectedRows, ToPkg, rng, 0, 0);
    EXPECT_EQ(r.rows, rows);
    EXPECT_EQ(r.busy_cycles, rows) << "bubbles between rows, round " << round;
    EXPECT_EQ(r.first_row - r.first_valid, 3u) << "first row latency, round " << round;
  }
  EXPECT_FALSE(dut.GotError()) << "an assertion fired";
}

}  // namespace
}  // namespace tma::tb
