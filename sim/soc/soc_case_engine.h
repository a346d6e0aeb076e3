// SPDX-License-Identifier: Apache-2.0
//
// SocCaseEngine: golden-case replay through the Verilated tma_soc_top (`tma run --engine
// soc`), driven as a board would drive it: only through its AXI4-Lite registers and shared-
// memory window, its AXI4 global memory and its interrupt (SocHarness + fw::SocDriver).
// Per case:
//   * soft reset through CTRL (the engine, its descriptor cache and the rings restart);
//   * the case's shared-memory windows are written through the window (only the words that
//     differ from what the host last read or wrote there);
//   * a tensor case's map goes into global memory as 128 bytes at an address of its own, as
//     tma-rtl does (the case's descriptor_hex, else EncodeDescriptor of the case's map); a
//     non-tensor bulk case (cp.async.bulk, cp.reduce.async.bulk, cp.async.bulk.prefetch) needs
//     none: its command is the bulk command tma-rtl sends (sim::RtlBulkCommand);
//   * the mbarrier slot 0 of every destination CTA is initialised at the command's mbar
//     address with one arrival;
//   * the command goes through the command ring (even case index; completions through the
//     completion ring) or the register window (odd; completions through the FIFO registers);
//     a store or reduction is followed by commit_group of its issuer, and the group's
//     read-done and done completions (kind CplGroup, group 0 after the soft reset, no error
//     flag unless the command failed) are waited for and checked too;
//   * the host waits on irq (completion and error interrupts enabled), drains completions,
//     then checks every destination barrier: its tx-count is minus the bytes the completions
//     reported, and arrive.expect_tx of those bytes completes its phase;
//   * the windows are read back through the window into the replay's shared memory.
// A case that asks for a PTX reading the default build is not made with (store clipping
// "element", bulk size check "ptx") runs on the PTX-readings build of the SoC top
// (SocVariant::kPtxReadings, made at the first such case), as tma-rtl runs it on its
// PTX-readings top. A tensor case whose map has no 128-byte encoding and which the host's
// encoder refuses gets the host's verdict and reaches no engine (sim::RtlHostEncoderRefusal,
// as tma-rtl). A case the RTL engine skips otherwise is skipped (sim::RtlSkipReason, the same
// list as tma-rtl), and one whose shared-memory window does not fit the shell (more than
// 64 KiB per CTA) is skipped for size. A broken rule (hang, SLVERR on a legal access, stray
// completion, a barrier that disagrees, an RTL assertion) is a note: the replay counts the case
// FAIL.
#ifndef TMA_SIM_SOC_SOC_CASE_ENGINE_H_
#define TMA_SIM_SOC_SOC_CASE_ENGINE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/rtl_support.h"
#include "tma/golden_replay.h"

namespace tma::sim {

class SocHarness;

class SocCaseEngine : public tma::model::CaseEngine {
 public:
  SocCaseEngine();
  ~SocCaseEngine() override;
  std::string Name() const override { return "soc"; }
  tma::model::CaseOutcome Run(const tma::model::GoldenCase& c, tma::model::GlobalMemoryIf& global,
                              tma::model::SharedMemoryIf& smem) override;
  uint64_t cycles() const;      // both builds
  uint64_t ptx_cycles() const;  // the PTX-readings build's share
  const std::string& last_note() const { return note_; }
  void set_case_limit(uint64_t n) { limit_ = n; }
  // Cases skipped because they do not fit the shell's memories, with the reason.
  const std::vector<std::string>& size_skips() const { return size_skips_; }

 private:
  bool UploadWindow(SocHarness& h, int cta, const std::vector<uint8_t>& want);
  bool ReadWindow(SocHarness& h, int cta, uint32_t bytes, std::vector<uint8_t>* got);

  std::unique_ptr<SocHarness> h_;
  std::unique_ptr<SocHarness> ptx_h_;
  const SocHarness* last_h_ = nullptr;  // the build the shadow below describes
  RtlBuild build_;
  RtlBuild ptx_build_;
  std::string note_;
  uint64_t limit_ = 400000;
  uint64_t runs_ = 0;
  // What the host last wrote to or read from each CTA's shared memory, per 32-bit word, and
  // whether it knows that word.
  std::vector<std::vector<uint32_t>> shadow_;
  std::vector<std::vector<bool>> known_;
  std::vector<std::string> size_skips_;
};

}  // namespace tma::sim

#endif  // TMA_SIM_SOC_SOC_CASE_ENGINE_H_
