// SPDX-License-Identifier: Apache-2.0
//
// The Verilated tma_sim_top of each DataBytes (16, 32, 64, 128; every other parameter its
// default, except SubByte = 1 at DataBytes 128), for the bench and the golden replay:
// MakeSimTop(data_bytes) returns nullptr for a width that is not built. The PTX-readings variant
// (SimTopVariant::kPtxReadings) is the same top built with the PTX text's readings where silicon
// differs (StoreClipElem = 1: stores clip along dim 0 to elements; BulkSizeStrict = 1: a bulk
// size not a multiple of 16 is invalid_instruction); by default it is built at DataBytes 16 and
// 128 (TMA_SIM_TOP_PTX_WIDTHS). The atomic variant (SimTopVariant::kAtomicReduce) is the
// default top built with AtomicReduce = 1 (reductions with an AXI5 AtomicStore form go out as
// AtomicStores, executed by the harness's write slave); by default it is built at DataBytes 16
// (TMA_SIM_TOP_ATOP_WIDTHS). The load90 variant (SimTopVariant::kLoad90) is the small
// configuration of synth/run_synth.py --config load90: Arch = sm_90 and StorePath = 0 (the
// sm_90 loads and prefetches only; stores and reductions to global memory answer
// `unsupported`); by default it is built at DataBytes 16 (TMA_SIM_TOP_LOAD90_WIDTHS).
// SimTopBuild says what a variant implements (sim::RtlBuild, the one list of rtl_support.h).
#ifndef TMA_SIM_TOPS_H_
#define TMA_SIM_TOPS_H_

#include <memory>

#include "sim/rtl_support.h"
#include "sim/sim_top.h"

namespace tma::sim {

inline constexpr int kTopWidths[] = {16, 32, 64, 128};
enum class SimTopVariant { kDefault, kPtxReadings, kAtomicReduce, kLoad90 };
// The parameters of a variant that change what it implements.
RtlBuild SimTopBuild(int data_bytes, SimTopVariant v);
std::unique_ptr<SimTop> MakeSimTop(int data_bytes, const VerilatedOptions& o = {},
                                   SimTopVariant v = SimTopVariant::kDefault);

}  // namespace tma::sim

#endif  // TMA_SIM_TOPS_H_
