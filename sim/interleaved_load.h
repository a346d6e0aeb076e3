// SPDX-License-Identifier: Apache-2.0
//
// MakeInterleavedLoad: a random legal interleaved (16B / 32B) load, tile or im2col (silicon
// D5 / D8), for the random benches (tb/seq RandomMixSeq, tests/rtl/engine e2e). Dim 0 counts
// chunks of C bytes; every shared-memory row is C bytes per chunk, unpadded. An interleaved
// im2col map's spatial dims are 0 .. rank-3 (the bounding box's lower[k] / upper[k] bound dim
// k): the start pixel is drawn inside the box (F4). The destination (smem_addr, mbar_addr,
// CTAs) is the caller's to draw.
#ifndef TMA_SIM_INTERLEAVED_LOAD_H_
#define TMA_SIM_INTERLEAVED_LOAD_H_

#include <cstdint>
#include <functional>

#include "tma/types.h"

namespace tma::sim {

struct InterleavedLoadLimits {
  uint64_t tensor_base = 0;     // the map's global address is tensor_base + chunk x [0, 8]
  uint64_t tensor_span = 0;     // the outermost stride stays within it
  uint64_t max_smem_bytes = 0;  // the box's shared-memory bytes + 1024 fit (0: no limit)
  int attempts = 0;             // maps drawn before giving up (0: until one is legal)
};

// `rand(lo, hi)`: a uniform integer in [lo, hi]. False when `attempts` maps were illegal.
bool MakeInterleavedLoad(const std::function<int(int, int)>& rand, const InterleavedLoadLimits& lim,
                         bool im2col, tma::model::TensorMap* map, tma::model::TensorInstr* ins);

}  // namespace tma::sim

#endif  // TMA_SIM_INTERLEAVED_LOAD_H_
