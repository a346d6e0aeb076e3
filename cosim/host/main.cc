// SPDX-License-Identifier: Apache-2.0
//
// tma-cosim (also `tma cosim`): replays otma-trace v1 files through libopentma_cosim inside the
// Accel-Sim-contract host (replay.h) and prints a summary table. Exit status: 0 every file
// matched silicon (stage hashes, per-phase complete-tx sums, final buffers) with no fault,
// hang or checker report; 1 a difference; 2 a usage or file error.
#include <CLI/CLI.hpp>
#include <iostream>

#include "replay.h"

int main(int argc, char** argv) {
  CLI::App app{"Replay captured TMA traces through the co-simulation library"};
  std::vector<std::string> traces;
  std::string mode = "functional";
  otma_trace::Options opt;
  app.add_option("--trace,traces", traces, "otma-trace v1 files (.jsonl or .jsonl.gz)")->required();
  app.add_option("--mode", mode, "functional | timed | rtl")
      ->check(CLI::IsMember({"functional", "timed", "rtl"}));
  app.add_flag("--check", opt.check, "mbarrier / async-proxy checker on");
  app.add_flag("--host-memory", opt.host_memory,
               "rtl: the RTL's global-memory traffic goes through the host's memory model "
               "(32-byte requests, L2-hit latency, as TIMED) instead of being answered at once");
  app.add_option("--mutate", opt.mutate,
                 "plant a bug in record --mutate-seq: misaligned, misaligned_coordinate, "
                 "invalid_coordinate, unsupported_reduction, expect_tx_low, expect_tx_high, "
                 "phase_early, skip_release, multicast_unarmed");
  std::string mseq;
  app.add_option("--mutate-seq", mseq, "sequence number of the mutated record, or 'auto'");
  std::string expect_fault, expect_check;
  app.add_option("--expect-fault", expect_fault,
                 "exit 0 iff the mutated trace faults with this class and does not hang");
  app.add_option("--expect-check", expect_check,
                 "exit 0 iff the checker reports this class: tx_underflow, tx_overflow, "
                 "phase_early, unarmed, stage_overwrite");
  double timeline_tol = -1;
  app.add_option("--timeline-tolerance", timeline_tol,
                 "TIMED: also fail when the median simulated / silicon span of a trace with "
                 "timestamps is outside 1 +- this (A6: 0.25)");
  CLI11_PARSE(app, argc, argv);
  if (!mseq.empty())
    opt.mutate_seq = mseq == "auto" ? -2 : std::stoll(mseq);
  opt.mode = mode == "functional" ? OTMA_MODE_FUNCTIONAL
             : mode == "timed"    ? OTMA_MODE_TIMED
                                  : OTMA_MODE_RTL;
  std::vector<otma_trace::Result> rs;
  bool ok = true;
  for (const std::string& t : traces) {
    otma_trace::Result r;
    std::string err;
    if (!otma_trace::ReplayTrace(t, opt, &r, &err)) {
      std::cerr << "tma cosim: " << err << "\n";
      return 2;
    }
    ok = ok && r.ok();
    if (timeline_tol >= 0 && (r.timeline_ratio_median < 1 - timeline_tol ||
                              r.timeline_ratio_median > 1 + timeline_tol)) {
      std::cout << t << ": timeline ratio " << r.timeline_ratio_median << " outside 1 +- "
                << timeline_tol << "\n";
      ok = false;
    }
    rs.push_back(std::move(r));
  }
  otma_trace::PrintSummary(rs, opt, std::cout);
  if (!expect_fault.empty() || !expect_check.empty()) {
    // A mutation run: the planted bug must be found (and a fault must not hang the replay).
    const char* names[] = {"",        "tx_underflow",   "tx_overflow", "phase_early",
                           "unarmed", "stage_overwrite"};
    bool found = true;
    for (const auto& r : rs) {
      std::cout << "mutated record seq " << r.mutated_seq << "\n";
      if (r.mutated_seq < 0)
        found = false;
      if (!expect_fault.empty()) {
        found = found && !r.hang && !r.fault_classes.empty() && r.fault_classes[0] == expect_fault;
      }
      for (uint32_t c = 1; c < OTMA_CHK_NUM_CLASSES && !expect_check.empty(); ++c) {
        if (expect_check == names[c])
          found = found && r.check_by_class[c] > 0;
      }
    }
    std::cout << "tma cosim: planted bug " << (found ? "found" : "NOT found") << "\n";
    return found ? 0 : 1;
  }
  std::cout << "tma cosim: " << (ok ? "PASS" : "FAIL") << "\n";
  return ok ? 0 : 1;
}
