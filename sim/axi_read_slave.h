// SPDX-License-Identifier: Apache-2.0
//
// AxiReadSlave: the AXI4 read slave (AR / R) of a harness, over a BeatSource.
//   * Per-ID latency: a burst's first beat may go out `lat` cycles after the cycle its AR was
//     accepted in, lat drawn from the ID's range [lo, hi] (0: the very next cycle).
//   * Ordering: per ID in order; across IDs out of order (a random ready ID is picked for each
//     burst), or strictly in AR order (in_order).
//   * Random arready and R gaps (arready_pct, rvalid_pct); a beat once valid stays until taken.
//   * Error injection: address ranges answering SLVERR (2) or DECERR (3), on top of the
//     source's own answer; silent ranges: a burst touching one is accepted and never answered
//     (a slave that stops responding: the engine's read watchdog). Per ID the bursts keep AR
//     order, so once a burst of an ID is silent, every later burst of that ID is too (until
//     Clear). A silent range with a release time answers its bursts that many cycles after
//     their AR instead (a slave that answers late; the ID's later bursts wait behind them).
//   * Protocol checks: AR held stable while arvalid && !arready, INCR bursts, arsize not wider
//     than the bus (full_width: exactly the bus, address aligned), no burst across 4 KiB.
//   * AR log (set_record): every accepted AR (ID, address, length, size) in handshake order,
//     for tests that check which reads a command issued.
// BeatSource: the data and RRESP of one beat (lane0: the bus-aligned address of the beat).
// GlobalMemorySource reads a tma::model::GlobalMemoryIf: a beat none of whose bytes can be
// read is SLVERR; unreadable bytes of a partly readable beat read zero.
#ifndef TMA_SIM_AXI_READ_SLAVE_H_
#define TMA_SIM_AXI_READ_SLAVE_H_

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <utility>
#include <vector>

#include "sim/common.h"
#include "tma/types.h"

namespace tma::sim {

class BeatSource {
 public:
  virtual ~BeatSource() = default;
  // Fills data[0 .. data_bytes) for the beat at beat_addr (bytes_per_beat wide) and returns
  // its RRESP (0 OKAY, 2 SLVERR, 3 DECERR).
  virtual uint32_t ReadBeat(uint64_t lane0, uint64_t beat_addr, uint32_t bytes_per_beat,
                            uint8_t* data, int data_bytes) = 0;
};

// Beats from a GlobalMemoryIf: OKAY when every byte of the transfer (beat_addr ..
// beat_addr + bytes_per_beat) is inside the memory, SLVERR when any is outside (the model's
// bus_error for an access that leaves the buffer).
class GlobalMemorySource : public BeatSource {
 public:
  explicit GlobalMemorySource(tma::model::GlobalMemoryIf* mem) : mem_(mem) {}
  void set_memory(tma::model::GlobalMemoryIf* mem) { mem_ = mem; }
  uint32_t ReadBeat(uint64_t lane0, uint64_t beat_addr, uint32_t bytes_per_beat, uint8_t* data,
                    int data_bytes) override;

