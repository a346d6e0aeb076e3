// SPDX-License-Identifier: Apache-2.0
//
// Element arithmetic of cp.reduce.async.bulk.tensor (silicon findings F5 and D9,
// tensor-semantics.md section 9).
#ifndef TMA_REDUCE_H_
#define TMA_REDUCE_H_

#include <cstdint>

#include "tma/types.h"

namespace tma::model {

// Whether `op` on maps of type `t` executes (F5): add u32/s32/u64/f32/f16/bf16; min/max
// u32/s32/u64/s64/f16/bf16; inc/dec u32; and/or/xor u32/s32/u64 (s64 faults although PTX says
// .b64). Beyond PTX, add on f64, tf32 and f32.ftz executes (measured). Everything else, tf32.ftz
// and the sub-byte types included (not measured; PTX forbids sub-byte reductions), is
// unsupported_reduction.
bool ReductionSupported(RedOp op, DType t);

// dst <- op(dst, src), in place, on one element of type `t` (little-endian bytes), exact to the
// bit: integer ops as PTX atom (inc: old >= src ? 0 : old + 1; dec: old == 0 || old > src ? src :
// old - 1); f16/bf16 add round-to-nearest-even with subnormals kept (.noftz); f32 and tf32 add
// RNE with subnormals kept; f32.ftz add flushes subnormal inputs and result to sign-preserving
// zero; f64 add exact IEEE RNE; f16/bf16 min/max return the other operand when one is NaN
// (canonical NaN 0x7FFF when both are [INF]), -0 < +0 [INF]. NaN results of add are canonical
// [INF]. Call only for supported pairs; an unsupported pair leaves dst unchanged.
void ReduceElement(RedOp op, DType t, uint8_t* dst_global, const uint8_t* src_smem);

}  // namespace tma::model

#endif  // TMA_REDUCE_H_
