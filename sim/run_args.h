// SPDX-License-Identifier: Apache-2.0
//
// The command line of the golden-case replay tools (tma-rtl, tma-soc): `TOOL run FILE...` with
// the options every replay takes, parsed once here, and a hook for a tool's own options:
//   --filter REGEX, -v|--verbose, --junit FILE, --fail-on-skip, --sample N, --shard K/N (the cases
//   of each file whose index is K mod N: N runs, K = 0..N-1, replay every case once),
//   --limit CYCLES, --max-case-bytes N, --max-line-bytes N (limits: golden.h)
// "--name VALUE" and "--name=VALUE" are the same. Every number is checked: one that does not
// parse, is negative or out of range is a usage error, never a default.
#ifndef TMA_SIM_RUN_ARGS_H_
#define TMA_SIM_RUN_ARGS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tma/case_runner.h"

namespace tma::sim {

struct RunArgs {
  std::vector<std::string> files;
  tma::model::RunOptions opt;
  uint64_t limit = 0;  // cycles per case (--limit); the tool's default until given
};

class RunArgParser {
 public:
  // `tool` names the program in messages ("tma-rtl"); opt.program becomes "TOOL run".
  explicit RunArgParser(std::string tool) : tool_(std::move(tool)) {}
  // A tool's own option: `name` (the text before any '='), `value` fetches its value (false and
  // a message when it has none). Returns 1 handled, 0 not this tool's, -1 a usage error.
  using Extra =
      std::function<int(const std::string& name, const std::function<bool(std::string*)>& value)>;
  // Parses argv (argv[1] must be "run") into *a. False: a usage error (message written).
  bool Parse(int argc, char** argv, RunArgs* a, const Extra& extra = nullptr) const;
  // `v` as a decimal number in [lo, hi] (false and a message otherwise).
  bool Number(const std::string& name, const std::string& v, uint64_t lo, uint64_t hi,
              uint64_t* out) const;

 private:
  std::string tool_;
};

}  // namespace tma::sim

#endif  // TMA_SIM_RUN_ARGS_H_
