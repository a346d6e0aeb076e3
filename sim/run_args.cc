// SPDX-License-Identifier: Apache-2.0
//
// The replay tools' command line (run_args.h).
#include "sim/run_args.h"

#include <iostream>

namespace tma::sim {

bool RunArgParser::Number(const std::string& name, const std::string& v, uint64_t lo, uint64_t hi,
                          uint64_t* out) const {
  uint64_t x = 0;
  bool ok = !v.empty() && v.size() <= 20;
  for (char ch : v) {
    ok = ok && ch >= '0' && ch <= '9' && x <= (UINT64_MAX - 9) / 10;
    x = ok ? x * 10 + static_cast<uint64_t>(ch - '0') : x;
  }
  if (!ok || x < lo || x > hi) {
    std::cerr << tool_ << " run: " << name << " " << v << ": not a number in [" << lo << ", " << hi
              << "]\n";
    return false;
  }
  *out = x;
  return true;
}

bool RunArgParser::Parse(int argc, char** argv, RunArgs* a, const Extra& extra) const {
  if (argc < 2 || std::string(argv[1]) != "run") {
    return false;
  }
  a->opt.program = tool_ + " run";
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    // "--name VALUE" or "--name=VALUE".
    const std::string name = arg.substr(0, arg.find('='));
    auto value = [&](std::string* v) {
      if (name.size() < arg.size()) {
        *v = arg.substr(name.size() + 1);
        return true;
      }
      if (i + 1 < argc) {
        *v = argv[++i];
        return true;
      }
      std::cerr << tool_ << " run: " << name << " needs a value\n";
      return false;
    };
    std::string v;
    uint64_t n = 0;
    bool ok = true;
    if (arg == "-v" || arg == "--verbose") {
      a->opt.verbose = true;
    } else if (arg == "--fail-on-skip") {
      a->opt.fail_on_skip = true;
    } else if (name == "--filter") {
      ok = value(&a->opt.filter);
    } else if (name == "--junit") {
      ok = value(&a->opt.junit);
    } else if (name == "--sample") {
      ok = value(&v) && Number(name, v, 1, INT32_MAX, &n);
      a->opt.sample = static_cast<int>(n);
    } else if (name == "--shard") {
      std::string error;
      ok = value(&v) && model::ParseShard(v, &a->opt, &error);
      if (!error.empty()) {
        std::cerr << tool_ << " run: " << error << "\n";
      }
    } else if (name == "--limit") {
      ok = value(&v) && Number(name, v, 1, uint64_t{1} << 40, &a->limit);
    } else if (name == "--max-case-bytes") {
      ok = value(&v) && Number(name, v, 1, uint64_t{1} << 40, &a->opt.limits.max_case_bytes);
    } else if (name == "--max-line-bytes") {
      ok = value(&v) && Number(name, v, 1, uint64_t{1} << 40, &a->opt.limits.max_line_bytes);
    } else if (const int r = extra ? extra(name, value) : 0; r != 0) {
      ok = r > 0;
    } else if (!arg.empty() && arg[0] == '-') {
      std::cerr << tool_ << " run: unknown option " << arg << "\n";
      ok = false;
    } else {
      a->files.push_back(arg);
    }
    if (!ok) {
      return false;
    }
  }
  return !a->files.empty();
}

}  // namespace tma::sim
