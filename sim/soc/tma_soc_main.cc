// SPDX-License-Identifier: Apache-2.0
//
// tma-soc: golden-case replay through the Verilated SoC top as a board drives it
// (SocCaseEngine), with the report and exit code of `tma run` (`tma run --engine soc` hands
// over to it):
//   tma-soc run FILE... [--filter REGEX] [-v|--verbose] [--junit FILE] [--fail-on-skip]
//                       [--sample N] [--limit CYCLES]
// A case the SoC cannot run is SKIP with the reason; the cases skipped because they do not fit
// the shell's memories are listed at the end. A case whose replay broke a rule (hang, SLVERR,
// a barrier that disagrees, ...) is FAIL with that note.
// Exit: 0 all run cases pass, 1 a failure (or a skip with --fail-on-skip, or no case ran),
// 2 usage or file error.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "sim/soc/soc_case_engine.h"
#include "tma/case_runner.h"

namespace {

namespace m = tma::model;

int Usage() {
  std::cerr << "usage: tma-soc run FILE... [--filter REGEX] [-v|--verbose] [--junit FILE]\n"
               "                    [--fail-on-skip] [--sample N] [--limit CYCLES]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) != "run") {
    return Usage();
  }
  std::vector<std::string> files;
  m::RunOptions opt;
  opt.program = "tma-soc run";
  uint64_t limit = 400000;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](std::string* v) {
      const size_t eq = a.find('=');
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
    } else if (a.rfind("--limit", 0) == 0 && value(&v)) {
      limit = std::strtoull(v.c_str(), nullptr, 10);
    } else if (!a.empty() && a[0] == '-') {
      std::cerr << "tma-soc run: unknown option " << a << "\n";
      return Usage();
    } else {
      files.push_back(a);
    }
  }
  if (files.empty()) {
    return Usage();
  }
  tma::sim::SocCaseEngine engine;
  engine.set_case_limit(limit);
  opt.after_case = [&engine](const m::GoldenCase&, m::ReplayResult* r) {
    if (r->verdict == m::Verdict::kSkip || engine.last_note().empty()) {
      return;
    }
    const std::string line = "soc: " + engine.last_note();
    if (r->verdict != m::Verdict::kFail) {
      r->verdict = m::Verdict::kFail;
      r->reason = line;
    }
    r->details.insert(r->details.begin(), line);
  };
  m::RunTotals totals;
  const int rc = m::RunCaseFiles(files, engine, opt, std::cout, std::cerr, &totals);
  std::printf("soc: %zu case(s) skipped for size (the shell's memories):\n",
              engine.size_skips().size());
  for (const std::string& s : engine.size_skips()) {
    std::printf("  %s\n", s.c_str());
  }
  std::printf("soc: %llu cycles\n", static_cast<unsigned long long>(engine.cycles()));
  return rc;
}
