// SPDX-License-Identifier: Apache-2.0
//
// The bench environment: agents, scoreboard and coverage, and the memories they share.
//   TmaScoreboard  runs the C++ model (ExecuteTensorAt) for every command seen at the
//                  command port on shadow copies of global and shared memory, then checks
//                  each completion (complete-tx per CTA and mbarrier, or the error class),
//                  that a CTA's bytes are all in place when its complete-tx arrives, that a
//                  store's or reduction's global bytes are in place at its completion, and at
//                  the end that every shared window equals the model's and every global byte
//                  the DUT wrote is one the model wrote, with its value. The first mismatch
//                  names the instruction, the element (coordinates, box index), the bytes,
//                  the seed and the replay command.
//   TmaCoverage    op x mode x rank x type x swizzle x interleave x OOB side x element
//                  stride x multicast mask size x error class, as a table with % hit.
#ifndef TMA_TB_ENV_TMA_ENV_H_
#define TMA_TB_ENV_TMA_ENV_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "agents/agents.h"
#include "sim/dut_coverage.h"
#include "tma/memory.h"
#include "tma/tensor_copy.h"
#include "uvm/uvm.h"

namespace tma::tb {

// What the model predicts for one command, plus what has been seen of it so far.
struct Expectation {
  TmaCommand cmd;
  tma::model::TensorMap map;  // decoded from global memory (when the descriptor decodes)
  bool map_ok = false;
  tma::model::ExecResult res;
  std::vector<tma::model::CompleteTx> pending_tx;
  // Bytes the model wrote, as runs of consecutive bytes of one CTA: span k covers
  // [addr, addr + len) of `cta`, its bytes at data[off..off+len) and the shadow's bytes
  // before the command at prior[off..off+len). Flat vectors: no per-byte containers.
  struct Span {
    int cta;
    uint32_t addr, len, off;
  };
  std::vector<Span> spans;
  std::vector<uint8_t> data, prior;
  // Global bytes the model wrote (stores, reductions): runs [addr, addr + len) at
  // gdata[off..off+len).
  struct GSpan {
    uint64_t addr;
    uint32_t len, off;
  };
  std::vector<GSpan> gspans;
  std::vector<uint8_t> gdata;
  uint64_t accept_cycle = 0;
  // The byte the model wrote at (cta, addr), or -1 (the last write wins).
  int ExpectedByte(int cta, uint32_t addr) const;
};

struct CovSample {
  const Expectation* e = nullptr;
};

class TmaCoverage : public uvm::Component {
 public:
  TmaCoverage(const std::string& name, uvm::Component* parent);
  void Sample(const Expectation& e);
  void report_phase() override;
  double Percent() const { return cg_.Percent(); }
  const uvm::CoverGroup& group() const { return cg_; }

 private:
  uvm::CoverGroup cg_{"tma_load"};
  int op_, mode_, rank_, dtype_, swz_, il_, oob_, es_, mc_, err_;
  int x_rank_swz_, x_dtype_swz_, x_mode_err_, x_op_mode_;
};

class TmaScoreboard : public uvm::Scoreboard {
 public:
  TmaScoreboard(const std::string& name, uvm::Component* parent) : uvm::Scoreboard(name, parent) {}
  void build_phase() override;
  void start_of_simulation_phase() override;
  void check_phase() override;
  void report_phase() override;

  void WriteCmd(const TmaCommand& c);
  void WriteBeat(const SmemBeat& b);
  void WriteCpl(const Completion& c);

  int outstanding() const { return static_cast<int>(open_.size()); }
  const sc_core::sc_event& retired_event() const { return retired_ev_; }
  // Waits until a command retires. Commands outstanding with no command, beat or completion
  // for `idle_limit` cycles (config "idle_limit", default 20000) end the test with a fatal
  // HANG that lists them: a hung DUT costs 20 k cycles, not the 2 M-cycle watchdog.
  void WaitRetired();
  bool TagOpen(uint8_t tag) const { return open_.count(tag) != 0; }

  CplAgent* cpl_agent = nullptr;
  TmaCoverage* coverage = nullptr;

  // Statistics (for the regression summary).
  uint64_t checked = 0;        // commands fully checked
  uint64_t bytes_checked = 0;  // shared-memory bytes compared against the model
  uint64_t errors_expected = 0;
  uint64_t skipped = 0;  // the DUT answered "unsupported" for a command the model runs
  uint64_t mismatches = 0;

 private:
  void Retire(uint8_t tag);
  bool CheckCtaBytes(const Expectation& e, int cta, const char* when);
  // A store's or reduction's global bytes against the model's, at its completion.
  bool CheckGlobalBytes(const Expectation& e);
  // The bytes of bus_error destinations take what the DUT left there (in the shadow too),
  // before a command reads shared memory (a store's source) or at the end of the test.
  void SettleDontCare();
  void ReportMismatch(const Expectation& e, int cta, uint32_t addr, uint8_t want, uint8_t got,
                      const char* when);
  std::string Replay() const;
  // True when the DUT is the RTL (config "dut_claims") and it claims e's command
  // (sim/rtl_support.h; the bench runs sm_90 semantics, DataBytes from config "data_bytes").
  bool ClaimedByDut(const Expectation& e) const;
  // Bench rule for bus errors (docs/verification.md): the destination bytes of a command that
  // ends in bus_error are not compared, unless a later command writes them.
  void MarkBusErrorRegion(const Expectation& e);
  void ClearDontCare(const Expectation& e);
  PatternMemory* gmem_ = nullptr;
  tma::model::ClusterSharedMemory* smem_ = nullptr;
  std::unique_ptr<ShadowGlobal> shadow_g_;
  std::unique_ptr<tma::model::ClusterSharedMemory> shadow_s_;
  std::map<uint8_t, Expectation> open_;
  std::vector<Expectation> history_;  // retired commands, for diagnosis at the end
  sc_core::sc_event retired_ev_;
  uint64_t smem_beats_ = 0;
  bool reported_first_ = false;
  std::vector<std::vector<uint8_t>> dont_care_;  // per CTA window: 1 = byte not compared
  uint64_t last_activity_ = 0;
  uint64_t idle_limit_ = 20000;
  tma::model::Arch arch_ = tma::model::Arch::kSm90;  // config "arch": the model's rules
  uint64_t global_bytes_checked_ = 0;
};

class TmaEnv : public uvm::Component {
 public:
  TmaEnv(const std::string& name, uvm::Component* parent) : uvm::Component(name, parent) {}
  void build_phase() override;
  void connect_phase() override;
  // One clocked method for every agent's pin-level work (monitor, driver, AXI, shared
  // memory, completions, in that order) and then the DUT's clock edge.
  void run_phase() override;
  // Prints the DUT's functional coverage and writes it to $TMA_DUT_FCOV_OUT.
  void report_phase() override;
  CmdAgent* cmd = nullptr;
  AxiSlaveAgent* axi = nullptr;
  SmemAgent* smem = nullptr;
  CplAgent* cpl = nullptr;
  TmaScoreboard* scb = nullptr;
  TmaCoverage* cov = nullptr;
  sim::DutCoverage dut_cov;  // the monitor on the DUT's pins (sim/dut_coverage.h)

 private:
  uint64_t cycle_ = 0;
};

}  // namespace tma::tb

#endif  // TMA_TB_ENV_TMA_ENV_H_
