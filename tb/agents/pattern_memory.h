// SPDX-License-Identifier: Apache-2.0
//
// The bench's global memory: sparse 4 KiB pages whose untouched bytes read as a
// deterministic pattern of the address (splitmix64(seed ^ addr) & 0xff), so every tensor,
// however large its dims, has distinct data without being filled. Address ranges can be
// marked to answer with an AXI error (SLVERR 2 or DECERR 3); Read() then returns false,
// which the C++ model reports as bus_error.
#ifndef TMA_TB_AGENTS_PATTERN_MEMORY_H_
#define TMA_TB_AGENTS_PATTERN_MEMORY_H_

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tma/types.h"

namespace tma::tb {

struct ErrorRange {
  uint64_t lo = 0;  // [lo, hi)
  uint64_t hi = 0;
  uint32_t resp = 2;  // AXI RRESP: 2 SLVERR, 3 DECERR
};

class PatternMemory : public tma::model::GlobalMemoryIf {
 public:
  explicit PatternMemory(uint64_t seed = 1) : seed_(seed) {}
  bool Read(uint64_t addr, uint8_t* dst, size_t n) override;
  bool Write(uint64_t addr, const uint8_t* src, size_t n) override;
  // Raw access, no error ranges (bench setup and the AXI agent's data path).
  void ReadRaw(uint64_t addr, uint8_t* dst, size_t n);
  void WriteRaw(uint64_t addr, const uint8_t* src, size_t n);

  void AddErrorRange(uint64_t lo, uint64_t hi, uint32_t resp) { errors_.push_back({lo, hi, resp}); }
  void ClearErrorRanges() { errors_.clear(); }
  // The RRESP for an access to [addr, addr+n): 0 OKAY or the range's code.
  uint32_t RespFor(uint64_t addr, size_t n) const;
  const std::vector<ErrorRange>& error_ranges() const { return errors_; }
  uint64_t seed() const { return seed_; }
  uint64_t writes() const { return writes_; }
  // The ranges [addr, addr + n) written through Write() (the DUT's AXI writes), adjacent
  // writes merged: the scoreboard checks every byte of them against the model.
  const std::vector<std::pair<uint64_t, uint64_t>>& written() const { return written_; }

 private:
  uint8_t* Page(uint64_t index);
  uint64_t seed_;
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages_;
  std::vector<ErrorRange> errors_;
  uint64_t last_index_ = ~0ull;
  uint8_t* last_page_ = nullptr;
  uint64_t writes_ = 0;
  std::vector<std::pair<uint64_t, uint64_t>> written_;
};

// A copy-on-write view of a GlobalMemoryIf-like PatternMemory with the same error ranges:
// the scoreboard's "shadow copy" of global memory. Writes land in the overlay only.
class ShadowGlobal : public tma::model::GlobalMemoryIf {
 public:
  explicit ShadowGlobal(PatternMemory* base) : base_(base) {}
  bool Read(uint64_t addr, uint8_t* dst, size_t n) override;
  bool Write(uint64_t addr, const uint8_t* src, size_t n) override;
  const std::unordered_map<uint64_t, uint8_t>& overlay() const { return overlay_; }

 private:
  PatternMemory* base_;
  std::unordered_map<uint64_t, uint8_t> overlay_;
};

}  // namespace tma::tb

#endif  // TMA_TB_AGENTS_PATTERN_MEMORY_H_
