// SPDX-License-Identifier: Apache-2.0
//
// What the RTL engine (tma_sim_top) implements: the ONE list every harness consults (the
// golden replay skips a case outside it, the end-to-end test expects `unsupported` for a
// command outside it). The RTL has no arch input: it runs the sm_90 loads and prefetches (tile,
// im2col), stores and reductions (tile, im2col_no_offs; reductions by read-modify-write), and
// of an sm_100+ case only what behaves as on sm_90 apart from the element types and swizzles
// it knows: tile-mode loads (multicast and remote destinations included). gather4, scatter4,
// im2col::w / ::w::128 and .cta_group::2 answer `unsupported`. Element types: every whole-byte type
// and the sub-byte types (b4x16 as a byte copy; b4x16_p64 / b6x16_p32 through the unpacker, only in
// a top built with SubByte = 1: tma_sim_top's default for DataBytes <= 32).
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
  // StoreClipElem: stores clip along dim 0 to elements (else to 16-byte granules, silicon D7)
  bool store_clip_element = false;
  // tma_sim_top's defaults for a DataBytes (SubByte = DataBytes <= 32).
  static RtlBuild Default(int data_bytes) {
    RtlBuild b;
    b.data_bytes = data_bytes;
    b.sub_byte = data_bytes <= 32;
    return b;
  }
};

bool RtlImplementsOp(tma::model::Op op);  // every op: loads, prefetches, stores, reductions
bool RtlImplementsDType(tma::model::DType t, const RtlBuild& b);
// Why the RTL cannot run golden case `c` (empty: it can), before any map is built.
std::string RtlSkipReason(const tma::model::GoldenCase& c, const RtlBuild& b);
// Whether the RTL claims to run `c` completely: then an `unsupported` answer from the RTL is a
// failure of the replay, not a skip. Claimed: the tile and im2col_no_offs stores and
// reductions RtlSkipReason lets through.
bool RtlClaims(const tma::model::GoldenCase& c, const RtlBuild& b);

}  // namespace tma::sim

#endif  // TMA_SIM_RTL_SUPPORT_H_
