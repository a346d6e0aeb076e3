// SPDX-License-Identifier: Apache-2.0
#include "tma/case_runner.h"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <regex>
#include <utility>

namespace tma::model {
namespace {

// What the report keeps of a case after its replay (the case itself is dropped: a file is
// replayed as it is read, so memory does not grow with the file).
struct CaseRecord {
  std::string file;
  std::string id;
  Op op = Op::kLoad;
  LoadMode mode = LoadMode::kTile;
  ReplayResult r;
};

std::string XmlEscape(const std::string& s) {
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

bool WriteJunit(const std::string& path, const std::string& engine,
                const std::vector<CaseRecord>& recs) {
  std::ofstream f(path);
  if (!f) {
    return false;
  }
  std::map<std::string, std::vector<const CaseRecord*>> by_file;
  for (const CaseRecord& r : recs) {
    by_file[r.file].push_back(&r);
  }
  f << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"tma run\">\n";
  for (const auto& [file, list] : by_file) {
    int fails = 0, skips = 0;
    for (const CaseRecord* r : list) {
      fails += r->r.verdict == Verdict::kFail;
      skips += r->r.verdict == Verdict::kSkip;
    }
    f << "  <testsuite name=\"" << XmlEscape(file) << "\" tests=\"" << list.size()
      << "\" failures=\"" << fails << "\" skipped=\"" << skips << "\" errors=\"0\">\n";
    for (const CaseRecord* r : list) {
      f << "    <testcase classname=\"" << engine << "." << XmlEscape(file) << "\" name=\""
        << XmlEscape(r->id) << "\"";
      if (r->r.verdict == Verdict::kPass) {
        f << "/>\n";
        continue;
      }
      f << ">\n";
      if (r->r.verdict == Verdict::kSkip) {
        f << "      <skipped message=\"" << XmlEscape(r->r.reason) << "\"/>\n";
      } else {
        f << "      <failure message=\"" << XmlEscape(r->r.reason) << "\">";
        for (const std::string& d : r->r.details) {
          f << XmlEscape(d) << "\n";
        }
        f << "</failure>\n";
      }
      f << "    </testcase>\n";
    }
    f << "  </testsuite>\n";
  }
  f << "</testsuites>\n";
  f.close();  // a full disk shows up here, when the buffer is written
  return !f.fail();
}

std::string ShellQuote(const std::string& s) {
  std::string o = "'";
  for (char ch : s) {
    if (ch == '\'') {
      o += "'\\''";
    } else {
      o += ch;
    }
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

}  // namespace

bool ParseShard(const std::string& text, RunOptions* opt, std::string* error) {
  const size_t slash = text.find('/');
  uint64_t part[2] = {0, 0};
  bool ok = slash != std::string::npos;
  for (int i = 0; ok && i < 2; ++i) {
    const std::string v = i == 0 ? text.substr(0, slash) : text.substr(slash + 1);
    ok = !v.empty() && v.size() <= 10;
    for (char ch : v) {
      ok = ok && ch >= '0' && ch <= '9';
      part[i] = ok ? part[i] * 10 + static_cast<uint64_t>(ch - '0') : part[i];
    }
  }
  if (!ok || part[1] < 1 || part[1] > INT32_MAX || part[0] >= part[1]) {
    *error =
        "--shard takes K/N with 0 <= K < N <= " + std::to_string(INT32_MAX) + " (got " + text + ")";
    return false;
  }
  opt->sample = static_cast<int>(part[1]);
  opt->shard = static_cast<int>(part[0]);
  return true;
}

int RunCaseFiles(const std::vector<std::string>& paths, CaseEngine& engine, const RunOptions& opt,
                 std::ostream& out, std::ostream& err, RunTotals* totals) {
  // No --filter: every case, without a regex (std::regex matches recursively, so a long id
  // could exhaust the stack; ids are at most kGoldenMaxIdChars).
  std::optional<std::regex> filter;
  if (!opt.filter.empty()) {
    try {
      filter = std::regex(opt.filter);
    } catch (const std::regex_error& e) {
      err << opt.program << ": bad --filter regex: " << e.what() << "\n";
      return 2;
    }
  }
  for (const std::string& path : paths) {  // every file opens before any case runs
    std::ifstream probe(path);
    if (!probe) {
      err << opt.program << ": " << path << ": cannot open\n";
      return 2;
    }
  }
  const size_t sample = static_cast<size_t>(opt.sample > 1 ? opt.sample : 1);
  std::vector<CaseRecord> recs;
  RunTotals total;
  for (const std::string& path : paths) {
    size_t idx = 0;
    std::string e;
    const bool read_ok = ForEachGoldenCase(
        path, opt.limits,
        [&](GoldenCase&& c) {
          if (idx++ % sample != static_cast<size_t>(opt.shard) ||
              (filter && !std::regex_search(c.id, *filter))) {
            return true;
          }
          CaseRecord rec;
          rec.file = path;
          rec.id = c.id;
          rec.op = c.op;
          rec.mode = c.mode;
          rec.r = ReplayCase(c, engine);
          if (opt.after_case) {
            opt.after_case(c, &rec.r);
          }
          if (opt.verbose || rec.r.verdict != Verdict::kPass) {
            out << ToString(rec.r.verdict) << "  " << c.id;
            if (rec.r.verdict == Verdict::kSkip) {
              out << "  (" << rec.r.reason << ")";
            }
            out << "\n";
          }
          if (rec.r.verdict == Verdict::kSkip) {
            total.skip_reasons[rec.r.reason] += 1;
          }
          if (rec.r.verdict == Verdict::kFail) {
            const size_t shown = opt.verbose ? rec.r.details.size() : 1;
            for (size_t i = 0; i < rec.r.details.size() && i < shown; ++i) {
              out << "      " << rec.r.details[i] << "\n";
            }
            if (!opt.verbose && rec.r.details.size() > 1) {
              out << "      (+" << rec.r.details.size() - 1 << " more; --verbose shows all)\n";
            }
            out << "      replay: " << opt.program << " " << ShellQuote(path) << " --filter "
                << ShellQuote("^" + RegexEscape(c.id) + "$") << " --verbose\n";
          }
          recs.push_back(std::move(rec));
          return true;
        },
        &e);
    if (!read_ok) {
      err << opt.program << ": " << e << "\n";
      return 2;
    }
  }
  // Summary per (op, mode).
  struct Count {
    int pass = 0, fail = 0, skip = 0;
  };
  std::map<std::pair<std::string, std::string>, Count> table;
  for (const CaseRecord& r : recs) {
    Count& k = table[{ToString(r.op), ToString(r.mode)}];
    const Verdict v = r.r.verdict;
    int& n = v == Verdict::kPass ? k.pass : v == Verdict::kFail ? k.fail : k.skip;
    int& t = v == Verdict::kPass ? total.pass : v == Verdict::kFail ? total.fail : total.skip;
    n += 1;
    t += 1;
  }
  char line[160];
  std::snprintf(line, sizeof(line), "\n%-10s %-16s %6s %6s %6s\n", "op", "mode", "pass", "fail",
                "skip");
  out << line;
  for (const auto& [key, k] : table) {
    std::snprintf(line, sizeof(line), "%-10s %-16s %6d %6d %6d\n", key.first.c_str(),
                  key.second.c_str(), k.pass, k.fail, k.skip);
    out << line;
  }
  std::snprintf(line, sizeof(line), "%-10s %-16s %6d %6d %6d\n", "total", "", total.pass,
                total.fail, total.skip);
  out << line << "engine " << engine.Name() << ", " << paths.size() << " file(s), " << recs.size()
      << " case(s) run\n";
  if (!total.skip_reasons.empty()) {
    out << "skipped, by reason:\n";
    for (const auto& [why, n] : total.skip_reasons) {
      std::snprintf(line, sizeof(line), "  %5d  ", n);
      out << line << why << "\n";
    }
  }
  if (totals) {
    *totals = total;
  }
  if (!opt.junit.empty() && !WriteJunit(opt.junit, engine.Name(), recs)) {
    err << opt.program << ": cannot write " << opt.junit << "\n";
    return 2;
  }
  if (recs.empty()) {
    err << opt.program << ": no case ran (empty files, or --filter matched nothing)\n";
    return 1;
  }
  if (total.pass + total.fail == 0) {  // every case skipped: nothing was checked
    err << opt.program << ": no case was checked (all " << total.skip << " skipped)\n";
    return 1;
  }
  return (total.fail > 0 || (opt.fail_on_skip && total.skip > 0)) ? 1 : 0;
}

}  // namespace tma::model
