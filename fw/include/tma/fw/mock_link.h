// SPDX-License-Identifier: Apache-2.0
//
// MockLink: a Link for unit tests. A sparse 32-bit memory (reads of unwritten words return 0),
// a log of every access, and scripting: per-address read and write hooks (to model a register
// with side effects), addresses that answer with a bus error, and an interrupt line the test
// raises or lowers (WaitInterrupt returns at once: kOk if raised, else kTimeout, or
// kUnsupported when the mock is told it has no interrupt).
#ifndef TMA_FW_MOCK_LINK_H_
#define TMA_FW_MOCK_LINK_H_

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <vector>

#include "tma/fw/link.h"

namespace tma::fw {

class MockLink : public Link {
 public:
  enum class Kind : uint8_t { kRead, kWrite, kWaitIrq };
  struct Access {
    Kind kind;
    uint64_t addr;   // kWaitIrq: 0
    uint32_t value;  // read: the value returned; write: the value written; kWaitIrq: timeout_us
    bool operator==(const Access& o) const {
      return kind == o.kind && addr == o.addr && value == o.value;
    }
  };
  // A read hook returns the value read (and may change the mock's state); a write hook sees
  // the written value and returns whether the mock should store it.
  using ReadHook = std::function<uint32_t(uint64_t addr)>;
  using WriteHook = std::function<bool(uint64_t addr, uint32_t value)>;

  LinkStatus Read32(uint64_t addr, uint32_t* value) override;
  LinkStatus Write32(uint64_t addr, uint32_t value) override;
  LinkStatus WaitInterrupt(uint32_t timeout_us) override;

  // Memory without logging (test setup and inspection).
  uint32_t Peek(uint64_t addr) const;
  void Poke(uint64_t addr, uint32_t value) { mem_[addr] = value; }
  void OnRead(uint64_t addr, ReadHook h) { read_hooks_[addr] = std::move(h); }
  void OnWrite(uint64_t addr, WriteHook h) { write_hooks_[addr] = std::move(h); }
  void FailAt(uint64_t addr) { fail_.insert(addr); }
  void SetIrq(bool level) { irq_ = level; }
  void SetHasIrq(bool has) { has_irq_ = has; }
  // Called on every WaitInterrupt before the line is sampled (e.g. to let a modelled engine
  // finish work); may call SetIrq.
  void OnWait(std::function<void()> f) { on_wait_ = std::move(f); }

  const std::vector<Access>& log() const { return log_; }
  void ClearLog() { log_.clear(); }
  // The writes to `addr` in order.
  std::vector<uint32_t> WritesTo(uint64_t addr) const;

 private:
  std::map<uint64_t, uint32_t> mem_;
  std::map<uint64_t, ReadHook> read_hooks_;
  std::map<uint64_t, WriteHook> write_hooks_;
  std::set<uint64_t> fail_;
  std::vector<Access> log_;
  std::function<void()> on_wait_;
  bool irq_ = false;
  bool has_irq_ = true;
};

}  // namespace tma::fw

#endif  // TMA_FW_MOCK_LINK_H_
