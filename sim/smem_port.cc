// SPDX-License-Identifier: Apache-2.0
//
// The shared-memory ports of the harnesses (smem_port.h).
#include "sim/smem_port.h"

#include <cstring>
#include <string>

namespace tma::sim {

void SmemPort::Tick(TopPins& p, uint64_t now) {
  if (!p.rst_n) {
    p.smem_wr_ready = false;
    p.smem_rd_ready = false;
    p.smem_rd_rvalid = false;
    ready_q_ = wait_ = false;
    return;
  }
  const int db = p.data_bytes;
  const bool valid = p.smem_wr_valid;
  if (wait_ && (!valid || p.smem_wr_addr != prev_addr_ || p.smem_wr_strb != prev_strb_ ||
                p.smem_wr_cta_mask != prev_mask_)) {
    err_("SMEM_UNSTABLE", "smem write beat changed or dropped while valid && !ready");
  }
  if (ready_q_ && valid) {
    SmemBeat b;
    b.addr = p.smem_wr_addr;
    b.strb = p.smem_wr_strb;
    b.cta_mask = p.smem_wr_cta_mask;
    b.cycle = now;
    std::memcpy(b.data.data(), p.smem_wr_data, static_cast<size_t>(db));
    if (b.addr % static_cast<uint32_t>(db) != 0) {
      err_("SMEM_ALIGN", "smem write address not DataBytes aligned");
    }
    if (b.cta_mask == 0) {
      err_("SMEM_MASK", "smem write beat with an empty CTA mask");
    }
    for (int cta = 0; cta < 16; ++cta) {
      if (!((b.cta_mask >> cta) & 1)) {
        continue;
      }
      if (cta >= mem_->NumCtas()) {
        err_("SMEM_CTA", "smem write to CTA " + std::to_string(cta) + " outside the cluster");
        continue;
      }
      for (int k = 0; k < db;) {  // runs of enabled bytes
        if (!((b.strb >> k) & 1)) {
          ++k;
          continue;
        }
        int n = 1;
        while (k + n < db && ((b.strb >> (k + n)) & 1)) {
          ++n;
        }
        if (!mem_->Write(cta, b.addr + static_cast<uint32_t>(k), &b.data[static_cast<size_t>(k)],
                         static_cast<size_t>(n))) {
          err_("SMEM_RANGE", "smem write outside the window: CTA " + std::to_string(cta) +
                                 " offset " + std::to_string(b.addr + static_cast<uint32_t>(k)));
          break;
        }
        k += n;
      }
    }
    ++beats_;
    if (observer_) {
      observer_(b);
    }
  }
  wait_ = valid && !ready_q_;
  prev_addr_ = p.smem_wr_addr;
  prev_strb_ = p.smem_wr_strb;
  prev_mask_ = p.smem_wr_cta_mask;
  ready_q_ = rng_->Chance(ready_pct_);
  p.smem_wr_ready = ready_q_;
  // Read port: always ready, data one cycle later, in order.
  if (p.smem_rd_valid && !read_port_) {
    err_("SMEM_READ", "shared-memory read port used by a load-only engine");
  } else if (p.smem_rd_valid) {
    std::array<uint8_t, kMaxDataBytes> d{};
    const int cta = static_cast<int>(p.smem_rd_cta);
    if (!mem_->Read(cta, p.smem_rd_addr, d.data(), static_cast<size_t>(db))) {
      // A beat that reaches past the window (a window smaller than a beat, as a golden case's
      // may be): its bytes inside it, zeros beyond (the engine does not use them).
      for (int k = 0; k < db; ++k) {
        mem_->Read(cta, p.smem_rd_addr + static_cast<uint32_t>(k), &d[static_cast<size_t>(k)], 1);
      }
    }
    rd_q_.push_back(d);
    if (read_observer_) {
      read_observer_(p.smem_rd_cta, p.smem_rd_addr);
    }
  }
  p.smem_rd_ready = true;
  if (!rd_q_.empty()) {
    std::memcpy(p.smem_rd_rdata, rd_q_.front().data(), static_cast<size_t>(db));
    p.smem_rd_rvalid = true;
    rd_q_.pop_front();
  } else {
    p.smem_rd_rvalid = false;
  }
}

}  // namespace tma::sim
