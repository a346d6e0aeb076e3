// SPDX-License-Identifier: Apache-2.0
//
// Golden-case replay on the ULX3S board top over a link (board_case_engine.h).
#include "boards/ulx3s/host/board_case_engine.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <optional>

#include "fw/src/soc/tma_soc_driver.h"
#include "sim/cmd_port.h"
#include "sim/soc/soc_command.h"
#include "tma/descriptor.h"
#include "tma/golden.h"

#include "fw/include/tma/autogen/tma_regs.h"

namespace tma::board {

namespace m = tma::model;
namespace fw = tma::fw;

namespace {

#define TMA_OFF(reg) static_cast<uint32_t>(offsetof(tma_regs_t, reg))

// Board registers (boards/ulx3s/rtl/board_csr.v).
constexpr uint32_t kCsrId = 0x00, kCsrGmemBytes = 0x04, kCsrBaseLo = 0x08, kCsrBaseHi = 0x0c,
                   kCsrLimit = 0x10, kCsrStatus = 0x14, kCsrDataBytes = 0x20;
constexpr uint32_t kBoardId = 0x4f544d42;
constexpr uint32_t kStatusLinkErr = 2, kStatusOverflow = 4;
// RAM page 0: the tensor map, the command ring (4 x 64 bytes), the completion ring (32 x 16).
constexpr uint64_t kPage = 4096;
constexpr uint64_t kDescOff = 0x000, kCmdRingOff = 0x100, kCplRingOff = 0x200;
constexpr unsigned kCmdRingLog2 = 2, kCplRingLog2 = 5;
constexpr uint64_t kSmemWindow = 0x100000, kSmemStride = 0x10000;
constexpr uint8_t kTag = 0x5a;
constexpr uint32_t kIrqMask = TMA_REGS__INTR_STATE__CPL_bm | TMA_REGS__INTR_STATE__ERR_bm;

// Little-endian words of bytes (the tail zero-padded).
std::vector<uint32_t> Words(const std::vector<uint8_t>& b) {
  std::vector<uint32_t> w((b.size() + 3) / 4, 0);
  std::memcpy(w.data(), b.data(), b.size());
  return w;
}

}  // namespace

BoardCaseEngine::BoardCaseEngine(fw::Link* link, BoardBuild build)
    : l_(link),
      b_(build),
      rtl_(build.load90 ? sim::RtlBuild::Load90(16) : sim::RtlBuild::Default(16)),
      ram_(build.gmem_bytes / 4, 0),
      ram_known_(build.gmem_bytes / 4, false),
      smem_(build.num_ctas, std::vector<uint32_t>(build.smem_bytes / 4, 0)),
      smem_known_(build.num_ctas, std::vector<bool>(build.smem_bytes / 4, false)) {
  rtl_.num_ctas = build.num_ctas;
}

bool BoardCaseEngine::Csr(uint32_t off, uint32_t v) {
  return l_->Write32(kCsrBase + off, v) == fw::LinkStatus::kOk;
}

bool BoardCaseEngine::Probe(std::string* error) {
  uint32_t id = 0, gmem = 0, db = 0;
  const bool ok = l_->Read32(kCsrBase + kCsrId, &id) == fw::LinkStatus::kOk &&
                  l_->Read32(kCsrBase + kCsrGmemBytes, &gmem) == fw::LinkStatus::kOk &&
                  l_->Read32(kCsrBase + kCsrDataBytes, &db) == fw::LinkStatus::kOk;
  if (!ok) {
    *error = "no answer from the board (link failure)";
    return false;
  }
  // The RAM size is the board's (GmemBytes of the build): at least the map page and one more.
  if (id != kBoardId || gmem < 2 * kPage || gmem % kPage != 0 || db != 16) {
    char buf[160];
    std::snprintf(buf, sizeof(buf),
                  "board ID 0x%08x, GMEM_BYTES %u, DATA_BYTES %u: want 0x%08x, a multiple of "
                  "%u from %u, 16",
                  id, gmem, db, kBoardId, static_cast<unsigned>(kPage),
                  static_cast<unsigned>(2 * kPage));
    *error = buf;
    return false;
  }
  if (gmem != b_.gmem_bytes) {
    b_.gmem_bytes = gmem;
    ram_.assign(gmem / 4, 0);
    ram_known_.assign(gmem / 4, false);
  }
  fw::SocDriver drv(l_, 0);
  if (!drv.Probe()) {
    *error = "the SoC top's ID / VERSION registers do not match this firmware";
    return false;
  }
  return true;
}

bool BoardCaseEngine::Upload(uint64_t at, const std::vector<uint32_t>& want, size_t first,
                             std::vector<uint32_t>* shadow, std::vector<bool>* known) {
  size_t i = 0;
  while (i < want.size()) {
    const size_t k = first + i;
    if ((*known)[k] && (*shadow)[k] == want[i]) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < want.size() && !((*known)[first + j] && (*shadow)[first + j] == want[j])) {
      (*shadow)[first + j] = want[j];
      (*known)[first + j] = true;
      ++j;
    }
    if (l_->WriteBlock(at + 4 * i, &want[i], j - i) != fw::LinkStatus::kOk) {
      return false;
    }
    i = j;
  }
  return true;
}

