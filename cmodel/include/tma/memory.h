// SPDX-License-Identifier: Apache-2.0
//
// Concrete memories for the model and its tests: a sparse, page-based global memory with
// injectable bus-error ranges, and the shared-memory windows of a cluster.
#ifndef TMA_MEMORY_H_
#define TMA_MEMORY_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tma/types.h"

namespace tma::model {

// Byte-addressed 64-bit global memory. Pages are allocated on first write; bytes never written
// read as `default_fill`. An access that touches a range added with AddErrorRange fails (bus
// error) and changes nothing.
class SparseGlobalMemory : public GlobalMemoryIf {
 public:
  static constexpr uint64_t kPageBytes = 4096;

  explicit SparseGlobalMemory(uint8_t default_fill = 0) : default_fill_(default_fill) {}

  bool Read(uint64_t addr, uint8_t* dst, size_t n) override;
  bool Write(uint64_t addr, const uint8_t* src, size_t n) override;

  // Accesses touching [lo, hi) (half-open) fail from now on.
  void AddErrorRange(uint64_t lo, uint64_t hi);
  void ClearErrorRanges() { errors_.clear(); }
  bool HitsError(uint64_t addr, size_t n) const;

  // Sets n bytes to `value` (no error check).
  void Fill(uint64_t addr, size_t n, uint8_t value);
  size_t PagesAllocated() const { return pages_.size(); }
  uint8_t default_fill() const { return default_fill_; }

 private:
  using Page = std::unique_ptr<uint8_t[]>;
  uint8_t* PageFor(uint64_t page_index, bool create);

  uint8_t default_fill_;
  std::unordered_map<uint64_t, Page> pages_;
  std::vector<std::pair<uint64_t, uint64_t>> errors_;
  uint64_t last_index_ = ~0ull;
  uint8_t* last_page_ = nullptr;
};

// The shared-memory windows of a cluster: `num_ctas` windows of `bytes` each, initialised to
// `fill`. An access beyond a window or to a CTA outside the cluster fails.
class ClusterSharedMemory : public SharedMemoryIf {
 public:
  ClusterSharedMemory(int num_ctas, uint32_t bytes, uint8_t fill = 0);

  int NumCtas() const override { return static_cast<int>(windows_.size()); }
  bool Read(int cta, uint32_t addr, uint8_t* dst, size_t n) override;
  bool Write(int cta, uint32_t addr, const uint8_t* src, size_t n) override;

  uint32_t WindowBytes() const { return bytes_; }
  std::vector<uint8_t>& Window(int cta) { return windows_.at(static_cast<size_t>(cta)); }
  const std::vector<uint8_t>& Window(int cta) const {
    return windows_.at(static_cast<size_t>(cta));
  }

 private:
  bool InRange(int cta, uint32_t addr, size_t n) const;

  uint32_t bytes_;
  std::vector<std::vector<uint8_t>> windows_;
};

}  // namespace tma::model

#endif  // TMA_MEMORY_H_
