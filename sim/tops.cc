// SPDX-License-Identifier: Apache-2.0
//
// The Verilated tops of the bench and the golden replay (tops.h).
#include "sim/tops.h"

#include "Vtma_sim_top_db16.h"
#include "Vtma_sim_top_db32.h"
#include "Vtma_sim_top_db64.h"

namespace tma::sim {

std::unique_ptr<SimTop> MakeSimTop(int data_bytes, const VerilatedOptions& o) {
  switch (data_bytes) {
    case 16:
      return std::make_unique<VerilatedTop<Vtma_sim_top_db16>>(16, "tma_sim_top_db16", o);
    case 32:
      return std::make_unique<VerilatedTop<Vtma_sim_top_db32>>(32, "tma_sim_top_db32", o);
    case 64:
      return std::make_unique<VerilatedTop<Vtma_sim_top_db64>>(64, "tma_sim_top_db64", o);
    default:
      return nullptr;
  }
}

}  // namespace tma::sim
