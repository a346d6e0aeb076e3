// SPDX-License-Identifier: Apache-2.0
//
// tma-rtl: golden-case replay through the Verilated RTL, with the report and exit code of
// `tma run` (cmodel/cli/tma_main.cc):
//   tma-rtl run FILE... [--filter REGEX] [-v|--verbose] [--junit FILE] [--fail-on-skip]
//                       [--sample N] [--limit CYCLES]
// A case the RTL does not implement is SKIP (listed with the reason), never PASS. A case whose
// replay broke a pin-level rule (hang, write outside the window, ...) is FAIL with that note.
// --sample N replays every Nth case of each file (deterministic: index % N == 0), for CI.
// Exit: 0 all run cases pass, 1 a failure (or a skip with --fail-on-skip, or no case ran),
// 2 usage or file error.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "golden/rtl_engine.h"
#include "tma/golden.h"
#include "tma/golden_replay.h"

#include "verilated.h"

namespace {

namespace m = tma::model;

struct Rec {
  std::string file;
  const m::GoldenCase* c;
  m::ReplayResult r;
};

std::string Quote(const std::string& s) {
  std::string o = "'";
  for (char ch : s) {
    o += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  }
  return o + "'";
}

std::string RegexEscape(const std::string& s) {
  static const std::string kSpecial = R"(\^$.|?*+()[]{})";
  std::string o;
  for (char ch : s) {
    if (kSpecial.find(ch) != std::string::npos) {
      o += '\\';
    }
    o += ch;
  }
  return o;
}

std::string Xml(const std::string& s) {
  std::string o;
  for (char ch : s) {
    switch (ch) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        o += ch;
    }
  }
  return o;
}

