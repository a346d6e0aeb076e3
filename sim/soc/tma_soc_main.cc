// SPDX-License-Identifier: Apache-2.0
//
// tma-soc: golden-case replay through the Verilated SoC top as a board drives it
// (SocCaseEngine), with the report and exit code of `tma run` (`tma run --engine soc` hands
// over to it):
//   tma-soc run FILE... [--filter REGEX] [-v|--verbose] [--junit FILE] [--fail-on-skip]
//                       [--sample N] [--shard K/N] [--limit CYCLES] [--max-case-bytes N]
//                       [--max-line-bytes N]
// (sim/run_args.h, the options tma-rtl takes too).
// A case the SoC cannot run is SKIP with the reason; the cases skipped because they do not fit
// the shell's memories are listed at the end. A case whose replay broke a rule (hang, SLVERR,
// a barrier that disagrees, ...) is FAIL with that note.
// Exit: 0 all run cases pass, 1 a failure (or a skip with --fail-on-skip, or no case ran),
// 2 usage or file error.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "sim/run_args.h"
#include "sim/soc/soc_case_engine.h"
#include "tma/case_runner.h"

namespace {

namespace m = tma::model;

int Usage() {
  std::cerr << "usage: tma-soc run FILE... [--filter REGEX] [-v|--verbose] [--junit FILE]\n"
               "                    [--fail-on-skip] [--sample N] [--shard K/N] [--limit CYCLES]\n"
               "                    [--max-case-bytes N] [--max-line-bytes N]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  tma::sim::RunArgs args;  // the replay options (sim/run_args.h)
  args.limit = 400000;
  if (!tma::sim::RunArgParser("tma-soc").Parse(argc, argv, &args)) {
    return Usage();
  }
  const std::vector<std::string>& files = args.files;
  m::RunOptions& opt = args.opt;
  const uint64_t limit = args.limit;
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
  std::printf("soc: %llu cycles (%llu of them on the PTX-readings build)\n",
              static_cast<unsigned long long>(engine.cycles()),
              static_cast<unsigned long long>(engine.ptx_cycles()));
  return rc;
}
