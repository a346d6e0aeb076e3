// SPDX-License-Identifier: Apache-2.0
//
// Register-level glue for tma_soc_top (tma_soc_driver.h).
#include "fw/src/soc/tma_soc_driver.h"

#include <cstddef>
#include <vector>

#include "fw/include/tma/autogen/tma_rec.h"
#include "fw/include/tma/autogen/tma_regs.h"
#include "sim/autogen/tma_structs.h"

namespace tma::fw {

namespace {

#define TMA_OFF(reg) static_cast<uint32_t>(offsetof(tma_regs_t, reg))

// A field into its record word.
void Put(std::array<uint32_t, 16>* w, unsigned word, unsigned shift, uint32_t mask, uint32_t v) {
  (*w)[word] |= (v & mask) << shift;
}
#define TMA_PUT(w, F, v)                                                          \
  Put(w, TMA_CMD_REC_##F##_WORD, TMA_CMD_REC_##F##_SHIFT, TMA_CMD_REC_##F##_MASK, \
      static_cast<uint32_t>(v))
#define TMA_GET(w, F) \
  (((w)[TMA_CPL_REC_##F##_WORD] >> TMA_CPL_REC_##F##_SHIFT) & TMA_CPL_REC_##F##_MASK)

constexpr uint32_t kSmemWindow = 0x100000u;
constexpr uint32_t kSmemCtaStride = 0x10000u;

}  // namespace

std::array<uint32_t, 16> EncodeCommandRecord(const SocCommand& c) {
  std::array<uint32_t, 16> w{};
  TMA_PUT(&w, OP, c.op);
  TMA_PUT(&w, MODE, c.mode);
  TMA_PUT(&w, REDOP, c.redop);
  TMA_PUT(&w, DIM, c.dim);
  TMA_PUT(&w, MULTICAST, c.multicast);
  TMA_PUT(&w, CTA_GROUP, c.cta_group);
  TMA_PUT(&w, SMEM_CTA, c.smem_cta ? 1u : 0u);
  TMA_PUT(&w, MBAR_REMOTE, c.mbar_remote ? 1u : 0u);
  TMA_PUT(&w, MBAR_CTA, c.mbar_cta);
  TMA_PUT(&w, TAG, c.tag);
  TMA_PUT(&w, ISSUER, c.issuer);
  TMA_PUT(&w, DST_CTA, c.dst_cta);
  TMA_PUT(&w, CTA_MASK, c.cta_mask);
  TMA_PUT(&w, DESC_ADDR_LO, c.desc_addr);
  TMA_PUT(&w, DESC_ADDR_HI, c.desc_addr >> 32);
  TMA_PUT(&w, COORD0, c.coords[0]);
  TMA_PUT(&w, COORD1, c.coords[1]);
  TMA_PUT(&w, COORD2, c.coords[2]);
  TMA_PUT(&w, COORD3, c.coords[3]);
  TMA_PUT(&w, COORD4, c.coords[4]);
  TMA_PUT(&w, IM2COL0, static_cast<uint16_t>(c.im2col[0]));
  TMA_PUT(&w, IM2COL1, static_cast<uint16_t>(c.im2col[1]));
  TMA_PUT(&w, IM2COL2, static_cast<uint16_t>(c.im2col[2]));
  TMA_PUT(&w, SMEM_ADDR, c.smem_addr);
  TMA_PUT(&w, MBAR_ADDR, c.mbar_addr);
  return w;
}

SocCompletion DecodeCompletionRecord(const uint32_t w[3]) {
  SocCompletion c;
  c.kind = TMA_GET(w, KIND);
  c.err = TMA_GET(w, ERR);
  c.cta = TMA_GET(w, CTA);
  c.tag = TMA_GET(w, TAG);
  c.mbar_addr = TMA_GET(w, MBAR_ADDR);
  c.bytes = TMA_GET(w, BYTES);
  c.grp_done = TMA_GET(w, GRP_DONE) != 0;
  c.grp_err = TMA_GET(w, GRP_ERR) != 0;
  return c;
}

SocCommand CommitGroupCommand(uint32_t issuer) {
  SocCommand c;
  c.mode = tma::pkg::BulkMode;
  c.coords[2] = 1 << 6;  // commit_group
  c.issuer = issuer;
  c.dst_cta = issuer;
  return c;
}

uint32_t SocDriver::Reg(uint32_t off) {
  uint32_t v = 0;
  l_->Read32(off, &v);
  return v;
}

bool SocDriver::BytesOut(uint64_t link_addr, const uint8_t* src, size_t n) {
  std::vector<uint32_t> w(n / 4);
  for (size_t i = 0; i < w.size(); ++i) {
    w[i] = src[4 * i] | src[4 * i + 1] << 8 | src[4 * i + 2] << 16 |
           static_cast<uint32_t>(src[4 * i + 3]) << 24;
  }
  return l_->WriteBlock(link_addr, w.data(), w.size()) == LinkStatus::kOk;
}

bool SocDriver::BytesIn(uint64_t link_addr, uint8_t* dst, size_t n) {
  std::vector<uint32_t> w(n / 4);
  const bool ok = l_->ReadBlock(link_addr, w.data(), w.size()) == LinkStatus::kOk;
  for (size_t i = 0; i < w.size(); ++i) {
    for (unsigned b = 0; b < 4; ++b) {
      dst[4 * i + b] = static_cast<uint8_t>(w[i] >> (8 * b));
    }
  }
  return ok;
}

bool SocDriver::Probe() {
  return Reg(TMA_OFF(ID)) == TMA_REGS__ID__MAGIC_reset &&
         (Reg(TMA_OFF(VERSION)) & TMA_REGS__VERSION__MAJOR_bm) >> TMA_REGS__VERSION__MAJOR_bp ==
             TMA_REGS__VERSION__MAJOR_reset;
}

bool SocDriver::SoftReset(int max_polls) {
  const uint32_t ctrl = Reg(TMA_OFF(CTRL)) & ~TMA_REGS__CTRL__SOFT_RESET_bm;
  Wr(TMA_OFF(CTRL), ctrl | TMA_REGS__CTRL__SOFT_RESET_bm);
  for (int i = 0; i < max_polls; ++i) {
    if ((Reg(TMA_OFF(STATUS)) & TMA_REGS__STATUS__RESET_BUSY_bm) == 0) {
      // The rings are empty again: head == tail.
      cmdr_tail_ = Reg(TMA_OFF(CMDR_TAIL));
      cplr_head_ = Reg(TMA_OFF(CPLR_HEAD));
      return true;
    }
  }
  return false;
}

void SocDriver::DescInvalidate() {
  const uint32_t ctrl = Reg(TMA_OFF(CTRL));
  Wr(TMA_OFF(CTRL), ctrl | TMA_REGS__CTRL__DESC_INVAL_bm);
}

void SocDriver::SetTarget(unsigned arch, unsigned cluster) {
  const uint32_t ctrl =
      Reg(TMA_OFF(CTRL)) & ~(TMA_REGS__CTRL__ARCH_bm | TMA_REGS__CTRL__CLUSTER_bm);
  Wr(TMA_OFF(CTRL), ctrl | ((arch << TMA_REGS__CTRL__ARCH_bp) & TMA_REGS__CTRL__ARCH_bm) |
                        ((cluster << TMA_REGS__CTRL__CLUSTER_bp) & TMA_REGS__CTRL__CLUSTER_bm));
}

bool SocDriver::SubmitWindow(const SocCommand& c) {
  if (Reg(TMA_OFF(STATUS)) & TMA_REGS__STATUS__WIN_PENDING_bm) {
    return false;
  }
  const std::array<uint32_t, 16> w = EncodeCommandRecord(c);
  for (unsigned i = 0; i <= TMA_CMD_REC_MBAR_ADDR_WORD; ++i) {
    Wr(TMA_OFF(CMD_W0) + 4 * i, w[i]);
  }
  return Wr(TMA_OFF(CMD_DOORBELL), TMA_REGS__CMD_DOORBELL__GO_bm);
}

void SocDriver::SetupCmdRing(uint64_t base, unsigned log2) {
  cmdr_base_ = base;
  cmdr_log2_ = log2;
  Wr(TMA_OFF(CMDR_BASE_LO), static_cast<uint32_t>(base));
  Wr(TMA_OFF(CMDR_BASE_HI), static_cast<uint32_t>(base >> 32));
  Wr(TMA_OFF(CMDR_SIZE), log2);
  cmdr_tail_ = Reg(TMA_OFF(CMDR_TAIL));
  const uint32_t ctrl = Reg(TMA_OFF(CTRL));
  Wr(TMA_OFF(CTRL), ctrl | TMA_REGS__CTRL__ENABLE_bm);
}

uint32_t SocDriver::CmdRingFree() {
  const uint32_t n = 1u << cmdr_log2_, mask2 = 2 * n - 1;
  const uint32_t head = Reg(TMA_OFF(CMDR_HEAD));
  return n - ((cmdr_tail_ - head) & mask2);
}

bool SocDriver::SubmitRing(const std::vector<SocCommand>& cmds) {
  if (cmds.size() > CmdRingFree()) {
    return false;
  }
  const uint32_t n = 1u << cmdr_log2_, mask2 = 2 * n - 1;
  for (const SocCommand& c : cmds) {
    const std::array<uint32_t, 16> w = EncodeCommandRecord(c);
    uint8_t bytes[TMA_CMD_REC_BYTES];
    for (unsigned i = 0; i < 16; ++i) {
      for (unsigned b = 0; b < 4; ++b) {
        bytes[4 * i + b] = static_cast<uint8_t>(w[i] >> (8 * b));
      }
    }
    BytesOut(gmem_ + cmdr_base_ + TMA_CMD_REC_BYTES * (cmdr_tail_ & (n - 1)), bytes, sizeof(bytes));
    cmdr_tail_ = (cmdr_tail_ + 1) & mask2;
  }
  return Wr(TMA_OFF(CMDR_TAIL), cmdr_tail_);
}

size_t SocDriver::PopFifo(std::vector<SocCompletion>* out, size_t max) {
  size_t got = 0;
  while (got < max && !(Reg(TMA_OFF(CPLF_STATUS)) & TMA_REGS__CPLF_STATUS__EMPTY_bm)) {
    const uint32_t w[3] = {Reg(TMA_OFF(CPLF_W0)), Reg(TMA_OFF(CPLF_W1)), Reg(TMA_OFF(CPLF_W2))};
    out->push_back(DecodeCompletionRecord(w));
    Wr(TMA_OFF(CPLF_POP), TMA_REGS__CPLF_POP__POP_bm);
    ++got;
  }
  return got;
}

void SocDriver::SetupCplRing(uint64_t base, unsigned log2) {
  cplr_base_ = base;
  cplr_log2_ = log2;
  // Zeroed records carry lap 0: none looks written on the first pass (lap 1).
  const std::vector<uint8_t> zero(size_t{TMA_CPL_REC_BYTES} << log2, 0);
  BytesOut(gmem_ + base, zero.data(), zero.size());
  Wr(TMA_OFF(CPLR_BASE_LO), static_cast<uint32_t>(base));
  Wr(TMA_OFF(CPLR_BASE_HI), static_cast<uint32_t>(base >> 32));
  Wr(TMA_OFF(CPLR_SIZE), log2);
  cplr_head_ = Reg(TMA_OFF(CPLR_HEAD));
  const uint32_t ctrl = Reg(TMA_OFF(CTRL));
  Wr(TMA_OFF(CTRL), ctrl | TMA_REGS__CTRL__CPL_RING_EN_bm);
}

void SocDriver::UseCplFifo() {
  const uint32_t ctrl = Reg(TMA_OFF(CTRL));
  Wr(TMA_OFF(CTRL), ctrl & ~TMA_REGS__CTRL__CPL_RING_EN_bm);
}

bool SocDriver::DrainCplRing(std::vector<SocCompletion>* out) {
  const uint32_t n = 1u << cplr_log2_, mask2 = 2 * n - 1;
  const uint32_t tail = Reg(TMA_OFF(CPLR_TAIL));
  bool ok = true;
  while (cplr_head_ != tail) {
    uint8_t b[TMA_CPL_REC_BYTES];
    BytesIn(gmem_ + cplr_base_ + TMA_CPL_REC_BYTES * (cplr_head_ & (n - 1)), b, sizeof(b));
    uint32_t w[4];
    for (unsigned i = 0; i < 4; ++i) {
      w[i] = b[4 * i] | b[4 * i + 1] << 8 | b[4 * i + 2] << 16 |
             static_cast<uint32_t>(b[4 * i + 3]) << 24;
    }
    // First pass over the ring: lap 1; then alternating (index bit log2).
    const uint32_t want_lap = ((cplr_head_ >> cplr_log2_) & 1) ^ 1;
    ok &= ((w[TMA_CPL_REC_LAP_WORD] >> TMA_CPL_REC_LAP_SHIFT) & TMA_CPL_REC_LAP_MASK) == want_lap;
    out->push_back(DecodeCompletionRecord(w));
    cplr_head_ = (cplr_head_ + 1) & mask2;
  }
  Wr(TMA_OFF(CPLR_HEAD), cplr_head_);
  return ok;
}

void SocDriver::MbarOperate(unsigned cta, unsigned slot, MbarOp op, uint32_t arg, uint32_t addr) {
  Wr(TMA_OFF(MBAR_SEL), cta << TMA_REGS__MBAR_SEL__CTA_bp | slot << TMA_REGS__MBAR_SEL__SLOT_bp);
  Wr(TMA_OFF(MBAR_ADDR), addr);
  Wr(TMA_OFF(MBAR_ARG), arg);
  Wr(TMA_OFF(MBAR_OP), op);
}

SocDriver::MbarState SocDriver::MbarRead(unsigned cta, unsigned slot) {
  Wr(TMA_OFF(MBAR_SEL), cta << TMA_REGS__MBAR_SEL__CTA_bp | slot << TMA_REGS__MBAR_SEL__SLOT_bp);
  const uint32_t s = Reg(TMA_OFF(MBAR_STATE));
  const uint32_t tx = Reg(TMA_OFF(MBAR_TX)) & TMA_REGS__MBAR_TX__TX_bm;
  MbarState m;
  m.valid = s & TMA_REGS__MBAR_STATE__VALID_bm;
  m.phase = s & TMA_REGS__MBAR_STATE__PHASE_bm;
  m.stuck = s & TMA_REGS__MBAR_STATE__STUCK_bm;
  m.pending = (s & TMA_REGS__MBAR_STATE__PENDING_bm) >> TMA_REGS__MBAR_STATE__PENDING_bp;
  // tx-count: two's complement of TX_bw bits.
  m.tx = static_cast<int32_t>(tx << (32 - TMA_REGS__MBAR_TX__TX_bw)) >>
         (32 - TMA_REGS__MBAR_TX__TX_bw);
  return m;
}

bool SocDriver::SmemWrite(unsigned cta, uint32_t addr, const uint8_t* src, size_t n) {
  return BytesOut(kSmemWindow + kSmemCtaStride * cta + addr, src, n);
}

bool SocDriver::SmemRead(unsigned cta, uint32_t addr, uint8_t* dst, size_t n) {
  return BytesIn(kSmemWindow + kSmemCtaStride * cta + addr, dst, n);
}

}  // namespace tma::fw
