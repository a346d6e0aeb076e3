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
#ifdef TMA_SIM_TOP_DB16_ATOP
#include "Vtma_sim_top_db16_atop.h"
#endif
#ifdef TMA_SIM_TOP_DB32_ATOP
#include "Vtma_sim_top_db32_atop.h"
#endif
#ifdef TMA_SIM_TOP_DB64_ATOP
#include "Vtma_sim_top_db64_atop.h"
#endif
#ifdef TMA_SIM_TOP_DB128_ATOP
#include "Vtma_sim_top_db128_atop.h"
#endif
#ifdef TMA_SIM_TOP_DB16_LOAD90
#include "Vtma_sim_top_db16_load90.h"
#endif
#ifdef TMA_SIM_TOP_DB32_LOAD90
#include "Vtma_sim_top_db32_load90.h"
#endif
#ifdef TMA_SIM_TOP_DB64_LOAD90
#include "Vtma_sim_top_db64_load90.h"
#endif
#ifdef TMA_SIM_TOP_DB128_LOAD90
#include "Vtma_sim_top_db128_load90.h"
#endif

namespace tma::sim {

namespace {
template <class Model>
std::unique_ptr<SimTop> Make(int data_bytes, const char* name, const VerilatedOptions& o) {
  return std::make_unique<VerilatedTop<Model>>(data_bytes, name, o);
}

// The tops of this build (the last entry ends the list).
struct TopEntry {
  int data_bytes;
  SimTopVariant variant;
  const char* name;
  std::unique_ptr<SimTop> (*make)(int, const char*, const VerilatedOptions&);
};
constexpr SimTopVariant kDef = SimTopVariant::kDefault;
constexpr SimTopVariant kPtx = SimTopVariant::kPtxReadings;
constexpr SimTopVariant kAtop = SimTopVariant::kAtomicReduce;
constexpr SimTopVariant kLoad90 = SimTopVariant::kLoad90;
const TopEntry kTops[] = {
#ifdef TMA_SIM_TOP_DB16
    {16, kDef, "tma_sim_top_db16", &Make<Vtma_sim_top_db16>},
#endif
#ifdef TMA_SIM_TOP_DB32
    {32, kDef, "tma_sim_top_db32", &Make<Vtma_sim_top_db32>},
#endif
#ifdef TMA_SIM_TOP_DB64
    {64, kDef, "tma_sim_top_db64", &Make<Vtma_sim_top_db64>},
#endif
#ifdef TMA_SIM_TOP_DB128
    {128, kDef, "tma_sim_top_db128", &Make<Vtma_sim_top_db128>},
#endif
#ifdef TMA_SIM_TOP_DB16_PTX
    {16, kPtx, "tma_sim_top_db16_ptx", &Make<Vtma_sim_top_db16_ptx>},
#endif
#ifdef TMA_SIM_TOP_DB32_PTX
    {32, kPtx, "tma_sim_top_db32_ptx", &Make<Vtma_sim_top_db32_ptx>},
#endif
#ifdef TMA_SIM_TOP_DB64_PTX
    {64, kPtx, "tma_sim_top_db64_ptx", &Make<Vtma_sim_top_db64_ptx>},
#endif
#ifdef TMA_SIM_TOP_DB128_PTX
    {128, kPtx, "tma_sim_top_db128_ptx", &Make<Vtma_sim_top_db128_ptx>},
#endif
#ifdef TMA_SIM_TOP_DB16_ATOP
    {16, kAtop, "tma_sim_top_db16_atop", &Make<Vtma_sim_top_db16_atop>},
#endif
#ifdef TMA_SIM_TOP_DB32_ATOP
    {32, kAtop, "tma_sim_top_db32_atop", &Make<Vtma_sim_top_db32_atop>},
#endif
#ifdef TMA_SIM_TOP_DB64_ATOP
    {64, kAtop, "tma_sim_top_db64_atop", &Make<Vtma_sim_top_db64_atop>},
#endif
#ifdef TMA_SIM_TOP_DB128_ATOP
    {128, kAtop, "tma_sim_top_db128_atop", &Make<Vtma_sim_top_db128_atop>},
#endif
#ifdef TMA_SIM_TOP_DB16_LOAD90
    {16, kLoad90, "tma_sim_top_db16_load90", &Make<Vtma_sim_top_db16_load90>},
#endif
#ifdef TMA_SIM_TOP_DB32_LOAD90
    {32, kLoad90, "tma_sim_top_db32_load90", &Make<Vtma_sim_top_db32_load90>},
#endif
#ifdef TMA_SIM_TOP_DB64_LOAD90
    {64, kLoad90, "tma_sim_top_db64_load90", &Make<Vtma_sim_top_db64_load90>},
#endif
#ifdef TMA_SIM_TOP_DB128_LOAD90
    {128, kLoad90, "tma_sim_top_db128_load90", &Make<Vtma_sim_top_db128_load90>},
#endif
    {0, kDef, nullptr, nullptr},
};
}  // namespace

// The -G arguments of each variant (sim/CMakeLists.txt, tma_sim_top_variant) as RtlBuild.
RtlBuild SimTopBuild(int data_bytes, SimTopVariant v) {
  switch (v) {
    case SimTopVariant::kPtxReadings:
      return RtlBuild::PtxReadings(data_bytes);
    case SimTopVariant::kLoad90:
      return RtlBuild::Load90(data_bytes);
    case SimTopVariant::kAtomicReduce:  // (AtomicReduce changes how, not what)
    case SimTopVariant::kDefault:
      break;
  }
  return RtlBuild::Default(data_bytes);
}

std::unique_ptr<SimTop> MakeSimTop(int data_bytes, const VerilatedOptions& o, SimTopVariant v) {
  for (const TopEntry& t : kTops) {
    if (t.make && t.data_bytes == data_bytes && t.variant == v) {
      return t.make(data_bytes, t.name, o);
    }
  }
  return nullptr;
}

}  // namespace tma::sim