 private:
  tma::model::GlobalMemoryIf* mem_;
};

// An external memory system in front of a slave (the co-simulation host's memory model):
// `request` is called once per burst the slave has (reads: the AR is accepted; writes: the
// burst's last W beat has arrived and its bytes are written) with its AXI ID, its first byte
// address and its byte count, and answers a handle; the burst's response (reads: its first R
// beat; writes: its B) then also waits until `response(handle)` answers a response code
// (0 OKAY, 2 SLVERR, 3 DECERR; -1: not yet), which replaces an OKAY of the slave's own.
// Without a gate the slaves answer from their own latency only.
struct AxiMemoryGate {
  std::function<uint64_t(uint32_t id, uint64_t addr, uint64_t bytes)> request;
  std::function<int(uint64_t handle)> response;
  explicit operator bool() const { return static_cast<bool>(request); }
};

struct AxiErrorRange {
  uint64_t lo = 0, hi = 0;  // [lo, hi)
  uint32_t resp = 2;        // 2 SLVERR, 3 DECERR
};

// One accepted AR (AxiReadSlave's log).
struct AxiArRecord {
  uint32_t id = 0;
  uint64_t addr = 0;
  uint32_t len = 0;  // beats - 1
  uint32_t size = 0;
  uint32_t cache = 0;  // ARCACHE
};

struct AxiReadConfig {
  bool in_order = false;
  int arready_pct = 100;
  int rvalid_pct = 100;
  std::array<std::pair<int, int>, kAxiIds> latency{};  // per ID [lo, hi], cycles
  bool full_width = false;
  // One range for every ID; with split, odd IDs take the upper half and even IDs the lower
  // half of [lo, hi], so responses overtake each other across IDs.
  void SetLatency(int lo, int hi, bool split = false);
};

class AxiReadSlave : public Clocked {
 public:
  AxiReadSlave(BeatSource* src, Random* rng, ErrorFn err, const AxiReadConfig& cfg = {})
      : src_(src), rng_(rng), err_(std::move(err)), cfg_(cfg) {}
  AxiReadConfig& config() { return cfg_; }
  void AddErrorRange(uint64_t lo, uint64_t hi, uint32_t resp) { errors_.push_back({lo, hi, resp}); }
  void ClearErrorRanges() { errors_.clear(); }
  void set_gate(AxiMemoryGate g) { gate_ = std::move(g); }
  void AddSilentRange(uint64_t lo, uint64_t hi, uint32_t release = 0) {
    silent_.push_back({lo, hi, release});
  }
  // Forgets every burst (the DUT is being reset); the AR log is kept.
  void Clear();
  // Records every accepted AR from now on (or stops); ClearArLog empties the log.
  void set_record(bool on) { record_ = on; }
  void ClearArLog() { ar_log_.clear(); }
  const std::vector<AxiArRecord>& ar_log() const { return ar_log_; }
  void Tick(TopPins& p, uint64_t now) override;

  bool idle() const { return outstanding_ == 0; }
  uint64_t bursts() const { return bursts_; }
  uint64_t beats() const { return beats_; }
  uint64_t error_beats() const { return error_beats_; }
  uint64_t silent_bursts() const { return silent_bursts_; }

 private:
  struct Burst {
    uint32_t id = 0;
    uint64_t addr = 0;
    uint32_t len = 0;  // beats - 1
    uint32_t size = 0;
    uint64_t ready_cycle = 0;
    uint32_t next_beat = 0;
    uint64_t gate_handle = 0;
    int gate_resp = -1;  // the gate's answer (-1: none yet; 0 without a gate)
  };
  void CheckStable(const TopPins& p);
  void TakeAr(const TopPins& p, uint64_t now);
  // The burst may start: its latency has passed and the gate (if any) has answered.
  bool Ready(Burst& b, uint64_t now);
  std::deque<Burst>& Queue(uint32_t id) { return cfg_.in_order ? pending_[0] : pending_[id]; }

  BeatSource* src_;
  Random* rng_;
  ErrorFn err_;
  AxiReadConfig cfg_;
  std::vector<AxiErrorRange> errors_;
  AxiMemoryGate gate_;
  std::vector<AxiErrorRange> silent_;  // (resp: the release time, 0 never)
  std::array<bool, kAxiIds> mute_{};   // per ID: a silent burst was taken, none is answered
  std::array<std::deque<Burst>, kAxiIds> pending_;  // per ID (in_order: all in [0])
  int active_ = -1;                                 // queue whose burst is being returned
  bool r_valid_q_ = false;
  bool ar_ready_q_ = false;
  bool ar_wait_ = false;
  uint64_t ar_prev_addr_ = 0;
  uint32_t ar_prev_id_ = 0, ar_prev_len_ = 0, ar_prev_size_ = 0;
  uint64_t outstanding_ = 0;
  uint64_t bursts_ = 0, beats_ = 0, error_beats_ = 0, silent_bursts_ = 0;
  bool record_ = false;
  std::vector<AxiArRecord> ar_log_;
};

}  // namespace tma::sim

#endif  // TMA_SIM_AXI_READ_SLAVE_H_
