// SPDX-License-Identifier: Apache-2.0
//
// Unit test of the N-D walker (tma_nd_walker) against the row order its header documents:
// per row, the lowest walker dim d (1..4) with pos[d] + es[d] <= hi[d] steps (pos += es,
// a += step) and every dim below it restarts (pos = lo, a = alo); a row is out of bounds when
// some pos[d] is outside [0, dim_m1[d]] (then head = dend = gaddr = 0); the row address is
// gaddr + sum a[d] + head; smem = smem_addr + r x pitch; complete-tx bytes = (r + 1) x row
// bytes; the walk ends when every dim wraps (tile) or after nrows_m1 + 1 rows (im2col); a
// marker job is one completion-only entry. Jobs use random 64-bit addresses and steps (carries
// across bit 32), negative and out-of-range positions, im2col restarts below the start
// position, random job gaps and random row backpressure. With an always-ready sink and
// back-to-back jobs of two or more rows the walker must emit one row per cycle.

#include <cstdint>
#include <cstdio>
#include <ostream>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "walker_harness.h"

#include "Vtma_nd_walker.h"
#include "sim/autogen/tma_structs.h"
#include "verilated_dut.h"

namespace tma::tb {
namespace {

constexpr int kDims = pkg::MaxDims;

// The walker's ports carry the package structs (sim/autogen/tma_structs.h).
using Cpl = pkg::cpl_info_t;
using Row = pkg::row_t;
static_assert(sizeof(Vtma_nd_walker::job_i) == 4 * pkg::job_t::kWords);
static_assert(sizeof(Vtma_nd_walker::row_o) == 4 * pkg::row_t::kWords);

// A job as the test builds it: positions as signed values (job_t holds them in 34 bits).
struct Job {
  bool marker = false, i2c = false;
  uint32_t nrows_m1 = 0;
  uint64_t gaddr = 0;
  uint64_t step[kDims] = {}, astart[kDims] = {}, alo[kDims] = {};
  int64_t coord[kDims] = {}, lo[kDims] = {}, hi[kDims] = {};
  uint32_t dim_m1[kDims] = {}, es[kDims] = {};
  uint32_t row_bytes = 0, head = 0, dend = 0, pitch = 0, smem = 0;
  bool fill_nan = false, tf32 = false;
  uint32_t swz = 0, pk = 0;
  Cpl cpl;
};

// The job in tma_pkg::job_t: Pack keeps the low 34 bits of the signed positions.
pkg::job_t ToPkg(const Job& j) {
  pkg::job_t p;
  p.marker = j.marker;
  p.i2c = j.i2c;
  p.nrows_m1 = static_cast<uint16_t>(j.nrows_m1);
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
  p.tx_row = static_cast<uint16_t>(j.row_bytes);  // complete-tx counts whole rows here
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

// The rows of a job, as the header of tma_nd_walker.sv specifies them.
std::vector<Row> ExpectedRows(const Job& j) {
  std::vector<Row> rows;
  if (j.marker) {
    Row r;
    r.last = true;
    r.cpl = j.cpl;
    rows.push_back(r);
    return rows;
  }
  int64_t pos[kDims];
  uint64_t a[kDims];
  for (int d = 1; d < kDims; ++d) {
    pos[d] = j.coord[d];
    a[d] = j.astart[d];
  }
  for (uint32_t n = 0;; ++n) {
    bool oob = false, all_wrap = true;
    bool wrap[kDims] = {};
    uint64_t addr = j.gaddr;
    for (int d = 1; d < kDims; ++d) {
      if (pos[d] < 0 || pos[d] > static_cast<int64_t>(j.dim_m1[d]))
        oob = true;
      wrap[d] = pos[d] + j.es[d] > j.hi[d];
      all_wrap = all_wrap && wrap[d];
      addr += a[d];
    }
    Row r;
    r.has_data = true;
    r.last = j.i2c ? (n == j.nrows_m1) : all_wrap;
    r.smem_addr = j.smem + n * j.pitch;
    r.row_bytes = static_cast<uint16_t>(j.row_bytes);
    r.fill_nan = j.fill_nan;
    r.tf32 = j.tf32;
    r.swz = static_cast<uint8_t>(j.swz);
    r.pk = static_cast<uint8_t>(j.pk);
    r.cpl = j.cpl;
    r.cpl.bytes = static_cast<uint32_t>((n + 1) * j.row_bytes);
    if (!oob && j.dend > j.head) {
      r.head = static_cast<uint16_t>(j.head);
      r.dend = static_cast<uint16_t>(j.dend);
      r.gaddr = addr + j.head;
    }
    rows.push_back(r);
    if (r.last)
      break;
    EXPECT_FALSE(all_wrap) << "test bug: an im2col job that runs past its walk";
    for (int d = 1; d < kDims; ++d) {
      if (!wrap[d]) {
        pos[d] += j.es[d];
        a[d] += j.step[d];
        break;
      }
      pos[d] = j.lo[d];
      a[d] = j.alo[d];
    }
  }
  return rows;
}

uint64_t Rand64(std::mt19937_64& rng) {
  return rng();
}

// A random job: `max_rows` bounds the rows of a tile walk (the product of the dims' counts).
Job RandomJob(std::mt19937_64& rng, int max_rows) {
  Job j;
  const int kind = static_cast<int>(rng() % 16);
  if (kind == 0) {
    j.marker = true;
    j.cpl.kind = rng() % 2 == 0 ? pkg::CplError : pkg::CplDone;
    j.cpl.err = rng() % 16;
    j.cpl.cta = rng() % 16;
    j.cpl.mbar_addr = rng() & 0xFFFFFFFFu;
    j.cpl.bytes = rng() % 3 == 0 ? (rng() & 0xFFFFFFFFu) : 0;
    j.cpl.tag = rng() % 256;
    return j;
  }
  j.gaddr = Rand64(rng);
  int rows_left = max_rows;
  for (int d = 0; d < kDims; ++d) {
    // Neutral dims beyond the rank: position 0, es 1, lo = hi = 0, no address.
    j.es[d] = 1;
  }
  const int rank = 1 + static_cast<int>(rng() % 4);  // walker dims in use
  for (int d = 1; d <= rank; ++d) {
    const uint32_t es = 1 + static_cast<uint32_t>(rng() % 8);
    const int count = 1 + static_cast<int>(rng() % std::max(1, std::min(rows_left, 6)));
    rows_left = std::max(1, rows_left / count);
    const int64_t big = int64_t{1} << 33;
    int64_t start;
    switch (rng() % 12) {
      case 0:
        start = -static_cast<int64_t>(rng() % 20);
        break;  // below 0
      case 1:
        start = big - 1 - static_cast<int64_t>(es) * count - static_cast<int64_t>(rng() % 9);
        break;  // near the top of 34 bits
      default:
        start = static_cast<int64_t>(rng() % 40);
        break;
    }
    j.es[d] = es;
    j.coord[d] = start;
    j.lo[d] = start;
    j.hi[d] = start + static_cast<int64_t>(es) * (count - 1) + static_cast<int64_t>(rng() % es);
    switch (rng() % 8) {
      case 0:
        j.dim_m1[d] = static_cast<uint32_t>(rng());
        break;  // anything
      case 1:
        j.dim_m1[d] = static_cast<uint32_t>(rng() % 48);
        break;  // rows past the end
      default:
        j.dim_m1[d] = 0xFFFFFFFFu - static_cast<uint32_t>(rng() % 1000);
        break;
    }
    j.step[d] = rng() % 3 == 0 ? Rand64(rng) : (rng() % 4096) << (rng() % 40);
    j.alo[d] = Rand64(rng);
    j.astart[d] = j.alo[d];
  }
  // Random bits in the unused dim 0 (the walker must ignore it).
  j.step[0] = Rand64(rng);
  j.astart[0] = Rand64(rng);
  j.alo[0] = Rand64(rng);
  j.row_bytes = 1 + rng() % 2048;
  j.head = static_cast<uint32_t>(rng() % (j.row_bytes + 1));
  j.dend =
      rng() % 5 == 0 ? j.head : j.head + static_cast<uint32_t>(rng() % (j.row_bytes - j.head + 1));
  j.pitch = rng() % 4096;
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
  if (kind <= 4) {
    // im2col-like: the first pass starts above lo (coord > lo, astart != alo); the walk ends
    // by count before the outermost used dim runs out.
    j.i2c = true;
    for (int d = 1; d < rank; ++d) {
      const int64_t span = (j.hi[d] - j.lo[d]) / j.es[d];
      j.coord[d] = j.lo[d] + j.es[d] * static_cast<int64_t>(rng() % (span + 1));
      j.astart[d] = Rand64(rng);
    }
    // The outermost used dim (N) never wraps within the walk.
    j.coord[rank] = static_cast<int64_t>(rng() % 40);
    j.lo[rank] = j.coord[rank];
    j.hi[rank] = j.coord[rank] + int64_t{8} * 1024 * j.es[rank];
    const uint32_t limit = static_cast<uint32_t>(std::min(max_rows, 64));
    j.nrows_m1 = static_cast<uint32_t>(rng() % limit);
  }
  return j;
}

using Result = WalkResult;

TEST(NdWalker, RandomJobsWithGapsAndStalls) {
  VerilatedDut<Vtma_nd_walker> dut(11);
  dut->job_valid_i = 0;
  dut->row_ready_i = 0;
  dut.Reset();
  std::mt19937_64 rng(11);
  uint64_t rows = 0, oob = 0, im2col = 0, markers = 0;
  for (int round = 0; round < 40; ++round) {
    std::vector<Job> jobs;
    for (int i = 0; i < 25; ++i) {
      jobs.push_back(RandomJob(rng, 1 + static_cast<int>(rng() % 40)));
      for (const Row& r : ExpectedRows(jobs.back()))
        oob += r.has_data && r.dend == 0;
      im2col += jobs.back().i2c;
      markers += jobs.back().marker;
    }
    const int gap = static_cast<int>(rng() % 60);
    rows += RunJobList(dut, jobs, ExpectedRows, ToPkg, rng, gap, static_cast<int>(rng() % 60)).rows;
    ASSERT_FALSE(::testing::Test::HasFailure()) << "round " << round;
  }
  // The random jobs cover every kind of row.
  EXPECT_GT(rows, 4000u);
  EXPECT_GT(oob, 300u);
  EXPECT_GT(im2col, 100u);
  EXPECT_GT(markers, 30u);
  std::printf("%llu rows (%llu without a read), %llu im2col jobs, %llu markers\n",
              static_cast<unsigned long long>(rows), static_cast<unsigned long long>(oob),
              static_cast<unsigned long long>(im2col), static_cast<unsigned long long>(markers));
  EXPECT_FALSE(dut.GotError()) << "an assertion fired";
}

// Back-to-back jobs of >= 3 rows with an always-ready sink: one row per cycle, no bubble.
// (A job is accepted when its row 0 leaves P; the next job's fields then take a cycle on
// job_i before its valid (the interface rule), so after a 2-row job P idles one cycle. The
// controller delivers a job every 9 or more cycles, so the engine never sees it.)
TEST(NdWalker, OneRowPerCycleBackToBack) {
  VerilatedDut<Vtma_nd_walker> dut(12);
  dut->job_valid_i = 0;
  dut->row_ready_i = 0;
  dut.Reset();
  std::mt19937_64 rng(12);
  for (int round = 0; round < 10; ++round) {
    std::vector<Job> jobs;
    uint64_t rows = 0;
    while (jobs.size() < 30) {
      Job j = RandomJob(rng, 3 + static_cast<int>(rng() % 12));
      const size_t n = ExpectedRows(j).size();
      if (n < 3)
        continue;
      rows += n;
      jobs.push_back(j);
    }
    const Result r = RunJobList(dut, jobs, ExpectedRows, ToPkg, rng, 0, 0);
    EXPECT_EQ(r.rows, rows);
    EXPECT_EQ(r.busy_cycles, rows) << "bubbles between rows, round " << round;
  }
  EXPECT_FALSE(dut.GotError()) << "an assertion fired";
}

}  // namespace
}  // namespace tma::tb
