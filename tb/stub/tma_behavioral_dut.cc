// SPDX-License-Identifier: Apache-2.0
//
// The model-as-DUT stand-in for tma_sim_top (tma_behavioral_dut.h).
#include "stub/tma_behavioral_dut.h"

#include <cstring>

#include "tma/tensor_copy.h"

namespace tma::tb {

namespace m = tma::model;

namespace {
// Global memory seen through the stub's line cache: a read of a line not yet fetched is
// recorded as a miss (and reads zeros); a fetched line with an error fails the read.
class CacheView : public m::GlobalMemoryIf {
 public:
  CacheView(const std::map<uint64_t, std::array<uint8_t, kDataBytes>>* lines,
            const std::set<uint64_t>* err, std::set<uint64_t>* misses)
      : lines_(lines), err_(err), misses_(misses) {}
  bool Read(uint64_t addr, uint8_t* dst, size_t n) override {
    bool ok = true;
    for (size_t i = 0; i < n;) {
      uint64_t a = addr + i;
      uint64_t line = a & ~static_cast<uint64_t>(kDataBytes - 1);
      size_t off = a - line;
      size_t chunk = std::min(n - i, static_cast<size_t>(kDataBytes) - off);
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
  const std::map<uint64_t, std::array<uint8_t, kDataBytes>>* lines_;
  const std::set<uint64_t>* err_;
  std::set<uint64_t>* misses_;
};

// Shared memory that only records writes: (cta, line) -> data + strobe.
class BeatCollector : public m::SharedMemoryIf {
 public:
  int NumCtas() const override { return kNumCtas; }
  bool Read(int, uint32_t, uint8_t* dst, size_t n) override {
    std::memset(dst, 0, n);
    return true;
  }
  bool Write(int cta, uint32_t addr, const uint8_t* src, size_t n) override {
    for (size_t i = 0; i < n; ++i) {
      uint32_t a = addr + static_cast<uint32_t>(i);
      auto& l = lines[{a & ~static_cast<uint32_t>(kDataBytes - 1), cta}];
      l.first[a % kDataBytes] = src[i];
      l.second |= 1u << (a % kDataBytes);
    }
    return true;
  }
  std::map<std::pair<uint32_t, int>, std::pair<std::array<uint8_t, kDataBytes>, uint32_t>> lines;
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
  instr_ = m::TensorInstr{};
  instr_.op = static_cast<m::Op>(cmd_op_i.read());
  instr_.mode = static_cast<m::LoadMode>(cmd_mode_i.read());
  instr_.redop = static_cast<m::RedOp>(cmd_redop_i.read());
  instr_.dim = static_cast<int>(cmd_dim_i.read());
  const CoordBv& cb = cmd_coords_i.read();
  int nc = (instr_.mode == m::LoadMode::kTileGather4 || instr_.mode == m::LoadMode::kTileScatter4)
               ? 5
               : instr_.dim;
  for (int i = 0; i < nc && i < 5; ++i) {
    instr_.coords.push_back(static_cast<int32_t>(cb.get_word(i)));
  }
  uint64_t im = cmd_im2col_i.read();
  int nim = instr_.mode == m::LoadMode::kIm2col ? instr_.dim - 2
            : (instr_.mode == m::LoadMode::kIm2colW || instr_.mode == m::LoadMode::kIm2colW128) ? 2
                                                                                                : 0;
  for (int i = 0; i < nim; ++i) {
    instr_.im2col_info.push_back(static_cast<uint16_t>(im >> (16 * i)));
  }
  instr_.smem_addr = cmd_smem_addr_i.read();
  instr_.mbar_addr = cmd_mbar_addr_i.read();
  instr_.multicast = cmd_multicast_i.read();
  instr_.cta_mask = static_cast<uint16_t>(cmd_cta_mask_i.read());
  instr_.issuer_cta = static_cast<int>(cmd_issuer_i.read());
  instr_.dst_cta = static_cast<int>(cmd_dst_cta_i.read());
  instr_.cta_group = static_cast<int>(cmd_cta_group_i.read());
  desc_addr_ = cmd_desc_addr_i.read();
  tag_ = cmd_tag_i.read();
  lines_.clear();  // no descriptor or data cache across commands
  err_lines_.clear();
  state_ = State::kFetch;
  RunModel();
}

void tma_behavioral_dut::RunModel() {
  misses_.clear();
  CacheView g(&lines_, &err_lines_, &misses_);
  BeatCollector s;
  m::ExecResult r = m::ExecuteTensorAt(desc_addr_, instr_, g, s);
  if (!misses_.empty()) {
    // Coalesce the missing lines into bursts (<= 16 beats, inside one 4 KiB page).
    Burst b{0, 0};
    for (uint64_t line : misses_) {
      if (b.beats > 0 && line == b.line + b.beats * kDataBytes && b.beats < 16 &&
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
    cpls_.push_back(Cpl{1, 0, 0, 0, static_cast<uint32_t>(r.status.cls)});
    ++errors_;
    state_ = State::kComplete;
    return;
  }
  // Group identical beats of different CTAs into one multicast beat.
  std::map<uint32_t,
           std::vector<std::pair<int, std::pair<std::array<uint8_t, kDataBytes>, uint32_t>>>>
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
    cpls_.push_back(Cpl{0, static_cast<uint32_t>(tx.cta), tx.mbar_addr, tx.bytes, 0});
  }
  state_ = State::kWrite;
}

void tma_behavioral_dut::Tick() {
  if (!rst_ni.read()) {
    Reset();
    cmd_ready_o.write(false);
    m_axi_arvalid_o.write(false);
    m_axi_rready_o.write(false);
    m_axi_awvalid_o.write(false);
    m_axi_wvalid_o.write(false);
    m_axi_bready_o.write(true);
    smem_wr_valid_o.write(false);
    smem_rd_valid_o.write(false);
    cpl_valid_o.write(false);
    busy_o.write(false);
    err_count_o.write(0);
    return;
  }
  // ---- handshakes that completed at this edge ----
  bool cmd_fire = cmd_rdy_q_ && cmd_valid_i.read();
  if (ar_q_ && m_axi_arready_i.read()) {
    ar_q_ = false;
    to_issue_.pop_front();
  }
  if (m_axi_rvalid_i.read()) {  // rready is always high
    uint32_t id = m_axi_rid_i.read();
    auto it = inflight_.find(id);
    if (it != inflight_.end()) {
      uint64_t line = it->second.first.line + it->second.second * kDataBytes;
      BvToBytes(m_axi_rdata_i.read(), lines_[line].data());
      if (m_axi_rresp_i.read() != 0) {
        err_lines_.insert(line);
      }
      if (++it->second.second == it->second.first.beats) {
        inflight_.erase(it);
      }
    }
  }
  if (wr_q_ && smem_wr_ready_i.read()) {
    wr_q_ = false;
    beats_.pop_front();
  }
  if (cpl_q_ && cpl_ready_i.read()) {
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
    m_axi_arid_o.write(next_id_);
    m_axi_araddr_o.write(b.line);
    m_axi_arlen_o.write(b.beats - 1);
    m_axi_arsize_o.write(4);  // log2(kDataBytes)
    m_axi_arburst_o.write(1);
    next_id_ = (next_id_ + 1) % 16;
    ar_q_ = true;
  }
  m_axi_arvalid_o.write(ar_q_);
  m_axi_rready_o.write(true);
  if (!wr_q_ && state_ == State::kWrite && !beats_.empty()) {
    const Beat& b = beats_.front();
    smem_wr_addr_o.write(b.addr);
    smem_wr_data_o.write(BytesToBv(b.data.data()));
    smem_wr_strb_o.write(b.strb);
    smem_wr_cta_mask_o.write(b.mask);
    wr_q_ = true;
  }
  smem_wr_valid_o.write(wr_q_);
  if (!cpl_q_ && state_ == State::kComplete && !cpls_.empty()) {
    const Cpl& c = cpls_.front();
    cpl_kind_o.write(c.kind);
    cpl_cta_o.write(c.cta);
    cpl_mbar_addr_o.write(c.mbar);
    cpl_bytes_o.write(c.bytes);
    cpl_error_o.write(c.error);
    cpl_tag_o.write(tag_);
    cpl_q_ = true;
  }
  cpl_valid_o.write(cpl_q_);
  cmd_rdy_q_ = state_ == State::kIdle;
  cmd_ready_o.write(cmd_rdy_q_);
  busy_o.write(state_ != State::kIdle);
  err_count_o.write(errors_);
  m_axi_awvalid_o.write(false);
  m_axi_wvalid_o.write(false);
  smem_rd_valid_o.write(false);
}

}  // namespace tma::tb
