// SPDX-License-Identifier: Apache-2.0
//
// The trace host (cosim/host, `tma cosim`) on a small SYNTHETIC otma-trace v1 file the test
// writes itself (not silicon): one CTA, a 2-stage ring of u8 2-D tile loads (box {32, 4} of a
// {64, 16} tensor, 64-byte pitch, no swizzle) with their arms and consumer waits, then a tensor
// store of 128 bytes in a bulk group. Expected stage hashes and output hashes are computed here
// from the buffer contents by plain indexing (row y, columns x0..x0+31 of the input), not by the
// engine. Then A8: the records mutated into each fault class give that class and never hang, and
// the checker classes planted by mutation are reported.
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include "replay.h"
#include "synth_trace.h"
#include "test_host.h"
#include "tma/golden.h"

namespace {

using nlohmann::json;
namespace m = tma::model;

using cosim_test::kSynthIn;
using cosim_test::kSynthOut;
constexpr int kIters = 6;

struct Synth {
  std::string path;
  int64_t first_load_seq = -1, store_seq = -1, arm_seq = -1, wait_seq = -1;
};

Synth Write(const std::string& name) {
  Synth s;
  s.path =
      std::string(::testing::TempDir()) + "otma_cosim_" + std::to_string(::getpid()) + "_" + name;
  const std::vector<uint8_t> in = cosim_test::SynthIn();
  std::vector<uint8_t> out(512, 0);
  const auto map_in = cosim_test::Map2D(kSynthIn, 0, 64, 16, 64, 32, 4);
  const auto map_out = cosim_test::Map2D(kSynthOut, 0, 64, 8, 64, 32, 4);
  std::ofstream f(s.path);
  f << cosim_test::SynthHeader("synthetic", "tests/cosim/host_test.cc", 1, 64).dump() << "\n";
  cosim_test::SynthRecords rec;
  // Stage s at 1024 * (1 + s), full barrier at 8192 + 8 s.
  for (int i = 0; i < kIters; ++i) {
    const int st = i % 2, ph = i / 2;
    const uint32_t stage = 1024u * (1 + st), mbar = 8192u + 8u * st;
    const int x0 = 32 * (i % 2), y0 = 4 * (i % 4);
    json arm = rec.Base("arm", 0, 0);
    arm.update({{"mbar_addr", mbar}, {"phase", ph}, {"expect_tx", 128}});
    if (i == 0)
      s.arm_seq = arm["seq"];
    f << arm.dump() << "\n";
    json ld = rec.Tile("load", 0, 0, map_in, 64, 16, 64, 32, 4, {x0, y0}, stage, 128);
    ld.update({{"mbar_addr", mbar},
               {"phase", ph},
               {"ptx", "cp.async.bulk.tensor.2d.shared::cluster.global.tile"}});
    if (i == 0)
      s.first_load_seq = ld["seq"];
    f << ld.dump() << "\n";
    // The consumer sees rows y0..y0+3, columns x0..x0+31 of IN.
    std::vector<uint8_t> stage_bytes(128);
    for (int y = 0; y < 4; ++y) {
      for (int x = 0; x < 32; ++x)
        stage_bytes[32 * y + x] = in[64 * (y0 + y) + x0 + x];
    }
    json w = rec.Base("wait", 0, 1);
    w.update({{"mbar_addr", mbar},
              {"phase", ph},
              {"t_start", rec.t},
              {"t_done", rec.t + 5},
              {"t_release", rec.t + 50},
              {"stage_addr", stage},
              {"stage_bytes", 128},
              {"stage_sha256", m::Sha256Hex(stage_bytes.data(), 128)}});
    if (i == 0)
      s.wait_seq = w["seq"];
    f << w.dump() << "\n";
  }
  // Epilogue: warp 2 stores 128 source bytes as box {32, 4} at {32, 2} of OUT.
  std::vector<uint8_t> src(128);
  for (int k = 0; k < 128; ++k)
    src[k] = static_cast<uint8_t>(3 * k + 1);
  json stv = rec.Tile("store", 0, 2, map_out, 64, 8, 64, 32, 4, {32, 2}, 4096, 128);
  stv.update({{"group", 0},
              {"src_hex", m::ToHex(src.data(), 128)},
              {"src_sha256", m::Sha256Hex(src.data(), 128)}});
  s.store_seq = stv["seq"];
  f << stv.dump() << "\n";
  json cm = rec.Base("commit", 0, 2);
  cm["group"] = 0;
  f << cm.dump() << "\n";
  json wg = rec.Base("wait_group", 0, 2);
  wg.update({{"n", 0}, {"read", false}, {"t_start", rec.t}, {"t_done", rec.t + 100}});
  f << wg.dump() << "\n";
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 32; ++x)
      out[64 * (2 + y) + 32 + x] = src[32 * y + x];
  }
  f << cosim_test::SynthFinal("IN", in).dump() << "\n";
  f << cosim_test::SynthFinal("OUT", out).dump() << "\n";
  return s;
}

