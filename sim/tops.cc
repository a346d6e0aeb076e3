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
#ifdef TMA_SIM_TOP_DB128
#include "Vtma_sim_top_db128.h"
#endif
#ifdef TMA_SIM_TOP_DB16_PTX
#include "Vtma_sim_top_db16_ptx.h"
#endif
#ifdef TMA_SIM_TOP_DB32_PTX
#include "Vtma_sim_top_db32_ptx.h"
#endif
#ifdef TMA_SIM_TOP_DB64_PTX
#include "Vtma_sim_top_db64_ptx.h"
#endif
#ifdef TMA_SIM_TOP_DB128_PTX
#include "Vtma_sim_top_db128_ptx.h"
#endif

namespace tma::sim {

namespace {
template <class Model>
std::unique_ptr<SimTop> Make(int data_bytes, const char* name, const VerilatedOptions& o) {
  return std::make_unique<VerilatedTop<Model>>(data_bytes, name, o);
}
}  // namespace

std::unique_ptr<SimTop> MakeSimTop(int data_bytes, const VerilatedOptions& o, SimTopVariant v) {
  if (v == SimTopVariant::kPtxReadings) {
    switch (data_bytes) {
#ifdef TMA_SIM_TOP_DB16_PTX
      case 16:
        return Make<Vtma_sim_top_db16_ptx>(16, "tma_sim_top_db16_ptx", o);
#endif
#ifdef TMA_SIM_TOP_DB32_PTX
      case 32:
        return Make<Vtma_sim_top_db32_ptx>(32, "tma_sim_top_db32_ptx", o);
#endif
#ifdef TMA_SIM_TOP_DB64_PTX
      case 64:
        return Make<Vtma_sim_top_db64_ptx>(64, "tma_sim_top_db64_ptx", o);
#endif
#ifdef TMA_SIM_TOP_DB128_PTX
      case 128:
        return Make<Vtma_sim_top_db128_ptx>(128, "tma_sim_top_db128_ptx", o);
#endif
      default:
        return nullptr;
    }
  }
  switch (data_bytes) {
#ifdef TMA_SIM_TOP_DB16
    case 16:
      return Make<Vtma_sim_top_db16>(16, "tma_sim_top_db16", o);
#endif
#ifdef TMA_SIM_TOP_DB32
    case 32:
      return Make<Vtma_sim_top_db32>(32, "tma_sim_top_db32", o);
#endif
#ifdef TMA_SIM_TOP_DB64
    case 64:
      return Make<Vtma_sim_top_db64>(64, "tma_sim_top_db64", o);
#endif
#ifdef TMA_SIM_TOP_DB128
    case 128:
      return Make<Vtma_sim_top_db128>(128, "tma_sim_top_db128", o);
#endif
    default:
      return nullptr;
  }
}

}  // namespace tma::sim
