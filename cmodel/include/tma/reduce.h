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
// .b64). Beyond PTX, add on f64, tf32, f32.ftz and tf32.ftz executes (measured; tf32.ftz on an
// H200, docs/silicon-notes.md finding 2). Everything else, the sub-byte types included (not
// measured; PTX forbids sub-byte reductions), is unsupported_reduction.
bool ReductionSupported(RedOp op, DType t);

// dst <- op(dst, src), in place, on one element of type `t` (little-endian bytes), exact to the
// bit: integer ops as PTX atom (inc: old >= src ? 0 : old + 1; dec: old == 0 || old > src ? src :
// old - 1); f16/bf16 add round-to-nearest-even with subnormals kept (.noftz); f32 and tf32 add
// RNE with subnormals kept; f32.ftz and tf32.ftz add flush subnormal inputs and result to
// sign-preserving zero (the flush is [INF]: no measured case decides it); tf32 / tf32.ftz add
// on the full 32-bit operands and write the full f32 sum (no tf32 rounding, measured); f64 add
// exact IEEE RNE; f16/bf16 min/max return the other operand when one is NaN (canonical NaN 0x7FFF
// when both are [INF]), -0 < +0 [INF]. NaN results of add are canonical [INF]. Call only for
// supported pairs; an unsupported pair leaves dst unchanged.
void ReduceElement(RedOp op, DType t, uint8_t* dst_global, const uint8_t* src_smem);

}  // namespace tma::model

#endif  // TMA_REDUCE_H_
