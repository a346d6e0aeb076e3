// SPDX-License-Identifier: Apache-2.0
#include "tma/memory.h"

#include <algorithm>
#include <cstring>

namespace tma::model {

bool SparseGlobalMemory::HitsError(uint64_t addr, size_t n) const {
  if (n == 0) {
    return false;
  }
  const uint64_t end = addr + n;  // wraps only for absurd ranges
  for (const auto& [lo, hi] : errors_) {
    if (addr < hi && lo < end) {
      return true;
    }
  }
  return false;
}

void SparseGlobalMemory::AddErrorRange(uint64_t lo, uint64_t hi) {
  if (lo < hi) {
    errors_.emplace_back(lo, hi);
  }
}

uint8_t* SparseGlobalMemory::PageFor(uint64_t index, bool create) {
  if (index == last_index_) {
    return last_page_;
  }
  auto it = pages_.find(index);
  if (it == pages_.end()) {
    if (!create) {
      return nullptr;
    }
    Page p(new uint8_t[kPageBytes]);
    std::memset(p.get(), default_fill_, kPageBytes);
    it = pages_.emplace(index, std::move(p)).first;
  }
  last_index_ = index;
  last_page_ = it->second.get();
  return last_page_;
}

bool SparseGlobalMemory::Read(uint64_t addr, uint8_t* dst, size_t n) {
  if (HitsError(addr, n)) {
    return false;
  }
  while (n > 0) {
    const uint64_t off = addr % kPageBytes;
    const size_t chunk = static_cast<size_t>(std::min<uint64_t>(n, kPageBytes - off));
    const uint8_t* page = PageFor(addr / kPageBytes, false);
    if (page) {
      std::memcpy(dst, page + off, chunk);
    } else {
      std::memset(dst, default_fill_, chunk);
    }
    addr += chunk;
    dst += chunk;
    n -= chunk;
  }
  return true;
}

bool SparseGlobalMemory::Write(uint64_t addr, const uint8_t* src, size_t n) {
  if (HitsError(addr, n)) {
    return false;
  }
  while (n > 0) {
    const uint64_t off = addr % kPageBytes;
    const size_t chunk = static_cast<size_t>(std::min<uint64_t>(n, kPageBytes - off));
    std::memcpy(PageFor(addr / kPageBytes, true) + off, src, chunk);
    addr += chunk;
    src += chunk;
    n -= chunk;
  }
  return true;
}

void SparseGlobalMemory::Fill(uint64_t addr, size_t n, uint8_t value) {
  while (n > 0) {
    const uint64_t off = addr % kPageBytes;
    const size_t chunk = static_cast<size_t>(std::min<uint64_t>(n, kPageBytes - off));
    std::memset(PageFor(addr / kPageBytes, true) + off, value, chunk);
    addr += chunk;
    n -= chunk;
  }
}

ClusterSharedMemory::ClusterSharedMemory(int num_ctas, uint32_t bytes, uint8_t fill)
    : bytes_(bytes),
      windows_(static_cast<size_t>(std::max(num_ctas, 0)), std::vector<uint8_t>(bytes, fill)) {}

bool ClusterSharedMemory::InRange(int cta, uint32_t addr, size_t n) const {
  return cta >= 0 && cta < NumCtas() && static_cast<uint64_t>(addr) + n <= bytes_;
}

bool ClusterSharedMemory::Read(int cta, uint32_t addr, uint8_t* dst, size_t n) {
  if (!InRange(cta, addr, n)) {
    return false;
  }
  std::memcpy(dst, windows_[static_cast<size_t>(cta)].data() + addr, n);
  return true;
}

bool ClusterSharedMemory::Write(int cta, uint32_t addr, const uint8_t* src, size_t n) {
  if (!InRange(cta, addr, n)) {
    return false;
  }
  std::memcpy(windows_[static_cast<size_t>(cta)].data() + addr, src, n);
  return true;
}

}  // namespace tma::model
