// SPDX-License-Identifier: Apache-2.0
#include "checker.h"

#include <cstdio>
#include <iterator>

namespace {
std::string Hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}
}  // namespace

otma_checker::otma_checker(const otma_checker_config& cfg)
    : cfg_(cfg), bars_(cfg.cluster_size == 0 ? 1 : static_cast<int>(cfg.cluster_size)) {}

void otma_checker::Report(uint32_t cls, uint32_t rank, uint32_t addr, otma_token op, uint64_t cycle,
                          const std::string& msg) {
  if (cls < OTMA_CHK_NUM_CLASSES) {
    ++counts_[cls];
  }
  if (cfg_.report != nullptr) {
    otma_check_report r{};
    r.struct_size = sizeof r;
    r.cls = cls;
    r.rank = rank;
    r.addr = addr;
    r.op = op;
    r.cycle = cycle;
    r.message = msg.c_str();
    cfg_.report(cfg_.user, &r);
  }
}

uint32_t otma_checker::Count(uint32_t cls) const {
  if (cls == 0) {
    uint32_t n = 0;
    for (uint32_t c : counts_) {
      n += c;
    }
    return n;
  }
  return cls < OTMA_CHK_NUM_CLASSES ? counts_[cls] : 0;
}

void otma_checker::MbarInit(uint32_t rank, uint32_t mbar, uint32_t count) {
  bars_.Init(static_cast<int>(rank), mbar, count);
  phase_[Key{rank, mbar}] = PhaseInfo{};
}

// A phase of (k) completed between old_phase and now: every op issued into that phase that
// still has bytes to deliver to k makes it an early completion.
void otma_checker::AfterChange(const Key& k, uint64_t old_phase, uint64_t cycle) {
  const tma::model::Mbarrier* b = bars_.Find(static_cast<int>(k.rank), k.mbar);
  if (b == nullptr || b->phase() == old_phase) {
    return;
  }
  phase_[k].armed = false;
  for (auto& [id, f] : ops_) {
    auto it = f.phase_at_issue.find(k);
    if (f.reported || it == f.phase_at_issue.end() || it->second != old_phase) {
      continue;
    }
    f.reported = true;
    Report(OTMA_CHK_PHASE_EARLY, k.rank, k.mbar, id, cycle,
           "phase " + std::to_string(old_phase) + " of rank " + std::to_string(k.rank) +
               " mbarrier " + Hex(k.mbar) + " completed while op " + std::to_string(id) +
               ", issued in that phase, had not delivered its bytes (expect_tx too small?)");
  }
}

void otma_checker::ArriveExpectTx(uint32_t rank, uint32_t mbar, uint32_t tx) {
  const Key k{rank, mbar};
  tma::model::Mbarrier* b = bars_.Find(static_cast<int>(rank), mbar);
  if (b == nullptr) {
    return;  // an arrive on no barrier: the host's own model reports it
  }
  const uint64_t old = b->phase();
  if (tx > 0) {
    phase_[k].armed = true;
    phase_[k].ever_armed = true;
  }
  const tma::model::MbarArriveResult r = tx > 0 ? b->ArriveExpectTx(tx) : b->Arrive(1);
  if (r.status.code == tma::model::MbarError::kTxOverflow) {
    Report(OTMA_CHK_TX_OVERFLOW, rank, mbar, 0, last_cycle_, r.status.ToString());
  }
  AfterChange(k, old, last_cycle_);
}

void otma_checker::ExpectTx(uint32_t rank, uint32_t mbar, uint32_t tx) {
  const Key k{rank, mbar};
  tma::model::Mbarrier* b = bars_.Find(static_cast<int>(rank), mbar);
  if (b == nullptr) {
    return;
  }
  phase_[k].armed = true;
  phase_[k].ever_armed = true;
  const uint64_t old = b->phase();
  const tma::model::MbarStatus st = b->ExpectTx(tx);
  if (st.code == tma::model::MbarError::kTxOverflow) {
    Report(OTMA_CHK_TX_OVERFLOW, rank, mbar, 0, last_cycle_, st.ToString());
  }
  AfterChange(k, old, last_cycle_);
}

void otma_checker::OpIssued(otma_token op, const std::vector<Dest>& dests, bool multicast,
                            uint32_t issuer, uint64_t cycle) {
  last_cycle_ = cycle;
  InFlight f;
  f.multicast = multicast;
  f.issuer = issuer;
  for (const Dest& d : dests) {
    const tma::model::Mbarrier* b = bars_.Find(static_cast<int>(d.rank), d.mbar);
    f.phase_at_issue[Key{d.rank, d.mbar}] = b != nullptr ? b->phase() : 0;
  }
  ops_[op] = std::move(f);
}

