// SPDX-License-Identifier: Apache-2.0
#include "tma/bulk_group.h"

namespace tma::model {

void BulkGroupTracker::Issue(uint64_t op_id, BulkOpKind kind) {
  OpState s;
  s.kind = kind;
  if (kind == BulkOpKind::kPrefetch) {
    s.read_done = s.write_done = true;
  }
  ops_[op_id] = s;
  uncommitted_.push_back(op_id);
}

uint64_t BulkGroupTracker::CommitGroup() {
  Group g;
  g.seq = next_seq_++;
  g.ops.swap(uncommitted_);
  groups_.push_back(std::move(g));
  return groups_.back().seq;
}

void BulkGroupTracker::Complete(uint64_t op_id, bool read_done, bool write_done) {
  auto it = ops_.find(op_id);
  if (it == ops_.end()) {
    return;
  }
  it->second.read_done = it->second.read_done || read_done || write_done;
  it->second.write_done = it->second.write_done || write_done;
}

bool BulkGroupTracker::OpDone(uint64_t id, bool read_only) const {
  auto it = ops_.find(id);
  if (it == ops_.end()) {
    return true;
  }
  // A load is tracked by a bulk group for its tensor-map read only.
  if (read_only || it->second.kind == BulkOpKind::kLoad) {
    return it->second.read_done;
  }
  return it->second.write_done;
}

bool BulkGroupTracker::GroupDone(const Group& g, bool read_only) const {
  for (uint64_t id : g.ops) {
    if (!OpDone(id, read_only)) {
      return false;
    }
  }
  return true;
}

int BulkGroupTracker::PendingGroups(bool read_only) const {
  // In-order completion: everything from the first incomplete group on is pending.
  const int total = static_cast<int>(groups_.size());
  for (int i = 0; i < total; ++i) {
    if (!GroupDone(groups_[static_cast<size_t>(i)], read_only)) {
      return total - i;
    }
  }
  return 0;
}

bool BulkGroupTracker::WaitGroupSatisfied(int n, bool read_only) const {
  return PendingGroups(read_only) <= (n < 0 ? 0 : n);
}

std::vector<uint64_t> BulkGroupTracker::Blocking(int n, bool read_only) const {
  std::vector<uint64_t> out;
  const int total = static_cast<int>(groups_.size());
  const int must = total - (n < 0 ? 0 : n);  // groups [0, must) must be complete
  for (int i = 0; i < must; ++i) {
    for (uint64_t id : groups_[static_cast<size_t>(i)].ops) {
      if (!OpDone(id, read_only)) {
        out.push_back(id);
      }
    }
  }
  return out;
}

void BulkGroupTracker::Retire() {
  while (!groups_.empty() && GroupDone(groups_.front(), false)) {
    for (uint64_t id : groups_.front().ops) {
      ops_.erase(id);
    }
    groups_.pop_front();
  }
}

}  // namespace tma::model
