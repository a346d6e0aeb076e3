// SPDX-License-Identifier: Apache-2.0
//
// SocDriver: register-level glue for tma_soc_top (docs/soc.md), over a link that reads and
// writes 32-bit words of its AXI4-Lite port and waits for its interrupt. Offsets and fields
// come from the generated header (fw/include/tma/autogen/tma_regs.h, from tma_regs.rdl), the
// ring records from fw/include/tma/autogen/tma_rec.h (from tma_numbering.json). It submits
// through the register window or the command ring, collects completions from the FIFO
// registers or the completion ring, operates the mbarrier units and moves shared memory
// through the window. Global memory (tensor maps, ring storage) is the caller's: the driver
// writes and reads ring records through the link's memory callbacks.
#ifndef TMA_FW_SOC_TMA_SOC_DRIVER_H_
#define TMA_FW_SOC_TMA_SOC_DRIVER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace tma::fw {

// The link to one tma_soc_top.
class SocLink {
 public:
  virtual ~SocLink() = default;
  // One AXI4-Lite access; false: the port answered SLVERR.
  virtual bool Read32(uint32_t addr, uint32_t* value) = 0;
  virtual bool Write32(uint32_t addr, uint32_t value) = 0;
  // Waits until irq is high or `cycles` (link time units) passed; true: irq is high.
  virtual bool WaitIrq(uint64_t cycles) = 0;
  // Global memory as the engine sees it (ring storage, tensor maps).
  virtual void MemWrite(uint64_t addr, const uint8_t* src, size_t n) = 0;
  virtual void MemRead(uint64_t addr, uint8_t* dst, size_t n) = 0;
};

// One command: the fields of a command-ring record (soc_records.cmd).
struct SocCommand {
  uint32_t op = 0, mode = 0, redop = 0, dim = 0;
  bool multicast = false;
  uint32_t cta_group = 0, tag = 0, issuer = 0, dst_cta = 0, cta_mask = 0;
  bool smem_cta = false, mbar_remote = false;  // .shared::cta; mbar in CTA mbar_cta
  uint32_t mbar_cta = 0;
  uint64_t desc_addr = 0;
  std::array<int32_t, 5> coords{};
  std::array<int16_t, 3> im2col{};
  uint32_t smem_addr = 0, mbar_addr = 0;
};

// One completion (soc_records.cpl). kind tma::pkg::CplGroup: a bulk async-group completion
// of issuer `cta`, group sequence number `tag` (0, 1, ... per issuer since the last reset, mod
// 256), grp_done 0 read-done (wait_group.read may pass it) / 1 done (wait_group may pass it),
// grp_err: an operation of the group failed.
struct SocCompletion {
  uint32_t kind = 0, err = 0, cta = 0, tag = 0, mbar_addr = 0, bytes = 0;
  bool grp_done = false, grp_err = false;
};

// cp.async.bulk.commit_group of CTA `issuer` as a command (docs/interfaces.md "Bulk commands":
// a bulk command with coords[2] bit 6; no completion of its own, the engine then reports the
// group's read-done and done as CplGroup completions).
SocCommand CommitGroupCommand(uint32_t issuer);

// The 16 words of a command record / of the window registers.
std::array<uint32_t, 16> EncodeCommandRecord(const SocCommand& c);
SocCompletion DecodeCompletionRecord(const uint32_t w[3]);

class SocDriver {
 public:
  explicit SocDriver(SocLink* link) : l_(link) {}

  // Register access by offset (tma_regs_t member offsets); false on SLVERR.
  bool Rd(uint32_t off, uint32_t* v) { return l_->Read32(off, v); }
  bool Wr(uint32_t off, uint32_t v) { return l_->Write32(off, v); }
  uint32_t Reg(uint32_t off);

  // ID and VERSION match this header's generation.
  bool Probe();
  // CTRL.soft_reset, then wait until STATUS.reset_busy clears (false: timeout).
  bool SoftReset(int max_polls = 1000);
  void DescInvalidate();
  // CTRL.arch (tma::pkg::Arch*: 0 sm_90, 1 sm_100, 2 sm_103) and CTRL.cluster (CTAs in the
  // cluster, 0: every CTA of the shell): the rules the engine applies. Only while it is idle.
  void SetTarget(unsigned arch, unsigned cluster);

  // ---- Commands ----
  // Window: writes CMD_W0..12 and rings the doorbell (false: a command was still pending).
  bool SubmitWindow(const SocCommand& c);
  // Command ring of 2^log2 records at `base` (64-byte aligned); enables the fetcher.
  void SetupCmdRing(uint64_t base, unsigned log2);
  // Writes the records into the ring and advances the tail; false: not enough room.
  bool SubmitRing(const std::vector<SocCommand>& cmds);
  uint32_t CmdRingFree();

  // ---- Completions ----
  // FIFO registers (CTRL.cpl_ring_en = 0): pops up to `max` records.
  size_t PopFifo(std::vector<SocCompletion>* out, size_t max = ~size_t{0});
  // Completion ring of 2^log2 records at `base` (16-byte aligned): zeroes its memory, turns
  // CTRL.cpl_ring_en on.
  void SetupCplRing(uint64_t base, unsigned log2);
  void UseCplFifo();
  // Reads the records between CPLR_HEAD and CPLR_TAIL, checks their lap bits, advances
  // CPLR_HEAD. False: a record's lap bit was not the expected one.
  bool DrainCplRing(std::vector<SocCompletion>* out);

  // ---- mbarrier units (MBAR_OP codes) ----
  enum MbarOp : uint32_t {
    kMbarInit = 1,
    kMbarExpectTx = 2,
    kMbarArrive = 3,
    kMbarArriveExpectTx = 4,
    kMbarCompleteTx = 5,
    kMbarInvalidate = 6
  };
  void MbarOperate(unsigned cta, unsigned slot, MbarOp op, uint32_t arg, uint32_t addr = 0);
  struct MbarState {
    bool valid = false, phase = false, stuck = false;
    uint32_t pending = 0;
    int32_t tx = 0;
  };
  MbarState MbarRead(unsigned cta, unsigned slot);

  // ---- Shared memory through the window (bytes; addresses and sizes multiples of 4) ----
  bool SmemWrite(unsigned cta, uint32_t addr, const uint8_t* src, size_t n);
  bool SmemRead(unsigned cta, uint32_t addr, uint8_t* dst, size_t n);

 private:
  SocLink* l_;
  uint64_t cmdr_base_ = 0, cplr_base_ = 0;
  unsigned cmdr_log2_ = 0, cplr_log2_ = 0;
  uint32_t cmdr_tail_ = 0, cplr_head_ = 0;
};

}  // namespace tma::fw

#endif  // TMA_FW_SOC_TMA_SOC_DRIVER_H_
