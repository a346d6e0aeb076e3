// SPDX-License-Identifier: Apache-2.0
//
// A behavioural stand-in for tma_sim_top with the same pins (a sim::SimTop of any DataBytes),
// built on the C++ model: the "model-as-DUT" self-check of the bench, and the DUT while the RTL
// is absent.
// Per command it runs tma::model::ExecuteTensorAt on a local cache of global memory; each
// cache line the model asked for and did not have is fetched over the AXI master port
// (bursts of up to 16 beats, never across 4 KiB, IDs rotating so responses come back out
// of order), then the model runs again, until it needs nothing new. The shared-memory bytes
// it writes leave as DataBytes-aligned beats with strobes (one beat per distinct content,
// with the mask of the CTAs it goes to), followed by one complete-tx per destination, or a
// single error completion. One command at a time.
// `bug_swizzle` (runtime) flips address bit 4 of beats of swizzled loads: the bench must
// catch it (tests tb/stub_bug_*).
#ifndef TMA_TB_STUB_TMA_BEHAVIORAL_DUT_H_
#define TMA_TB_STUB_TMA_BEHAVIORAL_DUT_H_

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sim/sim_top.h"
#include "tma/types.h"

namespace tma::tb {

class tma_behavioral_dut : public tma::sim::SimTop {
 public:
  explicit tma_behavioral_dut(int data_bytes = 16) { pins.data_bytes = data_bytes; }
  std::string Name() const override { return "model"; }
  // The edge: the inputs of the last Settle(), the reset as it is now.
  void Posedge() override { Tick(); }
  void Settle() override { in_ = pins; }
  bool bug_swizzle = false;

 private:
  enum class State { kIdle, kFetch, kWrite, kComplete };
  using Line = std::array<uint8_t, tma::sim::kMaxDataBytes>;
  struct Beat {
    uint32_t addr;
    Line data;
    tma::sim::Strobe strb;
    uint32_t mask;
  };
  using Cpl = tma::pkg::cpl_t;  // tag: the command's (tag_)
  struct Burst {
    uint64_t line;  // first line address
    uint32_t beats;
  };
  void Tick();
  void Reset();
  void Accept();
  void RunModel();  // one model pass; fills misses_ or the output queues

  State state_ = State::kIdle;
  tma::model::TensorInstr instr_;
  uint64_t desc_addr_ = 0;
  uint32_t tag_ = 0;
  tma::sim::TopPins in_;            // inputs as of the last Settle
  std::map<uint64_t, Line> lines_;  // fetched cache lines
  std::set<uint64_t> err_lines_;    // lines answered with an error
  std::set<uint64_t> misses_;       // lines the last pass lacked
  std::deque<Burst> to_issue_;
  std::map<uint32_t, std::pair<Burst, uint32_t>> inflight_;  // AXI id -> burst, beats seen
  uint32_t next_id_ = 0;
  std::deque<Beat> beats_;
  std::deque<Cpl> cpls_;
  bool ar_q_ = false, wr_q_ = false, cpl_q_ = false, cmd_rdy_q_ = false;
  uint32_t errors_ = 0;
};

}  // namespace tma::tb

#endif  // TMA_TB_STUB_TMA_BEHAVIORAL_DUT_H_
