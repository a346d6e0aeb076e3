// SPDX-License-Identifier: Apache-2.0
//
// The job/row harness of the walker unit tests (tma_nd_walker, tma_w128_walker): a row
// printer for gtest and RunJobs, which offers jobs on the walker's job port under the walker
// job timing rule (a job's fields a cycle before its valid), drains its rows with random
// backpressure and checks them in order against the expected rows.

#ifndef TMA_TESTS_RTL_ENGINE_WALKER_HARNESS_H_
#define TMA_TESTS_RTL_ENGINE_WALKER_HARNESS_H_

#include <cstdint>
#include <deque>
#include <ostream>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "sim/autogen/tma_structs.h"
#include "verilated_dut.h"

namespace tma::pkg {
// Printed by gtest on a mismatch (found by argument-dependent lookup).
inline std::ostream& operator<<(std::ostream& os, const row_t& r) {
  return os << "{data " << r.has_data << " last " << r.last << " gaddr 0x" << std::hex << r.gaddr
            << " smem 0x" << r.smem_addr << std::dec << " L " << r.row_bytes << " [" << r.head
            << "," << r.dend << ") bytes " << r.cpl.bytes << " tag " << static_cast<int>(r.cpl.tag)
            << "}";
}
}  // namespace tma::pkg

namespace tma::tb {

struct WalkResult {
  uint64_t rows = 0;
  uint64_t busy_cycles = 0;  // cycles from the first row to the last
  uint64_t first_valid = 0;  // cycle of the first job's valid
  uint64_t first_row = 0;    // cycle of the first row on the output
};

// Offers `njobs` jobs (stage(i) packs job i onto the job port) and checks the rows against
// `expect`. gap_pct: chance that the source idles a cycle before a job; stall_pct: chance that
// the sink is not ready in a cycle.
template <class Model, class Stage>
WalkResult RunWalkerJobs(VerilatedDut<Model>& dut, size_t njobs, Stage stage,
                         std::deque<pkg::row_t> expect, std::mt19937_64& rng, int gap_pct,
                         int stall_pct) {
  using Row = pkg::row_t;
  WalkResult res;
  size_t next = 0;
  bool offering = false, seen_valid = false, seen_row = false;
  bool staged = false;  // the job's fields are on job_i, its valid follows in the next cycle
  uint64_t last_row = 0, cycle = 0;
  const size_t total = expect.size();
  while (!expect.empty() && cycle < 200000) {
    // As the frontend does, a job's fields are set a cycle before its valid rises (the
    // walker job timing rule for coord, lo, hi and es).
    if (staged) {
      offering = true;
      staged = false;
    } else if (!offering && next < njobs && static_cast<int>(rng() % 100) >= gap_pct) {
      stage(next);
      staged = true;
    }
    dut->job_valid_i = offering;
    dut->row_ready_i = static_cast<int>(rng() % 100) >= stall_pct;
    dut.Settle();
    if (offering && !seen_valid) {
      seen_valid = true;
      res.first_valid = cycle;
    }
    if (dut->row_valid_o && !seen_row) {
      seen_row = true;
      res.first_row = cycle;
    }
    const bool job_fire = dut->job_valid_i && dut->job_ready_o;
    if (dut->row_valid_o && dut->row_ready_i) {
      const Row got = pkg::Unpack<Row>(dut->row_o.data());
      EXPECT_EQ(got, expect.front()) << "row " << (total - expect.size());
      if (!(got == expect.front()))
        return res;
      expect.pop_front();
      last_row = cycle;
      ++res.rows;
    }
    dut.Cycle();
    ++cycle;
    if (job_fire) {
      offering = false;
      ++next;
    }
  }
  EXPECT_TRUE(expect.empty()) << expect.size() << " rows missing";
  res.busy_cycles = last_row - res.first_row + 1;
  for (int i = 0; i < 4; ++i) {
    dut->job_valid_i = 0;
    dut.Cycle();
  }
  EXPECT_FALSE(dut->row_valid_o);
  EXPECT_FALSE(dut->busy_o);
  return res;
}

// RunWalkerJobs over a list of a test's jobs: expected_rows(job) gives a job's rows in order,
// to_pkg(job) its job_t, packed onto the job port when the job is staged.
template <class Model, class Job, class ExpectedRows, class ToPkg>
WalkResult RunJobList(VerilatedDut<Model>& dut, const std::vector<Job>& jobs,
                      ExpectedRows expected_rows, ToPkg to_pkg, std::mt19937_64& rng, int gap_pct,
                      int stall_pct) {
  std::deque<pkg::row_t> expect;
  for (const Job& j : jobs) {
    for (const pkg::row_t& r : expected_rows(j))
      expect.push_back(r);
  }
  return RunWalkerJobs(
      dut, jobs.size(), [&](size_t i) { pkg::Pack(to_pkg(jobs[i]), dut->job_i.data()); },
      std::move(expect), rng, gap_pct, stall_pct);
}

}  // namespace tma::tb

#endif  // TMA_TESTS_RTL_ENGINE_WALKER_HARNESS_H_
