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
  app.add_option("--trace,traces", traces, "otma-trace v1 files (.jsonl or .jsonl.gz)")
      ->required();
  app.add_option("--mode", mode, "functional | timed | rtl")
      ->check(CLI::IsMember({"functional", "timed", "rtl"}));
  app.add_flag("--check", opt.check, "mbarrier / async-proxy checker on");
  app.add_option("--mutate", opt.mutate,
                 "plant a bug in record --mutate-seq: misaligned, misaligned_coordinate, "
                 "invalid_coordinate, unsupported_reduction, expect_tx_low, expect_tx_high, "
                 "skip_release, multicast_unarmed");
  app.add_option("--mutate-seq", opt.mutate_seq, "sequence number of the mutated record");
  CLI11_PARSE(app, argc, argv);
  opt.mode = mode == "functional" ? OTMA_MODE_FUNCTIONAL :
             mode == "timed"      ? OTMA_MODE_TIMED : OTMA_MODE_RTL;
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
    rs.push_back(std::move(r));
  }
  otma_trace::PrintSummary(rs, opt, std::cout);
  std::cout << "tma cosim: " << (ok ? "PASS" : "FAIL") << "\n";
  return ok ? 0 : 1;
}
