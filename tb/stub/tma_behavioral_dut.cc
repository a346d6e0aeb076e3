// SPDX-License-Identifier: Apache-2.0
//
// The model-as-DUT stand-in for tma_sim_top (tma_behavioral_dut.h).
#include "stub/tma_behavioral_dut.h"

#include <algorithm>
#include <cstring>

#include "sim/cmd_port.h"
#include "tma/tensor_copy.h"

namespace tma::tb {

namespace m = tma::model;

namespace {
// Global memory seen through the stub's line cache: a read of a line not yet fetched is
// recorded as a miss (and reads zeros); a fetched line with an error fails the read.
class CacheView : public m::GlobalMemoryIf {
 public:
  CacheView(const std::map<uint64_t, std::array<uint8_t, tma::sim::kMaxDataBytes>>* lines,
            const std::set<uint64_t>* err, std::set<uint64_t>* misses, int data_bytes)
      : lines_(lines), err_(err), misses_(misses), db_(data_bytes) {}
  bool Read(uint64_t addr, uint8_t* dst, size_t n) override {
    bool ok = true;
    for (size_t i = 0; i < n;) {
      uint64_t a = addr + i;
      uint64_t line = a & ~static_cast<uint64_t>(db_ - 1);
      size_t off = a - line;
      size_t chunk = std::min(n - i, static_cast<size_t>(db_) - off);
      auto it = lines_->find(line);
      if (it == lines_->end()) {
        misses_->insert(line);
        std::memset(dst + i, 0, chunk);
      } else {
        std::memcpy(dst + i, it->second.data() + off, chunk);
        ok = ok && err_->count(line) == 0;
      }
      i += chunk;
    }
    return ok;
  }
  bool Write(uint64_t, const uint8_t*, size_t) override { return false; }