m::CaseOutcome BoardCaseEngine::Run(const m::GoldenCase& c, m::GlobalMemoryIf& global,
                                    m::SharedMemoryIf& smem) {
  m::CaseOutcome out;
  note_.clear();
  auto skip = [&](const std::string& why) {
    out.supported = false;
    out.skip_reason = why;
    return out;
  };
  auto note = [&](const std::string& s) {
    if (note_.empty()) {
      note_ = s;
    }
  };
  if (const std::string why = sim::RtlSkipReason(c, rtl_); !why.empty()) {
    return skip(why);
  }
  // A build without the write direction (--build load90) refuses stores, reductions and bulk
  // writes by construction; the replay compares results, so such a case is outside the build.
  if (!rtl_.store_path && !sim::RtlHostEncoderRefusal(c) &&
      sim::RtlBuildRefusal(c, rtl_, m::ParseArch(c.arch).value_or(m::Arch::kSm90))) {
    return skip("outside the board's build (StorePath 0: no stores, reductions or bulk writes)");
  }
  const uint64_t base = m::CaseGlobalBase(c);
  const uint64_t ram_off = kPage + base % kPage;  // the buffer's first RAM byte
  const uint32_t win_bytes = c.smem ? c.smem->bytes : 0;
  const int ctas = c.NumCtas();
  if (win_bytes > b_.smem_bytes || ctas > b_.num_ctas || ram_off + c.global.bytes > b_.gmem_bytes) {
    const std::string why = "exceeds the board's memories (" + std::to_string(ctas) + " CTAs x " +
                            std::to_string(win_bytes) + " bytes, " +
                            std::to_string(c.global.bytes) + " global bytes; the board has " +
                            std::to_string(b_.num_ctas) + " x " + std::to_string(b_.smem_bytes) +
                            ", " + std::to_string(b_.gmem_bytes - ram_off) + ")";
    size_skips_.push_back(c.id + ": " + why);
    return skip(why);
  }
  // The command: a bulk case's (no tensor map; its global operands lie in the buffer), else
  // the tensor command with the case's map at RAM offset kDescOff. A map with no 128-byte
  // encoding that the host's encoder refuses never reaches the engine: the host's verdict.
  sim::EngineCommand ec;
  uint8_t desc[m::kDescriptorBytes] = {};
  if (c.bulk) {
    ec = sim::RtlBulkCommand(c, kTag);
  } else {
    if (std::optional<m::Status> host = sim::RtlHostEncoderRefusal(c)) {
      out.status = *host;
      return out;
    }
    if (const std::string why = sim::RtlCaseDescriptor(c, desc); !why.empty()) {
      return skip(why);
    }
    ec.instr = m::CaseInstr(c);
    ec.tag = kTag;
  }
  const m::TensorInstr& in = ec.instr;

  // The window: engine address gbase is RAM byte 0, the buffer ends the window.
  const uint64_t gbase = base - ram_off;
  const uint64_t limit = ram_off + c.global.bytes;
  bool ok = Csr(kCsrBaseLo, static_cast<uint32_t>(gbase)) &&
            Csr(kCsrBaseHi, static_cast<uint32_t>(gbase >> 32)) &&
            Csr(kCsrLimit, static_cast<uint32_t>(limit)) && Csr(kCsrStatus, 7);
  fw::SocDriver drv(l_, kGmemBase - gbase);
  const bool use_ring = runs_++ % 2 == 0;
  if (!drv.SoftReset()) {
    note("soft reset did not finish");
  }
  drv.SetTarget(static_cast<unsigned>(m::ParseArch(c.arch).value_or(m::Arch::kSm90)),
                static_cast<unsigned>(ctas & 15));
  // Global memory: the buffer (word-aligned around it; the pad bytes are the window's).
  {
    const uint64_t w0 = ram_off / 4 * 4;
    std::vector<uint8_t> img(ram_off + c.global.bytes - w0, 0);
    global.Read(base, img.data() + (ram_off - w0), c.global.bytes);
    ok &= Upload(kGmemBase + w0, Words(img), w0 / 4, &ram_, &ram_known_);
    if (!c.bulk) {
      std::vector<uint8_t> d(desc, desc + m::kDescriptorBytes);
      ok &= l_->WriteBlock(kGmemBase + kDescOff, Words(d).data(), m::kDescriptorBytes / 4) ==
            fw::LinkStatus::kOk;
    }
  }
  for (int cta = 0; cta < ctas && win_bytes > 0; ++cta) {
    std::vector<uint8_t> want(win_bytes);
    smem.Read(cta, 0, want.data(), win_bytes);
    ok &= Upload(kSocBase + kSmemWindow + kSmemStride * cta, Words(want), 0, &smem_[cta],
                 &smem_known_[cta]);
  }
  // The map changed in global memory: the proxy fence (the descriptor cache forgets it).
  drv.DescInvalidate();
  // The CTAs whose barriers the command completes: a load's, a shared::cta -> shared::cluster
  // copy's or reduction's destination (one complete-tx there; it joins no bulk group).
  const bool s2s = c.bulk && c.bulk->dir == m::BulkDir::kSharedCtaToSharedCluster;
  const std::vector<int> dst =
      c.op == m::Op::kLoad || s2s ? m::DestinationCtas(c) : std::vector<int>{};
  for (int d : dst) {
    drv.MbarOperate(d, 0, fw::SocDriver::kMbarInit, 1, in.mbar_addr);
  }
  drv.Wr(TMA_OFF(INTR_STATE), ~0u);
  drv.Wr(TMA_OFF(INTR_ENABLE), kIrqMask);
  if (!c.bulk) {
    ec.desc_addr = gbase + kDescOff;
  }
  const fw::SocCommand cmd = sim::ToSocCommand(sim::CmdCodec::Encode(ec));
  if (use_ring) {
    drv.SetupCplRing(gbase + kCplRingOff, kCplRingLog2);
    drv.SetupCmdRing(gbase + kCmdRingOff, kCmdRingLog2);
    if (!drv.SubmitRing({cmd})) {
      note("command ring full after a soft reset");
    }
  } else {
    drv.UseCplFifo();
    if (!drv.SubmitWindow(cmd)) {
      note("register window busy after a soft reset");
    }
  }

  // Completions: polled (INTR_STATE), as the UART has no interrupt line.
  std::vector<fw::SocCompletion> cpls;
  auto collect = [&] {
    drv.Wr(TMA_OFF(INTR_STATE), kIrqMask);
    if (use_ring) {
      if (!drv.DrainCplRing(&cpls)) {
        note("completion ring record with the wrong lap bit");
      }
    } else {
      drv.PopFifo(&cpls);
    }
  };
  auto finished = [&] {
    size_t tx = 0;
    for (const fw::SocCompletion& k : cpls) {
      if (k.kind != pkg::CplTx) {
        return true;
      }
      ++tx;
    }
    return !dst.empty() && tx >= dst.size();
  };
  uint64_t polls = 0;
  while (!finished() && polls++ < max_polls_) {
    if (drv.Reg(TMA_OFF(INTR_STATE)) & kIrqMask) {
      collect();
    }
  }
  const bool hung = !finished();
  collect();  // stray completions show up here

  std::vector<uint32_t> bytes_to(b_.num_ctas, 0);
  int errors = 0;
  for (const fw::SocCompletion& k : cpls) {
    if (k.tag != kTag) {
      note("completion with tag " + std::to_string(k.tag) + " (sent 0x5a)");
    }
    if (k.kind == pkg::CplTx) {
      out.complete_tx.push_back(m::CompleteTx{static_cast<int>(k.cta), k.mbar_addr, k.bytes});
      if (k.cta < static_cast<uint32_t>(b_.num_ctas)) {
        bytes_to[k.cta] += k.bytes;
      }
    } else if (k.kind == pkg::CplError) {
      ++errors;
      out.status = m::Status::Error(static_cast<m::ErrorClass>(k.err), "board",
                                    "error completion from the engine");
    }
  }
  if (errors > 1) {
    note("more than one error completion");
  }
  if (errors > 0 && !out.complete_tx.empty()) {
    note("error completion and complete-tx for one command");
  }
  if (errors == 0) {
    tma::sim::CheckMbarPhases(drv, dst, bytes_to, in.mbar_addr, note);
  }
  // Shared memory back, and the buffer when the engine writes it.
  for (int cta = 0; cta < ctas && win_bytes > 0; ++cta) {
    std::vector<uint8_t> got(win_bytes);
    ok &= drv.SmemRead(static_cast<unsigned>(cta), 0, got.data(), win_bytes / 4 * 4);
    smem.Write(cta, 0, got.data(), win_bytes);
    const std::vector<uint32_t> w = Words(got);
    std::copy(w.begin(), w.end(), smem_[cta].begin());
  }
  if (c.op == m::Op::kStore || c.op == m::Op::kReduce) {
    const uint64_t w0 = ram_off / 4 * 4;
    std::vector<uint32_t> w((ram_off + c.global.bytes - w0 + 3) / 4);
    ok &= l_->ReadBlock(kGmemBase + w0, w.data(), w.size()) == fw::LinkStatus::kOk;
    std::copy(w.begin(), w.end(), ram_.begin() + static_cast<ptrdiff_t>(w0 / 4));
    std::vector<uint8_t> bytes(w.size() * 4);
    std::memcpy(bytes.data(), w.data(), bytes.size());
    global.Write(base, bytes.data() + (ram_off - w0), c.global.bytes);
  }
  uint32_t status = 0;
  ok &= l_->Read32(kCsrBase + kCsrStatus, &status) == fw::LinkStatus::kOk;
  if (!ok) {
    note("the link failed");
  }
  if (status & kStatusLinkErr) {
    note("a host access was answered SLVERR / DECERR (board STATUS)");
  }
  if (status & kStatusOverflow) {
    note("the board's UART receive FIFO overflowed (board STATUS)");
  }
  if (hung) {
    note("hang: no completion after " + std::to_string(max_polls_) + " polls");
  }
  return out;
}

}  // namespace tma::board
