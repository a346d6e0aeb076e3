// SPDX-License-Identifier: Apache-2.0
//
// tma-board: golden-case replay on the ULX3S board top through its UART (BoardCaseEngine over
// the UARTBone link), with the report and exit code of `tma run` (`tma run --engine board`
// hands over to it):
//   tma-board run FILE... --link uart:PATH[@BAUD] [--filter REGEX] [-v|--verbose]
//                 [--junit FILE] [--fail-on-skip] [--sample N] [--shard K/N] [--max-case-bytes N]
//                 [--max-line-bytes N] [--max-polls N] [--reply-timeout-ms MS]
//                 [--build default|load90]
// (the replay options of sim/run_args.h, every number range-checked, and the board's own).
// PATH is the board's serial port (/dev/ttyUSB0 at 3000000 baud, the default) or the pty the
// Verilated board top prints (tma-board-sim). A case that does not fit the board's memories is
// SKIP and listed at the end; a replay that broke a rule (hang, a host access answered with an
// error, a barrier that disagrees) is FAIL with that note. A read waits up to --reply-timeout-ms
// (default 60000) for its reply: the bytes written before it (a global-memory upload) go
// through the UART first, which takes long on a simulated board. --build says what the board's
// engine was built with: default (the board top's parameters: every mode, the write direction)
// or load90 (Arch 90, StorePath 0: the bitstream build_bitstream.py makes by default); a case
// outside the build's claims is SKIP with the reason, as in tma-rtl.
// Exit: 0 all run cases pass, 1 a failure (or a skip with --fail-on-skip, or no case ran),
// 2 usage, file or link error.
#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "boards/ulx3s/host/board_case_engine.h"
#include "sim/run_args.h"
#include "tma/case_runner.h"
#include "tma/fw/uartbone_link.h"

namespace {

namespace m = tma::model;

int Usage() {
  std::cerr << "usage: tma-board run FILE... --link uart:PATH[@BAUD] [--filter REGEX]\n"
               "                 [-v|--verbose] [--junit FILE] [--fail-on-skip] [--sample N] "
               "[--shard K/N]\n"
               "                 [--max-case-bytes N] [--max-line-bytes N] [--max-polls N]\n"
               "                 [--reply-timeout-ms MS] [--build default|load90]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  // The replay options every tool takes (sim/run_args.h), plus the board's own.
  tma::sim::RunArgs args;
  std::string link_spec;
  uint64_t max_polls = 20000;
  uint64_t reply_ms = 60000;
  tma::board::BoardBuild build;
  const tma::sim::RunArgParser parser("tma-board");
  const auto board_option = [&](const std::string& name,
                                const std::function<bool(std::string*)>& value) {
    std::string v;
    if (name == "--link") {
      return value(&link_spec) ? 1 : -1;
    }
    if (name == "--max-polls") {
      return value(&v) && parser.Number(name, v, 1, uint64_t{1} << 40, &max_polls) ? 1 : -1;
    }
    if (name == "--build") {
      if (!value(&v) || (v != "default" && v != "load90")) {
        std::cerr << "tma-board run: --build takes default or load90\n";
        return -1;
      }
      build.load90 = v == "load90";
      return 1;
    }
    if (name == "--reply-timeout-ms") {
      return value(&v) && parser.Number(name, v, 1, 3600000, &reply_ms) ? 1 : -1;
    }
    return 0;
  };
  if (!parser.Parse(argc, argv, &args, board_option) || link_spec.empty()) {
    return Usage();
  }
  if (args.limit != 0) {
    std::cerr << "tma-board run: --limit counts simulated cycles; the board is polled "
                 "(--max-polls)\n";
    return Usage();
  }
  const std::vector<std::string>& files = args.files;
  m::RunOptions& opt = args.opt;
  std::string path, err;
  uint32_t baud = 0;
  if (!tma::fw::ParseUartSpec(link_spec, &path, &baud, &err)) {
    std::cerr << "tma-board run: " << err << "\n";
    return 2;
  }
  std::unique_ptr<tma::fw::UartBoneLink> link = tma::fw::UartBoneLink::Open(path, baud, &err);
  if (!link) {
    std::cerr << "tma-board run: " << err << "\n";
    return 2;
  }
  link->set_reply_timeout_ms(static_cast<int>(reply_ms));
  tma::board::BoardCaseEngine engine(link.get(), build);
  engine.set_max_polls(max_polls);
  if (!engine.Probe(&err)) {
    std::cerr << "tma-board run: " << path << ": " << err << "\n";
    return 2;
  }
  opt.after_case = [&engine](const m::GoldenCase&, m::ReplayResult* r) {
    if (r->verdict == m::Verdict::kSkip || engine.last_note().empty()) {
      return;
    }
    const std::string line = "board: " + engine.last_note();
    if (r->verdict != m::Verdict::kFail) {
      r->verdict = m::Verdict::kFail;
      r->reason = line;
    }
    r->details.insert(r->details.begin(), line);
  };
  const auto t0 = std::chrono::steady_clock::now();
  const int rc = m::RunCaseFiles(files, engine, opt, std::cout, std::cerr);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("board: %zu case(s) skipped for size (the board's memories):\n",
              engine.size_skips().size());
  for (const std::string& k : engine.size_skips()) {
    std::printf("  %s\n", k.c_str());
  }
  std::printf("board: %s at %u baud, %.1f s\n", path.c_str(), baud, s);
  return rc;
}
