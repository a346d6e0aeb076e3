// SPDX-License-Identifier: Apache-2.0
//
// The bench's pattern-initialised sparse global memory (pattern_memory.h).
#include "agents/pattern_memory.h"

#include <algorithm>
#include <cstring>

namespace tma::tb {

namespace {
constexpr uint64_t kPage = 4096;
uint64_t Mix(uint64_t x) {
  uint64_t z = x + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
}  // namespace

uint8_t* PatternMemory::Page(uint64_t index) {
  if (index == last_index_) {
    return last_page_;
  }
  auto& p = pages_[index];
  if (!p) {
    p.reset(new uint8_t[kPage]);
    uint64_t base = index * kPage;
    for (uint64_t i = 0; i < kPage; i += 8) {
      uint64_t v = Mix(seed_ ^ ((base + i) >> 3));
      std::memcpy(&p[i], &v, 8);
    }
  }
  last_index_ = index;
  last_page_ = p.get();
  return last_page_;
}

void PatternMemory::ReadRaw(uint64_t addr, uint8_t* dst, size_t n) {
  while (n > 0) {
    uint64_t off = addr % kPage;
    size_t chunk = static_cast<size_t>(std::min<uint64_t>(n, kPage - off));
    std::memcpy(dst, Page(addr / kPage) + off, chunk);
    addr += chunk;
    dst += chunk;
    n -= chunk;
  }
}

void PatternMemory::WriteRaw(uint64_t addr, const uint8_t* src, size_t n) {
  while (n > 0) {
    uint64_t off = addr % kPage;
    size_t chunk = static_cast<size_t>(std::min<uint64_t>(n, kPage - off));
    std::memcpy(Page(addr / kPage) + off, src, chunk);
    addr += chunk;
    src += chunk;
    n -= chunk;
  }
}

uint32_t PatternMemory::RespFor(uint64_t addr, size_t n) const {
  for (const auto& e : errors_) {
    if (addr < e.hi && addr + n > e.lo) {
      return e.resp;
    }
  }
  return 0;
}

bool PatternMemory::Read(uint64_t addr, uint8_t* dst, size_t n) {
  if (RespFor(addr, n) != 0) {
    return false;
  }
  ReadRaw(addr, dst, n);
  return true;
}

bool PatternMemory::Write(uint64_t addr, const uint8_t* src, size_t n) {
  if (RespFor(addr, n) != 0) {
    return false;
  }
  ++writes_;
  if (!written_.empty() && written_.back().first + written_.back().second == addr) {
    written_.back().second += n;
  } else {
    written_.emplace_back(addr, n);
  }
  WriteRaw(addr, src, n);
  return true;
}

bool ShadowGlobal::Read(uint64_t addr, uint8_t* dst, size_t n) {
  if (base_->RespFor(addr, n) != 0) {
    return false;
  }
  base_->ReadRaw(addr, dst, n);
  if (!overlay_.empty()) {
    for (size_t i = 0; i < n; ++i) {
      auto it = overlay_.find(addr + i);
      if (it != overlay_.end()) {
        dst[i] = it->second;
      }
    }
  }
  return true;
}

bool ShadowGlobal::Write(uint64_t addr, const uint8_t* src, size_t n) {
  if (base_->RespFor(addr, n) != 0) {
    return false;
  }
  for (size_t i = 0; i < n; ++i) {
    overlay_[addr + i] = src[i];
  }
  return true;
}

}  // namespace tma::tb
