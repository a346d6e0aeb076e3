// SPDX-License-Identifier: Apache-2.0
//
// Small builders shared by the data-semantics tests (tile load/store, reductions, measured
// vectors, properties). Expectations never come from here: only setup.
#ifndef TMA_TESTS_CMODEL_COPY_TEST_UTIL_H_
#define TMA_TESTS_CMODEL_COPY_TEST_UTIL_H_

#include <cstdint>
#include <cstring>
#include <vector>

#include "tma/memory.h"
#include "tma/tensor_copy.h"
#include "tma/types.h"

namespace tma::model::testing {

inline constexpr uint64_t kGlobalBase = 0x100000;

// A tiled map; strides innermost first for dims 1..rank-1.
inline TensorMap TiledMap(DType t, std::vector<uint64_t> dims, std::vector<uint64_t> strides,
                          std::vector<uint32_t> box, std::vector<uint32_t> es = {}) {
  TensorMap m;
  m.mode = MapMode::kTiled;
  m.dtype = t;
  m.rank = static_cast<int>(dims.size());
  m.global_address = kGlobalBase;
  for (size_t i = 0; i < dims.size(); ++i) {
    m.dims[i] = dims[i];
    m.box[i] = box[i];
    m.element_strides[i] = i < es.size() ? es[i] : 1;
  }
  for (size_t i = 0; i < strides.size(); ++i) {
    m.strides[i] = strides[i];
  }
  return m;
}

// The measured-vector tensor T16: u16 {200, 50}, stride 400 B, box {64, 8}.
inline TensorMap T16Map() {
  return TiledMap(DType::kU16, {200, 50}, {400}, {64, 8});
}

// Element (x, y) of T16 holds y * 200 + x + 1.
inline void FillT16(GlobalMemoryIf& g) {
  std::vector<uint8_t> buf(200 * 50 * 2);
  for (int y = 0; y < 50; ++y) {
    for (int x = 0; x < 200; ++x) {
      const uint16_t v = static_cast<uint16_t>(y * 200 + x + 1);
      std::memcpy(&buf[static_cast<size_t>((y * 200 + x) * 2)], &v, 2);
    }
  }
  g.Write(kGlobalBase, buf.data(), buf.size());
}

inline TensorInstr LoadInstr(int dim, std::vector<int32_t> coords, uint32_t dst = 0,
                             uint32_t mbar = 0x7F00) {
  TensorInstr ins;
  ins.op = Op::kLoad;
  ins.mode = LoadMode::kTile;
  ins.dim = dim;
  ins.coords = std::move(coords);
  ins.smem_addr = dst;
  ins.mbar_addr = mbar;
  return ins;
}

inline TensorInstr StoreInstr(int dim, std::vector<int32_t> coords, uint32_t src = 0,
                              Op op = Op::kStore, RedOp redop = RedOp::kAdd) {
  TensorInstr ins;
  ins.op = op;
  ins.redop = redop;
  ins.mode = LoadMode::kTile;
  ins.dim = dim;
  ins.coords = std::move(coords);
  ins.smem_space = SmemSpace::kSharedCta;
  ins.smem_addr = src;
  return ins;
}

template <typename T>
T ReadSmem(const ClusterSharedMemory& s, int cta, uint32_t off) {
  T v;
  std::memcpy(&v, s.Window(cta).data() + off, sizeof(T));
  return v;
}

template <typename T>
void WriteSmem(ClusterSharedMemory& s, int cta, uint32_t off, T v) {
  std::memcpy(s.Window(cta).data() + off, &v, sizeof(T));
}

template <typename T>
T ReadGlobal(GlobalMemoryIf& g, uint64_t addr) {
  T v{};
  g.Read(addr, reinterpret_cast<uint8_t*>(&v), sizeof(T));
  return v;
}

template <typename T>
void WriteGlobal(GlobalMemoryIf& g, uint64_t addr, T v) {
  g.Write(addr, reinterpret_cast<const uint8_t*>(&v), sizeof(T));
}

}  // namespace tma::model::testing

#endif  // TMA_TESTS_CMODEL_COPY_TEST_UTIL_H_
