// SPDX-License-Identifier: Apache-2.0
//
// The golden-case run report shared by `tma run` (the model) and `tma-rtl run` (the Verilated
// RTL): replay every case of some files on one engine, print a line per failure or skip with the
// command that replays it, a pass/fail/skip table per (op, mode), optionally a JUnit file.
#ifndef TMA_CASE_RUNNER_H_
#define TMA_CASE_RUNNER_H_

#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "tma/golden.h"
#include "tma/golden_replay.h"

namespace tma::model {

struct RunOptions {
  std::string program = "tma run";  // names the tool in replay lines and messages
  std::string filter;               // ECMAScript regex on the case id; empty = every case
  bool verbose = false;             // print every case and every failed check
  std::string junit;                // also write a JUnit XML report here
  bool fail_on_skip = false;        // a skipped case makes the run fail
  int sample = 1;                   // replay only every Nth case of each file (index % N == 0)
  int shard = 0;                    // with sample N: the cases with index % N == shard (0..N-1),
                                    // so N runs with shards 0..N-1 replay each case once
  GoldenLimits limits;              // what a case may declare (golden.h)
  // Called after each replay; may amend the result (the RTL adds pin-level notes).
  std::function<void(const GoldenCase&, ReplayResult*)> after_case;
};

struct RunTotals {
  int pass = 0;
  int fail = 0;
  int skip = 0;
  std::map<std::string, int> skip_reasons;
};

// Parses a --shard value "K/N" (decimal digits only, 1 <= N <= INT32_MAX, K < N) into
// opt->sample = N and opt->shard = K. On a bad value returns false with *error saying why.
bool ParseShard(const std::string& text, RunOptions* opt, std::string* error);

// Replays `files` on `engine`, writing the report to `out` and errors to `err`. Returns the exit
// status of the tools: 0 every case that ran passed, 1 a failure (or a skip with fail_on_skip,
// or no case ran), 2 a file, regex or JUnit error.
int RunCaseFiles(const std::vector<std::string>& files, CaseEngine& engine, const RunOptions& opt,
                 std::ostream& out, std::ostream& err, RunTotals* totals = nullptr);

}  // namespace tma::model

#endif  // TMA_CASE_RUNNER_H_
