// SPDX-License-Identifier: Apache-2.0
//
// The bench's agents (namespace tma::tb). Each samples the pins at the rising clock edge
// (handshakes that completed at this edge) and then drives the next cycle's values, from
// one clocked method per agent (no thread per cycle).
//   CmdAgent     sequencer + driver of the command port, and a monitor that rebuilds each
//                accepted command from the pins.
//   AxiSlaveAgent  AXI4 read slave over a PatternMemory: per-ID latency ranges, random
//                ready/valid on every channel, out-of-order responses across IDs (in order
//                within an ID), SLVERR/DECERR on chosen ranges, protocol checks.
//   SmemAgent    the cluster's shared windows: random smem_wr_ready, every write beat applied
//                to each CTA of its mask and published; read port answered in order.
//   CplAgent     random cpl_ready, completions published, and the mbarrier objects that the
//                complete-tx events land on (expect-tx from the model).
#ifndef TMA_TB_AGENTS_AGENTS_H_
#define TMA_TB_AGENTS_AGENTS_H_

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <vector>

#include "agents/pattern_memory.h"
#include "agents/tma_items.h"
#include "tb_if.h"
#include "tma/mbarrier.h"
#include "tma/memory.h"
#include "uvm/uvm.h"

namespace tma::tb {

// Whether `c` is clocked by its environment's single method (config "clocked_by_env").
bool ClockedByEnv(const uvm::Component* c);

// Random ready/valid: a signal is high with probability pct/100.
struct Throttle {
  int pct = 100;
  bool Draw(std::mt19937_64& rng) const {
    return pct >= 100 || static_cast<int>(rng() % 100) < pct;
  }
};

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
  void run_phase() override;
  // The clocked work of one rising edge. Spawned as this component's own method unless the
  // config key "clocked_by_env" is true: then the environment calls it from its single
  // clocked method (docs/verification.md, speed).
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
  void run_phase() override;
  // The clocked work of one rising edge. Spawned as this component's own method unless the
  // config key "clocked_by_env" is true: then the environment calls it from its single
  // clocked method (docs/verification.md, speed).
  void Tick();

 private:
  TmaIf* vif_ = nullptr;
  std::mt19937_64 rng_;
  Throttle valid_;
  bool driving_ = false;
  bool inval_pending_ = false;
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
  void run_phase() override;
  // The clocked work of one rising edge. Spawned as this component's own method unless the
  // config key "clocked_by_env" is true: then the environment calls it from its single
  // clocked method (docs/verification.md, speed).
  void Tick();
  void report_phase() override;
  PatternMemory* mem = nullptr;
  uint64_t bursts() const { return bursts_; }
  uint64_t beats() const { return beats_; }
  uint64_t error_beats() const { return error_beats_; }
  // Per-ID latency range (cycles from AR acceptance to the first beat).
  void SetLatency(int id, int lo, int hi) { lat_[id & 15] = {lo, hi}; }

 private:
  struct Burst {
    uint32_t id = 0;
    uint64_t addr = 0;
    uint32_t len = 0;  // beats - 1
    uint32_t size = 0;
    uint64_t ready_cycle = 0;
    uint32_t next_beat = 0;
  };
  void CheckStable();
  TmaIf* vif_ = nullptr;
  std::mt19937_64 rng_;
  Throttle arready_, rvalid_;
  std::array<std::pair<int, int>, 16> lat_{};
  std::array<std::deque<Burst>, 16> pending_;  // per ID, in order
  int active_id_ = -1;                         // ID whose burst is being returned
  bool r_valid_q_ = false;
  bool ar_ready_q_ = false;
  // previous-edge AR state for the stability check
  bool ar_wait_ = false;
  uint64_t ar_prev_addr_ = 0;
  uint32_t ar_prev_id_ = 0, ar_prev_len_ = 0, ar_prev_size_ = 0;
  uint64_t bursts_ = 0, beats_ = 0, error_beats_ = 0;
};

class SmemAgent : public uvm::Agent {
 public:
  SmemAgent(const std::string& name, uvm::Component* parent) : uvm::Agent(name, parent) {}
  void build_phase() override;
  void run_phase() override;
  // The clocked work of one rising edge. Spawned as this component's own method unless the
  // config key "clocked_by_env" is true: then the environment calls it from its single
  // clocked method (docs/verification.md, speed).
  void Tick();
  tma::model::ClusterSharedMemory* mem = nullptr;
  uvm::AnalysisPort<SmemBeat> ap;
  uint64_t beats() const { return beats_; }

 private:
  TmaIf* vif_ = nullptr;
  std::mt19937_64 rng_;
  Throttle ready_;
  bool ready_q_ = false;
  bool wait_ = false;
  uint32_t prev_addr_ = 0, prev_strb_ = 0, prev_mask_ = 0;
  std::deque<std::pair<uint64_t, std::array<uint8_t, kDataBytes>>> rd_q_;
  uint64_t beats_ = 0;
};

class CplAgent : public uvm::Agent {
 public:
  CplAgent(const std::string& name, uvm::Component* parent) : uvm::Agent(name, parent) {}
  void build_phase() override;
  void run_phase() override;
  // The clocked work of one rising edge. Spawned as this component's own method unless the
  // config key "clocked_by_env" is true: then the environment calls it from its single
  // clocked method (docs/verification.md, speed).
  void Tick();
  void check_phase() override;
  uvm::AnalysisPort<Completion> ap;
  // What the program does before the copy: arrive.expect_tx(bytes) on (cta, mbar).
  void ExpectTx(int cta, uint32_t mbar, uint32_t bytes);
  // Withdraws an expectation of a command the DUT skipped as unsupported.
  void CancelTx(int cta, uint32_t mbar, uint32_t bytes);
  uint64_t received() const { return received_; }

 private:
  TmaIf* vif_ = nullptr;
  std::mt19937_64 rng_;
  Throttle ready_;
  bool ready_q_ = false;
  tma::model::ClusterMbarriers bars_{kNumCtas};
  uint64_t received_ = 0;
};

}  // namespace tma::tb

#endif  // TMA_TB_AGENTS_AGENTS_H_
