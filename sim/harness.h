// SPDX-License-Identifier: Apache-2.0
//
// Harness: a SimTop and the components around it, clocked from C++. Step() is one cycle:
// every component (in the order added) reads the settled pins and writes its next inputs,
// then the rising edge, then the new inputs settle. Apply() settles inputs written outside a
// Step (a command offered between cycles). The golden replay, the end-to-end test and
// engine_perf run this loop; the SystemC bench runs the same three phases from its clock
// method.
#ifndef TMA_SIM_HARNESS_H_
#define TMA_SIM_HARNESS_H_

#include <cstdint>
#include <vector>

#include "sim/common.h"
#include "sim/sim_top.h"

namespace tma::sim {

class Harness {
 public:
  explicit Harness(SimTop* top) : top_(top) { top_->Settle(); }
  void Add(Clocked* c) { comps_.push_back(c); }
  TopPins& pins() { return top_->pins; }
  SimTop& top() { return *top_; }
  void Apply() { top_->Settle(); }
  void Step() {
    for (Clocked* c : comps_) {
      c->Tick(top_->pins, cycle_);
    }
    top_->Posedge();
    top_->Settle();
    ++cycle_;
  }
  // Reset held for `cycles` cycles, then one cycle out of reset.
  void Reset(int cycles) {
    top_->pins.rst_n = false;
    top_->Settle();
    for (int i = 0; i < cycles; ++i) {
      Step();
    }
    top_->pins.rst_n = true;
    Step();
  }
  uint64_t cycle() const { return cycle_; }

 private:
  SimTop* top_;
  std::vector<Clocked*> comps_;
  uint64_t cycle_ = 0;
};

}  // namespace tma::sim

#endif  // TMA_SIM_HARNESS_H_
