// SPDX-License-Identifier: Apache-2.0
//
// Golden-case replay through the Verilated tma_soc_top (soc_case_engine.h).
#include "sim/soc/soc_case_engine.h"

#include <cstring>
#include <optional>

#include "fw/src/soc/tma_soc_driver.h"
#include "sim/cmd_port.h"
#include "sim/soc/soc_command.h"
#include "sim/soc/soc_harness.h"
#include "tma/descriptor.h"
#include "tma/encoder.h"
#include "tma/golden.h"

#include "fw/include/tma/autogen/tma_regs.h"

namespace tma::sim {

namespace m = tma::model;
namespace fw = tma::fw;

namespace {
// Global-memory placement of the descriptor (outside the case's buffer, as tma-rtl does) and of
// the rings (host pages far above any case buffer).
constexpr uint64_t kDescAddr[] = {0x7ff000000000ull, 0x000000100000ull};
constexpr uint64_t kCmdRing = 0x7fe000000000ull;
constexpr uint64_t kCplRing = 0x7fe000010000ull;
constexpr unsigned kCmdRingLog2 = 2;
constexpr unsigned kCplRingLog2 = 5;
constexpr uint8_t kTag = 0x5a;
constexpr uint32_t kIrqMask =
    TMA_REGS__INTR_STATE__CPL_bm | TMA_REGS__INTR_STATE__ERR_bm | TMA_REGS__INTR_STATE__GRP_bm;

#define TMA_OFF(reg) static_cast<uint32_t>(offsetof(tma_regs_t, reg))

}  // namespace

SocCaseEngine::SocCaseEngine()
    : h_(std::make_unique<SocHarness>()),
      build_(RtlBuild::Default(kSocDataBytes)),
      ptx_build_(RtlBuild::PtxReadings(kSocDataBytes)),
      shadow_(kSocNumCtas, std::vector<uint32_t>(kSocSmemBytes / 4, 0)),
      known_(kSocNumCtas, std::vector<bool>(kSocSmemBytes / 4, false)) {}
SocCaseEngine::~SocCaseEngine() = default;

uint64_t SocCaseEngine::cycles() const {
  return h_->cycles() + ptx_cycles();
}

uint64_t SocCaseEngine::ptx_cycles() const {
  return ptx_h_ ? ptx_h_->cycles() : 0;
}

bool SocCaseEngine::UploadWindow(SocHarness& h, int cta, const std::vector<uint8_t>& want) {
  bool ok = true;
  for (size_t i = 0; i + 4 <= want.size(); i += 4) {
    uint32_t v;
    std::memcpy(&v, &want[i], 4);
    if (!known_[cta][i / 4] || shadow_[cta][i / 4] != v) {
      ok &= h.AxilWrite(0x100000u + 0x10000u * cta + static_cast<uint32_t>(i), v);
      shadow_[cta][i / 4] = v;
      known_[cta][i / 4] = true;
    }
  }
  return ok;
}

bool SocCaseEngine::ReadWindow(SocHarness& h, int cta, uint32_t bytes, std::vector<uint8_t>* got) {
  got->assign(bytes, 0);
  bool ok = true;
  for (uint32_t i = 0; i + 4 <= bytes; i += 4) {
    uint32_t v = 0;
    ok &= h.AxilRead(0x100000u + 0x10000u * cta + i, &v);
    std::memcpy(&(*got)[i], &v, 4);
    shadow_[cta][i / 4] = v;
    known_[cta][i / 4] = true;
  }
  return ok;
}

m::CaseOutcome SocCaseEngine::Run(const m::GoldenCase& c, m::GlobalMemoryIf& global,
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
  // The build that runs the case: the default one, else the PTX-readings one when the case
  // asks for a reading the default one is not built with.
  SocHarness* hp = h_.get();
  if (std::string why = RtlSkipReason(c, build_); !why.empty()) {
    if (!RtlSkipReason(c, ptx_build_).empty()) {
      return skip(why);
    }
    if (!ptx_h_) {
      ptx_h_ = std::make_unique<SocHarness>(SocVariant::kPtxReadings);
    }
    hp = ptx_h_.get();
  }
  const uint32_t win_bytes = c.smem ? c.smem->bytes : 0;
  if (win_bytes > kSocSmemBytes || c.NumCtas() > kSocNumCtas) {
    const std::string why = "exceeds the shell's memories (" + std::to_string(c.NumCtas()) +
                            " CTAs x " + std::to_string(win_bytes) + " bytes; the sim build has " +
                            std::to_string(kSocNumCtas) + " x " + std::to_string(kSocSmemBytes) +
                            ")";
    size_skips_.push_back(c.id + ": " + why);
    return skip(why);
  }
  // The command: a bulk case's (no tensor map), else the tensor command with the descriptor
  // bytes tma-rtl uses at an address of their own.
  EngineCommand ec;
  uint8_t desc[m::kDescriptorBytes];
  uint64_t desc_addr = 0;
  if (c.bulk) {
    ec = RtlBulkCommand(c, kTag);
  } else {
    // A map with no 128-byte encoding that the host's encoder (the firmware's, shared with the
    // model) refuses never reaches the engine: the host's verdict, as on silicon.
    if (std::optional<m::Status> host = RtlHostEncoderRefusal(c)) {
      out.status = *host;
      return out;
    }
    if (const std::string why = RtlCaseDescriptor(c, desc); !why.empty()) {
      return skip(why);
    }
    desc_addr = kDescAddr[0];
    uint8_t probe = 0;
    for (uint64_t a : kDescAddr) {
      if (!global.Read(a, &probe, 1) && !global.Read(a + m::kDescriptorBytes - 1, &probe, 1)) {
        desc_addr = a;
        break;
      }
    }
    ec.instr = m::CaseInstr(c);
    ec.desc_addr = desc_addr;
    ec.tag = kTag;
  }
  const m::TensorInstr& in = ec.instr;
  const int ctas = c.NumCtas();
  // A store or reduction to global joins its issuer's bulk async-group: commit_group follows
  // it, and the group's read-done and done completions (CplGroup, sequence 0 after the soft
  // reset) are waited for too. A shared::cta -> shared::cluster copy or reduction is an
  // mbarrier operation instead: one complete-tx on its destination CTA.
  const bool s2s = c.bulk && c.bulk->dir == m::BulkDir::kSharedCtaToSharedCluster;
  const bool grouped = (c.op == m::Op::kStore || c.op == m::Op::kReduce) && !s2s;

  SocHarness& h = *hp;
  if (last_h_ != hp) {
    // The other build's memories: the host knows none of their words.
    for (std::vector<bool>& k : known_) {
      k.assign(k.size(), false);
    }
    last_h_ = hp;
  }
  fw::SocDriver drv(&h, SocHarness::kGmemLinkBase);
  const bool use_ring = runs_++ % 2 == 0;
  h.ClearPages();
  h.set_backing(&global);
  h.TakeAssertFailure();
  if (!drv.SoftReset()) {
    note("soft reset did not finish");
  }
  // The case's arch and cluster size (CTRL.arch, CTRL.cluster: 16 CTAs is 0, the whole shell).
  drv.SetTarget(static_cast<unsigned>(m::ParseArch(c.arch).value_or(m::Arch::kSm90)),
                static_cast<unsigned>(ctas & 15));
  // Shared memory as the case starts it.
  for (int cta = 0; cta < ctas && win_bytes > 0; ++cta) {
    std::vector<uint8_t> want(win_bytes);
    smem.Read(cta, 0, want.data(), win_bytes);
    if (!UploadWindow(h, cta, want)) {
      note("SLVERR writing the shared-memory window of CTA " + std::to_string(cta));
    }
  }
  if (!c.bulk) {
    h.MemWrite(desc_addr, desc, m::kDescriptorBytes);
  }
  // Barriers: slot 0 of each destination CTA, one arrival, bound to the command's mbar.
  // (the CTAs whose shared memory the command writes: a load's, a shared::cluster copy's or
  // reduction's destination)
  const std::vector<int> dst = m::DestinationCtas(c);
  for (int d : dst) {
    drv.MbarOperate(d, 0, fw::SocDriver::kMbarInit, 1, in.mbar_addr);
  }
  drv.Wr(TMA_OFF(INTR_STATE), ~0u);
  drv.Wr(TMA_OFF(INTR_ENABLE), kIrqMask);
  const fw::SocCommand cmd = ToSocCommand(CmdCodec::Encode(ec));
  std::vector<fw::SocCommand> cmds = {cmd};
  if (grouped) {
    cmds.push_back(fw::CommitGroupCommand(cmd.issuer));
  }
  if (use_ring) {
    drv.SetupCplRing(kCplRing, kCplRingLog2);
    drv.SetupCmdRing(kCmdRing, kCmdRingLog2);
    if (!drv.SubmitRing(cmds)) {
      note("command ring full after a soft reset");
    }
  } else {
    drv.UseCplFifo();
    for (size_t i = 0; i < cmds.size(); ++i) {
      // The window holds one command: the next waits until the engine took the last.
      const uint64_t t0 = h.cycles();
      bool sent = drv.SubmitWindow(cmds[i]);
      while (!sent && h.cycles() - t0 < limit_ && !h.hung()) {
        h.Step(16);
        sent = drv.SubmitWindow(cmds[i]);
      }
      if (!sent) {
        note("register window still busy after " + std::to_string(limit_) + " cycles");
      }
    }
  }

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
    bool ended = false, group_done = false;
    for (const fw::SocCompletion& k : cpls) {
      if (k.kind == pkg::CplGroup) {
        group_done |= k.grp_done;
      } else if (k.kind != pkg::CplTx) {
        ended = true;
      } else {
        ++tx;
      }
    }
    ended |= !dst.empty() && tx >= dst.size();
    return ended && (!grouped || group_done);
  };
  const uint64_t start = h.cycles();
  while (!finished() && h.cycles() - start < limit_ && !h.hung()) {
    if (h.WaitIrq(4096)) {
      collect();
    }
  }
  const bool hung = !finished();
  h.Step(64);
  collect();  // stray completions show up here

