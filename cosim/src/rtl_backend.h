// SPDX-License-Identifier: Apache-2.0
//
// The RTL mode of otma_engine: the tensor ops the RTL claims (loads, prefetches, stores and
// reductions; sim/rtl_support.h) on a Verilated tma_sim_top clocked by otma_tick, over the
// sim/ harness (rtl_backend.cc). Built only when the library is configured with the testbench
// (TMA_BUILD_TB); otherwise MakeRtlBackend returns null and otma_create answers
// OTMA_E_NO_BACKEND.
#ifndef OTMA_RTL_BACKEND_H_
#define OTMA_RTL_BACKEND_H_

#include <cstdint>
#include <memory>

#include "opentma/cosim.h"

struct otma_engine;

namespace otma_impl {

class RtlBackend {
 public:
  virtual ~RtlBackend() = default;
  // Offers the op to the RTL's command port (OTMA_E_BUSY: not this cycle); answers
  // OTMA_E_UNSUPPORTED (op_done FAULT) for an op the RTL does not claim (sim/rtl_support.h).
  virtual otma_status Submit(otma_engine& e, const otma_op& op, otma_token t) = 0;
  // Runs `cycles` RTL clocks; completions reach the host the cycle the RTL makes them.
  virtual otma_status Tick(otma_engine& e, uint64_t cycles) = 0;
  virtual uint64_t NextEvent() const = 0;
  virtual uint64_t Drain(otma_engine& e) = 0;
  // The host's answer to a request of the RTL's global-memory traffic (host.mem_req).
  virtual otma_status MemResp(uint64_t tag, otma_status bus) = 0;
  // fence.proxy.tensormap: the next command clears the RTL's descriptor cache.
  virtual void Invalidate(uint64_t desc_va) = 0;
  virtual uint32_t InFlightOps() const = 0;
};

std::unique_ptr<RtlBackend> MakeRtlBackend(const otma_config& cfg);

}  // namespace otma_impl

#endif  // OTMA_RTL_BACKEND_H_
