// SPDX-License-Identifier: Apache-2.0
//
// SocDriver: register-level glue for tma_soc_top (docs/soc.md), over a link that reads and
// writes 32-bit words of its AXI4-Lite port and waits for its interrupt. Offsets and fields
// come from the generated header (fw/include/tma/autogen/tma_regs.h, from tma_regs.rdl), the
// ring records from fw/include/tma/autogen/tma_rec.h (from tma_numbering.json). It submits
// through the register window or the command ring, collects completions from the FIFO
// registers or the completion ring, operates the mbarrier units and moves shared memory
// through the window. It talks to the SoC through the firmware's one link interface
// (tma/fw/link.h): the CSRs and shared-memory windows at link addresses 0 .. 0x1fffff (the
// s_axil port's map), global memory as the engine sees it (ring storage, tensor maps) at link
// address gmem_link_base + global address (modulo 2^64, so a board whose memory window answers
// the engine at an address of its choosing maps it with one constant). Links: the Verilated
// SocHarness (sim/soc/), the UARTBone link to the ULX3S board (boards/ulx3s/, docs/board.md),
// MmioLink on a board with a CPU.
#ifndef TMA_FW_SOC_TMA_SOC_DRIVER_H_
#define TMA_FW_SOC_TMA_SOC_DRIVER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "tma/fw/link.h"

namespace tma::fw {

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
  SocDriver(Link* link, uint64_t gmem_link_base) : l_(link), gmem_(gmem_link_base) {}

  // Register access by offset (tma_regs_t member offsets); false when the link reports a
  // failure (SLVERR, a transport error).
  bool Rd(uint32_t off, uint32_t* v) { return l_->Read32(off, v) == LinkStatus::kOk; }
  bool Wr(uint32_t off, uint32_t v) { return l_->Write32(off, v) == LinkStatus::kOk; }
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
  // n bytes at a link address as little-endian words (block transfers); `n` a multiple of 4.
  bool BytesOut(uint64_t link_addr, const uint8_t* src, size_t n);
  bool BytesIn(uint64_t link_addr, uint8_t* dst, size_t n);

  Link* l_;
  uint64_t gmem_;
  uint64_t cmdr_base_ = 0, cplr_base_ = 0;
  unsigned cmdr_log2_ = 0, cplr_log2_ = 0;
  uint32_t cmdr_tail_ = 0, cplr_head_ = 0;
};

}  // namespace tma::fw

#endif  // TMA_FW_SOC_TMA_SOC_DRIVER_H_
