// SPDX-License-Identifier: Apache-2.0
//
// Which tensor elements a tensor copy touches and where each one sits in shared memory: the
// tile, interleaved, gather4/scatter4, im2col (incl. interleaved), im2col::w / ::w::128 and
// im2col_no_offs traversals (silicon findings D1, D4, D5, D6, D8; tensor-semantics.md 3, 5-8).
// Pure geometry: no memory is touched and the instruction is assumed to have passed
// CheckInstruction (tensor_copy.h); a structurally unusable one yields an empty traversal.
#ifndef TMA_TRAVERSAL_H_
#define TMA_TRAVERSAL_H_

#include <array>
#include <cstdint>
#include <functional>

#include "tma/element.h"
#include "tma/types.h"

namespace tma::model {

// One element (one unit for sub-byte types, one chunk with 16B/32B interleave).
struct ElementVisit {
  // Index inside the box, innermost first. Tile: (i0, i1, ...) with i0 in elements (chunks with
  // interleave) and i_d counting traversal steps (ceil(box/es) of them). im2col and its
  // variants: (channel, pixel slot). gather4/scatter4: (i0, row k).
  std::array<int64_t, kMaxRank> box_index{};
  std::array<int64_t, kMaxRank> coords{};  // tensor coordinates of the element (dim 0 as the
                                           // map counts it: elements, or chunks)
  bool oob = false;
  uint64_t global_addr = 0;  // valid when !oob
  uint32_t smem_offset = 0;  // logical (unswizzled) byte offset from dstMem/srcMem
  uint32_t bytes = 0;        // bytes in shared memory (interleave: chunk bytes)
};

// One box row: `units` consecutive dim-0 units that are contiguous in shared memory (a tile
// row, an im2col pixel's channels, a gather4 row).
struct RowVisit {
  uint64_t index = 0;                         // row number in shared-memory order
  std::array<int64_t, kMaxRank> box_index{};  // box index of the row's first unit
  std::array<int64_t, kMaxRank> coords{};     // tensor coordinates of the row's first unit
  int64_t x0 = 0;                             // dim-0 coordinate of the first unit, in units
  bool row_oob = false;                       // a coordinate of dims >= 1 is outside the tensor
  uint64_t row_base = 0;     // global address of dim-0 unit 0 of this row (when !row_oob)
  uint32_t smem_offset = 0;  // logical byte offset of the row from dstMem/srcMem
};

// The shape every row shares.
struct TraversalPlan {
  bool ok = false;         // false: the instruction has no traversal (wrong operand counts, ...)
  ElementLayout layout;    // unit sizes (interleave: one chunk per unit)
  uint32_t units = 0;      // dim-0 units per row
  int64_t x0_step = 1;     // dim-0 coordinate step between units (interleave: es[0])
  int64_t x0_bound = 0;    // dims[0] in units: a unit is in bounds iff 0 <= x < x0_bound
  uint32_t row_bytes = 0;  // shared-memory data bytes of a row (units * unit_sbytes)
  uint32_t row_pitch = 0;  // shared-memory distance between rows (row_bytes, or the span)
  uint64_t num_rows = 0;
  uint64_t tx_bytes = 0;  // complete_tx: num_rows * row_bytes (D1)
  Swizzle swizzle = Swizzle::kNone;
};

TraversalPlan PlanTraversal(const TensorMap& m, const TensorInstr& ins);

// Rows in shared-memory order.
void ForEachRow(const TensorMap& m, const TensorInstr& ins, const TraversalPlan& p,
                const std::function<void(const RowVisit&)>& fn);

// Elements in shared-memory order.
void ForEachElement(const TensorMap& m, const TensorInstr& ins,
                    const std::function<void(const ElementVisit&)>& fn);

// The byte count of the mbarrier complete-tx for each destination CTA (D1): the full box, OOB
// included, swizzle padding excluded. Tile: box[0] x E x prod ceil(box[i]/es[i]); im2col:
// cpp x E x ppc; interleaved: rows x ceil(box0/es0) x chunk (tile), ppc x chunk (im2col);
// gather4: 4 x box[0] x E [INF]; im2col::w: (ppc + wHalo) x cpp x E, im2col::w::128:
// (128 + 4 wHalo) x cpp x E [INF]. 0 for an instruction without a traversal.
uint32_t CompleteTxBytes(const TensorMap& m, const TensorInstr& ins);

}  // namespace tma::model

#endif  // TMA_TRAVERSAL_H_