class Host : public ::testing::TestWithParam<uint32_t> {};

TEST_P(Host, SyntheticTraceMatchesItsHandDerivedHashes) {
  const Synth s = Write("synth_ok.jsonl");
  otma_trace::Options o;
  o.mode = GetParam();
  o.check = true;
  otma_trace::Result r;
  std::string err;
  ASSERT_TRUE(otma_trace::ReplayTrace(s.path, o, &r, &err)) << err;
  for (const auto& mm : r.mismatches)
    ADD_FAILURE() << mm;
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.ops, kIters + 1u);
  EXPECT_EQ(r.waits_ok, static_cast<uint64_t>(kIters));
  EXPECT_EQ(r.waits, static_cast<uint64_t>(kIters));
  EXPECT_EQ(r.phases_ok, static_cast<uint64_t>(kIters));
  EXPECT_EQ(r.finals_ok, 2u);
  EXPECT_EQ(r.check_reports, 0u);
}

// A8: a record mutated into each fault class: the engine reports that class (op_done FAULT), the
// replay ends (no hang) and fails.
TEST_P(Host, MutatedRecordsGiveTheirFaultClassAndNeverHang) {
  const Synth s = Write("synth_fault.jsonl");
  struct C {
    const char* mutate;
    int64_t seq;
    const char* cls;
  } cases[] = {{"misaligned", s.first_load_seq, "misaligned"},
               {"misaligned_coordinate", s.first_load_seq, "misaligned_coordinate"},
               {"invalid_coordinate", s.store_seq, "invalid_coordinate"},
               {"unsupported_reduction", s.store_seq, "unsupported_reduction"}};
  for (const C& c : cases) {
    otma_trace::Options o;
    o.mode = GetParam();
    o.mutate = c.mutate;
    o.mutate_seq = c.seq;
    otma_trace::Result r;
    std::string err;
    ASSERT_TRUE(otma_trace::ReplayTrace(s.path, o, &r, &err)) << err;
    EXPECT_FALSE(r.hang) << c.mutate;
    EXPECT_FALSE(r.ok()) << c.mutate;
    ASSERT_EQ(r.fault_classes.size(), 1u) << c.mutate;
    EXPECT_EQ(r.fault_classes[0], c.cls) << c.mutate;
  }
}

// The checker on planted protocol bugs (mutated arms / releases): each class is reported, and a
// replay that can no longer complete ends as a hang instead of looping.
TEST_P(Host, CheckerFindsPlantedBugs) {
  const Synth s = Write("synth_check.jsonl");
  struct C {
    const char* mutate;
    int64_t seq;
    uint32_t cls;
  } cases[] = {{"expect_tx_low", s.arm_seq, OTMA_CHK_TX_UNDERFLOW},
               {"expect_tx_high", s.arm_seq, OTMA_CHK_TX_OVERFLOW},
               {"skip_release", s.wait_seq, OTMA_CHK_STAGE_OVERWRITE}};
  for (const C& c : cases) {
    otma_trace::Options o;
    o.mode = GetParam();
    o.check = true;
    o.mutate = c.mutate;
    o.mutate_seq = c.seq;
    otma_trace::Result r;
    std::string err;
    ASSERT_TRUE(otma_trace::ReplayTrace(s.path, o, &r, &err)) << err;
    EXPECT_GE(r.check_by_class[c.cls], 1u) << c.mutate;
    EXPECT_FALSE(r.ok()) << c.mutate;
  }
}

INSTANTIATE_TEST_SUITE_P(Cosim, Host, ::testing::Values(OTMA_MODE_FUNCTIONAL, OTMA_MODE_TIMED),
                         [](const ::testing::TestParamInfo<uint32_t>& i) {
                           return i.param == OTMA_MODE_FUNCTIONAL ? "Functional" : "Timed";
                         });

}  // namespace
