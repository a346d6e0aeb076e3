// SPDX-License-Identifier: Apache-2.0
//
// What every harness component shares: its random source and where its protocol errors go.
//   Random     Chance(pct): a ready/valid draw; Below(n): a value in [0, n). MtRandom is the
//              default (std::mt19937_64; Chance(100) draws nothing, so a component with every
//              knob at 100 % consumes no random numbers).
//   ErrorFn    (id, message) of a broken rule: the bench reports it as a UVM error, the golden
//              replay as the case's note, a GoogleTest as a failure.
//   Clocked    a component of a harness cycle (harness.h): Tick() reads the settled pins of
//              this cycle (the handshakes at the coming edge) and writes its inputs for the next.
#ifndef TMA_SIM_COMMON_H_
#define TMA_SIM_COMMON_H_

#include <cstdint>
#include <functional>
#include <random>
#include <string>

#include "sim/pins.h"

namespace tma::sim {

class Random {
 public:
  virtual ~Random() = default;
  virtual bool Chance(int pct) = 0;
  virtual uint64_t Below(uint64_t n) = 0;
};

class MtRandom : public Random {
 public:
  explicit MtRandom(uint64_t seed = 1) : rng_(seed) {}
  bool Chance(int pct) override { return pct >= 100 || static_cast<int>(rng_() % 100) < pct; }
  uint64_t Below(uint64_t n) override { return rng_() % n; }
  std::mt19937_64& engine() { return rng_; }

 private:
  std::mt19937_64 rng_;
};

using ErrorFn = std::function<void(const std::string& id, const std::string& msg)>;

class Clocked {
 public:
  virtual ~Clocked() = default;
  // `now`: the number of the cycle whose handshakes the pins show.
  virtual void Tick(TopPins& p, uint64_t now) = 0;
};

}  // namespace tma::sim

#endif  // TMA_SIM_COMMON_H_
