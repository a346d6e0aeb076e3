// SPDX-License-Identifier: Apache-2.0
//
// Unit test of the bulk async-group unit (tma_bulk_group) against the C++ model's
// BulkGroupTracker (cmodel/src/bulk_group.cc: the seed's commit_group / wait_group{.read}
// semantics), one tracker per issuer, plus the error rule of the unit's contract
// (docs/interfaces.md "Bulk async-group unit": read-done carries the OR of its operations'
// read-event errors, done the OR of all their events' errors):
//   - completions come per issuer in group order: read-done of group g, then done of g, and
//     g + 1 after g (sequence numbers mod 2^SeqW), with the right error flag;
//   - soundness: when the unit reports read-done (done) of group g, the model says that
//     `wait_group.read` (`wait_group`) would pass with g + 1 groups complete;
//   - completeness: after the stimulus pauses, the unit has reported every group the model
//     says is complete, read-done and done alike;
//   - req_seq_o of an operation is the sequence number of the group it joins.
// Stimulus: random interleavings of 16 (or 3) issuers' operations (store / reduce: read and
// write event; load tracked for its map read: read event; prefetch: none) and commits (empty
// groups included); events of any pending operation in random order (a write event never
// before its read event, sometimes in the same cycle), random errors, random backpressure on
// the completion stream, pauses. A small configuration (MaxGroups 2, CntW 2, SeqW 2) drives the
// commit stall (ring full), the counter stall (group full) and the sequence wrap.
// The comparison can fail: a reference that makes loads wait for writes and one that drops
// read errors from done must each be caught.

#include "tma/bulk_group.h"

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "Vtma_bulk_group.h"
#include "Vtma_bulk_group_small.h"
#include "verilated_dut.h"

namespace tma::tb {
namespace {

using model::BulkGroupTracker;
using model::BulkOpKind;

struct Options {
  bool loads_wait_for_writes = false;  // wrong reference: a load counted as a store
  bool done_ignores_read_err = false;  // wrong reference: done's error without read errors
};

struct Op {
  uint64_t id = 0;
  int issuer = 0;
  uint64_t group = 0;           // commit index of its group (per issuer)
  bool rd = false, wr = false;  // events still to send
  bool rd_sent = false;
  uint64_t ready_cycle = 0;  // events allowed from this cycle on
};

struct Stats {
  uint64_t cycles = 0, ops = 0, commits = 0, read_done = 0, done = 0, errors = 0;
  uint64_t failures = 0;
  std::string first;
  bool assert_error = false;
};

template <class Model>
class Bench {
 public:
  Bench(uint32_t seed, int issuers, int seq_bits, Options opt)
      : dut_(seed),
        rng_(seed * 2654435761u + 1),
        n_(issuers),
        seq_mask_((1u << seq_bits) - 1),
        opt_(opt),
        trk_(issuers),
        commits_(issuers, 0),
        emitted_rd_(issuers, 0),
        emitted_dn_(issuers, 0) {}

