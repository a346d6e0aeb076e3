// SPDX-License-Identifier: Apache-2.0
//
// The AXI4 read slave of the harnesses (axi_read_slave.h).
#include "sim/axi_read_slave.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <string>

namespace tma::sim {

uint32_t GlobalMemorySource::ReadBeat(uint64_t lane0, uint64_t beat_addr, uint32_t bytes_per_beat,
                                      uint8_t* data, int data_bytes) {
  const size_t n = static_cast<size_t>(data_bytes);
  if (mem_->Read(lane0, data, n)) {
    return 0;
  }
  // The transfer's bytes are [beat_addr, beat_addr + bytes_per_beat); the other lanes of a
  // narrow beat carry no data. A beat is OKAY only when every byte of the transfer is inside
  // memory: one partly outside is SLVERR, as the model's bus_error for an access that leaves
  // the buffer (docs/verification.md, "AXI slave").
  bool all = true;
  for (size_t k = 0; k < n; ++k) {
    const uint64_t a = lane0 + k;
    const bool ok = mem_->Read(a, data + k, 1);
    if (!ok) {
      data[k] = 0;
    }
    all &= ok || a < beat_addr || a >= beat_addr + bytes_per_beat;
  }
  return all ? 0 : 2;
}

void AxiReadConfig::SetLatency(int lo, int hi, bool split) {
  for (int id = 0; id < kAxiIds; ++id) {
    int l = lo, h = hi;
    if (split && hi > lo && (id & 1)) {
      l = (lo + hi) / 2;
    } else if (split && hi > lo) {
      h = (lo + hi) / 2;
    }
    latency[static_cast<size_t>(id)] = {l, h};
  }
}

void AxiReadSlave::Clear() {
  for (auto& q : pending_) {
    q.clear();
  }
  active_ = -1;
  r_valid_q_ = ar_ready_q_ = ar_wait_ = false;
  outstanding_ = 0;
  mute_.fill(false);
}

void AxiReadSlave::CheckStable(const TopPins& p) {
  if (ar_wait_) {
    if (!p.arvalid) {
      err_("AXI_AR_DROP", "arvalid dropped before arready");
    } else if (p.araddr != ar_prev_addr_ || p.arid != ar_prev_id_ || p.arlen != ar_prev_len_ ||
               p.arsize != ar_prev_size_) {
      err_("AXI_AR_UNSTABLE", "AR payload changed while arvalid && !arready");
    }
  }
  ar_wait_ = p.arvalid && !ar_ready_q_;
  ar_prev_addr_ = p.araddr;
  ar_prev_id_ = p.arid;
  ar_prev_len_ = p.arlen;
  ar_prev_size_ = p.arsize;
}

void AxiReadSlave::TakeAr(const TopPins& p, uint64_t now) {
  Burst b;
  b.id = p.arid & (kAxiIds - 1);
  b.addr = p.araddr;
  b.len = p.arlen;
  b.size = p.arsize;
  if (p.arburst != 1) {
    err_("AXI_BURST", "arburst " + std::to_string(p.arburst) + " is not INCR");
  }
  const uint32_t db = static_cast<uint32_t>(p.data_bytes);
  if ((1u << b.size) > db) {
    err_("AXI_SIZE", "arsize " + std::to_string(b.size) + " wider than the bus");
  }
  if (cfg_.full_width && ((1u << b.size) != db || b.addr % db != 0)) {
    err_("AXI_SIZE", "arsize " + std::to_string(b.size) + " / araddr not the full, aligned bus");
  }
  const uint64_t bpb = 1ull << b.size;
  const uint64_t first = b.addr & ~(bpb - 1);
  const uint64_t last = first + (b.len + 1ull) * bpb - 1;
  if ((first >> 12) != (last >> 12)) {
    std::ostringstream os;
    os << "burst at 0x" << std::hex << b.addr << " len " << std::dec << b.len + 1
       << " crosses a 4 KiB boundary";
    err_("AXI_4K", os.str());
  }
  ++bursts_;
  if (record_) {
    ar_log_.push_back({b.id, b.addr, b.len, b.size, p.arcache});
  }
  uint64_t release = 0;
  for (const AxiErrorRange& e : silent_) {
    if (first < e.hi && last >= e.lo) {
      if (e.resp == 0) {
        mute_[b.id] = true;
      }
      release = std::max<uint64_t>(release, e.resp);
    }
  }
  if (mute_[b.id]) {
    ++silent_bursts_;
    return;
  }
  const auto [lo, hi] = cfg_.latency[b.id];
  b.ready_cycle = now + static_cast<uint64_t>(lo) +
                  (hi > lo ? rng_->Below(static_cast<uint64_t>(hi - lo + 1)) : 0);
  if (release != 0) {
    ++silent_bursts_;
    b.ready_cycle = now + release;
  }
  if (gate_) {
    b.gate_handle = gate_.request(b.id, b.addr, (b.len + 1ull) * bpb - (b.addr - first));
  } else {
    b.gate_resp = 0;
  }
  Queue(b.id).push_back(b);
  ++outstanding_;
}

bool AxiReadSlave::Ready(Burst& b, uint64_t now) {
  if (b.ready_cycle > now) {
    return false;
  }
  if (b.gate_resp < 0) {
    b.gate_resp = gate_.response(b.gate_handle);
  }
  return b.gate_resp >= 0;
}

void AxiReadSlave::Tick(TopPins& p, uint64_t now) {
  if (!p.rst_n) {
    p.arready = false;
    p.rvalid = false;
    r_valid_q_ = ar_ready_q_ = ar_wait_ = false;
    return;
  }
  CheckStable(p);
  if (ar_ready_q_ && p.arvalid) {
    TakeAr(p, now);
  }
  if (r_valid_q_ && p.rready) {
    auto& q = pending_[static_cast<size_t>(active_)];
    Burst& b = q.front();
    ++beats_;
    if (b.next_beat++ == b.len) {
      q.pop_front();
      --outstanding_;
      active_ = -1;
    }
    r_valid_q_ = false;
  }
  // The next R beat; a beat that is valid stays until it is taken.
  if (!r_valid_q_) {
    if (active_ < 0) {
      if (cfg_.in_order) {
        if (!pending_[0].empty() && Ready(pending_[0].front(), now)) {
          active_ = 0;
        }
      } else {
        int ready_ids[kAxiIds];
        int n = 0;
        for (int id = 0; id < kAxiIds; ++id) {
          auto& q = pending_[static_cast<size_t>(id)];
          if (!q.empty() && Ready(q.front(), now)) {
            ready_ids[n++] = id;
          }
        }
        if (n > 0) {
          active_ = ready_ids[rng_->Below(static_cast<uint64_t>(n))];
        }
      }
    }
    if (active_ >= 0 && rng_->Chance(cfg_.rvalid_pct)) {
      const Burst& b = pending_[static_cast<size_t>(active_)].front();
      const int db = p.data_bytes;
      const uint64_t bpb = 1ull << b.size;
      const uint64_t beat_addr = (b.addr & ~(bpb - 1)) + b.next_beat * bpb;
      const uint64_t lane0 = beat_addr & ~static_cast<uint64_t>(db - 1);
      uint32_t resp = src_->ReadBeat(lane0, beat_addr, static_cast<uint32_t>(bpb), p.rdata, db);
      if (resp == 0 && b.gate_resp > 0) {
        resp = static_cast<uint32_t>(b.gate_resp);
      }
      for (const AxiErrorRange& e : errors_) {
        if (beat_addr < e.hi && beat_addr + bpb > e.lo) {
          resp = e.resp;
          break;
        }
      }
      if (resp != 0) {
        std::memset(p.rdata, 0, static_cast<size_t>(db));
        ++error_beats_;
      }
      p.rid = static_cast<uint8_t>(b.id);
      p.rresp = static_cast<uint8_t>(resp);
      p.rlast = b.next_beat == b.len;
      r_valid_q_ = true;
    }
  }
  p.rvalid = r_valid_q_;
  ar_ready_q_ = rng_->Chance(cfg_.arready_pct);
  p.arready = ar_ready_q_;
}

}  // namespace tma::sim
