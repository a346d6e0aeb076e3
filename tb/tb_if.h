// SPDX-License-Identifier: Apache-2.0
//
// What the bench shares with the DUT (the "virtual interface" every agent reaches through the
// config store, key "vif"): the bench clock, the reset, and the DUT itself as a sim::SimTop
// (the Verilated tma_sim_top of the chosen DataBytes, or the model-as-DUT stand-in) with its
// pins (sim/pins.h). The DUT is clocked from the environment's one clocked method, after every
// agent has read this cycle's pins and written its next inputs (TmaEnv::run_phase); there are
// no signals per port.
#ifndef TMA_TB_TB_IF_H_
#define TMA_TB_TB_IF_H_

#include <cstdint>

#include <systemc>

#include "sim/sim_top.h"

namespace tma::tb {

inline constexpr int kNumCtas = 16;

struct TmaIf {
  sc_core::sc_clock clk{"clk", 1, sc_core::SC_NS};
  sc_core::sc_signal<bool> rst_n{"rst_n"};
  tma::sim::SimTop* dut = nullptr;
  tma::sim::TopPins& pins() { return dut->pins; }
};

}  // namespace tma::tb

#endif  // TMA_TB_TB_IF_H_
