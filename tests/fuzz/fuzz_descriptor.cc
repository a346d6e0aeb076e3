// SPDX-License-Identifier: Apache-2.0
//
// libFuzzer harness: descriptor decode (tests/fuzz/README.md). The input is a 128-byte tensor
// map (shorter inputs are zero-padded). A map that decodes is re-encoded and decoded again
// (the two maps must be equal), checked against the encoder rules of each arch, and its box
// planned and walked when the sm_100 rules accept it and it is small (at most 256 rows of
// 256 units).
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "tma/descriptor.h"
#include "tma/encoder.h"
#include "tma/tensor_copy.h"
#include "tma/traversal.h"

using namespace tma::model;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  uint8_t map[kDescriptorBytes] = {};
  std::memcpy(map, data, size < sizeof(map) ? size : sizeof(map));
  TensorMap m;
  if (!DecodeDescriptor(map, &m).ok()) {
    return 0;
  }
  const DescriptorBytes again = EncodeDescriptor(m);
  TensorMap m2;
  if (!DecodeDescriptor(again.data(), &m2).ok() || !(m2 == m)) {
    std::abort();  // decode(encode(decode(x))) must equal decode(x)
  }
  for (Arch a : {Arch::kSm90, Arch::kSm100, Arch::kSm103}) {
    (void)FindRuleViolations(m, a);
  }
  (void)DescriptorBoxBytes(m);
  // Plan a tile load of the box at the origin; walk it when it is at most 4096 elements.
  TensorInstr ins;
  ins.op = Op::kLoad;
  ins.mode = m.mode == MapMode::kTiled ? LoadMode::kTile : LoadMode::kIm2col;
  ins.dim = m.rank;
  ins.coords.assign(static_cast<size_t>(m.rank), 0);
  if (ins.mode == LoadMode::kIm2col && m.rank >= 3) {
    ins.im2col_info.assign(static_cast<size_t>(m.rank - 2), 0);
  }
  if (!ValidateTensorMap(m, Arch::kSm100).ok()) {
    return 0;  // the model validates a map before it plans a traversal (ExecuteTensor)
  }
  const TraversalPlan plan = PlanTraversal(m, ins);
  if (plan.ok && plan.num_rows <= 256 && plan.units <= 256) {
    uint64_t n = 0;
    ForEachElement(m, ins, [&n](const ElementVisit&) { ++n; });
    (void)CompleteTxBytes(m, ins);
  }
  return 0;
}
