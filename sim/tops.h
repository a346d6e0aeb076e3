// SPDX-License-Identifier: Apache-2.0
//
// The Verilated tma_sim_top of each DataBytes (16, 32, 64; every other parameter its
// default), for the bench and the golden replay: MakeSimTop(data_bytes) returns nullptr for
// a width that is not built.
#ifndef TMA_SIM_TOPS_H_
#define TMA_SIM_TOPS_H_

#include <memory>

#include "sim/sim_top.h"

namespace tma::sim {

inline constexpr int kTopWidths[] = {16, 32, 64};
std::unique_ptr<SimTop> MakeSimTop(int data_bytes, const VerilatedOptions& o = {});

}  // namespace tma::sim

#endif  // TMA_SIM_TOPS_H_
