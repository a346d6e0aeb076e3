// SPDX-License-Identifier: Apache-2.0
//
// TopPins: the ports of rtl/top/tma_sim_top.sv as one plain C++ struct, for any DataBytes up to
// kMaxDataBytes (data buses as byte arrays, byte k = bits [8k+7:8k]; strobes as Strobe, bit k for
// byte k). The
// command and completion ports are tma_pkg's cmd_t and cpl_t field by field: they are held as
// the generated C++ structs (sim/autogen/tma_structs.h).
// Every harness component (sim/) reads and writes these fields only, never the Verilated model,
// so the same component serves each Verilated width (VerilatedTop<Model>, sim_top.h) and the
// model-as-DUT stand-in of the bench. Inputs of the engine are written by the harness,
// outputs by the top.
#ifndef TMA_SIM_PINS_H_
#define TMA_SIM_PINS_H_

#include <cstdint>

#include "sim/autogen/tma_structs.h"

namespace tma::sim {

inline constexpr int kMaxDataBytes = 128;
// A strobe of up to kMaxDataBytes bytes (bit k: byte k).
using Strobe = unsigned __int128;
// The strobe of all `bytes` bytes of a bus and the number of strobe bits set.
inline Strobe FullStrobe(int bytes) {
  return bytes >= 128 ? ~Strobe{0} : ((Strobe{1} << bytes) - 1);
}
inline int StrobeCount(Strobe s) {
  return __builtin_popcountll(static_cast<uint64_t>(s)) +
         __builtin_popcountll(static_cast<uint64_t>(s >> 64));
}
inline constexpr int kAxiIds = 1 << tma::pkg::AxiIdBits;  // AXI4 IDs (AxiIdWidth <= AxiIdBits)

struct TopPins {
  int data_bytes = 16;  // DataBytes of the top (fixed when the top is built)
  bool rst_n = false;
  // Command stream: cmd_<field>_i (CmdCodec, cmd_port.h, maps a command to cmd_t).
  bool cmd_valid = false, cmd_ready = false;
  tma::pkg::cmd_t cmd;
  bool desc_inval = false;
  // Target architecture (tma::pkg::Arch*): sm_103 by default, every rule of the model's newest
  // arch; the golden replay sets each case's.
  uint8_t arch = tma::pkg::ArchSm103;
  // CTAs in the cluster, 0 = 16 (the engine's NumCtas): the replay sets each case's.
  uint8_t cluster = 0;
  // AXI4 read address / data.
  bool arvalid = false, arready = false;
  uint8_t arid = 0, arlen = 0, arsize = 0, arburst = 0;
  uint8_t arcache = 0;  // ARCACHE (tma::pkg::AxiCache*)
  uint64_t araddr = 0;
  bool rvalid = false, rready = false, rlast = false;
  uint8_t rid = 0, rresp = 0;
  uint8_t rdata[kMaxDataBytes] = {};
  // AXI4 write address / data / response.
  bool awvalid = false, awready = false;
  uint8_t awid = 0, awlen = 0, awsize = 0, awburst = 0;
  uint8_t awatop = 0;  // AXI5 AWATOP (tma::pkg::Atop*; 0: a plain write)
  uint64_t awaddr = 0;
  bool wvalid = false, wready = false, wlast = false;
  uint8_t wdata[kMaxDataBytes] = {};
  Strobe wstrb = 0;
  bool bvalid = false, bready = false;
  uint8_t bid = 0, bresp = 0;
  // Shared-memory write port.
  bool smem_wr_valid = false, smem_wr_ready = false;
  uint32_t smem_wr_addr = 0;
  uint8_t smem_wr_data[kMaxDataBytes] = {};
  Strobe smem_wr_strb = 0;
  uint16_t smem_wr_cta_mask = 0;
  // Shared-memory read port.
  bool smem_rd_valid = false, smem_rd_ready = false;
  uint32_t smem_rd_addr = 0;
  uint8_t smem_rd_cta = 0;
  bool smem_rd_rvalid = false;
  uint8_t smem_rd_rdata[kMaxDataBytes] = {};
  // Completion stream: cpl_<field>_o (cpl_error_o is cpl_t.err).
  bool cpl_valid = false, cpl_ready = false;
  tma::pkg::cpl_t cpl;
  // Bulk async-group completions: bg_cpl_<field>_o.
  bool bg_cpl_valid = false, bg_cpl_ready = false;
  tma::pkg::bg_cpl_t bg_cpl;
  // Status.
  bool busy = false;
  uint16_t err_count = 0;
};

}  // namespace tma::sim

#endif  // TMA_SIM_PINS_H_
