// SPDX-License-Identifier: Apache-2.0
// mbarrier phase / tx-count semantics (tensor-semantics §11.1) and cta_group::2 routing (§10).
// Every expectation is derived by hand from those rules.
#include "tma/mbarrier.h"

#include <gtest/gtest.h>

namespace tma::model {
namespace {

TEST(Mbarrier, InitSetsPhaseZeroAndCounts) {
  Mbarrier b;
  ASSERT_TRUE(b.Init(3).ok());
  EXPECT_EQ(b.phase(), 0u);
  EXPECT_EQ(b.pending(), 3);
  EXPECT_EQ(b.expected(), 3);
  EXPECT_EQ(b.tx_count(), 0);
}

TEST(Mbarrier, InitCountRange) {
  Mbarrier b;
  EXPECT_EQ(b.Init(0).code, MbarError::kBadCount);
  EXPECT_EQ(b.Init((1 << 20)).code, MbarError::kBadCount);
  EXPECT_TRUE(b.Init((1 << 20) - 1).ok());
}

TEST(Mbarrier, ArrivalsCompletePhaseAndReload) {
  Mbarrier b;
  ASSERT_TRUE(b.Init(2).ok());
  MbarArriveResult a1 = b.Arrive();
  ASSERT_TRUE(a1.status.ok());
  EXPECT_EQ(a1.token.phase, 0u);
  EXPECT_EQ(b.pending(), 1);
  EXPECT_FALSE(b.TestWait(a1.token).complete);
  MbarArriveResult a2 = b.Arrive();
  ASSERT_TRUE(a2.status.ok());
  EXPECT_EQ(a2.token.phase, 0u);  // the phase the arrival was made in
  EXPECT_EQ(b.phase(), 1u);       // 2 of 2 arrived, tx 0: phase 0 complete
  EXPECT_EQ(b.pending(), 2);      // reloaded from expected
  EXPECT_TRUE(b.TestWait(a1.token).complete);
}

TEST(Mbarrier, ArriveWithCount) {
  Mbarrier b;
  ASSERT_TRUE(b.Init(4).ok());
  ASSERT_TRUE(b.Arrive(3).status.ok());
  EXPECT_EQ(b.pending(), 1);
  EXPECT_EQ(b.phase(), 0u);
  ASSERT_TRUE(b.Arrive(1).status.ok());
  EXPECT_EQ(b.phase(), 1u);
}

// The TMA pattern: one thread arrive.expect_tx(bytes), the engine complete_tx(bytes).
TEST(Mbarrier, ExpectTxThenCompleteTx) {
  Mbarrier b;
  ASSERT_TRUE(b.Init(1).ok());
  MbarArriveResult a = b.ArriveExpectTx(1024);
  ASSERT_TRUE(a.status.ok());
  EXPECT_EQ(b.pending(), 0);
  EXPECT_EQ(b.tx_count(), 1024);
  EXPECT_EQ(b.phase(), 0u);  // waiting for bytes
  ASSERT_TRUE(b.CompleteTx(512).ok());
  EXPECT_EQ(b.tx_count(), 512);
  EXPECT_FALSE(b.TestWaitParity(0).complete);
  ASSERT_TRUE(b.CompleteTx(512).ok());
  EXPECT_EQ(b.phase(), 1u);
  EXPECT_EQ(b.tx_count(), 0);
  EXPECT_EQ(b.pending(), 1);
  EXPECT_TRUE(b.TestWaitParity(0).complete);
  EXPECT_TRUE(b.TestWait(a.token).complete);
}

// complete-tx may legally arrive before the matching expect-tx (negative tx-count range).
TEST(Mbarrier, CompleteTxBeforeExpectTx) {
  Mbarrier b;
  ASSERT_TRUE(b.Init(1).ok());
  ASSERT_TRUE(b.CompleteTx(256).ok());
  EXPECT_EQ(b.tx_count(), -256);
  EXPECT_EQ(b.phase(), 0u);                        // pending 1: not complete
  ASSERT_TRUE(b.ArriveExpectTx(256).status.ok());  // tx -256 + 256 = 0, pending 0
  EXPECT_EQ(b.phase(), 1u);
}

TEST(Mbarrier, ParityWaitsAcrossTwoPhases) {
  Mbarrier b;
  ASSERT_TRUE(b.Init(1).ok());
  // Phase 0 (even) running: parity 0 not complete; parity 1 means "the preceding phase".
  EXPECT_FALSE(b.TryWaitParity(0).complete);
  EXPECT_TRUE(b.TryWaitParity(1).complete);
  ASSERT_TRUE(b.ArriveExpectTx(16).status.ok());
  ASSERT_TRUE(b.CompleteTx(16).ok());  // phase 0 done -> phase 1
  EXPECT_TRUE(b.TryWaitParity(0).complete);
  EXPECT_FALSE(b.TryWaitParity(1).complete);
  ASSERT_TRUE(b.ArriveExpectTx(32).status.ok());
  ASSERT_TRUE(b.CompleteTx(32).ok());  // phase 1 done -> phase 2
  EXPECT_EQ(b.phase(), 2u);
  EXPECT_FALSE(b.TryWaitParity(0).complete);  // phase 2 is even and running
  EXPECT_TRUE(b.TryWaitParity(1).complete);
  EXPECT_EQ(b.TestWaitParity(2).status.code, MbarError::kBadCount);
}

TEST(Mbarrier, StaleTokenIsDiagnosed) {
  Mbarrier b;
  ASSERT_TRUE(b.Init(1).ok());
  MbarToken t0 = b.Arrive().token;      // phase 0 -> 1
  ASSERT_TRUE(b.Arrive().status.ok());  // phase 1 -> 2
  EXPECT_EQ(b.TestWait(t0).status.code, MbarError::kStaleToken);
  EXPECT_TRUE(b.TestWait(MbarToken{1}).complete);
  EXPECT_FALSE(b.TestWait(MbarToken{2}).complete);
}

TEST(Mbarrier, TxOverflowAndUnderflowAreErrorsAndLeaveStateAlone) {
  Mbarrier b;
  ASSERT_TRUE(b.Init(1).ok());
  ASSERT_TRUE(b.ExpectTx((1 << 20) - 1).ok());  // exactly the top of the range
  MbarStatus s = b.ExpectTx(1);
  EXPECT_EQ(s.code, MbarError::kTxOverflow);
  EXPECT_NE(s.message.find("1048576"), std::string::npos) << s.message;
  EXPECT_EQ(b.tx_count(), (1 << 20) - 1);

  Mbarrier c;
  ASSERT_TRUE(c.Init(1).ok());
  ASSERT_TRUE(c.CompleteTx((1 << 20) - 1).ok());  // -(2^20-1) is still in range
  EXPECT_EQ(c.CompleteTx(1).code, MbarError::kTxUnderflow);
  EXPECT_EQ(c.tx_count(), -((1 << 20) - 1));
  // A single count above 2^20-1 is out of the operand range.
  Mbarrier d;
  ASSERT_TRUE(d.Init(1).ok());
  EXPECT_EQ(d.ExpectTx(1 << 20).code, MbarError::kBadCount);
  EXPECT_EQ(d.ExpectTx(-1).code, MbarError::kBadCount);
}

TEST(Mbarrier, ArrivalsBeyondPending) {
  Mbarrier b;
  ASSERT_TRUE(b.Init(2).ok());
  EXPECT_EQ(b.Arrive(3).status.code, MbarError::kArriveOverflow);
  EXPECT_EQ(b.pending(), 2);
  ASSERT_TRUE(b.ArriveExpectTx(64).status.ok());
  ASSERT_TRUE(b.Arrive().status.ok());  // pending 0, tx 64: phase still open
  EXPECT_EQ(b.phase(), 0u);
  MbarArriveResult extra = b.Arrive();
  EXPECT_EQ(extra.status.code, MbarError::kArriveOverflow);
  EXPECT_NE(extra.status.message.find("tx-count 64"), std::string::npos);
  EXPECT_EQ(b.ArriveExpectTx(16).status.code, MbarError::kArriveOverflow);
  EXPECT_EQ(b.tx_count(), 64);  // the failed arrive.expect_tx added nothing
}

TEST(Mbarrier, InvalidatedAndUninitialised) {
  Mbarrier b;
  EXPECT_EQ(b.Arrive().status.code, MbarError::kNotInitialized);
  EXPECT_EQ(b.CompleteTx(16).code, MbarError::kNotInitialized);
  ASSERT_TRUE(b.Init(1).ok());
  ASSERT_TRUE(b.Inval().ok());
  EXPECT_EQ(b.Arrive().status.code, MbarError::kInvalidated);
  EXPECT_EQ(b.ExpectTx(1).code, MbarError::kInvalidated);
  EXPECT_EQ(b.TestWaitParity(0).status.code, MbarError::kInvalidated);
  EXPECT_EQ(b.Inval().code, MbarError::kInvalidated);
  ASSERT_TRUE(b.Init(1).ok());  // re-init after inval is the legal way to reuse it
  EXPECT_TRUE(b.Arrive().status.ok());
}

TEST(Mbarrier, DiagnoseUnderDelivery) {
  Mbarrier b;
  ASSERT_TRUE(b.Init(1).ok());
  ASSERT_TRUE(b.ArriveExpectTx(1024).status.ok());
  ASSERT_TRUE(b.CompleteTx(1000).ok());
  MbarStatus d = b.Diagnose();
  EXPECT_EQ(d.code, MbarError::kStuck);
  EXPECT_NE(d.message.find("tx-count is 24"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("under-delivery"), std::string::npos) << d.message;
}

TEST(Mbarrier, DiagnoseOverDelivery) {
  Mbarrier b;
  ASSERT_TRUE(b.Init(1).ok());
  ASSERT_TRUE(b.ArriveExpectTx(512).status.ok());
  ASSERT_TRUE(b.CompleteTx(1024).ok());  // 512 too many: tx = -512, never completes
  EXPECT_EQ(b.phase(), 0u);
  EXPECT_TRUE(b.OverDelivered());
  MbarStatus d = b.Diagnose();
  EXPECT_EQ(d.code, MbarError::kStuck);
  EXPECT_NE(d.message.find("tx-count is -512"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("over-delivery"), std::string::npos) << d.message;
}

TEST(Mbarrier, DiagnoseMissingArrivals) {
  Mbarrier b;
  ASSERT_TRUE(b.Init(3).ok());
  ASSERT_TRUE(b.Arrive().status.ok());
  MbarStatus d = b.Diagnose();
  EXPECT_EQ(d.code, MbarError::kStuck);
  EXPECT_NE(d.message.find("2 of 3 arrivals"), std::string::npos) << d.message;
}

TEST(CtaGroupRouting, CtaGroup1GoesToDestination) {
  EXPECT_EQ(RouteCompleteTx(5, 0, 1), 5);
  EXPECT_EQ(RouteCompleteTx(5, 0, 0), 5);
}

TEST(CtaGroupRouting, CtaGroup2UsesParityOfMbarCta) {
  // Pairs {0,1}, {2,3}, ...; the signal goes to the pair member with mbar's CTA parity.
  EXPECT_EQ(RouteCompleteTx(0, 0, 2), 0);
  EXPECT_EQ(RouteCompleteTx(1, 0, 2), 0);
  EXPECT_EQ(RouteCompleteTx(2, 0, 2), 2);
  EXPECT_EQ(RouteCompleteTx(3, 0, 2), 2);
  EXPECT_EQ(RouteCompleteTx(2, 1, 2), 3);
  EXPECT_EQ(RouteCompleteTx(3, 7, 2), 3);
  EXPECT_EQ(RouteCompleteTx(6, 3, 2), 7);
  EXPECT_EQ(PeerCta(6), 7);
  EXPECT_EQ(PeerCta(7), 6);
}

TEST(CtaGroupRouting, MulticastEvents) {
  // mask 0b1011 = CTAs 0, 1, 3; mbar in an even CTA, cta_group::2 -> CTAs 0, 0, 2.
  std::vector<CompleteTx> ev = CompleteTxEvents(true, 0b1011, -1, 0, 2, 0x40, 2048);
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev[0], (CompleteTx{0, 0x40, 2048}));
  EXPECT_EQ(ev[1], (CompleteTx{0, 0x40, 2048}));
  EXPECT_EQ(ev[2], (CompleteTx{2, 0x40, 2048}));
  // Same mask, cta_group::1: each destination signals itself.
  ev = CompleteTxEvents(true, 0b1011, -1, 0, 1, 0x40, 2048);
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev[2], (CompleteTx{3, 0x40, 2048}));
  // Not multicast: one event to the destination CTA (or its peer for cta_group::2).
  ev = CompleteTxEvents(false, 0, 4, 5, 2, 8, 64);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0], (CompleteTx{5, 8, 64}));
}

