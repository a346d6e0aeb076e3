// SPDX-License-Identifier: Apache-2.0
//
// Per-thread bulk async-groups (PTX 9.7.9.25.1.1, cp.async.bulk.commit_group / wait_group):
// which operations a `cp.async.bulk.wait_group{.read} N` still waits for.
#ifndef TMA_BULK_GROUP_H_
#define TMA_BULK_GROUP_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <vector>

namespace tma::model {

enum class BulkOpKind : uint8_t {
  kStore = 0,  // S->G tensor or bulk copy (.bulk_group): reads smem, writes global
  kReduce,     // S->G reduction (.bulk_group)
  kPrefetch,   // prefetch: nothing to wait for beyond the issue
  kLoad,       // G->S with mbarrier completion, optionally tracked for the tensor-map read only
};

// The bulk async-groups of ONE issuing thread. Operations are issued, then a commit closes
// every uncommitted one into a new group (an empty group is legal). Groups complete in commit
// order: a group counts as complete only when all its operations and all earlier groups are
// complete. wait_group N returns once at most the N most recent groups are pending; .read waits
// only until the tensor-map and source reads are done (read_done).
class BulkGroupTracker {
 public:
  // A new operation (op ids must be unique among live operations).
  void Issue(uint64_t op_id, BulkOpKind kind);
  // Closes every uncommitted operation into a new group; returns the group's sequence number
  // (0, 1, 2, ... per tracker).
  uint64_t CommitGroup();
  // Progress of an operation: its reads are done, and/or its writes are done and visible
  // (write_done implies read_done). Unknown ids are ignored; flags never go back.
  void Complete(uint64_t op_id, bool read_done, bool write_done);
  // Would `cp.async.bulk.wait_group{.read} n` return now?
  bool WaitGroupSatisfied(int n, bool read_only) const;
  // Number of committed groups still pending (for .read: whose reads are pending), counting
  // in-order completion.
  int PendingGroups(bool read_only = false) const;
  // The operations `wait_group{.read} n` still waits for.
  std::vector<uint64_t> Blocking(int n, bool read_only) const;
  size_t Uncommitted() const { return uncommitted_.size(); }
  // Drops the completed groups at the head (their operations are forgotten).
  void Retire();

 private:
  struct OpState {
    BulkOpKind kind = BulkOpKind::kStore;
    bool read_done = false;
    bool write_done = false;
  };
  struct Group {
    uint64_t seq = 0;
    std::vector<uint64_t> ops;
  };
  bool OpDone(uint64_t id, bool read_only) const;
  bool GroupDone(const Group& g, bool read_only) const;

  std::map<uint64_t, OpState> ops_;
  std::vector<uint64_t> uncommitted_;
  std::deque<Group> groups_;
  uint64_t next_seq_ = 0;
};

// The trackers of every issuing thread, by an issuer key (for example cta * 1024 + thread).
class BulkGroupSet {
 public:
  BulkGroupTracker& For(uint64_t issuer) { return trackers_[issuer]; }

 private:
  std::map<uint64_t, BulkGroupTracker> trackers_;
};

}  // namespace tma::model

#endif  // TMA_BULK_GROUP_H_
