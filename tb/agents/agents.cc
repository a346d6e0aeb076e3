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
// Each agent's random numbers: its own stream, from the bench seed and its name.
uint64_t Seed(const uvm::Component* c, uint64_t seed) {
  return seed ^ std::hash<std::string>()(c->full_name());
}
// A harness component's protocol errors as this component's UVM errors.
tma::sim::ErrorFn Errors(const uvm::Component* c) {
  return [c](const std::string& id, const std::string& msg) { c->Error(id, msg); };
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
  static const char* kKinds[] = {"complete_tx", "error", "done", "?"};  // by tma::pkg::Cpl*
  static_assert(tma::pkg::CplTx == 0 && tma::pkg::CplError == 1 && tma::pkg::CplDone == 2);
  os << kKinds[kind & 3] << " tag=" << int(tag);
  if (kind == tma::pkg::CplTx) {
    os << " cta=" << cta << " mbar=0x" << std::hex << mbar_addr << std::dec << " bytes=" << bytes;
  } else if (kind == tma::pkg::CplError) {
    os << " error=" << tma::model::ToString(static_cast<tma::model::ErrorClass>(error));
  }
  return os.str();
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
void CmdMonitor::Tick() {
  const tma::sim::TopPins& p = vif_->pins();
  if (!p.rst_n || !p.cmd_valid || !p.cmd_ready) {
    return;
  }
  const tma::sim::EngineCommand e = tma::sim::CmdCodec::Decode(p);
  TmaCommand c;
  c.instr = e.instr;
  c.desc_addr = e.desc_addr;
  c.tag = e.tag;
  c.id = accepted_++;
  Info("CMD", "accepted " + c.ToString(), uvm::kHigh);
  ap.write(c);
}

void CmdDriver::build_phase() {
  vif_ = GetVif(this);
  BenchKnobs k = BenchKnobs::FromConfig(this);
  rng_ = std::make_unique<tma::sim::MtRandom>(Seed(this, k.seed));
  port_ = std::make_unique<tma::sim::CmdPort>(
      rng_.get(),
      [this](tma::sim::EngineCommand* e) {
        if (!seq_item_port->TryNextItem(&cur_)) {
          return false;
        }
        e->instr = cur_.instr;
        e->desc_addr = cur_.desc_addr;
        e->tag = cur_.tag;
        e->inval_before = cur_.inval_before;
        return true;
      },
      [this](const tma::sim::EngineCommand&) { seq_item_port->ItemDone(); }, k.cmd_valid_pct);
}
void CmdDriver::Tick() {
  port_->Tick(vif_->pins(), Cycle());
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

// ---- AXI4 slave ----------------------------------------------------------------------------
void AxiSlaveAgent::build_phase() {
  vif_ = GetVif(this);
  if (!ConfigDb::Get().Lookup(this, "gmem", &mem) || mem == nullptr) {
    Fatal("NOMEM", "no 'gmem' in the config store");
  }
  src_.mem = mem;
  BenchKnobs k = BenchKnobs::FromConfig(this);
  rng_ = std::make_unique<tma::sim::MtRandom>(Seed(this, k.seed));
  tma::sim::AxiReadConfig rc;
  rc.arready_pct = k.arready_pct;
  rc.rvalid_pct = k.rvalid_pct;
  // Each ID gets its own range inside [min, max]: odd IDs slow, even IDs fast, so responses
  // overtake each other across IDs.
  rc.SetLatency(k.min_latency, k.max_latency, /*split=*/true);
  rd_ = std::make_unique<tma::sim::AxiReadSlave>(&src_, rng_.get(), Errors(this), rc);
  // The store / reduction path writes into the same memory (PatternMemory::written() keeps
  // the ranges for the scoreboard); its ready / valid draws and latencies follow the read
  // channel's knobs.
  tma::sim::AxiWriteConfig wc;
  wc.awready_pct = k.arready_pct;
  wc.wready_pct = k.smem_ready_pct;
  wc.bvalid_pct = k.rvalid_pct;
  for (auto& l : wc.latency) {
    l = {k.min_latency, k.max_latency};
  }
  wr_ = std::make_unique<tma::sim::AxiWriteSlave>(mem, rng_.get(), Errors(this), wc);
}

void AxiSlaveAgent::Tick() {
  tma::sim::TopPins& p = vif_->pins();
  const uint64_t now = Cycle();
  rd_->Tick(p, now);
  wr_->Tick(p, now);
  bursts_ = rd_->bursts();
  beats_ = rd_->beats();
  error_beats_ = rd_->error_beats();
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
  rng_ = std::make_unique<tma::sim::MtRandom>(Seed(this, k.seed));
  port_ = std::make_unique<tma::sim::SmemPort>(mem, rng_.get(), Errors(this), k.smem_ready_pct);
  port_->set_observer([this](const SmemBeat& b) { ap.write(b); });
}
void SmemAgent::Tick() {
  port_->Tick(vif_->pins(), Cycle());
}

// ---- completions and mbarriers ------------------------------------------------------------
void CplAgent::build_phase() {
  vif_ = GetVif(this);
  BenchKnobs k = BenchKnobs::FromConfig(this);
  rng_ = std::make_unique<tma::sim::MtRandom>(Seed(this, k.seed));
  port_ = std::make_unique<tma::sim::CplPort>(
      rng_.get(), [this](const tma::sim::EngineCompletion& e) { Take(e); }, k.cpl_ready_pct);
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
  port_->Tick(vif_->pins(), Cycle());
}
void CplAgent::Take(const tma::sim::EngineCompletion& e) {
  Completion c;
  c.kind = e.kind;
  c.cta = e.cta;
  c.mbar_addr = e.mbar_addr;
  c.bytes = e.bytes;
  c.error = e.error;
  c.tag = e.tag;
  c.cycle = e.cycle;
  Info("CPL", c.ToString(), uvm::kHigh);
  if (c.kind == tma::pkg::CplTx) {
    auto st = bars_.Apply(tma::model::CompleteTx{c.cta, c.mbar_addr, c.bytes});
    if (!st.ok()) {
      Error("MBAR", "complete-tx " + c.ToString() + ": " + st.ToString());
    } else if (bars_.Find(c.cta, c.mbar_addr)->OverDelivered()) {
      Error("MBAR_TX", "complete-tx over-delivered: " + c.ToString());
    }
  }
  ap.write(c);
}
void CplAgent::check_phase() {
  for (const std::string& s : bars_.DiagnoseAll()) {
    Error("MBAR_PHASE", "phase never completed: " + s);
  }
}

}  // namespace tma::tb
