// SPDX-License-Identifier: Apache-2.0
//
// The bench's agents (agents.h).
#include "agents/agents.h"

#include <cstdio>
#include <functional>
#include <sstream>
#include <string>

namespace tma::tb {

using tma::model::TensorInstr;
using uvm::ConfigDb;

namespace {
std::mt19937_64 SeededRng(const uvm::Component* c, uint64_t seed) {
  return std::mt19937_64(seed ^ std::hash<std::string>()(c->full_name()));
}
TmaIf* GetVif(const uvm::Component* c) {
  TmaIf* v = nullptr;
  if (!ConfigDb::Get().Lookup(c, "vif", &v) || v == nullptr) {
    c->Fatal("NOVIF", "no 'vif' in the config store");
  }
  return v;
}
}  // namespace

std::string TmaCommand::ToString() const {
  std::ostringstream os;
  os << "tag=" << int(tag) << " " << tma::model::ToString(instr.op) << "."
     << tma::model::ToString(instr.mode) << "." << instr.dim << "d desc=0x" << std::hex << desc_addr
     << std::dec << " coords={";
  for (size_t i = 0; i < instr.coords.size(); ++i) {
    os << (i ? "," : "") << instr.coords[i];
  }
  os << "} smem=0x" << std::hex << instr.smem_addr << " mbar=0x" << instr.mbar_addr << std::dec
     << " issuer=" << instr.issuer_cta << " dst=" << instr.dst_cta;
  if (instr.multicast) {
    os << " mc_mask=0x" << std::hex << instr.cta_mask << std::dec;
  }
  return os.str();
}

std::string Completion::ToString() const {
  std::ostringstream os;
  static const char* kKinds[] = {"complete_tx", "error", "done", "?"};
  os << kKinds[kind & 3] << " tag=" << int(tag);
  if (kind == 0) {
    os << " cta=" << cta << " mbar=0x" << std::hex << mbar_addr << std::dec << " bytes=" << bytes;
  } else if (kind == 1) {
    os << " error=" << tma::model::ToString(static_cast<tma::model::ErrorClass>(error));
  }
  return os.str();
}

bool ClockedByEnv(const uvm::Component* c) {
  return ConfigDb::Get().GetOr<bool>(c, "clocked_by_env", false);
}

BenchKnobs BenchKnobs::FromConfig(const uvm::Component* c) {
  const auto& db = ConfigDb::Get();
  BenchKnobs k;
  k.seed = db.GetOr<uint64_t>(c, "seed", 1);
  k.cmd_valid_pct = db.GetOr<int>(c, "cmd_valid_pct", 100);
  k.arready_pct = db.GetOr<int>(c, "arready_pct", 100);
  k.rvalid_pct = db.GetOr<int>(c, "rvalid_pct", 100);
  k.smem_ready_pct = db.GetOr<int>(c, "smem_ready_pct", 100);
  k.cpl_ready_pct = db.GetOr<int>(c, "cpl_ready_pct", 100);
  k.min_latency = db.GetOr<int>(c, "min_latency", 1);
  k.max_latency = db.GetOr<int>(c, "max_latency", 1);
  return k;
}

// ---- command agent ----------------------------------------------------------------------
void CmdMonitor::build_phase() {
  vif_ = GetVif(this);
}
void CmdMonitor::run_phase() {
  if (!ClockedByEnv(this)) {
    SpawnMethod(
        "tick", [this] { Tick(); }, vif_->clk.posedge_event());
  }
}
void CmdMonitor::Tick() {
  if (!vif_->rst_n.read() || !vif_->cmd_valid.read() || !vif_->cmd_ready.read()) {
    return;
  }
  TmaCommand c;
  TensorInstr& in = c.instr;
  in.op = static_cast<tma::model::Op>(vif_->cmd_op.read());
  in.mode = static_cast<tma::model::LoadMode>(vif_->cmd_mode.read());
  in.redop = static_cast<tma::model::RedOp>(vif_->cmd_redop.read());
  in.dim = static_cast<int>(vif_->cmd_dim.read());
  c.desc_addr = vif_->cmd_desc_addr.read();
  const CoordBv& cb = vif_->cmd_coords.read();
  int ncoords = in.mode == tma::model::LoadMode::kTileGather4 ||
                        in.mode == tma::model::LoadMode::kTileScatter4
                    ? 5
                    : in.dim;
  for (int i = 0; i < ncoords && i < 5; ++i) {
    in.coords.push_back(static_cast<int32_t>(cb.get_word(i)));
  }
  uint64_t im = vif_->cmd_im2col.read();
  int nim = 0;
  if (in.mode == tma::model::LoadMode::kIm2col) {
    nim = in.dim - 2;
  } else if (in.mode == tma::model::LoadMode::kIm2colW ||
             in.mode == tma::model::LoadMode::kIm2colW128) {
    nim = 2;
  }
  for (int i = 0; i < nim; ++i) {
    in.im2col_info.push_back(static_cast<uint16_t>(im >> (16 * i)));
  }
  in.smem_addr = vif_->cmd_smem_addr.read();
  in.mbar_addr = vif_->cmd_mbar_addr.read();
  in.multicast = vif_->cmd_multicast.read();
  in.cta_mask = static_cast<uint16_t>(vif_->cmd_cta_mask.read());
  in.issuer_cta = static_cast<int>(vif_->cmd_issuer.read());
  in.dst_cta = static_cast<int>(vif_->cmd_dst_cta.read());
  in.cta_group = static_cast<int>(vif_->cmd_cta_group.read());
  c.tag = static_cast<uint8_t>(vif_->cmd_tag.read());
  c.id = accepted_++;
  Info("CMD", "accepted " + c.ToString(), uvm::kHigh);
  ap.write(c);
}

void CmdDriver::build_phase() {
  vif_ = GetVif(this);
  BenchKnobs k = BenchKnobs::FromConfig(this);
  rng_ = SeededRng(this, k.seed);
  valid_.pct = k.cmd_valid_pct;
}
void CmdDriver::run_phase() {
  if (!ClockedByEnv(this)) {
    SpawnMethod(
        "tick", [this] { Tick(); }, vif_->clk.posedge_event());
  }
}
void CmdDriver::Tick() {
  TmaIf& v = *vif_;
  if (!v.rst_n.read()) {
    v.cmd_valid.write(false);
    return;
  }
  v.desc_inval.write(false);
  if (driving_ && v.cmd_ready.read()) {
    driving_ = false;
    v.cmd_valid.write(false);
    seq_item_port->ItemDone();
  }
  if (driving_ || !valid_.Draw(rng_)) {
    return;
  }
  if (!seq_item_port->TryNextItem(&cur_)) {
    return;
  }
  if (cur_.inval_before) {
    v.desc_inval.write(true);
  }
  const TensorInstr& in = cur_.instr;
  v.cmd_op.write(static_cast<uint32_t>(in.op));
  v.cmd_mode.write(static_cast<uint32_t>(in.mode));
  v.cmd_redop.write(static_cast<uint32_t>(in.redop));
  v.cmd_dim.write(static_cast<uint32_t>(in.dim));
  v.cmd_desc_addr.write(cur_.desc_addr);
  CoordBv cb;
  for (int i = 0; i < 5; ++i) {
    cb.set_word(i,
                i < static_cast<int>(in.coords.size()) ? static_cast<uint32_t>(in.coords[i]) : 0u);
  }
  v.cmd_coords.write(cb);
  uint64_t im = 0;
  for (size_t i = 0; i < in.im2col_info.size() && i < 3; ++i) {
    im |= static_cast<uint64_t>(in.im2col_info[i]) << (16 * i);
  }
  v.cmd_im2col.write(im);
  v.cmd_smem_addr.write(in.smem_addr);
  v.cmd_mbar_addr.write(in.mbar_addr);
  v.cmd_multicast.write(in.multicast);
  v.cmd_cta_mask.write(in.cta_mask);
  v.cmd_issuer.write(static_cast<uint32_t>(in.issuer_cta));
  v.cmd_dst_cta.write(static_cast<uint32_t>(in.dst_cta < 0 ? in.issuer_cta : in.dst_cta));
  v.cmd_cta_group.write(static_cast<uint32_t>(in.cta_group));
  v.cmd_tag.write(cur_.tag);
  v.cmd_valid.write(true);
  driving_ = true;
}

void CmdAgent::build_phase() {
  is_active = ConfigDb::Get().GetOr<bool>(this, "is_active", true);
  monitor = Create<CmdMonitor>("monitor");
  if (is_active) {
    sequencer = Create<uvm::Sequencer<TmaCommand>>("sequencer");
    driver = Create<CmdDriver>("driver");
  }
}
void CmdAgent::connect_phase() {
  if (driver != nullptr) {
    driver->seq_item_port = sequencer;
  }
}

// ---- AXI4 read slave --------------------------------------------------------------------
void AxiSlaveAgent::build_phase() {
  vif_ = GetVif(this);
  if (!ConfigDb::Get().Lookup(this, "gmem", &mem) || mem == nullptr) {
    Fatal("NOMEM", "no 'gmem' in the config store");
  }
  BenchKnobs k = BenchKnobs::FromConfig(this);
  rng_ = SeededRng(this, k.seed);
  arready_.pct = k.arready_pct;
  rvalid_.pct = k.rvalid_pct;
  for (int id = 0; id < 16; ++id) {
    // Each ID gets its own range inside [min, max]: odd IDs slow, even IDs fast, so
    // responses overtake each other across IDs.
    int lo = k.min_latency, hi = k.max_latency;
    if (hi > lo && (id & 1)) {
      lo = (lo + hi) / 2;
    } else if (hi > lo) {
      hi = (lo + hi) / 2;
    }
    lat_[id] = {lo, hi};
  }
}

void AxiSlaveAgent::run_phase() {
  if (!ClockedByEnv(this)) {
    SpawnMethod(
        "tick", [this] { Tick(); }, vif_->clk.posedge_event());
  }
}

void AxiSlaveAgent::CheckStable() {
  TmaIf& v = *vif_;
  if (ar_wait_) {
    if (!v.arvalid.read()) {
      Error("AXI_AR_DROP", "arvalid dropped before arready");
    } else if (v.araddr.read() != ar_prev_addr_ || v.arid.read() != ar_prev_id_ ||
               v.arlen.read() != ar_prev_len_ || v.arsize.read() != ar_prev_size_) {
      Error("AXI_AR_UNSTABLE", "AR payload changed while arvalid && !arready");
    }
  }
  ar_wait_ = v.arvalid.read() && !ar_ready_q_;
  ar_prev_addr_ = v.araddr.read();
  ar_prev_id_ = v.arid.read();
  ar_prev_len_ = v.arlen.read();
  ar_prev_size_ = v.arsize.read();
}

void AxiSlaveAgent::Tick() {
  TmaIf& v = *vif_;
  if (!v.rst_n.read()) {
    v.arready.write(false);
    v.rvalid.write(false);
    v.awready.write(false);
    v.wready.write(false);
    v.bvalid.write(false);
    r_valid_q_ = ar_ready_q_ = ar_wait_ = false;
    return;
  }
  uint64_t now = Cycle();
  CheckStable();
  if (v.awvalid.read() || v.wvalid.read()) {
    Error("AXI_WRITE", "write channel used by a load-only engine");
  }
  // AR handshake at this edge.
  if (ar_ready_q_ && v.arvalid.read()) {
    Burst b;
    b.id = v.arid.read() & 15;
    b.addr = v.araddr.read();
    b.len = v.arlen.read();
    b.size = v.arsize.read();
    if (v.arburst.read() != 1) {
      Error("AXI_BURST", "arburst " + std::to_string(v.arburst.read()) + " is not INCR");
    }
    if ((1u << b.size) > static_cast<uint32_t>(kDataBytes)) {
      Error("AXI_SIZE", "arsize " + std::to_string(b.size) + " wider than the bus");
    }
    uint64_t bytes_per_beat = 1ull << b.size;
    uint64_t first = b.addr & ~(bytes_per_beat - 1);
    uint64_t last = first + (b.len + 1ull) * bytes_per_beat - 1;
    if ((first >> 12) != (last >> 12)) {
      std::ostringstream os;
      os << "burst at 0x" << std::hex << b.addr << " len " << std::dec << b.len + 1
         << " crosses a 4 KiB boundary";
      Error("AXI_4K", os.str());
    }
    auto [lo, hi] = lat_[b.id];
    b.ready_cycle = now + lo + (hi > lo ? rng_() % (hi - lo + 1) : 0);
    pending_[b.id].push_back(b);
    ++bursts_;
  }
  // R handshake at this edge.
  if (r_valid_q_ && v.rready.read()) {
    Burst& b = pending_[active_id_].front();
    ++beats_;
    if (b.next_beat++ == b.len) {
      pending_[active_id_].pop_front();
      active_id_ = -1;
    }
    r_valid_q_ = false;
  }
  // Next R beat: hold a beat until it is taken (valid must stay up).
  if (!r_valid_q_) {
    if (active_id_ < 0) {
      int ready_ids[16];
      int n = 0;
      for (int id = 0; id < 16; ++id) {
        if (!pending_[id].empty() && pending_[id].front().ready_cycle <= now) {
          ready_ids[n++] = id;
        }
      }
      if (n > 0) {
        active_id_ = ready_ids[rng_() % n];
      }
    }
    if (active_id_ >= 0 && rvalid_.Draw(rng_)) {
      Burst& b = pending_[active_id_].front();
      uint64_t bpb = 1ull << b.size;
      uint64_t beat_addr = (b.addr & ~(bpb - 1)) + b.next_beat * bpb;
      uint64_t lane0 = beat_addr & ~static_cast<uint64_t>(kDataBytes - 1);
      std::array<uint8_t, kDataBytes> data{};
      mem->ReadRaw(lane0, data.data(), kDataBytes);
      uint32_t resp = mem->RespFor(beat_addr, bpb);
      if (resp != 0) {
        data.fill(0);
        ++error_beats_;
      }
      v.rdata.write(BytesToBv(data.data()));
      v.rid.write(static_cast<uint32_t>(active_id_));
      v.rresp.write(resp);
      v.rlast.write(b.next_beat == b.len);
      r_valid_q_ = true;
    }
  }
  v.rvalid.write(r_valid_q_);
  ar_ready_q_ = arready_.Draw(rng_);
  v.arready.write(ar_ready_q_);
  v.awready.write(true);
  v.wready.write(true);
  v.bvalid.write(false);
}

void AxiSlaveAgent::report_phase() {
  Info("AXI",
       "bursts " + std::to_string(bursts_) + ", beats " + std::to_string(beats_) +
           ", error beats " + std::to_string(error_beats_),
       uvm::kLow);
}

// ---- shared memory ----------------------------------------------------------------------
void SmemAgent::build_phase() {
  vif_ = GetVif(this);
  if (!ConfigDb::Get().Lookup(this, "smem", &mem) || mem == nullptr) {
    Fatal("NOMEM", "no 'smem' in the config store");
  }
  BenchKnobs k = BenchKnobs::FromConfig(this);
  rng_ = SeededRng(this, k.seed);
  ready_.pct = k.smem_ready_pct;
}
void SmemAgent::run_phase() {
  if (!ClockedByEnv(this)) {
    SpawnMethod(
        "tick", [this] { Tick(); }, vif_->clk.posedge_event());
  }
}
void SmemAgent::Tick() {
  TmaIf& v = *vif_;
  if (!v.rst_n.read()) {
    v.smem_wr_ready.write(false);
    v.smem_rd_ready.write(false);
    v.smem_rd_rvalid.write(false);
    ready_q_ = wait_ = false;
    return;
  }
  bool valid = v.smem_wr_valid.read();
  if (wait_ && (!valid || v.smem_wr_addr.read() != prev_addr_ ||
                v.smem_wr_strb.read() != prev_strb_ || v.smem_wr_cta_mask.read() != prev_mask_)) {
    Error("SMEM_UNSTABLE", "smem write beat changed or dropped while valid && !ready");
  }
  if (ready_q_ && valid) {
    SmemBeat b;
    b.addr = v.smem_wr_addr.read();
    b.strb = v.smem_wr_strb.read();
    b.cta_mask = v.smem_wr_cta_mask.read();
    b.cycle = Cycle();
    BvToBytes(v.smem_wr_data.read(), b.data.data());
    if (b.addr % kDataBytes != 0) {
      Error("SMEM_ALIGN", "smem write address not DataBytes aligned");
    }
    if (b.cta_mask == 0) {
      Error("SMEM_MASK", "smem write beat with an empty CTA mask");
    }
    for (int cta = 0; cta < 16; ++cta) {
      if (!((b.cta_mask >> cta) & 1)) {
        continue;
      }
      if (cta >= mem->NumCtas()) {
        Error("SMEM_CTA", "smem write to CTA " + std::to_string(cta) + " outside the cluster");
        continue;
      }
      for (int k = 0; k < kDataBytes;) {  // runs of enabled bytes
        if (!((b.strb >> k) & 1)) {
          ++k;
          continue;
        }
        int n = 1;
        while (k + n < kDataBytes && ((b.strb >> (k + n)) & 1)) {
          ++n;
        }
        if (!mem->Write(cta, b.addr + k, &b.data[k], n)) {
          Error("SMEM_RANGE", "smem write outside the window");
          break;
        }
        k += n;
      }
    }
    ++beats_;
    ap.write(b);
  }
  wait_ = valid && !ready_q_;
  prev_addr_ = v.smem_wr_addr.read();
  prev_strb_ = v.smem_wr_strb.read();
  prev_mask_ = v.smem_wr_cta_mask.read();
  ready_q_ = ready_.Draw(rng_);
  v.smem_wr_ready.write(ready_q_);
  // Read port (stores): always ready, data one cycle later, in order.
  if (v.smem_rd_valid.read()) {
    std::array<uint8_t, kDataBytes> d{};
    mem->Read(static_cast<int>(v.smem_rd_cta.read()), v.smem_rd_addr.read(), d.data(), kDataBytes);
    rd_q_.push_back({Cycle(), d});
  }
  v.smem_rd_ready.write(true);
  if (!rd_q_.empty()) {
    v.smem_rd_rdata.write(BytesToBv(rd_q_.front().second.data()));
    v.smem_rd_rvalid.write(true);
    rd_q_.pop_front();
  } else {
    v.smem_rd_rvalid.write(false);
  }
}

// ---- completions and mbarriers ------------------------------------------------------------
void CplAgent::build_phase() {
  vif_ = GetVif(this);
  BenchKnobs k = BenchKnobs::FromConfig(this);
  rng_ = SeededRng(this, k.seed);
  ready_.pct = k.cpl_ready_pct;
}
void CplAgent::run_phase() {
  if (!ClockedByEnv(this)) {
    SpawnMethod(
        "tick", [this] { Tick(); }, vif_->clk.posedge_event());
  }
}
void CplAgent::ExpectTx(int cta, uint32_t mbar, uint32_t bytes) {
  if (bars_.Find(cta, mbar) == nullptr) {
    auto st = bars_.Init(cta, mbar, 1);
    if (!st.ok()) {
      Error("MBAR", "init: " + st.ToString());
      return;
    }
  }
  auto r = bars_.Find(cta, mbar)->ArriveExpectTx(bytes);
  if (!r.status.ok()) {
    Error("MBAR", "arrive.expect_tx on cta " + std::to_string(cta) + ": " + r.status.ToString());
  }
}
void CplAgent::CancelTx(int cta, uint32_t mbar, uint32_t bytes) {
  auto st = bars_.Apply(tma::model::CompleteTx{cta, mbar, bytes});
  if (!st.ok()) {
    Error("MBAR", "cancel: " + st.ToString());
  }
}

void CplAgent::Tick() {
  TmaIf& v = *vif_;
  if (!v.rst_n.read()) {
    v.cpl_ready.write(false);
    ready_q_ = false;
    return;
  }
  if (ready_q_ && v.cpl_valid.read()) {
    Completion c;
    c.kind = v.cpl_kind.read();
    c.cta = static_cast<int>(v.cpl_cta.read());
    c.mbar_addr = v.cpl_mbar_addr.read();
    c.bytes = v.cpl_bytes.read();
    c.error = v.cpl_error.read();
    c.tag = static_cast<uint8_t>(v.cpl_tag.read());
    c.cycle = Cycle();
    ++received_;
    Info("CPL", c.ToString(), uvm::kHigh);
    if (c.kind == 0) {
      auto st = bars_.Apply(tma::model::CompleteTx{c.cta, c.mbar_addr, c.bytes});
      if (!st.ok()) {
        Error("MBAR", "complete-tx " + c.ToString() + ": " + st.ToString());
      } else if (bars_.Find(c.cta, c.mbar_addr)->OverDelivered()) {
        Error("MBAR_TX", "complete-tx over-delivered: " + c.ToString());
      }
    }
    ap.write(c);
  }
  ready_q_ = ready_.Draw(rng_);
  v.cpl_ready.write(ready_q_);
}
void CplAgent::check_phase() {
  for (const std::string& s : bars_.DiagnoseAll()) {
    Error("MBAR_PHASE", "phase never completed: " + s);
  }
}

}  // namespace tma::tb
