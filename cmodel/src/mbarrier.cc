// SPDX-License-Identifier: Apache-2.0
#include "tma/mbarrier.h"

#include <sstream>

namespace tma::model {

const char* ToString(MbarError e) {
  switch (e) {
    case MbarError::kOk:
      return "ok";
    case MbarError::kNotInitialized:
      return "not_initialized";
    case MbarError::kInvalidated:
      return "invalidated";
    case MbarError::kBadCount:
      return "bad_count";
    case MbarError::kTxOverflow:
      return "tx_overflow";
    case MbarError::kTxUnderflow:
      return "tx_underflow";
    case MbarError::kArriveOverflow:
      return "arrive_overflow";
    case MbarError::kStaleToken:
      return "stale_token";
    case MbarError::kStuck:
      return "stuck";
    case MbarError::kNoBarrier:
      return "no_barrier";
    case MbarError::kMisaligned:
      return "misaligned";
    case MbarError::kBadCta:
      return "bad_cta";
  }
  return "?";
}

std::string MbarStatus::ToString() const {
  if (ok()) {
    return "ok";
  }
  return std::string(model::ToString(code)) + ": " + message;
}

namespace {

std::string Str(int64_t v) {
  return std::to_string(v);
}

MbarStatus CountInRange(const char* op, const char* what, int64_t n, int64_t lo) {
  if (n < lo || n > kMbarCountLimit) {
    return MbarStatus::Error(MbarError::kBadCount, std::string(op) + ": " + what + " " + Str(n) +
                                                       " is outside " + Str(lo) + ".." +
                                                       Str(kMbarCountLimit));
  }
  return MbarStatus::Ok();
}

}  // namespace

MbarStatus Mbarrier::CheckUsable(const char* op) const {
  if (invalidated_) {
    return MbarStatus::Error(MbarError::kInvalidated,
                             std::string(op) + " on an invalidated mbarrier (init it again first)");
  }
  if (!valid_) {
    return MbarStatus::Error(MbarError::kNotInitialized,
                             std::string(op) + " on an mbarrier that was never initialised");
  }
  return MbarStatus::Ok();
}

void Mbarrier::MaybeComplete() {
  if (pending_ == 0 && tx_ == 0) {
    ++phase_;
    pending_ = expected_;
  }
}

MbarStatus Mbarrier::Init(int64_t count) {
  MbarStatus s = CountInRange("init", "count", count, 1);
  if (!s.ok()) {
    return s;
  }
  valid_ = true;
  invalidated_ = false;
  phase_ = 0;
  pending_ = expected_ = count;
  tx_ = 0;
  return MbarStatus::Ok();
}

MbarStatus Mbarrier::ExpectTx(int64_t n) {
  MbarStatus s = CheckUsable("expect-tx");
  if (!s.ok()) {
    return s;
  }
  s = CountInRange("expect-tx", "txCount", n, 0);
  if (!s.ok()) {
    return s;
  }
  if (tx_ + n > kMbarTxLimit) {
    return MbarStatus::Error(MbarError::kTxOverflow,
                             "expect-tx(" + Str(n) + ") would take tx-count from " + Str(tx_) +
                                 " to " + Str(tx_ + n) + ", above the limit " + Str(kMbarTxLimit));
  }
  tx_ += n;
  MaybeComplete();
  return MbarStatus::Ok();
}

MbarStatus Mbarrier::CompleteTx(int64_t n) {
  MbarStatus s = CheckUsable("complete-tx");
  if (!s.ok()) {
    return s;
  }
  s = CountInRange("complete-tx", "txCount", n, 0);
  if (!s.ok()) {
    return s;
  }
  if (tx_ - n < -kMbarTxLimit) {
    return MbarStatus::Error(MbarError::kTxUnderflow,
                             "complete-tx(" + Str(n) + ") would take tx-count from " + Str(tx_) +
                                 " to " + Str(tx_ - n) + ", below the limit -" + Str(kMbarTxLimit));
  }
  tx_ -= n;
  MaybeComplete();
  return MbarStatus::Ok();
}

MbarArriveResult Mbarrier::Arrive(int64_t count) {
  MbarArriveResult r;
  r.status = CheckUsable("arrive");
  if (!r.status.ok()) {
    return r;
  }
  r.status = CountInRange("arrive", "count", count, 1);
  if (!r.status.ok()) {
    return r;
  }
  if (count > pending_) {
    r.status = MbarStatus::Error(
        MbarError::kArriveOverflow,
        "arrive(" + Str(count) + ") in phase " + std::to_string(phase_) + " but only " +
            Str(pending_) + " of " + Str(expected_) + " arrivals are pending" +
            (pending_ == 0 ? " (all arrived; the phase waits for tx-count " + Str(tx_) + ")" : ""));
    return r;
  }
  r.token.phase = phase_;
  pending_ -= count;
  MaybeComplete();
  return r;
}

MbarArriveResult Mbarrier::ArriveExpectTx(int64_t n) {
  MbarArriveResult r;
  r.status = CheckUsable("arrive.expect_tx");
  if (!r.status.ok()) {
    return r;
  }
  if (pending_ < 1) {
    return Arrive(1);  // reports the arrive overflow, state unchanged
  }
  // pending >= 1, so this expect-tx cannot complete the phase and the arrive cannot fail.
  r.status = ExpectTx(n);
  if (!r.status.ok()) {
    return r;
  }
  return Arrive(1);
}

MbarWaitResult Mbarrier::TestWait(MbarToken token) const {
  MbarWaitResult r;
  r.status = CheckUsable("test_wait");
  if (!r.status.ok()) {
    return r;
  }
  if (token.phase == phase_) {
    r.complete = false;
  } else if (token.phase + 1 == phase_) {
    r.complete = true;
  } else {
    r.status = MbarStatus::Error(
        MbarError::kStaleToken,
        "test_wait with a token of phase " + std::to_string(token.phase) +
            " while the current phase is " + std::to_string(phase_) +
            " (only the current or the immediately preceding phase may be waited on)");
  }
  return r;
}

MbarWaitResult Mbarrier::TestWaitParity(int parity) const {
  MbarWaitResult r;
  r.status = CheckUsable("test_wait.parity");
  if (!r.status.ok()) {
    return r;
  }
  if (parity != 0 && parity != 1) {
    r.status = MbarStatus::Error(MbarError::kBadCount,
                                 "phaseParity must be 0 or 1 (got " + std::to_string(parity) + ")");
    return r;
  }
  r.complete = (parity != this->parity());
  return r;
}

MbarStatus Mbarrier::Inval() {
  MbarStatus s = CheckUsable("inval");
  if (!s.ok()) {
    return s;
  }
  valid_ = false;
  invalidated_ = true;
  return MbarStatus::Ok();
}

MbarStatus Mbarrier::Diagnose() const {
  MbarStatus s = CheckUsable("diagnose");
  if (!s.ok()) {
    return s;
  }
  std::ostringstream os;
  os << "phase " << phase_ << " cannot complete: ";
  if (pending_ > 0 && tx_ == 0) {
    os << pending_ << " of " << expected_ << " arrivals are still pending";
  } else if (pending_ > 0) {
    os << pending_ << " of " << expected_ << " arrivals are still pending and tx-count is " << tx_;
  } else if (tx_ > 0) {
    os << "all arrivals are in but tx-count is " << tx_ << ": " << tx_
       << " expected bytes were never delivered by complete-tx (under-delivery)";
  } else {
    os << "all arrivals are in but tx-count is " << tx_ << ": complete-tx delivered " << -tx_
       << " bytes more than any expect-tx announced (over-delivery or a missing expect-tx); only "
          "another expect-tx("
       << -tx_ << ") could complete it";
  }
  return MbarStatus::Error(MbarError::kStuck, os.str());
}

int RouteCompleteTx(int dst_cta, int mbar_cta, int cta_group) {
  if (cta_group == 2) {
    return (dst_cta & ~1) | (mbar_cta & 1);
  }
  return dst_cta;
}

std::vector<CompleteTx> CompleteTxEvents(bool multicast, uint16_t cta_mask, int dst_cta,
                                         int mbar_cta, int cta_group, uint32_t mbar_addr,
                                         uint32_t bytes) {
  std::vector<CompleteTx> out;
  if (!multicast) {
    out.push_back({RouteCompleteTx(dst_cta, mbar_cta, cta_group), mbar_addr, bytes});
    return out;
  }
  for (int c = 0; c < kMaxCtas; ++c) {
    if ((cta_mask >> c) & 1) {
      out.push_back({RouteCompleteTx(c, mbar_cta, cta_group), mbar_addr, bytes});
    }
  }
  return out;
}

MbarStatus ClusterMbarriers::CheckLocation(int cta, uint32_t addr) const {
  if (cta < 0 || cta >= num_ctas_) {
    return MbarStatus::Error(MbarError::kBadCta, "CTA " + std::to_string(cta) +
                                                     " is outside the cluster of " +
                                                     std::to_string(num_ctas_) + " CTAs");
  }
  if (addr % kMbarAlign != 0) {
    return MbarStatus::Error(MbarError::kMisaligned,
                             "mbarrier offset " + std::to_string(addr) + " is not 8-byte aligned");
  }
  return MbarStatus::Ok();
}

MbarStatus ClusterMbarriers::Init(int cta, uint32_t addr, int64_t count) {
  MbarStatus s = CheckLocation(cta, addr);
  if (!s.ok()) {
    return s;
  }
  Mbarrier trial;
  s = trial.Init(count);
  if (!s.ok()) {
    return s;
  }
  return bars_[{cta, addr}].Init(count);
}

Mbarrier* ClusterMbarriers::Find(int cta, uint32_t addr) {
  auto it = bars_.find({cta, addr});
  return it == bars_.end() ? nullptr : &it->second;
}

const Mbarrier* ClusterMbarriers::Find(int cta, uint32_t addr) const {
  auto it = bars_.find({cta, addr});
  return it == bars_.end() ? nullptr : &it->second;
}

MbarStatus ClusterMbarriers::Apply(const CompleteTx& ev) {
  MbarStatus s = CheckLocation(ev.cta, ev.mbar_addr);
  if (!s.ok()) {
    return s;
  }
  Mbarrier* b = Find(ev.cta, ev.mbar_addr);
  if (b == nullptr) {
    return MbarStatus::Error(MbarError::kNoBarrier, "complete-tx(" + std::to_string(ev.bytes) +
                                                        ") to CTA " + std::to_string(ev.cta) +
                                                        " offset " + std::to_string(ev.mbar_addr) +
                                                        ", where no mbarrier was initialised");
  }
  return b->CompleteTx(ev.bytes);
}

MbarStatus ClusterMbarriers::ApplyAll(const std::vector<CompleteTx>& events) {
  for (const CompleteTx& ev : events) {
    MbarStatus s = Apply(ev);
    if (!s.ok()) {
      return s;
    }
  }
  return MbarStatus::Ok();
}

std::vector<std::string> ClusterMbarriers::DiagnoseAll() const {
  std::vector<std::string> out;
  for (const auto& [key, bar] : bars_) {
    if (!bar.initialized()) {
      continue;
    }
    if (bar.pending() == bar.expected() && bar.tx_count() == 0) {
      continue;  // at rest: nothing outstanding in the current phase
    }
    std::ostringstream os;
    os << "cta " << key.first << " mbar 0x" << std::hex << key.second << std::dec << ": "
       << bar.Diagnose().message;
    out.push_back(os.str());
  }
  return out;
}

}  // namespace tma::model
