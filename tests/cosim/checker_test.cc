// SPDX-License-Identifier: Apache-2.0
//
// The mbarrier / async-proxy checker: a clean multi-stage, multicast pipeline reports nothing;
// one planted bug of each class reports that class and no other, in FUNCTIONAL and TIMED mode.
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_host.h"

namespace {

using cosim_test::Load2D;
using cosim_test::Map2D;
using cosim_test::TestHost;

constexpr uint64_t kBase = 0x40000;
constexpr uint32_t kStage = 1024;  // stage s at 1024 * s; 128-byte boxes
constexpr uint32_t kFull = 8192;   // full barrier of stage s at 8192 + 8 * s

struct Rig {
  explicit Rig(uint32_t mode) : h(kBase, 8192, 2, 16384) {
    otma_checker_config cc;
    std::memset(&cc, 0, sizeof cc);
    cc.struct_size = sizeof cc;
    cc.cluster_size = 2;
    cc.user = this;
    cc.report = [](void* u, const otma_check_report* r) {
      static_cast<Rig*>(u)->msgs.push_back(std::to_string(r->cls) + ": " + r->message);
    };
    EXPECT_EQ(otma_checker_create(&cc, &ck), OTMA_OK);
    EXPECT_EQ(h.Create(mode, OTMA_FLAG_CHECK, ck), OTMA_OK);
    map = Map2D(kBase, 0, 256, 16, 256, 32, 4);  // u8, 32 x 4 = 128-byte boxes
  }
  ~Rig() { otma_checker_destroy(ck); }
  void Init(uint32_t rank, int stages) {
    for (int s = 0; s < stages; ++s)
      otma_checker_mbar_init(ck, rank, kFull + 8 * s, 1);
  }
  // Producer of `rank`: issues a load of stage s into its own CTA (or multicast to `mask`).
  void Load(uint32_t rank, int s, int tile, uint16_t mask = 0) {
    otma_op op = Load2D(map, 32 * (tile % 8), 4 * (tile / 8 % 4), kStage * s, kFull + 8 * s, rank);
    if (mask) {
      op.flags = OTMA_OPF_MULTICAST;
      op.cta_mask = mask;
    }
    while (otma_submit(h.e(), &op, nullptr) == OTMA_E_BUSY)
      otma_tick(h.e(), 1);
  }
  uint32_t Count(uint32_t cls) const { return otma_checker_count(ck, cls); }
  std::string All() const {
    std::string s;
    for (const auto& m : msgs)
      s += m + "\n";
    return s;
  }
  TestHost h;
  otma_checker* ck = nullptr;
  std::vector<uint8_t> map;
  std::vector<std::string> msgs;
};

class Checker : public ::testing::TestWithParam<uint32_t> {};

TEST_P(Checker, CleanMulticastPipelineReportsNothing) {
  Rig r(GetParam());
  r.Init(0, 4);
  r.Init(1, 4);
  for (int it = 0; it < 12; ++it) {
    const int s = it % 4;
    // Each CTA arms its stage for both halves (its own load and the peer's multicast).
    otma_checker_arrive_expect_tx(r.ck, 0, kFull + 8 * s, 256);
    otma_checker_arrive_expect_tx(r.ck, 1, kFull + 8 * s, 256);
    r.Load(0, s, 2 * it, 0x3);
    otma_drain(r.h.e());
    // The second half into the other 128 bytes of the stage (issued by rank 1 here).
    otma_op op = Load2D(r.map, 32 * ((2 * it + 1) % 8), 4, kStage * s + 128, kFull + 8 * s, 1);
    op.flags = OTMA_OPF_MULTICAST;
    op.cta_mask = 0x3;
    while (otma_submit(r.h.e(), &op, nullptr) == OTMA_E_BUSY)
      otma_tick(r.h.e(), 1);
    otma_drain(r.h.e());
    otma_checker_release(r.ck, 0, kStage * s, kStage);
    otma_checker_release(r.ck, 1, kStage * s, kStage);
  }
  otma_checker_finish(r.ck);
  EXPECT_EQ(r.Count(0), 0u) << r.All();
  EXPECT_EQ(r.h.tx.size(), 48u);
}

TEST_P(Checker, TxUnderflow) {
  Rig r(GetParam());
  r.Init(0, 1);
  otma_checker_arrive_expect_tx(r.ck, 0, kFull, 64);  // the box is 128 bytes
  r.Load(0, 0, 0);
  otma_drain(r.h.e());
  otma_checker_finish(r.ck);
  EXPECT_EQ(r.Count(OTMA_CHK_TX_UNDERFLOW), 1u) << r.All();
  EXPECT_EQ(r.Count(0), 1u) << r.All();
}

TEST_P(Checker, TxOverflow) {
  Rig r(GetParam());
  r.Init(0, 1);
  otma_checker_arrive_expect_tx(r.ck, 0, kFull, 256);  // one 128-byte box comes
  r.Load(0, 0, 0);
  otma_drain(r.h.e());
  otma_checker_finish(r.ck);
  EXPECT_EQ(r.Count(OTMA_CHK_TX_OVERFLOW), 1u) << r.All();
  EXPECT_EQ(r.Count(0), 1u) << r.All();
}

TEST_P(Checker, PhaseCompletedEarly) {
  Rig r(GetParam());
  r.Init(0, 1);
  otma_checker_arrive_expect_tx(r.ck, 0, kFull, 128);  // two 128-byte boxes follow
  r.Load(0, 0, 0);
  otma_op op = Load2D(r.map, 32, 0, 128, kFull, 0);
  while (otma_submit(r.h.e(), &op, nullptr) == OTMA_E_BUSY)
    otma_tick(r.h.e(), 1);
  otma_drain(r.h.e());
  EXPECT_EQ(r.Count(OTMA_CHK_PHASE_EARLY), 1u) << r.All();
  EXPECT_EQ(r.Count(0), 1u) << r.All();
}

TEST_P(Checker, MulticastToAnUnarmedBarrier) {
  Rig r(GetParam());
  r.Init(0, 1);  // rank 1 never initialises its barrier
  otma_checker_arrive_expect_tx(r.ck, 0, kFull, 128);
  r.Load(0, 0, 0, 0x3);
  otma_drain(r.h.e());
  EXPECT_EQ(r.Count(OTMA_CHK_UNARMED), 1u) << r.All();
  EXPECT_EQ(r.Count(0), 1u) << r.All();
}

TEST_P(Checker, StageOverwrittenBeforeRelease) {
  Rig r(GetParam());
  r.Init(0, 1);
  otma_checker_arrive_expect_tx(r.ck, 0, kFull, 128);
  r.Load(0, 0, 0);
  otma_drain(r.h.e());
  // The consumer has not released stage 0; the producer refills it anyway.
  otma_checker_arrive_expect_tx(r.ck, 0, kFull, 128);
  r.Load(0, 0, 1);
  otma_drain(r.h.e());
  otma_checker_finish(r.ck);
  EXPECT_EQ(r.Count(OTMA_CHK_STAGE_OVERWRITE), 1u) << r.All();
  EXPECT_EQ(r.Count(0), 1u) << r.All();
}

INSTANTIATE_TEST_SUITE_P(Cosim, Checker, ::testing::Values(OTMA_MODE_FUNCTIONAL, OTMA_MODE_TIMED),
                         [](const ::testing::TestParamInfo<uint32_t>& i) {
                           return i.param == OTMA_MODE_FUNCTIONAL ? "Functional" : "Timed";
                         });

}  // namespace
