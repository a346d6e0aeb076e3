// SPDX-License-Identifier: Apache-2.0
//
// tma-rtl: golden-case replay through the Verilated RTL, with the report and exit code of
// `tma run` (cmodel/cli/tma_main.cc):
//   tma-rtl run FILE... [--filter REGEX] [-v|--verbose] [--junit FILE] [--fail-on-skip]
//                       [--sample N] [--limit CYCLES] [--data-bytes 16|32|64]
//                       [--max-case-bytes N] [--max-line-bytes N]   (limits: golden.h)
// A case the RTL does not implement is SKIP (listed with the reason), never PASS. A case whose
// replay broke a pin-level rule (hang, write outside the window, ...) is FAIL with that note.
// --sample N replays every Nth case of each file (deterministic: index % N == 0), for CI.
// --data-bytes picks the Verilated top's width (default 16; sim/tops.h).
// The last line gives the simulated cycles per second three ways: of the wall time, of the
// process's CPU time (file reading and the C++ model's replay included), and of the CPU time
// spent in the harness's cycle loop alone (the Verilated model and the harness components).
// Exit: 0 all run cases pass, 1 a failure (or a skip with --fail-on-skip, or no case ran),
// 2 usage or file error.
#include <chrono>
#include <cstdint>
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
               "                    [--data-bytes 16|32|64] [--max-case-bytes N]\n"
               "                    [--max-line-bytes N]\n";
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
  // Every option's value is checked: a number that does not parse, is negative or is out of
  // range is a usage error (exit 2), never a default.
  auto number = [](const std::string& opt, const std::string& v, uint64_t lo, uint64_t hi,
                   uint64_t* out) {
    uint64_t x = 0;
    bool ok = !v.empty() && v.size() <= 20;
    for (char ch : v) {
      ok = ok && ch >= '0' && ch <= '9' && x <= (UINT64_MAX - 9) / 10;
      x = ok ? x * 10 + static_cast<uint64_t>(ch - '0') : x;
    }
    if (!ok || x < lo || x > hi) {
      std::cerr << "tma-rtl run: " << opt << " " << v << ": not a number in [" << lo << ", " << hi
                << "]\n";
      return false;
    }
    *out = x;
    return true;
  };
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    // "--name VALUE" or "--name=VALUE"; *name is set to the option's name.
    std::string name = a.substr(0, a.find('='));
    auto value = [&](std::string* v) {
      if (name.size() < a.size()) {
        *v = a.substr(name.size() + 1);
        return true;
      }
      if (i + 1 < argc) {
        *v = argv[++i];
        return true;
      }
      std::cerr << "tma-rtl run: " << name << " needs a value\n";
      return false;
    };
    std::string v;
    uint64_t n = 0;
    if (a == "-v" || a == "--verbose") {
      opt.verbose = true;
    } else if (a == "--fail-on-skip") {
      opt.fail_on_skip = true;
    } else if (name == "--filter") {
      if (!value(&opt.filter)) {
        return Usage();
      }
    } else if (name == "--junit") {
      if (!value(&opt.junit)) {
        return Usage();
      }
    } else if (name == "--sample") {
      if (!value(&v) || !number(name, v, 1, INT32_MAX, &n)) {
        return Usage();
      }
      opt.sample = static_cast<int>(n);
    } else if (name == "--data-bytes") {
      if (!value(&v) || !number(name, v, 16, 64, &n) || (n != 16 && n != 32 && n != 64)) {
        std::cerr << "tma-rtl run: --data-bytes is 16, 32 or 64\n";
        return Usage();
      }
      data_bytes = static_cast<int>(n);
    } else if (name == "--limit") {
      if (!value(&v) || !number(name, v, 1, uint64_t{1} << 40, &limit)) {
        return Usage();
      }
    } else if (name == "--max-case-bytes") {
      if (!value(&v) || !number(name, v, 1, uint64_t{1} << 40, &opt.limits.max_case_bytes)) {
        return Usage();
      }
    } else if (name == "--max-line-bytes") {
      if (!value(&v) || !number(name, v, 1, uint64_t{1} << 40, &opt.limits.max_line_bytes)) {
        return Usage();
      }
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