 private:
  const std::map<uint64_t, std::array<uint8_t, tma::sim::kMaxDataBytes>>* lines_;
  const std::set<uint64_t>* err_;
  std::set<uint64_t>* misses_;
  int db_;
};

// Shared memory that only records writes: (cta, line) -> data + strobe.
class BeatCollector : public m::SharedMemoryIf {
 public:
  explicit BeatCollector(int data_bytes) : db_(static_cast<uint32_t>(data_bytes)) {}
  int NumCtas() const override { return 16; }
  bool Read(int, uint32_t, uint8_t* dst, size_t n) override {
    std::memset(dst, 0, n);
    return true;
  }
  bool Write(int cta, uint32_t addr, const uint8_t* src, size_t n) override {
    for (size_t i = 0; i < n; ++i) {
      uint32_t a = addr + static_cast<uint32_t>(i);
      auto& l = lines[{a & ~(db_ - 1), cta}];
      l.first[a % db_] = src[i];
      l.second |= 1ull << (a % db_);
    }
    return true;
  }
  uint32_t db_;
  std::map<std::pair<uint32_t, int>,
           std::pair<std::array<uint8_t, tma::sim::kMaxDataBytes>, uint64_t>>
      lines;
};
}  // namespace

void tma_behavioral_dut::Reset() {
  state_ = State::kIdle;
  lines_.clear();
  err_lines_.clear();
  misses_.clear();
  to_issue_.clear();
  inflight_.clear();
  beats_.clear();
  cpls_.clear();
  ar_q_ = wr_q_ = cpl_q_ = cmd_rdy_q_ = false;
  errors_ = 0;
}

void tma_behavioral_dut::Accept() {
  const tma::sim::EngineCommand c = tma::sim::CmdCodec::Decode(in_);
  instr_ = c.instr;
  desc_addr_ = c.desc_addr;
  tag_ = c.tag;
  lines_.clear();  // no descriptor or data cache across commands
  err_lines_.clear();
  state_ = State::kFetch;
  RunModel();
}

void tma_behavioral_dut::RunModel() {
  misses_.clear();
  const int db = pins.data_bytes;
  CacheView g(&lines_, &err_lines_, &misses_, db);
  BeatCollector s(db);
  m::ExecResult r = m::ExecuteTensorAt(desc_addr_, instr_, g, s);
  if (!misses_.empty()) {
    // Coalesce the missing lines into bursts (<= 16 beats, inside one 4 KiB page).
    Burst b{0, 0};
    for (uint64_t line : misses_) {
      if (b.beats > 0 && line == b.line + b.beats * static_cast<uint64_t>(db) && b.beats < 16 &&
          (line >> 12) == (b.line >> 12)) {
        ++b.beats;
        continue;
      }
      if (b.beats > 0) {
        to_issue_.push_back(b);
      }
      b = Burst{line, 1};
    }
    to_issue_.push_back(b);
    return;
  }
  if (r.status.ok() && instr_.op == m::Op::kLoad && r.complete_tx.empty()) {
    // Multicast to no CTA: refused, so that the command still gets its one completion.
    r.status = m::Status::Error(m::ErrorClass::kInvalidInstruction, "ctaMask", "no destination");
  }
  if (!r.status.ok()) {
    Cpl c;
    c.kind = tma::pkg::CplError;
    c.err = static_cast<uint8_t>(r.status.cls);
    cpls_.push_back(c);
    ++errors_;
    state_ = State::kComplete;
    return;
  }
  // Group identical beats of different CTAs into one multicast beat.
  std::map<uint32_t, std::vector<std::pair<
                         int, std::pair<std::array<uint8_t, tma::sim::kMaxDataBytes>, uint64_t>>>>
      by_addr;
  for (const auto& [key, val] : s.lines) {
    by_addr[key.first].push_back({key.second, val});
  }
  m::TensorMap map;
  uint8_t raw[m::kDescriptorBytes];
  g.Read(desc_addr_, raw, sizeof raw);
  bool swizzled = m::DecodeDescriptor(raw, &map).ok() && map.swizzle != m::Swizzle::kNone;
  for (const auto& [addr, list] : by_addr) {
    std::vector<bool> used(list.size(), false);
    for (size_t i = 0; i < list.size(); ++i) {
      if (used[i]) {
        continue;
      }
      Beat bt{addr, list[i].second.first, list[i].second.second, 0};
      for (size_t j = i; j < list.size(); ++j) {
        if (!used[j] && list[j].second == list[i].second) {
          used[j] = true;
          bt.mask |= 1u << list[j].first;
        }
      }
      if (bug_swizzle && swizzled) {
        bt.addr ^= 16;
      }
      beats_.push_back(bt);
    }
  }
  for (const auto& tx : r.complete_tx) {
    Cpl c;
    c.kind = tma::pkg::CplTx;
    c.cta = static_cast<uint8_t>(tx.cta);
    c.mbar_addr = tx.mbar_addr;
    c.bytes = tx.bytes;
    cpls_.push_back(c);
  }
  state_ = State::kWrite;
}

void tma_behavioral_dut::Tick() {
  tma::sim::TopPins& o = pins;       // outputs
  const tma::sim::TopPins& i = in_;  // inputs of the cycle that ends at this edge
  const int db = pins.data_bytes;
  if (!pins.rst_n) {
    Reset();
    o.cmd_ready = false;
    o.arvalid = false;
    o.rready = false;
    o.awvalid = false;
    o.wvalid = false;
    o.bready = true;
    o.smem_wr_valid = false;
    o.smem_rd_valid = false;
    o.cpl_valid = false;
    o.busy = false;
    o.err_count = 0;
    return;
  }
  // ---- handshakes that completed at this edge ----
  bool cmd_fire = cmd_rdy_q_ && i.cmd_valid;
  if (ar_q_ && i.arready) {
    ar_q_ = false;
    to_issue_.pop_front();
  }
  if (i.rvalid) {  // rready is always high
    uint32_t id = i.rid;
    auto it = inflight_.find(id);
    if (it != inflight_.end()) {
      uint64_t line = it->second.first.line + it->second.second * static_cast<uint64_t>(db);
      std::copy(i.rdata, i.rdata + db, lines_[line].begin());
      if (i.rresp != 0) {
        err_lines_.insert(line);
      }
      if (++it->second.second == it->second.first.beats) {
        inflight_.erase(it);
      }
    }
  }
  if (wr_q_ && i.smem_wr_ready) {
    wr_q_ = false;
    beats_.pop_front();
  }
  if (cpl_q_ && i.cpl_ready) {
    cpl_q_ = false;
    cpls_.pop_front();
  }
  // ---- state ----
  if (cmd_fire) {
    Accept();
  }
  if (state_ == State::kFetch && to_issue_.empty() && inflight_.empty()) {
    RunModel();
  }
  if (state_ == State::kWrite && beats_.empty()) {
    state_ = State::kComplete;
  }
  if (state_ == State::kComplete && cpls_.empty()) {
    state_ = State::kIdle;
  }
  // ---- outputs for the next cycle ----
  if (!ar_q_ && !to_issue_.empty() && inflight_.size() < 16) {
    while (inflight_.count(next_id_)) {
      next_id_ = (next_id_ + 1) % 16;
    }
    const Burst& b = to_issue_.front();
    inflight_[next_id_] = {b, 0};
    o.arid = static_cast<uint8_t>(next_id_);
    o.araddr = b.line;
    o.arlen = static_cast<uint8_t>(b.beats - 1);
    o.arsize = static_cast<uint8_t>(__builtin_ctz(static_cast<unsigned>(db)));  // log2(DataBytes)
    o.arburst = 1;
    next_id_ = (next_id_ + 1) % 16;
    ar_q_ = true;
  }
  o.arvalid = ar_q_;
  o.rready = true;
  if (!wr_q_ && state_ == State::kWrite && !beats_.empty()) {
    const Beat& b = beats_.front();
    o.smem_wr_addr = b.addr;
    std::copy(b.data.begin(), b.data.begin() + db, o.smem_wr_data);
    o.smem_wr_strb = b.strb;
    o.smem_wr_cta_mask = static_cast<uint16_t>(b.mask);
    wr_q_ = true;
  }
  o.smem_wr_valid = wr_q_;
  if (!cpl_q_ && state_ == State::kComplete && !cpls_.empty()) {
    o.cpl = cpls_.front();
    o.cpl.tag = static_cast<uint8_t>(tag_);
    cpl_q_ = true;
  }
  o.cpl_valid = cpl_q_;
  cmd_rdy_q_ = state_ == State::kIdle;
  o.cmd_ready = cmd_rdy_q_;
  o.busy = state_ != State::kIdle;
  o.err_count = static_cast<uint16_t>(errors_);
  o.awvalid = false;
  o.wvalid = false;
  o.smem_rd_valid = false;
}

}  // namespace tma::tb
