// SPDX-License-Identifier: Apache-2.0
//
// The AXI4 write slave of the harnesses (axi_write_slave.h).
#include "sim/axi_write_slave.h"

#include <cstring>
#include <sstream>
#include <string>

#include "tma/reduce.h"

namespace tma::sim {

namespace {
namespace m = tma::model;
// AXI5 AtomicStore / AtomicLoad operations (AWATOP[2:0]).
enum : uint32_t { kAtAdd = 0, kAtClr, kAtEor, kAtSet, kAtSmax, kAtSmin, kAtUmax, kAtUmin };
}  // namespace

bool AxiWriteSlave::AtomicStore(const Aw& aw, const WBeat& beat, int db) {
  const int n = 1 << aw.size;  // 4 or 8 (checked)
  const bool wide = n == 8;
  const uint32_t op = aw.atop & 7;
  const m::DType u = wide ? m::DType::kU64 : m::DType::kU32;
  const m::DType sgn = wide ? m::DType::kS64 : m::DType::kS32;
  m::RedOp red = m::RedOp::kAdd;
  m::DType t = u;
  switch (op) {
    case kAtAdd:
      red = m::RedOp::kAdd;
      break;
    case kAtClr:
      red = m::RedOp::kAnd;
      break;
    case kAtEor:
      red = m::RedOp::kXor;
      break;
    case kAtSet:
      red = m::RedOp::kOr;
      break;
    case kAtSmax:
      red = m::RedOp::kMax, t = sgn;
      break;
    case kAtSmin:
      red = m::RedOp::kMin, t = sgn;
      break;
    case kAtUmax:
      red = m::RedOp::kMax;
      break;
    default:
      red = m::RedOp::kMin;
      break;  // kAtUmin
  }
  const size_t lane = static_cast<size_t>(aw.addr & static_cast<uint64_t>(db - 1));
  uint8_t src[8], dst[8];
  std::memcpy(src, &beat.data[lane], static_cast<size_t>(n));
  if (op == kAtClr) {  // mem & ~data
    for (int i = 0; i < n; ++i) {
      src[i] = static_cast<uint8_t>(~src[i]);
    }
  }
  if (!mem_->Read(aw.addr, dst, static_cast<size_t>(n))) {
    return false;
  }
  m::ReduceElement(red, t, dst, src);
  return mem_->Write(aw.addr, dst, static_cast<size_t>(n));
}

void AxiWriteSlave::CheckAtomicId(const Aw& aw) {
  // AXI5: an atomic transaction's ID is not that of any outstanding non-atomic transaction.
  const bool atomic = aw.atop != 0;
  bool clash = false;
  for (const Aw& a : aw_q_) {
    clash |= a.id == aw.id && (a.atop != 0) != atomic;
  }
  for (const B& b : b_q_[aw.id]) {
    clash |= b.atomic != atomic;
  }
  if (clash) {
    err_("AXI_ATOP_ID", "AW ID " + std::to_string(aw.id) + (atomic ? " (atomic)" : " (plain)") +
                            " while " + (atomic ? "plain" : "atomic") +
                            " transactions of that ID are outstanding");
  }
}

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
  if (aw_wait_ &&
      (!p.awvalid || p.awaddr != aw_prev_.addr || p.awid != aw_prev_.id ||
       p.awlen != aw_prev_.len || p.awsize != aw_prev_.size || p.awatop != aw_prev_.atop)) {
    err_("AXI_AW_UNSTABLE", "AW dropped or changed while awvalid && !awready");
  }
  const size_t n = static_cast<size_t>(p.data_bytes);
  if (w_wait_ && (!p.wvalid || p.wstrb != w_prev_.strb || p.wlast != w_prev_.last ||
                  std::memcmp(p.wdata, w_prev_.data.data(), n) != 0)) {
    err_("AXI_W_UNSTABLE", "W dropped or changed while wvalid && !wready");
  }
  aw_wait_ = p.awvalid && !aw_ready_q_;
  aw_prev_ = Aw{p.awid, p.awaddr, p.awlen, p.awsize, p.awatop};
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
  if (resp == 0 && aw.atop != 0) {
    ++atomics_;
    const uint64_t n = 1ull << aw.size;
    const uint64_t lane = aw.addr & static_cast<uint64_t>(db - 1);
    const Strobe want = FullStrobe(static_cast<int>(n)) << lane;
    if (beats[0].strb != want) {
      err_("AXI_ATOP_WSTRB", "AtomicStore strobes are not its whole data window");
    }
    if (!AtomicStore(aw, beats[0], db)) {
      resp = 2;
    }
  } else if (resp == 0) {
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
  b.atomic = aw.atop != 0;
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
    Aw aw{static_cast<uint32_t>(p.awid & (kAxiIds - 1)), p.awaddr, p.awlen, p.awsize, p.awatop};
    if (aw.atop != 0) {
      // AXI5 AtomicStore, little-endian (the engine's only atomic form); 4 or 8 bytes (the
      // model's integer reductions), one transfer, aligned.
      if ((aw.atop >> 3) != 2 || aw.len != 0 || (aw.size != 2 && aw.size != 3) ||
          (aw.addr & ((1ull << aw.size) - 1)) != 0) {
        err_("AXI_ATOP", "awatop " + std::to_string(aw.atop) + " awlen " + std::to_string(aw.len) +
                             " awsize " + std::to_string(aw.size) +
                             ": not a single aligned 4- or 8-byte little-endian AtomicStore");
        aw.atop = 0;  // written as a plain write
      }
    }
    CheckAtomicId(aw);
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