void otma_checker::CompleteTx(otma_token op, uint32_t rank, uint32_t mbar, uint32_t bytes,
                              uint64_t cycle) {
  last_cycle_ = cycle;
  const Key k{rank, mbar};
  auto fit = ops_.find(op);
  InFlight* f = fit != ops_.end() ? &fit->second : nullptr;
  const bool multicast = f != nullptr && f->multicast;
  tma::model::Mbarrier* b = bars_.Find(static_cast<int>(rank), mbar);
  if (b == nullptr || !b->initialized() || b->invalidated()) {
    Report(OTMA_CHK_UNARMED, rank, mbar, op, cycle,
           std::string(multicast ? "multicast " : "") + "complete_tx of op " + std::to_string(op) +
               " (" + std::to_string(bytes) + " B) to rank " + std::to_string(rank) + " mbarrier " +
               Hex(mbar) + ": the barrier is not initialised there");
    return;
  }
  if (f != nullptr) {
    auto it = f->phase_at_issue.find(k);
    // The issuer's own barrier, which it armed for an earlier phase but not for this one: a
    // producer arms its barrier before it issues into it (multicast included), so these bytes
    // were meant for the previous phase. (A peer's multicast may legally arrive before the
    // receiver arms, so peers are not judged by this rule; in TIMED mode AfterChange sees
    // the early completion itself.)
    const bool local = rank == f->issuer;
    PhaseInfo& ph = phase_[k];
    if (!f->reported && local && !ph.armed && ph.ever_armed && b->pending() == b->expected() &&
        b->expected() > 0) {
      f->reported = true;
      Report(OTMA_CHK_PHASE_EARLY, rank, mbar, op, cycle,
             "op " + std::to_string(op) + " delivered " + std::to_string(bytes) +
                 " B to its own CTA's mbarrier " + Hex(mbar) + " in phase " +
                 std::to_string(b->phase()) +
                 ", which nobody has armed or arrived on: the bytes were meant for the "
                 "previous phase, which completed early");
    }
    if (it != f->phase_at_issue.end()) {
      f->phase_at_issue.erase(it);
    }
  }
  const uint64_t old = b->phase();
  const tma::model::MbarStatus st = b->CompleteTx(bytes);
  if (st.code == tma::model::MbarError::kTxUnderflow) {
    Report(OTMA_CHK_TX_UNDERFLOW, rank, mbar, op, cycle, st.ToString());
  } else if (b->OverDelivered()) {
    Report(OTMA_CHK_TX_UNDERFLOW, rank, mbar, op, cycle,
           "complete_tx of op " + std::to_string(op) + " took rank " + std::to_string(rank) +
               " mbarrier " + Hex(mbar) + " to tx-count " + std::to_string(b->tx_count()) +
               " with every arrival in: more bytes than the phase's expect_tx");
  }
  AfterChange(k, old, cycle);
}

void otma_checker::OpRetired(otma_token op) {
  ops_.erase(op);
}

void otma_checker::TmaSmemWrite(otma_token op, uint32_t rank, uint32_t addr, uint32_t n,
                                uint64_t cycle) {
  last_cycle_ = cycle;
  if (n == 0) {
    return;
  }
  auto& m = stages_[rank];
  const uint32_t end = addr + n;
  auto it = m.upper_bound(addr);
  if (it != m.begin()) {
    --it;
  }
  for (; it != m.end() && it->first < end; ++it) {
    if (it->second.first > addr && it->second.second != op) {
      Report(OTMA_CHK_STAGE_OVERWRITE, rank, addr, op, cycle,
             "op " + std::to_string(op) + " writes rank " + std::to_string(rank) +
                 " shared memory [" + Hex(addr) + ", " + Hex(end) + ") over bytes op " +
                 std::to_string(it->second.second) + " wrote at " + Hex(it->first) +
                 " that no consumer has released");
      break;
    }
  }
  // Record (extending the previous range of the same op when contiguous).
  auto prev = m.upper_bound(addr);
  if (prev != m.begin()) {
    --prev;
    if (prev->second.second == op && prev->second.first == addr) {
      prev->second.first = end;
      return;
    }
  }
  auto cur = m.find(addr);
  if (cur != m.end()) {
    cur->second = {std::max(cur->second.first, end), op};
  } else {
    m.emplace(addr, std::make_pair(end, op));
  }
}

void otma_checker::Release(uint32_t rank, uint32_t addr, uint32_t n) {
  auto sit = stages_.find(rank);
  if (sit == stages_.end()) {
    return;
  }
  auto& m = sit->second;
  const uint32_t end = addr + n;
  std::vector<std::pair<uint32_t, std::pair<uint32_t, otma_token>>> keep;
  auto it = m.upper_bound(addr);
  if (it != m.begin()) {
    --it;
  }
  while (it != m.end() && it->first < end) {
    const uint32_t s = it->first;
    const uint32_t e = it->second.first;
    const otma_token op = it->second.second;
    if (e <= addr) {
      ++it;
      continue;
    }
    it = m.erase(it);
    if (s < addr) {
      keep.push_back({s, {addr, op}});
    }
    if (e > end) {
      keep.push_back({end, {e, op}});
    }
  }
  for (auto& kv : keep) {
    m[kv.first] = kv.second;
  }
}

void otma_checker::Finish(uint64_t cycle) {
  for (const auto& [k, info] : phase_) {
    const tma::model::Mbarrier* b = bars_.Find(static_cast<int>(k.rank), k.mbar);
    if (b != nullptr && b->initialized() && b->pending() == 0 && b->tx_count() > 0) {
      Report(OTMA_CHK_TX_OVERFLOW, k.rank, k.mbar, 0, cycle,
             "phase " + std::to_string(b->phase()) + " of rank " + std::to_string(k.rank) +
                 " mbarrier " + Hex(k.mbar) + " still expects " + std::to_string(b->tx_count()) +
                 " bytes with every arrival in: expect_tx exceeds what the TMA delivered");
    }
  }
}