  // Completions, and the barriers they fed.
  std::vector<uint32_t> bytes_to(kSocNumCtas, 0);
  int errors = 0;
  std::vector<const fw::SocCompletion*> groups;
  for (const fw::SocCompletion& k : cpls) {
    if (k.kind == pkg::CplGroup) {
      groups.push_back(&k);
      continue;
    }
    if (k.tag != kTag) {
      note("completion with tag " + std::to_string(k.tag) + " (sent 0x5a)");
    }
    if (k.kind == pkg::CplTx) {
      out.complete_tx.push_back(m::CompleteTx{static_cast<int>(k.cta), k.mbar_addr, k.bytes});
      if (k.cta < kSocNumCtas) {
        bytes_to[k.cta] += k.bytes;
      }
    } else if (k.kind == pkg::CplError) {
      ++errors;
      out.status = m::Status::Error(static_cast<m::ErrorClass>(k.err), "soc",
                                    "error completion from the engine");
      const uint32_t es = drv.Reg(TMA_OFF(ERR_STATUS));
      if (!(es & TMA_REGS__ERR_STATUS__VALID_bm) ||
          (es & TMA_REGS__ERR_STATUS__ERR_CLASS_bm) >> TMA_REGS__ERR_STATUS__ERR_CLASS_bp !=
              k.err) {
        note("ERR_STATUS does not hold the error completion's class");
      }
    }
  }
  if (errors > 1) {
    note("more than one error completion");
  }
  if (errors > 0 && !out.complete_tx.empty()) {
    note("error completion and complete-tx for one command");
  }
  // The group: read-done, then done, of the issuer's group 0; a group with no failed
  // operation reports no error.
  if (grouped) {
    const bool order_ok = groups.size() == 2 && !groups[0]->grp_done && groups[1]->grp_done;
    bool fields_ok = true;
    for (const fw::SocCompletion* g : groups) {
      fields_ok &= g->cta == cmd.issuer && g->tag == 0 && (errors > 0 || !g->grp_err);
    }
    if (!order_ok || !fields_ok) {
      note("bulk-group completions: " + std::to_string(groups.size()) +
           " records, expected read-done then done of group 0 of CTA " +
           std::to_string(cmd.issuer) + (fields_ok ? "" : " (issuer, sequence or error flag)"));
    }
  } else if (!groups.empty()) {
    note("bulk-group completion without a commit_group");
  }
  if (errors == 0) {
    tma::sim::CheckMbarPhases(drv, dst, bytes_to, in.mbar_addr, note);
  }
  // Shared memory back.
  for (int cta = 0; cta < ctas && win_bytes > 0; ++cta) {
    std::vector<uint8_t> got;
    if (!ReadWindow(h, cta, win_bytes, &got)) {
      note("SLVERR reading the shared-memory window of CTA " + std::to_string(cta));
    }
    smem.Write(cta, 0, got.data(), win_bytes);
  }
  if (hung) {
    note("hang: no completion after " + std::to_string(limit_) + " cycles");
  }
  if (h.hung()) {
    note("hang: an AXI4-Lite access got no response");
  }
  if (h.TakeAssertFailure()) {
    note("an RTL assertion failed (see the log above)");
  }
  return out;
}

}  // namespace tma::sim
