// SPDX-License-Identifier: Apache-2.0
//
// The RTL mode of otma_engine: tensor loads and prefetches through the Verilated engine
// (tma_sim_top over the sim/ harness, as the golden replay runs it). Built only when the
// library is configured with the testbench (TMA_BUILD_TB); otherwise MakeRtlBackend returns
// null and otma_create answers OTMA_E_NO_BACKEND.
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
  // Runs the op on the RTL; answers OTMA_E_UNSUPPORTED (op_done FAULT) for an op the RTL does
  // not implement (sim/rtl_support.h).
  virtual otma_status Submit(otma_engine& e, const otma_op& op, otma_token t) = 0;
  virtual otma_status Tick(otma_engine& e, uint64_t cycles) = 0;
  virtual uint64_t NextEvent() const = 0;
  virtual uint64_t Drain(otma_engine& e) = 0;
};

std::unique_ptr<RtlBackend> MakeRtlBackend(const otma_config& cfg);

}  // namespace otma_impl

#endif  // OTMA_RTL_BACKEND_H_
