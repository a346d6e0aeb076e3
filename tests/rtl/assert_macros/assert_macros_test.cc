// SPDX-License-Identifier: Apache-2.0
//
// The assertion macros (rtl/include/tma_assert.svh) are immediate checks in clocked blocks;
// this test shows they fail at exactly the clock edges where the concurrent SVA they stand
// for fails (tma_assert_eqv.sv: each macro beside its Ref_ form). Random inputs break every
// check now and then (the stream's payload or valid changes while stalled, flushes, resets at
// random); the failure messages of a run are captured from stdout and compared per edge.
#include <cstdio>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <unistd.h>
#include <utility>

#include <gtest/gtest.h>
#include <verilated.h>

#include "Vtma_assert_eqv.h"

namespace {

using Failures = std::set<std::pair<int, std::string>>;  // (edge, assertion name)

// Runs `cycles` edges of random stimulus; returns the failures of each name.
Failures RunRandom(unsigned seed, int cycles) {
  std::fflush(stdout);
  FILE* tmp = std::tmpfile();
  const int saved = dup(fileno(stdout));
  dup2(fileno(tmp), fileno(stdout));
  {
    VerilatedContext ctx;
    ctx.fatalOnError(false);
    Vtma_assert_eqv m(&ctx);
    std::mt19937 g(seed);
    auto p = [&](unsigned pct) { return g() % 100 < pct; };
    m.clk_i = 0;
    m.rst_ni = 0;
    m.eval();
    int valid = 0, data = 0, hold = 0;
    for (int c = 0; c < cycles; ++c) {
      if (!hold) {  // a new item (or none)
        valid = p(60);
        data = static_cast<int>(g() & 0xff);
      } else {  // the stalled item, now and then broken
        if (p(3))
          valid = 0;
        if (p(3))
          data = static_cast<int>(g() & 0xff);
        if (p(2))
          data ^= 1;
      }
      const int ready = p(50);
      hold = valid && !ready;
      const int a = p(50);
      int b = a ? 0xB : 0;  // every check holds ...
      if (p(2))
        b ^= 1 << (g() % 4);  // ... until a bit flips
      m.valid_i = valid;
      m.ready_i = ready;
      m.flush_i = p(5);
      m.a_i = a;
      m.b_i = b;
      m.data_i = data;
      m.clk_i = 0;
      m.eval();
      m.rst_ni = (c < 3 || p(1)) ? 0 : 1;  // applied with the edge, as the harnesses do
      std::printf("edge %d\n", c);
      std::fflush(stdout);
      m.clk_i = 1;
      m.eval();
      std::fflush(stdout);
    }
    m.final();
  }
  std::fflush(stdout);
  dup2(saved, fileno(stdout));
  close(saved);
  Failures f;
  std::rewind(tmp);
  char line[1024];
  int edge = -1;
  const std::regex name(R"(Assertion failed in \S*\.(\w+_A))");
  while (std::fgets(line, sizeof line, tmp)) {
    std::string s(line);
    std::smatch mt;
    if (std::sscanf(line, "edge %d", &edge) == 1) {
      continue;
    }
    if (std::regex_search(s, mt, name)) {
      f.insert({edge, mt[1].str()});
    }
  }
  std::fclose(tmp);
  return f;
}

TEST(AssertMacros, FailAtTheSameEdgesAsTheConcurrentSva) {
  for (unsigned seed : {1u, 2u, 3u}) {
    const Failures f = RunRandom(seed, 50000);
    std::map<std::string, int> count;
    for (const auto& [edge, n] : f) {
      ++count[n];
      const bool ref = n.rfind("Ref_", 0) == 0;
      const std::string other = ref ? n.substr(4) : "Ref_" + n;
      EXPECT_TRUE(f.count({edge, other}))
          << n << " failed at edge " << edge << ", " << other << " did not (seed " << seed << ")";
    }
    for (const char* n : {"Bool_A", "Imply_A", "Never_A", "Copy_A", "Stable_A", "Flush_A"}) {
      EXPECT_GT(count[n], 50) << n << " must fail often in this stimulus (seed " << seed << ")";
    }
  }
}

}  // namespace
