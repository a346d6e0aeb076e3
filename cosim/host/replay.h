// SPDX-License-Identifier: Apache-2.0
//
// The trace host behind `tma cosim` (docs/cosim/accel-sim.md): replays an otma-trace v1 file
// (docs/cosim/trace-format.md) through libopentma_cosim the way Accel-Sim 2.0's LD/ST unit
// drives TMA, and compares with what silicon recorded.
//
//   * one engine per CTA (per SM); the CTAs of a cluster run together, clusters one after the
//     other on a global memory built from the header's buffers;
//   * every warp of the trace replays its own records in order: `arm` = arrive.expect_tx on
//     its CTA's mbarrier, `tma` = otma_submit on its CTA's engine (a store first writes its
//     recorded source into shared memory), `wait` = a try-wait consumer that polls the mbarrier
//     phase, hashes the stage and compares with the silicon hash, then holds the stage for the
//     time silicon's consumer held it (t_release - t_done) before releasing it; `commit` /
//     `wait_group` = the engine's bulk-group bookkeeping of that warp;
//   * a producer arms or loads phase P of a stage only once every consumer of the cluster has
//     released phase P-1 of it (the empty-barrier protocol the trace's `pwait` records stand for);
//   * mbarriers: the host's table, keyed (rank, offset) per cluster: complete_tx(rank, mbar,
//     bytes) lands on the barrier of that rank (multicast fan-out is the engine's, one call per
//     destination rank), with the per-phase sums compared with the trace's expect_tx;
//   * memory (TIMED): 32-byte sector requests, at most 4 accepted per SM per cycle (the
//     l1_banks of the SM90_H100 config), answered after the L2-hit latency of the calibration.
// Mode RTL runs the ops on the Verilated engine, ticked with the host's clock (several ops in
// flight per engine), its global memory answered at once, or (host_memory) through the same
// memory model as TIMED (the RTL's AXI bursts as 32-byte requests); ops the RTL does not claim are
// counted as skipped, and what depends on them (stage hashes of a phase, final buffers) is not
// compared.
#ifndef OTMA_TRACE_REPLAY_H_
#define OTMA_TRACE_REPLAY_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "opentma/cosim.h"

namespace otma_trace {

// What a replay drives: one engine per CTA. The default port calls the C ABI directly; the
// TLM skin (cosim/tlm) provides one that goes through SystemC sockets.
class EnginePort {
 public:
  virtual ~EnginePort() = default;
  virtual otma_status Submit(const otma_op& op, otma_token* t) = 0;
  virtual void Tick(uint64_t n) = 0;
  virtual uint64_t NextEvent() = 0;
  virtual otma_status MemResp(uint64_t tag, otma_status st) = 0;
  virtual void BulkCommit(uint32_t warp) = 0;
  virtual bool BulkWait(uint32_t warp, uint32_t n, bool read) = 0;
  virtual uint64_t Cycle() = 0;
};

// The replay's memories as raw storage, for ports that give direct access (TLM DMI).
class MemoryView {
 public:
  virtual ~MemoryView() = default;
  // The global buffer holding `addr`: its storage and address range; false if none.
  virtual bool GlobalRegion(uint64_t addr, uint8_t** base, uint64_t* start,
                            uint64_t* bytes) const = 0;
  // The shared window of cluster rank `rank` (bytes: its size); null if none.
  virtual uint8_t* Window(uint32_t rank, uint32_t* bytes) const = 0;
};

// Makes the port of CTA `rank` from the config and host callbacks the replay prepared;
// returns null (and sets *err) on failure.
using PortFactory = std::function<std::unique_ptr<EnginePort>(
    const otma_config& cfg, const otma_host& host, uint32_t rank, const MemoryView& mem,
    std::string* err)>;
std::unique_ptr<EnginePort> MakeDirectPort(const otma_config& cfg, const otma_host& host,
                                           uint32_t rank, const MemoryView& mem, std::string* err);

struct Options {
  uint32_t mode = OTMA_MODE_FUNCTIONAL;
  bool check = false;        // the mbarrier / async-proxy checker
  bool host_memory = false;  // RTL: the global-memory traffic through the host's memory model
  bool verbose = false;
  int max_mismatch_lines = 20;
  PortFactory port = MakeDirectPort;
  std::string port_name = "direct";
  // Mutations for the robustness tests: applied to the record with this sequence number
  // (-2: the first record the mutation applies to).
  int64_t mutate_seq = -1;
  std::string mutate;  // "misaligned", "misaligned_coordinate", "invalid_coordinate",
                       // "unsupported_reduction", "expect_tx_low", "expect_tx_high",
                       // "phase_early", "skip_release", "multicast_unarmed"
};

struct Result {
  std::string file, kernel;
  bool timing_capture = false;  // stage_hash false in the header
  // A2 counts
  uint64_t ops = 0, loads = 0, multicast = 0, im2col = 0, oob_ops = 0, stores = 0, reduces = 0,
           groups = 0;
  // A3 / A4 comparisons
  uint64_t executed = 0, skipped = 0, faults = 0;
  uint64_t waits = 0, waits_ok = 0, waits_skipped = 0;
  uint64_t phases = 0, phases_ok = 0;
  uint64_t finals = 0, finals_ok = 0, finals_skipped = 0;
  uint64_t check_reports = 0;
  std::vector<uint64_t> check_by_class = std::vector<uint64_t>(OTMA_CHK_NUM_CLASSES, 0);
  std::vector<std::string> mismatches;     // the first few, one line each
  std::vector<std::string> fault_classes;  // the status of every faulted op
  bool hang = false;
  int64_t mutated_seq = -1;  // the record a mutation changed
  // time
  uint64_t sim_cycles = 0;    // TIMED/RTL: host cycles of all clusters
  double engine_seconds = 0;  // FUNCTIONAL: thread CPU time inside otma_submit (the whole
                              // op); TIMED / RTL: of the whole replay of the clusters (the
                              // engines run in otma_tick)
  double wall_seconds = 0;    // the whole replay, trace parsing included
  uint64_t tensor_bytes = 0;  // bytes moved by the engine (box bytes x destinations)
  // A6 timeline: per CTA, simulated span vs silicon span (first tma issue -> last wait done)
  double timeline_ratio_median = 0, timeline_ratio_min = 0, timeline_ratio_max = 0;
  bool ok() const;
};

// Replays one trace file. Returns false only when the file cannot be read or parsed (err set).
bool ReplayTrace(const std::string& path, const Options& opt, Result* out, std::string* err);

// The summary table of `tma cosim`.
void PrintSummary(const std::vector<Result>& rs, const Options& opt, std::ostream& os);

}  // namespace otma_trace

#endif  // OTMA_TRACE_REPLAY_H_
