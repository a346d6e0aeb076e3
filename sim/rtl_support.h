// SPDX-License-Identifier: Apache-2.0
//
// What the RTL engine (tma_sim_top) implements: the ONE list every harness consults (the
// golden replay skips a case outside it, the end-to-end test expects `unsupported` for a
// command outside it). The RTL has no arch input: it runs the sm_90 loads and prefetches (tile,
// im2col), and of an sm_100+ case only what behaves as on sm_90 apart from the element types
// and swizzles it knows: tile-mode loads (multicast and remote destinations included).
// gather4, im2col::w / ::w::128 and .cta_group::2 answer `unsupported`; stores and reductions
// too (no AXI write path yet). Element types: every whole-byte type and the sub-byte types
// (b4x16 as a byte copy; b4x16_p64 / b6x16_p32 through the unpacker, only in a top built with
// SubByte = 1: tma_sim_top's default for DataBytes <= 32).
#ifndef TMA_SIM_RTL_SUPPORT_H_
#define TMA_SIM_RTL_SUPPORT_H_

#include <string>

#include "tma/golden.h"
#include "tma/types.h"

namespace tma::sim {

// The parameters of a Verilated tma_sim_top that change what it implements.
struct RtlBuild {
  int data_bytes = 16;
  bool sub_byte = true;  // SubByte: the unpacker of b4x16_p64 / b6x16_p32
  int num_ctas = 16;
  // tma_sim_top's defaults for a DataBytes (SubByte = DataBytes <= 32).
  static RtlBuild Default(int data_bytes) {
    RtlBuild b;
    b.data_bytes = data_bytes;
    b.sub_byte = data_bytes <= 32;
    return b;
  }
};

bool RtlImplementsOp(tma::model::Op op);  // loads and prefetches
bool RtlImplementsDType(tma::model::DType t, const RtlBuild& b);
// Why the RTL cannot run golden case `c` (empty: it can), before any map is built.
std::string RtlSkipReason(const tma::model::GoldenCase& c, const RtlBuild& b);
// The 128 tensor-map bytes a harness puts in global memory for case `c` (its descriptor_hex,
// else EncodeDescriptor of the case's map), or why no engine sees the case (empty: `desc`
// holds the bytes): a map the host cannot encode or that does not fit the descriptor's fields,
// an sm_100+ map its encoder refuses (sm_90 maps go to the RTL even when the encoder refuses
// them: the RTL checks the sm_90 rules itself), a CTA number at or above the case's cluster
// size (`top` has no cluster-size input; F6 is the launcher's check).
std::string RtlCaseDescriptor(const tma::model::GoldenCase& c, const std::string& top,
                              uint8_t* desc);

}  // namespace tma::sim

#endif  // TMA_SIM_RTL_SUPPORT_H_
