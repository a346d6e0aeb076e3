// SPDX-License-Identifier: Apache-2.0
//
// SmemPort: the cluster's shared memory behind the engine's shared-memory ports.
//   Write port: random smem_wr_ready (ready_pct); every accepted beat is applied with its
//   strobes to each CTA of its mask in a tma::model::SharedMemoryIf, then handed to the
//   observer (the bench's scoreboard). Checks: the beat held stable while valid && !ready,
//   a DataBytes-aligned address, a non-empty mask, CTAs inside the cluster, bytes inside the
//   window.
//   Read port (the store path): always ready, data the cycle after the request, in order
//   (set_read_port(false): any request is an error, SMEM_READ).
#ifndef TMA_SIM_SMEM_PORT_H_
#define TMA_SIM_SMEM_PORT_H_

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <utility>

#include "sim/common.h"
#include "tma/types.h"

namespace tma::sim {

struct SmemBeat {
  uint32_t addr = 0;
  std::array<uint8_t, kMaxDataBytes> data{};
  Strobe strb = 0;
  uint32_t cta_mask = 0;
  uint64_t cycle = 0;
};

class SmemPort : public Clocked {
 public:
  SmemPort(tma::model::SharedMemoryIf* mem, Random* rng, ErrorFn err, int ready_pct = 100)
      : mem_(mem), rng_(rng), err_(std::move(err)), ready_pct_(ready_pct) {}
  void set_memory(tma::model::SharedMemoryIf* mem) { mem_ = mem; }
  void set_ready_pct(int pct) { ready_pct_ = pct; }
  // A load-only engine must not use the read port: with false, a read request is an error.
  void set_read_port(bool enabled) { read_port_ = enabled; }
  void set_observer(std::function<void(const SmemBeat&)> f) { observer_ = std::move(f); }
  // Called with (cta, addr) for each read request, the cycle the port reads the bytes.
  void set_read_observer(std::function<void(uint32_t, uint32_t)> f) {
    read_observer_ = std::move(f);
  }
  void Clear() { rd_q_.clear(); }
  void Tick(TopPins& p, uint64_t now) override;
  uint64_t beats() const { return beats_; }

 private:
  tma::model::SharedMemoryIf* mem_;
  Random* rng_;
  ErrorFn err_;
  int ready_pct_;
  bool read_port_ = true;
  std::function<void(const SmemBeat&)> observer_;
  std::function<void(uint32_t, uint32_t)> read_observer_;
  bool ready_q_ = false;
  bool wait_ = false;
  uint32_t prev_addr_ = 0;
  Strobe prev_strb_ = 0;
  uint32_t prev_mask_ = 0;
  std::deque<std::array<uint8_t, kMaxDataBytes>> rd_q_;
  uint64_t beats_ = 0;
};

}  // namespace tma::sim

#endif  // TMA_SIM_SMEM_PORT_H_