TEST(ClusterMbarriers, FedByCompleteTxEvents) {
  ClusterMbarriers cm(4);
  ASSERT_TRUE(cm.Init(0, 0x40, 1).ok());
  ASSERT_TRUE(cm.Init(2, 0x40, 1).ok());
  ASSERT_TRUE(cm.Find(0, 0x40)->ArriveExpectTx(4096).status.ok());
  ASSERT_TRUE(cm.Find(2, 0x40)->ArriveExpectTx(2048).status.ok());
  // A cta_group::2 multicast to CTAs 0,1,3 with 2048 bytes each, mbar in CTA 0 (even):
  // CTA 0 gets two signals (for 0 and 1), CTA 2 one (for 3).
  ASSERT_TRUE(cm.ApplyAll(CompleteTxEvents(true, 0b1011, -1, 0, 2, 0x40, 2048)).ok());
  EXPECT_EQ(cm.Find(0, 0x40)->phase(), 1u);
  EXPECT_EQ(cm.Find(2, 0x40)->phase(), 1u);
  EXPECT_TRUE(cm.DiagnoseAll().empty());
}

TEST(ClusterMbarriers, ErrorsNameTheLocation) {
  ClusterMbarriers cm(2);
  EXPECT_EQ(cm.Init(2, 0, 1).code, MbarError::kBadCta);
  EXPECT_EQ(cm.Init(0, 4, 1).code, MbarError::kMisaligned);
  EXPECT_EQ(cm.Init(0, 8, 0).code, MbarError::kBadCount);
  EXPECT_EQ(cm.Find(0, 8), nullptr);  // the failed init created nothing
  MbarStatus s = cm.Apply(CompleteTx{1, 16, 128});
  EXPECT_EQ(s.code, MbarError::kNoBarrier);
  ASSERT_TRUE(cm.Init(1, 16, 1).ok());
  ASSERT_TRUE(cm.Find(1, 16)->ArriveExpectTx(100).status.ok());
  ASSERT_TRUE(cm.Apply(CompleteTx{1, 16, 60}).ok());
  std::vector<std::string> d = cm.DiagnoseAll();
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].find("cta 1 mbar 0x10"), std::string::npos) << d[0];
  EXPECT_NE(d[0].find("tx-count is 40"), std::string::npos) << d[0];
}

}  // namespace
}  // namespace tma::model