  int Uni(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool Chance(int pct) { return Uni(0, 99) < pct; }

  void Fail(const std::string& what) {
    ++st_.failures;
    if (st_.first.empty()) {
      st_.first = what + " (cycle " + std::to_string(st_.cycles) + ")";
    }
  }

  // Groups of issuer i the model says are complete (read_only: for wait_group.read).
  uint64_t ModelComplete(int i, bool read_only) const {
    return commits_[i] - static_cast<uint64_t>(trk_[i].PendingGroups(read_only));
  }

  // One cycle. gen: new requests and events may start; ready_pct: completion backpressure.
  void Step(bool gen, int req_pct, int ev_pct, int ready_pct, int commit_pct) {
    // ---- request (held until taken) ----
    if (!req_.valid && gen && Chance(req_pct)) {
      req_.valid = true;
      req_.issuer = Uni(0, n_ - 1);
      req_.commit = Chance(commit_pct);
      const int k = Uni(0, 9);
      req_.kind = k < 6   ? (Chance(50) ? BulkOpKind::kStore : BulkOpKind::kReduce)
                  : k < 9 ? BulkOpKind::kLoad
                          : BulkOpKind::kPrefetch;
    }
    const bool rd_ev = req_.kind != BulkOpKind::kPrefetch;
    const bool wr_ev = req_.kind == BulkOpKind::kStore || req_.kind == BulkOpKind::kReduce;
    dut_->req_valid_i = req_.valid;
    dut_->req_issuer_i = req_.issuer;
    dut_->req_commit_i = req_.commit;
    dut_->req_rd_i = !req_.commit && rd_ev;
    dut_->req_wr_i = !req_.commit && wr_ev;

    // ---- events: a random pending operation's read, or write after its read ----
    int rd_pick = -1;
    int wr_pick = -1;
    if (gen && !pending_.empty() && Chance(ev_pct)) {
      rd_pick = Uni(0, static_cast<int>(pending_.size()) - 1);
      const Op& o = pending_[rd_pick];
      if (o.ready_cycle > st_.cycles || !o.rd) {
        rd_pick = -1;
      }
    }
    if (gen && !pending_.empty() && Chance(ev_pct)) {
      wr_pick = Uni(0, static_cast<int>(pending_.size()) - 1);
      const Op& o = pending_[wr_pick];
      // A write event needs its read event sent before or in this cycle.
      if (o.ready_cycle > st_.cycles || !o.wr || (o.rd && wr_pick != rd_pick)) {
        wr_pick = -1;
      }
    }
    const bool rd_err = rd_pick >= 0 && Chance(3);
    const bool wr_err = wr_pick >= 0 && Chance(3);
    dut_->rd_valid_i = rd_pick >= 0;
    dut_->wr_valid_i = wr_pick >= 0;
    if (rd_pick >= 0) {
      dut_->rd_issuer_i = pending_[rd_pick].issuer;
      dut_->rd_seq_i = static_cast<uint32_t>(pending_[rd_pick].group) & seq_mask_;
      dut_->rd_err_i = rd_err;
    }
    if (wr_pick >= 0) {
      dut_->wr_issuer_i = pending_[wr_pick].issuer;
      dut_->wr_seq_i = static_cast<uint32_t>(pending_[wr_pick].group) & seq_mask_;
      dut_->wr_err_i = wr_err;
    }
    dut_->cpl_ready_i = Chance(ready_pct);
    dut_.Settle();

    if ((rd_pick >= 0 && !dut_->rd_ready_o) || (wr_pick >= 0 && !dut_->wr_ready_o)) {
      Fail("an event was not taken");
    }
    const bool req_hs = req_.valid && dut_->req_ready_o;
    if (req_hs && !req_.commit &&
        dut_->req_seq_o != (static_cast<uint32_t>(commits_[req_.issuer]) & seq_mask_)) {
      Fail("req_seq_o " + std::to_string(dut_->req_seq_o) + " for issuer " +
           std::to_string(req_.issuer) + ", expected group " +
           std::to_string(commits_[req_.issuer]));
    }

    // ---- completion ----
    if (dut_->cpl_valid_o && dut_->cpl_ready_i) {
      const int i = dut_->cpl_issuer_o;
      const bool done = dut_->cpl_done_o;
      if (i >= n_) {
        Fail("completion for issuer " + std::to_string(i));
      } else {
        uint64_t& em = done ? emitted_dn_[i] : emitted_rd_[i];
        const std::string what = std::string(done ? "done" : "read-done") + " of issuer " +
                                 std::to_string(i) + " group " + std::to_string(em);
        if (dut_->cpl_seq_o != (static_cast<uint32_t>(em) & seq_mask_)) {
          Fail(what + ": sequence " + std::to_string(dut_->cpl_seq_o));
        }
        if (done && emitted_dn_[i] >= emitted_rd_[i]) {
          Fail(what + " before its read-done");
        }
        if (ModelComplete(i, !done) < em + 1) {
          Fail(what + ": the model says it is not complete");
        }
        const GroupErr& ge = gerr_[{i, em}];
        const bool want = done ? (ge.wr || (ge.rd && !opt_.done_ignores_read_err)) : ge.rd;
        if (dut_->cpl_err_o != want) {
          Fail(what + ": err " + std::to_string(dut_->cpl_err_o));
        }
        st_.errors += dut_->cpl_err_o;
        ++em;
        ++(done ? st_.done : st_.read_done);
      }
    }

    dut_.Cycle();

    // ---- the model takes what the RTL took this cycle ----
    if (req_hs) {
      const int i = req_.issuer;
      if (req_.commit) {
        trk_[i].CommitGroup();
        ++commits_[i];
        ++st_.commits;
      } else {
        Op o;
        o.id = next_id_++;
        o.issuer = i;
        o.group = commits_[i];
        o.rd = rd_ev;
        o.wr = wr_ev;
        o.ready_cycle = st_.cycles + 1;
        const BulkOpKind k = (opt_.loads_wait_for_writes && req_.kind == BulkOpKind::kLoad)
                                 ? BulkOpKind::kStore
                                 : req_.kind;
        trk_[i].Issue(o.id, k);
        if (o.rd || o.wr) {
          pending_.push_back(o);
        }
        ++st_.ops;
      }
      req_.valid = false;
    }
    // Events, read first (a same-cycle pair: the write implies the read, as in the model).
    if (rd_pick >= 0) {
      Op& o = pending_[rd_pick];
      trk_[o.issuer].Complete(o.id, true, false);
      gerr_[{o.issuer, o.group}].rd |= rd_err;
      o.rd = false;
    }
    if (wr_pick >= 0) {
      Op& o = pending_[wr_pick];
      trk_[o.issuer].Complete(o.id, true, true);
      gerr_[{o.issuer, o.group}].wr |= wr_err;
      o.wr = false;
    }
    for (size_t k = 0; k < pending_.size();) {
      if (!pending_[k].rd && !pending_[k].wr) {
        pending_[k] = pending_.back();
        pending_.pop_back();
      } else {
        ++k;
      }
    }
    ++st_.cycles;
  }

  // Every group the model says is complete has been reported.
  void CheckComplete() {
    for (int i = 0; i < n_; ++i) {
      if (emitted_rd_[i] != ModelComplete(i, true) || emitted_dn_[i] != ModelComplete(i, false)) {
        Fail("issuer " + std::to_string(i) + ": reported " + std::to_string(emitted_rd_[i]) +
             " read-done / " + std::to_string(emitted_dn_[i]) + " done, the model has " +
             std::to_string(ModelComplete(i, true)) + " / " +
             std::to_string(ModelComplete(i, false)));
      }
    }
  }

  Stats Run(uint64_t cycles, int req_pct, int ev_pct, int ready_pct, int commit_pct) {
    dut_->req_valid_i = 0;
    dut_->rd_valid_i = 0;
    dut_->wr_valid_i = 0;
    dut_->cpl_ready_i = 0;
    dut_.Reset();
    while (st_.cycles < cycles) {
      const uint64_t burst = static_cast<uint64_t>(Uni(50, 2000));
      for (uint64_t c = 0; c < burst; ++c) {
        Step(true, req_pct, ev_pct, ready_pct, commit_pct);
      }
      // Pause: only the completions drain.
      for (int c = 0; c < 4 * n_ + 20; ++c) {
        Step(false, 0, 0, 100, 0);
      }
      CheckComplete();
    }
    // Finish: every operation's events, every issuer committed, everything reported.
    for (int guard = 0; req_.valid && guard < 1000000; ++guard) {
      Step(true, 0, 100, 100, 0);  // (a commit may wait for events)
    }
    for (int guard = 0; !pending_.empty() && guard < 1000000; ++guard) {
      Step(true, 0, 100, 100, 0);
    }
    for (int i = 0; i < n_; ++i) {
      req_ = {true, i, true, BulkOpKind::kPrefetch};
      for (int guard = 0; req_.valid && guard < 100000; ++guard) {
        Step(true, 0, 100, 100, 0);
      }
    }
    for (int c = 0; c < 4 * n_ + 20; ++c) {
      Step(false, 0, 0, 100, 0);
    }
    CheckComplete();
    for (int i = 0; i < n_; ++i) {
      if (emitted_dn_[i] != commits_[i]) {
        Fail("issuer " + std::to_string(i) + " has groups never done");
      }
    }
    if (dut_->busy_o) {
      Fail("busy after everything completed");
    }
    st_.assert_error = dut_.GotError();
    return st_;
  }

 private:
  struct Req {
    bool valid = false;
    int issuer = 0;
    bool commit = false;
    BulkOpKind kind = BulkOpKind::kStore;
  };
  struct GroupErr {
    bool rd = false, wr = false;
  };

  VerilatedDut<Model> dut_;
  std::mt19937 rng_;
  int n_;
  uint32_t seq_mask_;
  Options opt_;
  std::vector<BulkGroupTracker> trk_;
  std::vector<uint64_t> commits_, emitted_rd_, emitted_dn_;
  std::map<std::pair<int, uint64_t>, GroupErr> gerr_;
  std::vector<Op> pending_;
  Req req_;
  uint64_t next_id_ = 1;
  Stats st_;
};

void Report(const Stats& s, const char* what) {
  std::printf(
      "%s: %llu cycles, %llu ops, %llu groups, %llu read-done + %llu done checked (%llu "
      "with error)\n",
      what, static_cast<unsigned long long>(s.cycles), static_cast<unsigned long long>(s.ops),
      static_cast<unsigned long long>(s.commits), static_cast<unsigned long long>(s.read_done),
      static_cast<unsigned long long>(s.done), static_cast<unsigned long long>(s.errors));
}

TEST(BulkGroup, SixteenIssuersMatchModel) {
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    Bench<Vtma_bulk_group> b(seed, 16, 8, {});
    const Stats s = b.Run(60000, 70, 60, 70, 25);
    Report(s, "16 issuers");
    EXPECT_EQ(s.failures, 0u) << s.first;
    EXPECT_FALSE(s.assert_error);
    EXPECT_GT(s.commits, 5000u);
    EXPECT_GT(s.errors, 50u);
  }
}

TEST(BulkGroup, SmallRingStallsAndWraps) {
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    Bench<Vtma_bulk_group_small> b(seed, 3, 2, {});
    const Stats s = b.Run(60000, 90, 30, 50, 30);
    Report(s, "3 issuers, 2 groups, 2-bit counters");
    EXPECT_EQ(s.failures, 0u) << s.first;
    EXPECT_FALSE(s.assert_error);
    EXPECT_GT(s.commits, 3000u);
  }
}

TEST(BulkGroup, FullRateOneCompletionPerCycle) {
  // Many issuers commit empty groups: each group is one read-done and one done, and the unit
  // reports one per cycle while the completion stream is always ready.
  Bench<Vtma_bulk_group> b(7, 16, 8, {});
  const Stats s = b.Run(20000, 100, 0, 100, 100);
  Report(s, "empty groups");
  EXPECT_EQ(s.failures, 0u) << s.first;
  EXPECT_EQ(s.read_done + s.done, 2 * s.commits);
  EXPECT_GT(10 * (s.read_done + s.done), 9 * s.cycles);  // > 0.9 completions per cycle
}

TEST(BulkGroup, WrongReferencesAreCaught) {
  // One Verilated model at a time: two live models of one class hang in their destructors
  // (Verilator 5.006).
  {
    Options a;
    a.loads_wait_for_writes = true;
    Bench<Vtma_bulk_group> b(3, 16, 8, a);
    EXPECT_GT(b.Run(20000, 70, 60, 70, 25).failures, 0u) << "loads waiting for writes";
  }
  {
    Options o;
    o.done_ignores_read_err = true;
    Bench<Vtma_bulk_group> b(3, 16, 8, o);
    EXPECT_GT(b.Run(20000, 70, 60, 70, 25).failures, 0u) << "done without read errors";
  }
}

}  // namespace
}  // namespace tma::tb
