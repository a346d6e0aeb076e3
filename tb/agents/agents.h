// SPDX-License-Identifier: Apache-2.0
//
// The bench's agents (namespace tma::tb): thin UVM wrappers over the harness components of
// sim/ (the same classes the golden replay, the end-to-end test and engine_perf use). Each
// agent's Tick() reads the DUT's pins of this cycle (the handshakes at the coming edge) and
// writes its inputs for the next; the environment calls every Tick from its one clocked
// method and then clocks the DUT (TmaEnv::run_phase).
//   CmdAgent     sequencer + driver of the command port (sim::CmdPort), and a monitor that
//                rebuilds each accepted command from the pins (sim::CmdCodec).
//   AxiSlaveAgent  AXI4 read slave over a PatternMemory (sim::AxiReadSlave): per-ID latency
//                ranges, random ready/valid, out-of-order responses across IDs (in order
//                within an ID), SLVERR/DECERR on the memory's error ranges, protocol checks;
//                and the AXI4 write slave of stores and reductions into the same memory
//                (sim::AxiWriteSlave: random ready / valid, per-ID B latency, checks).
//   SmemAgent    the cluster's shared windows (sim::SmemPort): random smem_wr_ready, every
//                write beat applied to each CTA of its mask and published; read port answered
//                in order.
//   CplAgent     random cpl_ready (sim::CplPort), completions published, and the mbarrier
//                objects that the complete-tx events land on (expect-tx from the model).
#ifndef TMA_TB_AGENTS_AGENTS_H_
#define TMA_TB_AGENTS_AGENTS_H_

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "agents/pattern_memory.h"
#include "agents/tma_items.h"
#include "sim/axi_read_slave.h"
#include "sim/axi_write_slave.h"
#include "sim/cmd_port.h"
#include "sim/cpl_port.h"
#include "sim/smem_port.h"
#include "tb_if.h"
#include "tma/mbarrier.h"
#include "tma/memory.h"
#include "uvm/uvm.h"

namespace tma::tb {

// Shared knobs, read from the config store by every agent ("*" key names below).
struct BenchKnobs {
  uint64_t seed = 1;
  int cmd_valid_pct = 100;   // "cmd_valid_pct"
  int arready_pct = 100;     // "arready_pct"
  int rvalid_pct = 100;      // "rvalid_pct"
  int smem_ready_pct = 100;  // "smem_ready_pct"
  int cpl_ready_pct = 100;   // "cpl_ready_pct"
  int min_latency = 1;       // "min_latency": AXI read latency range (cycles), per ID
  int max_latency = 1;       // "max_latency"
  static BenchKnobs FromConfig(const uvm::Component* c);
};

class CmdMonitor : public uvm::Monitor {
 public:
  CmdMonitor(const std::string& name, uvm::Component* parent) : uvm::Monitor(name, parent) {}
  void build_phase() override;
  // The clocked work of one rising edge (called by TmaEnv's clocked method).
  void Tick();
  uvm::AnalysisPort<TmaCommand> ap;
  uint64_t accepted() const { return accepted_; }

 private:
  TmaIf* vif_ = nullptr;
  uint64_t accepted_ = 0;
};

class CmdDriver : public uvm::Driver<TmaCommand> {
 public:
  CmdDriver(const std::string& name, uvm::Component* parent)
      : uvm::Driver<TmaCommand>(name, parent) {}
  void build_phase() override;
  // The clocked work of one rising edge (called by TmaEnv's clocked method).
  void Tick();

 private:
  TmaIf* vif_ = nullptr;
  std::unique_ptr<tma::sim::MtRandom> rng_;
  std::unique_ptr<tma::sim::CmdPort> port_;
  TmaCommand cur_;
};

class CmdAgent : public uvm::Agent {
 public:
  CmdAgent(const std::string& name, uvm::Component* parent) : uvm::Agent(name, parent) {}
  void build_phase() override;
  void connect_phase() override;
  uvm::Sequencer<TmaCommand>* sequencer = nullptr;
  CmdDriver* driver = nullptr;
  CmdMonitor* monitor = nullptr;
};

class AxiSlaveAgent : public uvm::Agent {
 public:
  AxiSlaveAgent(const std::string& name, uvm::Component* parent) : uvm::Agent(name, parent) {}
  void build_phase() override;
  // The clocked work of one rising edge (called by TmaEnv's clocked method).
  void Tick();
  void report_phase() override;
  PatternMemory* mem = nullptr;
  uint64_t bursts() const { return bursts_; }
  uint64_t beats() const { return beats_; }
  uint64_t error_beats() const { return error_beats_; }

 private:
  // The AXI data and response of a beat: the PatternMemory's bytes and error ranges.
  struct Source : tma::sim::BeatSource {
    PatternMemory* mem = nullptr;
    uint32_t ReadBeat(uint64_t lane0, uint64_t beat_addr, uint32_t bytes_per_beat, uint8_t* data,
                      int data_bytes) override {
      mem->ReadRaw(lane0, data, static_cast<size_t>(data_bytes));
      return mem->RespFor(beat_addr, bytes_per_beat);
    }
  };
  TmaIf* vif_ = nullptr;
  Source src_;
  std::unique_ptr<tma::sim::MtRandom> rng_;
  std::unique_ptr<tma::sim::AxiReadSlave> rd_;
  std::unique_ptr<tma::sim::AxiWriteSlave> wr_;
  uint64_t bursts_ = 0, beats_ = 0, error_beats_ = 0;
};

class SmemAgent : public uvm::Agent {
 public:
  SmemAgent(const std::string& name, uvm::Component* parent) : uvm::Agent(name, parent) {}
  void build_phase() override;
  // The clocked work of one rising edge (called by TmaEnv's clocked method).
  void Tick();
  tma::model::ClusterSharedMemory* mem = nullptr;
  uvm::AnalysisPort<SmemBeat> ap;
  uint64_t beats() const { return port_ ? port_->beats() : 0; }

 private:
  TmaIf* vif_ = nullptr;
  std::unique_ptr<tma::sim::MtRandom> rng_;
  std::unique_ptr<tma::sim::SmemPort> port_;
};

class CplAgent : public uvm::Agent {
 public:
  CplAgent(const std::string& name, uvm::Component* parent) : uvm::Agent(name, parent) {}
  void build_phase() override;
  // The clocked work of one rising edge (called by TmaEnv's clocked method).
  void Tick();
  void check_phase() override;
  uvm::AnalysisPort<Completion> ap;
  // What the program does before the copy: arrive.expect_tx(bytes) on (cta, mbar).
  void ExpectTx(int cta, uint32_t mbar, uint32_t bytes);
  // Withdraws an expectation of a command the DUT skipped as unsupported.
  void CancelTx(int cta, uint32_t mbar, uint32_t bytes);
  uint64_t received() const { return port_ ? port_->received() : 0; }

 private:
  void Take(const tma::sim::EngineCompletion& e);
  TmaIf* vif_ = nullptr;
  std::unique_ptr<tma::sim::MtRandom> rng_;
  std::unique_ptr<tma::sim::CplPort> port_;
  tma::model::ClusterMbarriers bars_{kNumCtas};
};

}  // namespace tma::tb

#endif  // TMA_TB_AGENTS_AGENTS_H_
