// SPDX-License-Identifier: Apache-2.0
//
// The Link defaults (tma/fw/link.h) and the mock link (tma/fw/mock_link.h).
#include "tma/fw/link.h"

#include "tma/fw/mock_link.h"

namespace tma::fw {

const char* ToString(LinkStatus s) {
  switch (s) {
    case LinkStatus::kOk:
      return "ok";
    case LinkStatus::kTimeout:
      return "timeout";
    case LinkStatus::kBusError:
      return "bus_error";
    case LinkStatus::kIoError:
      return "io_error";
    case LinkStatus::kUnsupported:
      return "unsupported";
    case LinkStatus::kBadArgument:
      return "bad_argument";
  }
  return "?";
}

LinkStatus Link::ReadBlock(uint64_t addr, uint32_t* words, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const LinkStatus s = Read32(addr + 4 * i, &words[i]);
    if (s != LinkStatus::kOk)
      return s;
  }
  return LinkStatus::kOk;
}

LinkStatus Link::WriteBlock(uint64_t addr, const uint32_t* words, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const LinkStatus s = Write32(addr + 4 * i, words[i]);
    if (s != LinkStatus::kOk)
      return s;
  }
  return LinkStatus::kOk;
}

LinkStatus MockLink::Read32(uint64_t addr, uint32_t* value) {
  if (addr % 4 != 0)
    return LinkStatus::kBadArgument;
  if (fail_.count(addr) != 0)
    return LinkStatus::kBusError;
  const auto h = read_hooks_.find(addr);
  *value = h != read_hooks_.end() ? h->second(addr) : Peek(addr);
  log_.push_back({Kind::kRead, addr, *value});
  return LinkStatus::kOk;
}

LinkStatus MockLink::Write32(uint64_t addr, uint32_t value) {
  if (addr % 4 != 0)
    return LinkStatus::kBadArgument;
  if (fail_.count(addr) != 0)
    return LinkStatus::kBusError;
  log_.push_back({Kind::kWrite, addr, value});
  const auto h = write_hooks_.find(addr);
  if (h == write_hooks_.end() || h->second(addr, value))
    mem_[addr] = value;
  return LinkStatus::kOk;
}

LinkStatus MockLink::WaitInterrupt(uint32_t timeout_us) {
  log_.push_back({Kind::kWaitIrq, 0, timeout_us});
  if (!has_irq_)
    return LinkStatus::kUnsupported;
  if (on_wait_)
    on_wait_();
  return irq_ ? LinkStatus::kOk : LinkStatus::kTimeout;
}

uint32_t MockLink::Peek(uint64_t addr) const {
  const auto it = mem_.find(addr);
  return it == mem_.end() ? 0 : it->second;
}

std::vector<uint32_t> MockLink::WritesTo(uint64_t addr) const {
  std::vector<uint32_t> v;
  for (const Access& a : log_) {
    if (a.kind == Kind::kWrite && a.addr == addr)
      v.push_back(a.value);
  }
  return v;
}

}  // namespace tma::fw
