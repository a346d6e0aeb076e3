// SPDX-License-Identifier: Apache-2.0
//
// A6 (TIMED mode): the engine with its own L2-hit memory model against the H100 measurements of
// shared/research/anchors.md §2.4. Every expected number below is typed from that table; the
// tolerance is ±15 %. The issuing thread is played the way the anchors' `lat` and `raw` kernels
// run: arrive.expect_tx + one TMA per op (the thread is busy for the command port's interval),
// then one try_wait per op (trywait_success cycles when the phase has completed, else retried
// after trywait_retry), both from the calibration table (cosim/src/calibration.h).
#include <cstdio>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "calibration.h"
#include "test_host.h"

namespace {

using cosim_test::Load2D;
using cosim_test::Map2D;
using cosim_test::TestHost;

constexpr uint64_t kBase = 0x100000000ull;
constexpr uint64_t kCols = 4096;  // bf16: 8 KB row pitch, as in the anchors' tensor
constexpr uint64_t kRows = 512;
constexpr uint32_t kBf16 = 9;

bool Within(double got, double want, double tol = 0.15) {
  return got >= want * (1 - tol) && got <= want * (1 + tol);
}

// Latency of one load of `rows` x 128 B from issue to its complete_tx, the engine alone.
uint64_t Latency(uint32_t rows, uint32_t swizzle) {
  TestHost h(kBase, kCols * kRows * 2, 1, 232448);
  EXPECT_EQ(h.Create(OTMA_MODE_TIMED), OTMA_OK);
  const std::vector<uint8_t> map = Map2D(kBase, kBf16, kCols, kRows, kCols * 2, 64, rows, swizzle);
  EXPECT_FALSE(map.empty());
  uint64_t sum = 0;
  const int kOps = 4;  // distinct tiles; the first op also fills nothing (descriptor given)
  for (int i = 0; i < kOps; ++i) {
    otma_op op = Load2D(map, 64 * i, 0, 0, 232440);
    const uint64_t t0 = otma_cycle(h.e());
    EXPECT_EQ(otma_submit(h.e(), &op, nullptr), OTMA_OK);
    const size_t before = h.tx.size();
    while (h.tx.size() == before && otma_cycle(h.e()) - t0 < 100000) {
      otma_tick(h.e(), 1);
    }
    sum += h.tx.back().cycle - t0;
    otma_tick(h.e(), 200);  // next op starts on an idle command port
  }
  return sum / kOps;
}

TEST(TimedCalibration, L2HitLatencyByBoxSize) {
  // anchors.md §2.4 table (a), L2 hit, median cycles; no swizzle and 128B swizzle.
  struct Row {
    uint32_t rows;
    double none, sw128;
  };
  const Row kRowsTab[] = {
      {1, 295, 295}, {8, 342, 341}, {32, 355, 352}, {128, 475, 463}, {256, 646, 612}};
  for (const Row& r : kRowsTab) {
    const uint64_t a = Latency(r.rows, 0);
    const uint64_t b = Latency(r.rows, 3);
    std::printf(
        "box %6u B: latency %4llu (silicon %.0f, %+.1f %%), 128B swizzle %4llu (%.0f, "
        "%+.1f %%)\n",
        r.rows * 128, static_cast<unsigned long long>(a), r.none, 100.0 * (a - r.none) / r.none,
        static_cast<unsigned long long>(b), r.sw128, 100.0 * (b - r.sw128) / r.sw128);
    EXPECT_TRUE(Within(a, r.none)) << r.rows * 128 << " B: " << a << " vs " << r.none;
    EXPECT_TRUE(Within(b, r.sw128)) << r.rows * 128 << " B swizzled: " << b << " vs " << r.sw128;
  }
}

// NW issuing warps on one SM, each with `stages` loads in flight, `n` loads each; returns
// {cycles of the whole loop, cycles of the first `stages` issues of warp 0}.
struct Loop {
  uint64_t cycles = 0;
  uint64_t burst_cycles = 0;
};
Loop RunIssuers(int nw, uint32_t rows, int stages, int n) {
  const otma_impl::Calibration& cal = otma_impl::DefaultCalibration();
  TestHost h(kBase, kCols * kRows * 2, 1, 232448);
  EXPECT_EQ(h.Create(OTMA_MODE_TIMED, OTMA_FLAG_NO_DATA), OTMA_OK);
  const std::vector<uint8_t> map = Map2D(kBase, kBf16, kCols, kRows, kCols * 2, 64, rows);
  struct W {
    int issued = 0, waited = 0;
    uint64_t busy = 0;
    std::vector<otma_token> toks;
  };
  std::vector<W> ws(static_cast<size_t>(nw));
  std::set<otma_token> done;
  size_t seen = 0;
  const uint64_t t0 = otma_cycle(h.e());
  Loop out;
  int tile = 0;
  for (;;) {
    bool all = true;
    const uint64_t now = otma_cycle(h.e());
    for (; seen < h.events.size(); ++seen) {
      if (h.events[seen].event == OTMA_EV_DONE)
        done.insert(h.events[seen].op);
    }
    for (int wi = 0; wi < nw; ++wi) {
      W& w = ws[static_cast<size_t>(wi)];
      if (w.waited < n)
        all = false;
      if (now < w.busy)
        continue;
      if (w.issued < n && w.issued - w.waited < stages) {
        const int t = tile++;
        otma_op op = Load2D(map, 64 * (t % 64), static_cast<int32_t>(rows) * ((t / 64) % 2), 0, 8);
        otma_token tok = 0;
        if (otma_submit(h.e(), &op, &tok) == OTMA_OK) {
          w.toks.push_back(tok);
          ++w.issued;
          w.busy = now + cal.cmd_interval;
          if (wi == 0 && w.issued == stages)
            out.burst_cycles = w.busy - t0;
        } else {
          w.busy = now + 1;
        }
      } else if (w.waited < w.issued) {
        if (done.count(w.toks[static_cast<size_t>(w.waited)])) {
          w.busy = now + cal.trywait_success;
          ++w.waited;
        } else {
          w.busy = now + cal.trywait_retry;
        }
      }
    }
    if (all)
      break;
    otma_tick(h.e(), 1);
  }
  out.cycles = otma_cycle(h.e()) - t0;
  return out;
}

TEST(TimedCalibration, BackToBackIssueRate) {
  // anchors.md §2.4 table (b): back-to-back issue from one thread, burst of 32: 62.6 clk/op.
  const Loop l = RunIssuers(1, 1, 32, 32);
  const double per_op = l.burst_cycles / 32.0;
  std::printf("burst issue: %.1f clk/op (silicon 62.6)\n", per_op);
  EXPECT_TRUE(Within(per_op, 62.6)) << per_op;
}

TEST(TimedCalibration, SingleIssuerSteadyState) {
  // table (b): one thread, 32 in flight, one wait per op: 163 clk/op; 0.79 / 6.3 / 25.1 B/clk
  // for 128 B / 1 KB / 4 KB boxes.
  struct Row {
    uint32_t rows;
    double bpc;
  };
  for (const Row& r : {Row{1, 0.79}, Row{8, 6.3}, Row{32, 25.1}}) {
    const int n = 1024;
    const Loop l = RunIssuers(1, r.rows, 32, n);
    const double per_op = static_cast<double>(l.cycles) / n;
    const double bpc = r.rows * 128.0 * n / static_cast<double>(l.cycles);
    std::printf("steady state, %5u B boxes: %.1f clk/op (silicon 163), %.2f B/clk (%.2f)\n",
                r.rows * 128, per_op, bpc, r.bpc);
    EXPECT_TRUE(Within(per_op, 163)) << per_op;
    EXPECT_TRUE(Within(bpc, r.bpc)) << bpc;
  }
}

TEST(TimedCalibration, PerSmCeilingWithFourIssuers) {
  // table (b): 16 KB boxes, NW >= 4: 101.8-103.7 B/clk/SM (the thr kernel: 12 stages shared by
  // the warps, 3 each).
  const int n = 64;
  const Loop l = RunIssuers(4, 128, 3, n);
  const double bpc = 4.0 * n * 16384 / static_cast<double>(l.cycles);
  std::printf("4 issuers, 16 KB boxes: %.1f B/clk/SM (silicon 101.8-103.7)\n", bpc);
  EXPECT_TRUE(Within(bpc, 101.8)) << bpc;
}

}  // namespace
