// SPDX-License-Identifier: Apache-2.0
//
// MockEngine (tma/fw/mock_engine.h).
#include "tma/fw/mock_engine.h"

namespace tma::fw {

namespace pkg = tma::pkg;

Error MockEngine::Push(const pkg::cmd_t& cmd) {
  if (held_.size() >= capacity) {
    Error e;
    e.status = Status::kQueueFull;
    e.message = "mock engine queue full";
    return e;
  }
  events_.push_back("cmd " + std::to_string(cmd.tag));
  commands_.push_back(cmd);
  if (auto_complete) {
    Complete(cmd);
  } else {
    held_.push_back(cmd);
  }
  return {};
}

void MockEngine::Release(size_t n) {
  while (n-- > 0 && !held_.empty()) {
    Complete(held_.front());
    held_.pop_front();
  }
}

void MockEngine::Complete(const pkg::cmd_t& cmd) {
  const auto f = fail_.find(cmd.tag);
  if (cmd.mode == pkg::BulkMode && ((cmd.coords.v[2] >> 6) & 1) != 0) {
    // commit_group: the group's read-done, then its done (every earlier command of the queue
    // has completed by now).
    for (const uint32_t flags : {0u, kGroupDoneBit}) {
      pkg::cpl_t c;
      c.kind = pkg::CplGroup;
      c.cta = cmd.issuer;
      c.tag = group_seq_[cmd.issuer & 15];
      c.bytes = flags;
      cpl_.push_back(c);
    }
    ++group_seq_[cmd.issuer & 15];
  } else if (f != fail_.end()) {
    pkg::cpl_t c;
    c.kind = pkg::CplError;
    c.err = static_cast<uint8_t>(f->second);
    c.cta = cmd.issuer;
    c.tag = cmd.tag;
    cpl_.push_back(c);
  } else if (cmd.op == pkg::OpLoad) {
    const uint16_t mask = cmd.multicast ? cmd.cta_mask : static_cast<uint16_t>(1u << cmd.dst_cta);
    for (int cta = 0; cta < 16; ++cta) {
      if ((mask >> cta) & 1) {
        pkg::cpl_t c;
        c.kind = pkg::CplTx;
        c.cta = static_cast<uint8_t>(cta);
        c.mbar_addr = cmd.mbar_addr;
        c.bytes = load_bytes;
        c.tag = cmd.tag;
        cpl_.push_back(c);
      }
    }
  } else if (cmd.mode == pkg::BulkMode && ((cmd.coords.v[2] >> 5) & 1) != 0) {
    // shared::cta -> shared::cluster copy or reduction: one complete-tx of the moved bytes
    // (size & ~15, silicon B1) on the destination CTA's mbarrier.
    pkg::cpl_t c;
    c.kind = pkg::CplTx;
    c.cta = cmd.dst_cta;
    c.mbar_addr = cmd.mbar_addr;
    c.bytes = cmd.coords.v[0] & ~15u;
    c.tag = cmd.tag;
    cpl_.push_back(c);
  } else {
    pkg::cpl_t c;
    c.kind = pkg::CplDone;
    c.cta = cmd.issuer;
    c.tag = cmd.tag;
    cpl_.push_back(c);
  }
  if (link_ != nullptr)
    link_->SetIrq(true);
}

Error MockEngine::Pop(pkg::cpl_t* out, bool* got) {
  *got = !cpl_.empty();
  if (*got) {
    *out = cpl_.front();
    cpl_.pop_front();
  }
  return {};
}

Error MockEngine::InvalidateDescriptors() {
  events_.push_back("inval");
  return {};
}

Error MockEngine::AcknowledgeInterrupt() {
  ++acks_;
  if (link_ != nullptr)
    link_->SetIrq(false);  // INTR_STATE is write-1-to-clear; new completions raise it again
  return {};
}

}  // namespace tma::fw
