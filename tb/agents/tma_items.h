// SPDX-License-Identifier: Apache-2.0
//
// Transaction items of the bench: a command (decoded instruction + descriptor address +
// tag), a shared-memory write beat, a completion, an AXI read burst.
#ifndef TMA_TB_AGENTS_TMA_ITEMS_H_
#define TMA_TB_AGENTS_TMA_ITEMS_H_

#include <array>
#include <cstdint>
#include <string>

#include "sim/smem_port.h"
#include "tb_if.h"
#include "tma/types.h"
#include "uvm/sequence.h"

namespace tma::tb {

struct TmaCommand : uvm::SequenceItem {
  tma::model::TensorInstr instr;
  uint64_t desc_addr = 0;
  uint8_t tag = 0;
  bool inval_before = false;  // pulse desc_inval_i before driving the command
  std::string ToString() const override;
};

using SmemBeat = tma::sim::SmemBeat;

struct Completion {
  uint32_t kind = 0;  // tma::pkg::CplTx (complete-tx), CplError, CplDone (bulk-group done)
  int cta = 0;
  uint32_t mbar_addr = 0;
  uint32_t bytes = 0;
  uint32_t error = 0;
  uint8_t tag = 0;
  uint64_t cycle = 0;
  std::string ToString() const;
};

// The simulated clock cycle (posedges since time 0) of the 1 ns bench clock.
inline uint64_t Cycle() {
  return sc_core::sc_time_stamp().value() / sc_core::sc_time(1, sc_core::SC_NS).value();
}

}  // namespace tma::tb

#endif  // TMA_TB_AGENTS_TMA_ITEMS_H_
