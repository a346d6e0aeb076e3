// SPDX-License-Identifier: Apache-2.0
//
// RtlCaseEngine: golden-case replay through the Verilated RTL (tma_sim_top of DataBytes 16,
// 32 or 64, plain C++ model, no SystemC kernel), on the harness library (sim/). It plays the
// cluster around the engine for one case at a time:
//   * the tensor map goes into global memory as 128 descriptor bytes (the case's
//     descriptor_hex, else EncodeDescriptor of the case's map) at an address of its own;
//   * the AXI4 read slave (sim::AxiReadSlave) answers from the case's global memory, bursts in
//     AR order, one beat per cycle from the cycle after the AR; a beat with any byte of its
//     transfer outside the buffer answers SLVERR;
//   * every shared-memory beat is applied with its strobes to each CTA of its mask
//     (sim::SmemPort); the shared-memory read port (stores) reads the issuing CTA's window;
//   * the AXI4 write slave (sim::AxiWriteSlave) writes the case's global memory (stores), its
//     B responses in order the cycle a burst's last beat arrives; a write outside the buffer
//     answers SLVERR;
//   * completions are collected (sim::CplPort): complete-tx per destination CTA, or one error.
// The engine is reset before each case (no state, descriptor cache included, carries over);
// the model is built once. A case that asks for a PTX reading where silicon differs
// (`store_clip: "element"`, `bulk.size_check: "ptx"`) runs on the PTX-readings top of the same
// DataBytes (sim::SimTopVariant::kPtxReadings: StoreClipElem = 1, BulkSizeStrict = 1). A map
// the descriptor cannot hold (no 128-byte encoding) that the host's encoder refuses gets the
// host encoder's verdict and no engine runs (sim::RtlHostEncoderRefusal: on silicon the
// driver refuses it and no kernel runs); last_host_decided() tells the replay so. Cases the RTL
// cannot run are reported unsupported (SKIP): what sim::RtlSkipReason lists for both tops
// (sim/rtl_support.h: outside the RTL's claims); a case inside the claims whose descriptor the
// harness still cannot build is a skip with a note (the replay fails it). The case's arch and
// cluster size go to tma_sim_top's arch_i and cluster_i (the RTL checks the encoder rules of
// that arch, the CTA operands, F6 and the .cta_group::2 routing itself). An "unsupported"
// error from the RTL itself is a FAIL (ReplayCase's rule: the case is claimed). In a
// TMA_COVERAGE=ON build the RTL's coverage (of the default top) goes to the file named by
// $TMA_COV_DAT when the engine is destroyed.
#ifndef TMA_TB_GOLDEN_RTL_ENGINE_H_
#define TMA_TB_GOLDEN_RTL_ENGINE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "sim/rtl_support.h"
#include "sim/tops.h"
#include "tma/golden_replay.h"

namespace tma::tb {

class RtlHarness;  // the Verilated model and the harness components (rtl_engine.cc)

class RtlCaseEngine : public tma::model::CaseEngine {
 public:
  // data_bytes: the width of the Verilated top (16, 32, 64 or 128); atomic: the top built with
  // AtomicReduce = 1 (sim::SimTopVariant::kAtomicReduce: reductions with an AXI5 AtomicStore
  // form done by the write slave at the memory). Ok() is false for a top not built.
  explicit RtlCaseEngine(int data_bytes = 16, bool atomic = false);
  // The top of a variant (sim/tops.h); what it implements is sim::SimTopBuild's. Only the
  // default variant hands PTX-readings cases to the PTX-readings top.
  RtlCaseEngine(int data_bytes, sim::SimTopVariant v);
  // What the top implements (sim::RtlBuild).
  const sim::RtlBuild& build() const { return build_; }
  bool Ok() const { return h_ != nullptr; }
  ~RtlCaseEngine() override;
  std::string Name() const override { return "rtl"; }
  tma::model::CaseOutcome Run(const tma::model::GoldenCase& c, tma::model::GlobalMemoryIf& global,
                              tma::model::SharedMemoryIf& smem) override;
  // Cycles simulated so far (all cases) and a note on the last case: "" or a pin-level rule
  // it broke (a hang, a write outside the window, two error completions, an SVA failure).
  // The replay counts a case with a note as FAIL whatever its outcome (tma-rtl does).
  uint64_t cycles() const;
  const std::string& last_note() const { return note_; }
  // Whether the last case is one the RTL claims to run (sim::RtlClaims): its notes count even
  // when the replay would skip it.
  bool last_claimed() const { return claimed_; }
  // Whether the last case's verdict is the host encoder's (no engine ran it) and whether it
  // ran on the PTX-readings top.
  bool last_host_decided() const { return host_decided_; }
  bool last_ran_on_ptx() const { return ran_on_ptx_; }
  // Seconds spent in the harness's cycle loop (the Verilated model and the components).
  double sim_seconds() const;
  // AXI5 AtomicStore transactions the write slaves executed (all cases).
  uint64_t atomics() const;
  // Cycles a case may take before it counts as a hang.
  void set_case_limit(uint64_t n) { limit_ = n; }

 private:
  int data_bytes_;
  sim::SimTopVariant variant_;
  sim::RtlBuild build_;
  sim::RtlBuild ptx_build_;
  std::unique_ptr<RtlHarness> h_;
  std::unique_ptr<RtlHarness> ptx_h_;  // the PTX-readings top, made at its first case
  std::string note_;
  bool claimed_ = false;
  bool host_decided_ = false;
  bool ran_on_ptx_ = false;
  uint64_t limit_ = 200000;
};

}  // namespace tma::tb

#endif  // TMA_TB_GOLDEN_RTL_ENGINE_H_
