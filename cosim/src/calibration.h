// SPDX-License-Identifier: Apache-2.0
//
// The ONE calibration table of the TIMED mode: every constant of the approximate engine model
// and of the L2-hit memory it uses when the host gives no mem_req callback, plus the two
// issuer-side constants the cosim host (cosim/host) uses for its producer and try-wait
// consumer loops. Calibrated against shared/research/anchors.md §2.4 (H100 SXM, L2-resident,
// cycles of the SM clock); tests/cosim/timed_calibration_test.cc checks the results against the
// anchors' numbers.
//
// How the constants combine (one op alone, internal memory):
//   latency(B) = cmd_to_start + desc_hit + mem_latency + cpl_latency + B / agu_bytes_per_cycle
//              = 24 + 12 + 240 + 24 + B / 100     (anchors' fit: 290 + B / 93)
// Back-to-back issue from one thread is bound by the command port (cmd_interval); the steady
// state with one try_wait per op by cmd_interval + trywait_success (the issuer's loop).
#ifndef OTMA_CALIBRATION_H_
#define OTMA_CALIBRATION_H_

#include <cstdint>

namespace otma_impl {

struct Calibration {
  // ---- engine -------------------------------------------------------------------------------
  uint32_t cmd_interval = 63;  // cycles between two accepted commands (table (b): 62.6 clk/op)
  uint32_t cmd_queue = 4;      // commands accepted but not yet started
  uint32_t cmd_to_start = 24;  // accept -> descriptor lookup
  uint32_t desc_hit = 12;      // descriptor-cache hit -> address generation starts
  uint32_t desc_cache_entries = 8;
  uint32_t agu_bytes_per_cycle = 100;   // address generation (table (a) slope: ~93-100 B/clk;
                                        // table (b) per-SM ceiling 101.8-103.7 B/clk)
  uint32_t im2col_extra = 94;           // im2col ops start this much later (table (c): +94 clk)
  uint32_t max_outstanding = 768;       // requests in flight per engine: 768 x 32 B over the
                                        // 240-cycle round trip = 102 B/clk (the per-SM ceiling)
  uint32_t smem_bytes_per_cycle = 128;  // shared-memory write (load) / read (store) port
  uint32_t cpl_latency = 24;            // last byte in shared memory -> complete_tx
  // ---- the engine's own memory model (no mem_req callback): L2-resident data -----------------
  uint32_t mem_latency = 240;          // request -> response (H100 config: l2_rop_latency 237)
  uint32_t mem_bytes_per_cycle = 128;  // response bandwidth into one SM
  // ---- issuer side (used by the cosim host, not by the engine) -------------------------------
  uint32_t trywait_success = 100;  // a try_wait on a completed phase + loop, per op (table (b):
                                   // 163 clk/op steady state = this + cmd_interval)
  uint32_t trywait_retry = 20;     // a try_wait that fails, before it is retried
};

inline const Calibration& DefaultCalibration() {
  static const Calibration c;
  return c;
}

}  // namespace otma_impl

#endif  // OTMA_CALIBRATION_H_
