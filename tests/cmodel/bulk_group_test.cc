// SPDX-License-Identifier: Apache-2.0
//
// Bulk async-groups (PTX 9.7.9.25.1.1, commit_group / wait_group{.read}).
#include "tma/bulk_group.h"

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace tma::model {
namespace {

TEST(BulkGroup, WaitCountsMostRecentGroups) {
  BulkGroupTracker t;
  t.Issue(1, BulkOpKind::kStore);
  t.Issue(2, BulkOpKind::kReduce);
  EXPECT_EQ(t.CommitGroup(), 0u);
  t.Issue(3, BulkOpKind::kStore);
  EXPECT_EQ(t.CommitGroup(), 1u);
  EXPECT_EQ(t.PendingGroups(), 2);
  EXPECT_TRUE(t.WaitGroupSatisfied(2, false));
  EXPECT_FALSE(t.WaitGroupSatisfied(1, false));
  t.Complete(1, true, true);
  EXPECT_FALSE(t.WaitGroupSatisfied(1, false));  // op 2 still pending
  EXPECT_EQ(t.Blocking(1, false), (std::vector<uint64_t>{2}));
  t.Complete(2, true, true);
  EXPECT_TRUE(t.WaitGroupSatisfied(1, false));
  EXPECT_FALSE(t.WaitGroupSatisfied(0, false));
  t.Complete(3, false, true);
  EXPECT_TRUE(t.WaitGroupSatisfied(0, false));
}

TEST(BulkGroup, GroupsCompleteInCommitOrder) {
  BulkGroupTracker t;
  t.Issue(1, BulkOpKind::kStore);
  t.CommitGroup();
  t.Issue(2, BulkOpKind::kStore);
  t.CommitGroup();
  t.Complete(2, true, true);        // the newer group's op finishes first
  EXPECT_EQ(t.PendingGroups(), 2);  // but it cannot complete before group 0
  EXPECT_FALSE(t.WaitGroupSatisfied(1, false));
  t.Complete(1, true, true);
  EXPECT_EQ(t.PendingGroups(), 0);
}

TEST(BulkGroup, ReadWaitsOnlyForReads) {
  BulkGroupTracker t;
  t.Issue(7, BulkOpKind::kStore);
  t.CommitGroup();
  t.Complete(7, true, false);  // source read, write not yet visible
  EXPECT_TRUE(t.WaitGroupSatisfied(0, true));
  EXPECT_FALSE(t.WaitGroupSatisfied(0, false));
}

TEST(BulkGroup, UncommittedOpsAreNotWaitedFor) {
  BulkGroupTracker t;
  t.Issue(1, BulkOpKind::kStore);
  EXPECT_EQ(t.Uncommitted(), 1u);
  EXPECT_TRUE(t.WaitGroupSatisfied(0, false));
  t.CommitGroup();
  EXPECT_EQ(t.Uncommitted(), 0u);
  EXPECT_FALSE(t.WaitGroupSatisfied(0, false));
}

TEST(BulkGroup, EmptyGroupAndLoadsAndRetire) {
  BulkGroupTracker t;
  t.CommitGroup();  // empty groups are legal and complete at once
  EXPECT_EQ(t.PendingGroups(), 0);
  t.Issue(5, BulkOpKind::kLoad);  // tracked for its tensor-map read only
  t.Issue(6, BulkOpKind::kPrefetch);
  t.CommitGroup();
  EXPECT_FALSE(t.WaitGroupSatisfied(0, false));
  t.Complete(5, true, false);
  EXPECT_TRUE(t.WaitGroupSatisfied(0, false));
  t.Retire();
  EXPECT_EQ(t.PendingGroups(), 0);
  BulkGroupSet set;
  set.For(3).Issue(1, BulkOpKind::kStore);
  set.For(3).CommitGroup();
  EXPECT_EQ(set.For(3).PendingGroups(), 1);
  EXPECT_EQ(set.For(4).PendingGroups(), 0);  // per issuer
}

}  // namespace
}  // namespace tma::model
