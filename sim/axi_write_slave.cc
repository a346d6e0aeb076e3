// SPDX-License-Identifier: Apache-2.0
//
// The AXI4 write slave of the harnesses (axi_write_slave.h).
#include "sim/axi_write_slave.h"

#include <cstring>
#include <sstream>
#include <string>

namespace tma::sim {

void AxiWriteSlave::Clear() {
  aw_q_.clear();
  w_q_.clear();
  for (auto& q : b_q_) {
    q.clear();
  }
  b_outstanding_ = 0;
  b_active_ = -1;
  mute_.fill(false);
  aw_ready_q_ = w_ready_q_ = b_valid_q_ = aw_wait_ = w_wait_ = false;
}

void AxiWriteSlave::CheckStable(const TopPins& p) {
  if (aw_wait_ && (!p.awvalid || p.awaddr != aw_prev_.addr || p.awid != aw_prev_.id ||
                   p.awlen != aw_prev_.len || p.awsize != aw_prev_.size)) {
    err_("AXI_AW_UNSTABLE", "AW dropped or changed while awvalid && !awready");
  }
  const size_t n = static_cast<size_t>(p.data_bytes);
  if (w_wait_ && (!p.wvalid || p.wstrb != w_prev_.strb || p.wlast != w_prev_.last ||
                  std::memcmp(p.wdata, w_prev_.data.data(), n) != 0)) {
    err_("AXI_W_UNSTABLE", "W dropped or changed while wvalid && !wready");
  }
  aw_wait_ = p.awvalid && !aw_ready_q_;
  aw_prev_ = Aw{p.awid, p.awaddr, p.awlen, p.awsize};
  w_wait_ = p.wvalid && !w_ready_q_;
  std::memcpy(w_prev_.data.data(), p.wdata, n);
  w_prev_.strb = p.wstrb;
  w_prev_.last = p.wlast;
}

void AxiWriteSlave::Complete(const Aw& aw, const std::vector<WBeat>& beats, uint64_t now, int db) {
  const uint64_t bpb = 1ull << aw.size;
  const uint64_t first = aw.addr & ~(bpb - 1);
  const uint64_t end = first + beats.size() * bpb;
  uint32_t resp = 0;
  for (const AxiErrorRange& e : errors_) {
    if (first < e.hi && end > e.lo) {
      resp = e.resp;
      break;
    }
  }
  if (resp == 0) {
    for (size_t k = 0; k < beats.size(); ++k) {
      const uint64_t beat_addr = first + k * bpb;
      const uint64_t lane0 = beat_addr & ~static_cast<uint64_t>(db - 1);
      const uint64_t lo = (aw.addr > beat_addr ? aw.addr : beat_addr) - lane0;  // first lane
      const uint64_t hi = beat_addr + bpb - lane0;                              // past last
      for (int i = 0; i < db;) {  // runs of enabled bytes
        if (!((beats[k].strb >> i) & 1)) {
          ++i;
          continue;
        }
        if (static_cast<uint64_t>(i) < lo || static_cast<uint64_t>(i) >= hi) {
          err_("AXI_WSTRB", "strobe " + std::to_string(i) + " outside the beat's lanes");
          ++i;
          continue;
        }
        int m = 1;
        while (i + m < db && static_cast<uint64_t>(i + m) < hi &&
               ((beats[k].strb >> (i + m)) & 1)) {
          ++m;
        }
        if (!mem_->Write(lane0 + static_cast<uint64_t>(i), &beats[k].data[static_cast<size_t>(i)],
                         static_cast<size_t>(m))) {
          resp = 2;
        }
        i += m;
      }
    }
  }
  if (resp != 0) {
    ++error_bursts_;
  }
  for (const AxiErrorRange& e : silent_) {
    if (first < e.hi && end > e.lo) {
      mute_[aw.id] = true;
    }
  }
  ++bursts_;
  if (mute_[aw.id]) {
    ++silent_bursts_;
    return;
  }
  const auto [l, h] = cfg_.latency[aw.id];
  B b{aw.id, resp,
      now + static_cast<uint64_t>(l) + (h > l ? rng_->Below(static_cast<uint64_t>(h - l + 1)) : 0)};
  if (gate_) {
    b.gate_handle = gate_.request(aw.id, aw.addr, end - aw.addr);
  } else {
    b.gate_resp = 0;
  }
  b_q_[aw.id].push_back(b);
  ++b_outstanding_;
}

void AxiWriteSlave::Tick(TopPins& p, uint64_t now) {
  if (!cfg_.enabled) {
    if (p.rst_n && (p.awvalid || p.wvalid)) {
      err_("AXI_WRITE", "write channel used by a load-only engine");
    }
    p.awready = p.wready = p.rst_n;
    p.bvalid = false;
    return;
  }
  if (!p.rst_n) {
    p.awready = p.wready = p.bvalid = false;
    aw_ready_q_ = w_ready_q_ = b_valid_q_ = aw_wait_ = w_wait_ = false;
    return;
  }
  const int db = p.data_bytes;
  CheckStable(p);
  if (aw_ready_q_ && p.awvalid) {
    Aw aw{static_cast<uint32_t>(p.awid & (kAxiIds - 1)), p.awaddr, p.awlen, p.awsize};
    if (p.awburst != 1) {
      err_("AXI_BURST", "awburst " + std::to_string(p.awburst) + " is not INCR");
    }
    if ((1u << aw.size) > static_cast<uint32_t>(db)) {
      err_("AXI_SIZE", "awsize " + std::to_string(aw.size) + " wider than the bus");
    }
    const uint64_t bpb = 1ull << aw.size;
    const uint64_t first = aw.addr & ~(bpb - 1);
    if ((first >> 12) != ((first + (aw.len + 1ull) * bpb - 1) >> 12)) {
      std::ostringstream os;
      os << "burst at 0x" << std::hex << aw.addr << " len " << std::dec << aw.len + 1
         << " crosses a 4 KiB boundary";
      err_("AXI_4K", os.str());
    }
    aw_q_.push_back(aw);
  }
  if (w_ready_q_ && p.wvalid) {
    WBeat w;
    std::memcpy(w.data.data(), p.wdata, static_cast<size_t>(db));
    w.strb = p.wstrb;
    w.last = p.wlast;
    w_q_.push_back(w);
    ++beats_;
  }
  // Bursts whose beats have all arrived.
  while (!aw_q_.empty() && w_q_.size() >= aw_q_.front().len + 1u) {
    const Aw aw = aw_q_.front();
    aw_q_.pop_front();
    std::vector<WBeat> beats(w_q_.begin(), w_q_.begin() + aw.len + 1);
    w_q_.erase(w_q_.begin(), w_q_.begin() + aw.len + 1);
    for (size_t k = 0; k < beats.size(); ++k) {
      if (beats[k].last != (k == aw.len)) {
        err_("AXI_WLAST", "wlast " + std::to_string(beats[k].last) + " on beat " +
                              std::to_string(k + 1) + " of " + std::to_string(aw.len + 1));
      }
    }
    Complete(aw, beats, now, db);
  }
  if (aw_q_.empty()) {
    for (const WBeat& w : w_q_) {
      if (w.last) {
        err_("AXI_W_ORPHAN", "a W burst ended before its AW");
        w_q_.clear();
        break;
      }
    }
  }
  // B channel.
  if (b_valid_q_ && p.bready) {
    b_q_[static_cast<size_t>(b_active_)].pop_front();
    --b_outstanding_;
    b_active_ = -1;
    b_valid_q_ = false;
  }
  if (!b_valid_q_) {
    int ready_ids[kAxiIds];
    int n = 0;
    for (int id = 0; id < kAxiIds; ++id) {
      auto& q = b_q_[static_cast<size_t>(id)];
      if (q.empty() || q.front().ready_cycle > now) {
        continue;
      }
      B& f = q.front();
      if (f.gate_resp < 0) {
        f.gate_resp = gate_.response(f.gate_handle);
      }
      if (f.gate_resp >= 0) {
        ready_ids[n++] = id;
      }
    }
    if (n > 0 && rng_->Chance(cfg_.bvalid_pct)) {
      b_active_ = ready_ids[rng_->Below(static_cast<uint64_t>(n))];
      const B& b = b_q_[static_cast<size_t>(b_active_)].front();
      p.bid = static_cast<uint8_t>(b.id);
      p.bresp = static_cast<uint8_t>(b.resp == 0 && b.gate_resp > 0 ? b.gate_resp : b.resp);
      b_valid_q_ = true;
    }
  }
  p.bvalid = b_valid_q_;
  aw_ready_q_ = rng_->Chance(cfg_.awready_pct);
  w_ready_q_ = rng_->Chance(cfg_.wready_pct);
  p.awready = aw_ready_q_;
  p.wready = w_ready_q_;
}

}  // namespace tma::sim
