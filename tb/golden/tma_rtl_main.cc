// SPDX-License-Identifier: Apache-2.0
//
// tma-rtl: golden-case replay through the Verilated RTL, with the report and exit code of
// `tma run` (cmodel/cli/tma_main.cc):
//   tma-rtl run FILE... [--filter REGEX] [-v|--verbose] [--junit FILE] [--fail-on-skip]
//                       [--sample N] [--limit CYCLES] [--data-bytes 16|32|64]
// A case the RTL does not implement is SKIP (listed with the reason), never PASS; a case it
// claims (sim::RtlClaims: tile stores) answered `unsupported` is FAIL. A case whose replay broke
// a pin-level rule (hang, write outside the window, ...) is FAIL with that note.
// --sample N replays every Nth case of each file (deterministic: index % N == 0), for CI.
// --data-bytes picks the Verilated top's width (default 16; sim/tops.h).
// The last line gives the simulated cycles per second three ways: of the wall time, of the
// process's CPU time (file reading and the C++ model's replay included), and of the CPU time
// spent in the harness's cycle loop alone (the Verilated model and the harness components).
// Exit: 0 all run cases pass, 1 a failure (or a skip with --fail-on-skip, or no case ran),
// 2 usage or file error.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <string>
#include <vector>

#include "golden/rtl_engine.h"
#include "tma/case_runner.h"

namespace {

namespace m = tma::model;

int Usage() {
  std::cerr << "usage: tma-rtl run FILE... [--filter REGEX] [-v|--verbose] [--junit FILE]\n"
               "                    [--fail-on-skip] [--sample N] [--limit CYCLES]\n"
               "                    [--data-bytes 16|32|64]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) != "run") {
    return Usage();
  }
  std::vector<std::string> files;
  m::RunOptions opt;
  opt.program = "tma-rtl run";
  uint64_t limit = 200000;
  int data_bytes = 16;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](std::string* v) {
      size_t eq = a.find('=');
      if (eq != std::string::npos) {
        *v = a.substr(eq + 1);
        return true;
      }
      if (i + 1 < argc) {
        *v = argv[++i];
        return true;
      }
      return false;
    };
    std::string v;
    if (a == "-v" || a == "--verbose") {
      opt.verbose = true;
    } else if (a == "--fail-on-skip") {
      opt.fail_on_skip = true;
    } else if (a.rfind("--filter", 0) == 0 && value(&v)) {
      opt.filter = v;
    } else if (a.rfind("--junit", 0) == 0 && value(&v)) {
      opt.junit = v;
    } else if (a.rfind("--sample", 0) == 0 && value(&v)) {
      opt.sample = std::max(1, std::atoi(v.c_str()));
    } else if (a.rfind("--data-bytes", 0) == 0 && value(&v)) {
      data_bytes = std::atoi(v.c_str());
    } else if (a.rfind("--limit", 0) == 0 && value(&v)) {
      limit = std::strtoull(v.c_str(), nullptr, 10);
    } else if (!a.empty() && a[0] == '-') {
      std::cerr << "tma-rtl run: unknown option " << a << "\n";
      return Usage();
    } else {
      files.push_back(a);
    }
  }
  if (files.empty()) {
    return Usage();
  }

  tma::tb::RtlCaseEngine engine(data_bytes);
  if (!engine.Ok()) {
    std::cerr << "tma-rtl run: no Verilated top of DataBytes " << data_bytes << " (16, 32, 64)\n";
    return 2;
  }
  engine.set_case_limit(limit);
  // A replay that broke a pin-level rule (hang, write outside the window, ...) fails with the
  // engine's note, whatever the byte comparison said.
  opt.after_case = [&engine](const m::GoldenCase&, m::ReplayResult* r) {
    // (a skipped case's notes count only when the RTL claims the case: sim::RtlClaims)
    if (engine.last_note().empty() || (r->verdict == m::Verdict::kSkip && !engine.last_claimed())) {
      return;
    }
    const std::string line = "rtl: " + engine.last_note();
    if (r->verdict != m::Verdict::kFail) {
      r->verdict = m::Verdict::kFail;
      r->reason = line;
    }
    r->details.insert(r->details.begin(), line);
  };
  m::RunTotals totals;
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  const int rc = m::RunCaseFiles(files, engine, opt, std::cout, std::cerr, &totals);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  const double sim = engine.sim_seconds();
  const int ran = totals.pass + totals.fail + totals.skip;
  const double cyc = static_cast<double>(engine.cycles());
  std::printf(
      "rtl: %llu cycles in %.2f s (%.0f cycles/s, %.1f ms per case); DataBytes %d; "
      "cpu %.2f s (%.0f cycles/s), cycle loop %.2f s (%.0f cycles/s)\n",
      static_cast<unsigned long long>(engine.cycles()), wall, wall > 0 ? cyc / wall : 0.0,
      ran ? 1000.0 * wall / ran : 0.0, data_bytes, cpu, cpu > 0 ? cyc / cpu : 0.0, sim,
      sim > 0 ? cyc / sim : 0.0);
  return rc;
}
