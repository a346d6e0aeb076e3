// SPDX-License-Identifier: Apache-2.0
//
// The command port of tma_sim_top.
//   CmdCodec   the ONE place that maps a command (tma::model::TensorInstr, descriptor address,
//              tag) to tma_pkg::cmd_t (the port's fields, TopPins::cmd) and back: every harness,
//              the bench's monitor and the model-as-DUT use it. The cmd_t's bit layout is the
//              generated codec's (sim/autogen/tma_structs.h).
//   CmdPort    drives commands from a source: random valid (valid_pct), a command held until
//              cmd_ready, then the next one (back to back); desc_inval pulses with a command
//              that asks for it. `accepted` is told of each command the engine took.
#ifndef TMA_SIM_CMD_PORT_H_
#define TMA_SIM_CMD_PORT_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>

#include "sim/common.h"
#include "tma/types.h"

namespace tma::sim {

// A non-tensor bulk command (cmd_t.mode == BulkMode; docs/interfaces.md "Bulk commands").
// The EngineCommand's instr gives its op, redop, mbar_addr, multicast / cta_mask, issuer and
// dst_cta; desc_addr is unused.
struct BulkCommand {
  bool to_cluster = false;  // the destination is .shared::cluster (a load: else .shared::cta;
                            // a store / reduction: else .global)
  uint64_t gaddr = 0;       // global source (load, prefetch) or destination (store, reduce;
                            // shared::cluster: the offset in CTA dst_cta's window)
  uint32_t saddr = 0;       // shared destination (load) or source (store, reduce)
  uint32_t size = 0;
  std::optional<uint16_t> cp_mask;
  uint8_t type = 0;  // a reduction's .type (tma::model::BulkType)
  bool noftz = false;
  // cp.async.bulk.commit_group of instr.issuer_cta (no other field is read)
  bool commit = false;
};

struct EngineCommand {
  tma::model::TensorInstr instr;
  uint64_t desc_addr = 0;
  uint8_t tag = 0;
  bool inval_before = false;        // pulse desc_inval with the command
  std::optional<BulkCommand> bulk;  // a bulk command (instr.mode, coords, smem_addr unused)
};

class CmdCodec {
 public:
  // The command as a cmd_t (coordinates and im2col offsets it does not have: 0).
  static tma::pkg::cmd_t Encode(const EngineCommand& c);
  // The command in a cmd_t (coordinates and im2col offsets as many as its mode and dimension
  // use).
  static EngineCommand Decode(const tma::pkg::cmd_t& cmd);
  // The same on the port (TopPins::cmd; not cmd_valid / desc_inval).
  static void Encode(const EngineCommand& c, TopPins* p) { p->cmd = Encode(c); }
  static EngineCommand Decode(const TopPins& p) { return Decode(p.cmd); }
};

class CmdPort : public Clocked {
 public:
  using Source = std::function<bool(EngineCommand*)>;  // false: nothing to send now
  using Accepted = std::function<void(const EngineCommand&)>;
  CmdPort(Random* rng, Source src, Accepted acc = nullptr, int valid_pct = 100)
      : rng_(rng), src_(std::move(src)), acc_(std::move(acc)), valid_pct_(valid_pct) {}
  void Clear() { driving_ = false; }
  // Puts `c` on the port now (valid from the next Settle), outside any source.
  void Offer(const EngineCommand& c, TopPins* p) {
    cur_ = c;
    CmdCodec::Encode(cur_, p);
    p->desc_inval = c.inval_before;
    p->cmd_valid = true;
    driving_ = true;
  }
  void Tick(TopPins& p, uint64_t now) override;
  bool driving() const { return driving_; }
  uint64_t accepted() const { return accepted_; }

 private:
  Random* rng_;
  Source src_;
  Accepted acc_;
  int valid_pct_;
  bool driving_ = false;
  EngineCommand cur_;
  uint64_t accepted_ = 0;
};

}  // namespace tma::sim

#endif  // TMA_SIM_CMD_PORT_H_
