// SPDX-License-Identifier: Apache-2.0
//
// The Verilated tops of the bench and the golden replay (tops.h).
#include "sim/tops.h"

#ifdef TMA_SIM_TOP_DB16
#include "Vtma_sim_top_db16.h"
#endif
#ifdef TMA_SIM_TOP_DB32
#include "Vtma_sim_top_db32.h"
#endif
#ifdef TMA_SIM_TOP_DB64
#include "Vtma_sim_top_db64.h"
#endif

namespace tma::sim {

std::unique_ptr<SimTop> MakeSimTop(int data_bytes, const VerilatedOptions& o) {
  switch (data_bytes) {
#ifdef TMA_SIM_TOP_DB16
    case 16:
      return std::make_unique<VerilatedTop<Vtma_sim_top_db16>>(16, "tma_sim_top_db16", o);
#endif
#ifdef TMA_SIM_TOP_DB32
    case 32:
      return std::make_unique<VerilatedTop<Vtma_sim_top_db32>>(32, "tma_sim_top_db32", o);
#endif
#ifdef TMA_SIM_TOP_DB64
    case 64:
      return std::make_unique<VerilatedTop<Vtma_sim_top_db64>>(64, "tma_sim_top_db64", o);
#endif
    default:
      return nullptr;
  }
}

}  // namespace tma::sim
