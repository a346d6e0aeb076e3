// SPDX-License-Identifier: Apache-2.0
//
// SinkPort<Stream>: a valid/ready output stream of the engine taken by the harness. Random
// ready (ready_pct); each item taken is decoded (Stream::Decode) and goes to the observer with
// the cycle it was taken in. Stream names the pins (Valid, Ready) and the item type.
// CplPort: the engine's completion stream (cpl_*); BgCplPort: the bulk async-group
// completion stream (bg_cpl_*).
#ifndef TMA_SIM_CPL_PORT_H_
#define TMA_SIM_CPL_PORT_H_

#include <cstdint>
#include <functional>
#include <utility>

#include "sim/common.h"

namespace tma::sim {

// One completion taken from the port (TopPins::cpl, a tma_pkg::cpl_t).
struct EngineCompletion {
  uint32_t kind = 0;  // tma::pkg::CplTx (complete-tx), CplError, CplDone (bulk-group done)
  int cta = 0;
  uint32_t mbar_addr = 0;
  uint32_t bytes = 0;
  uint32_t error = 0;  // tma::model::ErrorClass of an error completion
  uint8_t tag = 0;
  uint64_t cycle = 0;
};

template <class Stream>
class SinkPort : public Clocked {
 public:
  using Item = typename Stream::Item;
  using Observer = std::function<void(const Item&)>;
  SinkPort(Random* rng, Observer obs, int ready_pct = 100)
      : rng_(rng), obs_(std::move(obs)), ready_pct_(ready_pct) {}
  void set_ready_pct(int pct) { ready_pct_ = pct; }
  void Tick(TopPins& p, uint64_t now) override {
    if (!p.rst_n) {
      Stream::Ready(p) = false;
      ready_q_ = false;
      return;
    }
    if (ready_q_ && Stream::Valid(p)) {
      Item c = Stream::Decode(p);
      c.cycle = now;
      ++received_;
      if (obs_) {
        obs_(c);
      }
    }
    ready_q_ = rng_->Chance(ready_pct_);
    Stream::Ready(p) = ready_q_;
  }
  uint64_t received() const { return received_; }

 private:
  Random* rng_;
  Observer obs_;
  int ready_pct_;
  bool ready_q_ = false;
  uint64_t received_ = 0;
};

struct CplStream {
  using Item = EngineCompletion;
  static bool Valid(const TopPins& p) { return p.cpl_valid; }
  static bool& Ready(TopPins& p) { return p.cpl_ready; }
  static Item Decode(const TopPins& p) {
    Item c;
    c.kind = p.cpl.kind;
    c.cta = static_cast<int>(p.cpl.cta);
    c.mbar_addr = p.cpl.mbar_addr;
    c.bytes = p.cpl.bytes;
    c.error = p.cpl.err;
    c.tag = p.cpl.tag;
    return c;
  }
};
using CplPort = SinkPort<CplStream>;

// One bulk async-group completion (TopPins::bg_cpl, a tma_pkg::bg_cpl_t).
struct GroupCompletion {
  int issuer = 0;
  int seq = 0;        // the group's sequence number (per issuer, from 0, mod 256)
  bool done = false;  // false: read-done (wait_group.read), true: done (wait_group)
  bool err = false;
  uint64_t cycle = 0;
};

struct BgCplStream {
  using Item = GroupCompletion;
  static bool Valid(const TopPins& p) { return p.bg_cpl_valid; }
  static bool& Ready(TopPins& p) { return p.bg_cpl_ready; }
  static Item Decode(const TopPins& p) {
    Item c;
    c.issuer = static_cast<int>(p.bg_cpl.issuer);
    c.seq = static_cast<int>(p.bg_cpl.seq);
    c.done = p.bg_cpl.done;
    c.err = p.bg_cpl.err;
    return c;
  }
};
using BgCplPort = SinkPort<BgCplStream>;

}  // namespace tma::sim

#endif  // TMA_SIM_CPL_PORT_H_
