// SPDX-License-Identifier: Apache-2.0
//
// tma-board: golden-case replay on the ULX3S board top through its UART (BoardCaseEngine over
// the UARTBone link), with the report and exit code of `tma run` (`tma run --engine board`
// hands over to it):
//   tma-board run FILE... --link uart:PATH[@BAUD] [--filter REGEX] [-v|--verbose]
//                 [--junit FILE] [--fail-on-skip] [--sample N] [--max-polls N]
//                 [--reply-timeout-ms MS]
// PATH is the board's serial port (/dev/ttyUSB0 at 3000000 baud, the default) or the pty the
// Verilated board top prints (tma-board-sim). A case that does not fit the board's memories is
// SKIP and listed at the end; a replay that broke a rule (hang, a host access answered with an
// error, a barrier that disagrees) is FAIL with that note. A read waits up to --reply-timeout-ms
// (default 60000) for its reply: the bytes written before it (a global-memory upload) go
// through the UART first, which takes long on a simulated board.
// Exit: 0 all run cases pass, 1 a failure (or a skip with --fail-on-skip, or no case ran),
// 2 usage, file or link error.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "boards/ulx3s/host/board_case_engine.h"
#include "tma/case_runner.h"
#include "tma/fw/uartbone_link.h"

namespace {

namespace m = tma::model;

int Usage() {
  std::cerr << "usage: tma-board run FILE... --link uart:PATH[@BAUD] [--filter REGEX]\n"
               "                 [-v|--verbose] [--junit FILE] [--fail-on-skip] [--sample N]\n"
               "                 [--max-polls N] [--reply-timeout-ms MS]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) != "run") {
    return Usage();
  }
  std::vector<std::string> files;
  m::RunOptions opt;
  opt.program = "tma-board run";
  std::string link_spec;
  uint64_t max_polls = 20000;
  int reply_ms = 60000;
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
    } else if (a.rfind("--link", 0) == 0 && value(&v)) {
      link_spec = v;
    } else if (a.rfind("--reply-timeout-ms", 0) == 0 && value(&v)) {
      reply_ms = std::max(1, std::atoi(v.c_str()));
    } else if (a.rfind("--max-polls", 0) == 0 && value(&v)) {
      max_polls = std::strtoull(v.c_str(), nullptr, 10);
    } else if (!a.empty() && a[0] == '-') {
      std::cerr << "tma-board run: unknown option " << a << "\n";
      return Usage();
    } else {
      files.push_back(a);
    }
  }
  if (files.empty() || link_spec.empty()) {
    return Usage();
  }
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
  link->set_reply_timeout_ms(reply_ms);
  tma::board::BoardCaseEngine engine(link.get());
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
