// SPDX-License-Identifier: Apache-2.0
//
// MockEngine: an EngineQueue (tma/fw/device.h) for unit tests, standing in for the SoC top's
// queues. It records every command pushed and every invalidate (in one ordered event log),
// answers with completions following the engine's rules (a load: one CplTx per destination
// CTA with `load_bytes`; a shared::cta -> shared::cluster copy or reduction: one CplTx of
// size & ~15 bytes on its destination CTA; store / reduce / prefetch: one CplDone; a tag
// marked to fail: one CplError of the given class; a commit_group command: the group's
// read-done and done as CplGroup completions, numbered per issuer from 0), either at once
// (auto_complete) or when the test calls Release, and raises the MockLink's interrupt line when it
// produces completions (cleared by AcknowledgeInterrupt, as the write-1-to-clear INTR_STATE is).
// Capacity limits the commands it holds unreleased (kQueueFull beyond).
#ifndef TMA_FW_MOCK_ENGINE_H_
#define TMA_FW_MOCK_ENGINE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "tma/fw/device.h"
#include "tma/fw/mock_link.h"

namespace tma::fw {

class MockEngine : public EngineQueue {
 public:
  explicit MockEngine(MockLink* irq_link = nullptr) : link_(irq_link) {}

  Error Push(const tma::pkg::cmd_t& cmd) override;
  Error Pop(tma::pkg::cpl_t* out, bool* got) override;
  Error InvalidateDescriptors() override;
  Error AcknowledgeInterrupt() override;

  // Script.
  bool auto_complete = true;
  size_t capacity = 64;
  uint32_t load_bytes = 1024;
  void FailTag(uint8_t tag, ErrorClass c) { fail_[tag] = c; }
  // Completes the oldest unreleased commands (all by default).
  void Release(size_t n = static_cast<size_t>(-1));

  // Record: "cmd <tag>" / "inval" in order.
  const std::vector<std::string>& events() const { return events_; }
  const std::vector<tma::pkg::cmd_t>& commands() const { return commands_; }
  int acks() const { return acks_; }

 private:
  void Complete(const tma::pkg::cmd_t& cmd);
  MockLink* link_;
  std::deque<tma::pkg::cmd_t> held_;
  std::deque<tma::pkg::cpl_t> cpl_;
  std::map<uint8_t, ErrorClass> fail_;
  std::array<uint8_t, 16> group_seq_{};  // next bulk-group sequence number per issuer
  std::vector<std::string> events_;
  std::vector<tma::pkg::cmd_t> commands_;
  int acks_ = 0;
};

}  // namespace tma::fw

#endif  // TMA_FW_MOCK_ENGINE_H_
