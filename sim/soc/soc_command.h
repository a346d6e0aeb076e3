// SPDX-License-Identifier: Apache-2.0
//
// ToSocCommand: the SoC command record's fields (fw::SocCommand, written to the command ring
// or queue by the register-level driver) from the engine's command (tma::pkg::cmd_t, as
// sim::CmdCodec::Encode makes it). The SoC replay (soc_case_engine.cc) and the board replay
// (boards/ulx3s/host) hand their commands over through it, and check the destination
// mbarriers after a command through CheckMbarPhases.
#ifndef TMA_SIM_SOC_SOC_COMMAND_H_
#define TMA_SIM_SOC_SOC_COMMAND_H_

#include <cstdint>
#include <string>
#include <vector>

#include "fw/src/soc/tma_soc_driver.h"

#include "sim/autogen/tma_structs.h"

namespace tma::sim {

inline fw::SocCommand ToSocCommand(const pkg::cmd_t& k) {
  fw::SocCommand c;
  c.op = k.op;
  c.mode = k.mode;
  c.redop = k.redop;
  c.dim = k.dim;
  c.multicast = k.multicast;
  c.cta_group = k.cta_group;
  c.tag = k.tag;
  c.issuer = k.issuer;
  c.dst_cta = k.dst_cta;
  c.cta_mask = k.cta_mask;
  c.smem_cta = k.smem_cta;
  c.mbar_remote = k.mbar_remote;
  c.mbar_cta = k.mbar_cta;
  c.desc_addr = k.desc_addr;
  for (int i = 0; i < 5; ++i) {
    c.coords[i] = static_cast<int32_t>(k.coords.v[i]);
  }
  for (int i = 0; i < 3; ++i) {
    c.im2col[i] = static_cast<int16_t>(k.im2col.v[i]);
  }
  c.smem_addr = k.smem_addr;
  c.mbar_addr = k.mbar_addr;
  return c;
}

// After a command without an error completion: each destination CTA's mbarrier (slot 0) must
// hold exactly the bytes the completions reported as a negative tx-count in an open phase, and
// an arrive.expect_tx of those bytes must then complete the phase. Each difference goes to
// `note`.
template <typename Note>
void CheckMbarPhases(fw::SocDriver& drv, const std::vector<int>& dst,
                     const std::vector<uint32_t>& bytes_to, uint32_t mbar_addr, Note&& note) {
  for (int d : dst) {
    const auto cta = static_cast<unsigned>(d);
    const fw::SocDriver::MbarState s0 = drv.MbarRead(cta, 0);
    if (!s0.valid || s0.phase || s0.tx != -static_cast<int32_t>(bytes_to[cta])) {
      note("mbarrier of CTA " + std::to_string(d) + ": tx " + std::to_string(s0.tx) +
           ", the completions reported " + std::to_string(bytes_to[cta]) + " bytes");
      continue;
    }
    drv.MbarOperate(cta, 0, fw::SocDriver::kMbarArriveExpectTx, bytes_to[cta], mbar_addr);
    const fw::SocDriver::MbarState s1 = drv.MbarRead(cta, 0);
    if (!s1.phase || s1.tx != 0 || s1.pending != 1) {
      note("mbarrier of CTA " + std::to_string(d) + ": the phase did not complete");
    }
  }
}

}  // namespace tma::sim

#endif  // TMA_SIM_SOC_SOC_COMMAND_H_
