// SPDX-License-Identifier: Apache-2.0
//
// AxiWriteSlave: the AXI4 write slave (AW / W / B) of a harness, over a
// tma::model::GlobalMemoryIf (the store path's target).
//   * AW and W accepted independently (random awready / wready); W beats belong to the AWs in
//     order (a W beat may come before its AW: it waits).
//   * A burst's bytes (with their strobes) are written when its last beat arrives; its B
//     response goes out `lat` cycles later, lat from the ID's range; per ID in order, across
//     IDs in any order (a random ready ID first); random bvalid gaps; B held until bready.
//   * BRESP: SLVERR / DECERR for a burst touching an injected error range (nothing written),
//     SLVERR when the memory refuses a write, else OKAY. A burst touching a silent range is
//     written and never answered (a slave that stops responding: the engine's watchdog).
//     Per ID the responses keep AW order, so once a burst of an ID is silent, every later
//     burst of that ID is too.
//   * AXI5 AtomicStore (AWATOP[5:4] = 01, little-endian): executed at the memory when its one
//     beat arrives, with the model's reduction arithmetic (ReduceElement: ADD, SMAX, SMIN,
//     UMAX, UMIN as add / max / min on s32/u32 or s64/u64, SET as or, EOR as xor, CLR as and
//     with the inverted data); B as for a plain write (an error range answers it and leaves
//     the element as it was). atomics() counts them.
//   * Protocol checks: AW and W held stable while valid && !ready, INCR bursts, awsize not
//     wider than the bus, no burst across 4 KiB, wlast on exactly the burst's last beat,
//     strobes only inside the beat's awsize lanes; an atomic transaction: AtomicStore only,
//     little-endian, one transfer of 4 or 8 bytes (the sizes the model's integer reductions
//     have) aligned to its size, every strobe of its data window set, and an ID no
//     outstanding plain write uses (nor a plain write one an outstanding atomic uses).
// With `enabled` false (a load-only engine) every AW or W valid is an error (AXI_WRITE) and
// the slave answers nothing.
#ifndef TMA_SIM_AXI_WRITE_SLAVE_H_
#define TMA_SIM_AXI_WRITE_SLAVE_H_

#include <array>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "sim/axi_read_slave.h"
#include "sim/common.h"
#include "tma/types.h"

namespace tma::sim {

struct AxiWriteConfig {
  bool enabled = true;
  int awready_pct = 100;
  int wready_pct = 100;
  int bvalid_pct = 100;
  std::array<std::pair<int, int>, kAxiIds> latency{};  // per ID [lo, hi], cycles
};

class AxiWriteSlave : public Clocked {
 public:
  AxiWriteSlave(tma::model::GlobalMemoryIf* mem, Random* rng, ErrorFn err,
                const AxiWriteConfig& cfg = {})
      : mem_(mem), rng_(rng), err_(std::move(err)), cfg_(cfg) {}
  AxiWriteConfig& config() { return cfg_; }
  void AddErrorRange(uint64_t lo, uint64_t hi, uint32_t resp) { errors_.push_back({lo, hi, resp}); }
  void AddSilentRange(uint64_t lo, uint64_t hi) { silent_.push_back({lo, hi, 0}); }
  // The B of each burst also waits for the gate (axi_read_slave.h, AxiMemoryGate).
  void set_gate(AxiMemoryGate g) { gate_ = std::move(g); }
  void ClearRanges() {
    errors_.clear();
    silent_.clear();
  }
  void Clear();
  void Tick(TopPins& p, uint64_t now) override;

  bool idle() const { return aw_q_.empty() && w_q_.empty() && b_outstanding_ == 0; }
  uint64_t bursts() const { return bursts_; }
  uint64_t beats() const { return beats_; }
  uint64_t error_bursts() const { return error_bursts_; }
  uint64_t silent_bursts() const { return silent_bursts_; }
  uint64_t atomics() const { return atomics_; }

 private:
  struct Aw {
    uint32_t id = 0;
    uint64_t addr = 0;
    uint32_t len = 0, size = 0;
    uint32_t atop = 0;
  };
  struct WBeat {
    std::array<uint8_t, kMaxDataBytes> data{};
    Strobe strb = 0;
    bool last = false;
  };
  struct B {
    uint32_t id = 0, resp = 0;
    uint64_t ready_cycle = 0;
    bool atomic = false;
    uint64_t gate_handle = 0;
    int gate_resp = -1;  // the gate's answer (-1: none yet; 0 without a gate)
  };
  void CheckStable(const TopPins& p);
  void Complete(const Aw& aw, const std::vector<WBeat>& beats, uint64_t now, int db);
  // The AtomicStore `aw` with its one beat, at the memory; false: the memory refused it.
  bool AtomicStore(const Aw& aw, const WBeat& beat, int db);
  // The ID rule of AXI5 atomics for the AW `aw` (checked when it is accepted).
  void CheckAtomicId(const Aw& aw);

  tma::model::GlobalMemoryIf* mem_;
  Random* rng_;
  ErrorFn err_;
  AxiWriteConfig cfg_;
  std::vector<AxiErrorRange> errors_;
  std::vector<AxiErrorRange> silent_;
  AxiMemoryGate gate_;
  std::array<bool, kAxiIds> mute_{};          // the ID stopped answering
  std::deque<Aw> aw_q_;                       // accepted AWs whose data is incomplete
  std::deque<WBeat> w_q_;                     // accepted W beats not yet matched
  std::array<std::deque<B>, kAxiIds> b_q_{};  // per ID, in order
  uint64_t b_outstanding_ = 0;
  int b_active_ = -1;
  bool aw_ready_q_ = false, w_ready_q_ = false, b_valid_q_ = false;
  bool aw_wait_ = false, w_wait_ = false;
  Aw aw_prev_;
  WBeat w_prev_;
  uint64_t bursts_ = 0, beats_ = 0, error_bursts_ = 0, silent_bursts_ = 0, atomics_ = 0;
};

}  // namespace tma::sim

#endif  // TMA_SIM_AXI_WRITE_SLAVE_H_