int Usage() {
  std::cerr << "usage: tma-rtl run FILE... [--filter REGEX] [-v|--verbose] [--junit FILE]\n"
               "                    [--fail-on-skip] [--sample N] [--limit CYCLES]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Verilated::commandArgs(1, argv);
  if (argc < 2 || std::string(argv[1]) != "run") {
    return Usage();
  }
  std::vector<std::string> files;
  std::string filter = ".*", junit;
  bool verbose = false, fail_on_skip = false;
  int sample = 1;
  uint64_t limit = 200000;
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
      verbose = true;
    } else if (a == "--fail-on-skip") {
      fail_on_skip = true;
    } else if (a.rfind("--filter", 0) == 0 && value(&v)) {
      filter = v;
    } else if (a.rfind("--junit", 0) == 0 && value(&v)) {
      junit = v;
    } else if (a.rfind("--sample", 0) == 0 && value(&v)) {
      sample = std::max(1, std::atoi(v.c_str()));
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
  std::regex re;
  try {
    re = std::regex(filter);
  } catch (const std::regex_error& e) {
    std::cerr << "tma-rtl run: bad --filter regex: " << e.what() << "\n";
    return 2;
  }
  std::vector<std::pair<std::string, std::vector<m::GoldenCase>>> loaded;
  for (const std::string& f : files) {
    std::vector<m::GoldenCase> cases;
    std::string err;
    if (!m::ReadGoldenFile(f, &cases, &err)) {
      std::cerr << "tma-rtl run: " << err << "\n";
      return 2;
    }
    loaded.emplace_back(f, std::move(cases));
  }

  tma::tb::RtlCaseEngine engine;
  engine.set_case_limit(limit);
  auto t0 = std::chrono::steady_clock::now();
  std::vector<Rec> recs;
  std::map<std::string, int> skip_reasons;
  for (const auto& [path, cases] : loaded) {
    for (size_t idx = 0; idx < cases.size(); ++idx) {
      const m::GoldenCase& c = cases[idx];
      if (idx % static_cast<size_t>(sample) != 0 || !std::regex_search(c.id, re)) {
        continue;
      }
      Rec rec{path, &c, m::ReplayCase(c, engine)};
      if (rec.r.verdict != m::Verdict::kSkip && !engine.last_note().empty()) {
        std::string line = "rtl: " + engine.last_note();
        if (rec.r.verdict != m::Verdict::kFail) {
          rec.r.verdict = m::Verdict::kFail;
          rec.r.reason = line;
        }
        rec.r.details.insert(rec.r.details.begin(), line);
      }
      if (verbose || rec.r.verdict != m::Verdict::kPass) {
        std::cout << m::ToString(rec.r.verdict) << "  " << c.id;
        if (rec.r.verdict == m::Verdict::kSkip) {
          std::cout << "  (" << rec.r.reason << ")";
          skip_reasons[rec.r.reason] += 1;
        }
        std::cout << "\n";
      }
      if (rec.r.verdict == m::Verdict::kFail) {
        size_t shown = verbose ? rec.r.details.size() : 1;
        for (size_t i = 0; i < rec.r.details.size() && i < shown; ++i) {
          std::cout << "      " << rec.r.details[i] << "\n";
        }
        if (!verbose && rec.r.details.size() > 1) {
          std::cout << "      (+" << rec.r.details.size() - 1 << " more; --verbose shows all)\n";
        }
        std::cout << "      replay: tma-rtl run " << Quote(path) << " --filter "
                  << Quote("^" + RegexEscape(c.id) + "$") << " --verbose\n";
      }
      recs.push_back(std::move(rec));
    }
  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  struct Count {
    int pass = 0, fail = 0, skip = 0;
  };
  std::map<std::pair<std::string, std::string>, Count> table;
  Count total;
  for (const Rec& r : recs) {
    Count& k = table[{m::ToString(r.c->op), m::ToString(r.c->mode)}];
    int Count::*field = r.r.verdict == m::Verdict::kPass   ? &Count::pass
                        : r.r.verdict == m::Verdict::kFail ? &Count::fail
                                                           : &Count::skip;
    k.*field += 1;
    total.*field += 1;
  }
  std::printf("\n%-10s %-16s %6s %6s %6s\n", "op", "mode", "pass", "fail", "skip");
  for (const auto& [key, k] : table) {
    std::printf("%-10s %-16s %6d %6d %6d\n", key.first.c_str(), key.second.c_str(), k.pass, k.fail,
                k.skip);
  }
  std::printf("%-10s %-16s %6d %6d %6d\n", "total", "", total.pass, total.fail, total.skip);
  std::printf("engine rtl, %zu file(s), %zu case(s) run\n", loaded.size(), recs.size());
  if (!skip_reasons.empty()) {
    std::printf("skipped, by reason:\n");
    for (const auto& [why, n] : skip_reasons) {
      std::printf("  %5d  %s\n", n, why.c_str());
    }
  }
  std::printf("rtl: %llu cycles in %.2f s (%.0f cycles/s, %.1f ms per case)\n",
              static_cast<unsigned long long>(engine.cycles()), wall,
              wall > 0 ? engine.cycles() / wall : 0.0,
              recs.empty() ? 0.0 : 1000.0 * wall / recs.size());
  if (!junit.empty()) {
    std::ofstream f(junit);
    f << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"tma-rtl run\">\n"
      << "  <testsuite name=\"rtl\" tests=\"" << recs.size() << "\" failures=\"" << total.fail
      << "\" skipped=\"" << total.skip << "\" errors=\"0\">\n";
    for (const Rec& r : recs) {
      f << "    <testcase classname=\"rtl." << Xml(r.file) << "\" name=\"" << Xml(r.c->id) << "\"";
      if (r.r.verdict == m::Verdict::kPass) {
        f << "/>\n";
      } else if (r.r.verdict == m::Verdict::kSkip) {
        f << "><skipped message=\"" << Xml(r.r.reason) << "\"/></testcase>\n";
      } else {
        f << "><failure message=\"" << Xml(r.r.reason) << "\"/></testcase>\n";
      }
    }
    f << "  </testsuite>\n</testsuites>\n";
    if (!f) {
      std::cerr << "tma-rtl run: cannot write " << junit << "\n";
      return 2;
    }
  }
  if (recs.empty()) {
    std::cerr << "tma-rtl run: no case ran (empty files, or --filter matched nothing)\n";
    return 1;
  }
  return (total.fail > 0 || (fail_on_skip && total.skip > 0)) ? 1 : 0;
}
