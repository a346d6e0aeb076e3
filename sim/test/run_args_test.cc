// SPDX-License-Identifier: Apache-2.0
//
// The replay tools' command line (sim/run_args.h): the common options in both spellings, a
// tool's own options through the hook, and every malformed number or unknown option refused.
#include "sim/run_args.h"

#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace tma::sim {
namespace {

bool Parse(std::vector<std::string> words, RunArgs* a, const RunArgParser::Extra& extra = nullptr) {
  std::vector<char*> argv;
  for (std::string& w : words) {
    argv.push_back(w.data());
  }
  return RunArgParser("tool").Parse(static_cast<int>(argv.size()), argv.data(), a, extra);
}

TEST(RunArgs, CommonOptionsBothSpellings) {
  RunArgs a;
  a.limit = 7;
  ASSERT_TRUE(Parse(
      {"tool", "run", "a.jsonl", "--filter", "x.*", "-v", "--junit=j.xml", "--fail-on-skip",
       "--sample=3", "--limit", "99", "--max-case-bytes=5", "--max-line-bytes", "6", "b.jsonl.gz"},
      &a));
  EXPECT_EQ(a.files, (std::vector<std::string>{"a.jsonl", "b.jsonl.gz"}));
  EXPECT_EQ(a.opt.program, "tool run");
  EXPECT_EQ(a.opt.filter, "x.*");
  EXPECT_TRUE(a.opt.verbose);
  EXPECT_EQ(a.opt.junit, "j.xml");
  EXPECT_TRUE(a.opt.fail_on_skip);
  EXPECT_EQ(a.opt.sample, 3);
  EXPECT_EQ(a.limit, 99u);
  EXPECT_EQ(a.opt.limits.max_case_bytes, 5u);
  EXPECT_EQ(a.opt.limits.max_line_bytes, 6u);
  RunArgs d;
  d.limit = 7;
  ASSERT_TRUE(Parse({"tool", "run", "f"}, &d));
  EXPECT_EQ(d.limit, 7u);  // the tool's default stays
}

TEST(RunArgs, RefusesWhatDoesNotParse) {
  for (const std::vector<std::string>& bad :
       std::vector<std::vector<std::string>>{{"tool"},
                                             {"tool", "play", "f"},
                                             {"tool", "run"},
                                             {"tool", "run", "f", "--sample", "0"},
                                             {"tool", "run", "f", "--sample=-1"},
                                             {"tool", "run", "f", "--limit"},
                                             {"tool", "run", "f", "--limit", "1x"},
                                             {"tool", "run", "f", "--max-case-bytes", "0"},
                                             {"tool", "run", "f", "--bogus"},
                                             {"tool", "run", "f", "--data-bytes", "16"}}) {
    RunArgs a;
    EXPECT_FALSE(Parse(bad, &a)) << bad.back();
  }
}

TEST(RunArgs, ToolOptionsThroughTheHook) {
  int width = 0;
  auto extra = [&](const std::string& name, const std::function<bool(std::string*)>& value) {
    if (name != "--data-bytes") {
      return 0;
    }
    std::string v;
    if (!value(&v) || (v != "16" && v != "32")) {
      return -1;
    }
    width = std::stoi(v);
    return 1;
  };
  RunArgs a;
  ASSERT_TRUE(Parse({"tool", "run", "f", "--data-bytes=32"}, &a, extra));
  EXPECT_EQ(width, 32);
  EXPECT_FALSE(Parse({"tool", "run", "f", "--data-bytes", "48"}, &a, extra));
  EXPECT_FALSE(Parse({"tool", "run", "f", "--data-bytes"}, &a, extra));
}

}  // namespace
}  // namespace tma::sim
