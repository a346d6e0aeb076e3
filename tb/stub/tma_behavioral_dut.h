// SPDX-License-Identifier: Apache-2.0
//
// A behavioural stand-in for tma_sim_top with the same ports, built on the C++ model: the
// "model-as-DUT" self-check of the bench, and the DUT while the RTL is absent.
// Per command it runs tma::model::ExecuteTensorAt on a local cache of global memory; each
// cache line the model asked for and did not have is fetched over the AXI master port
// (bursts of up to 16 beats, never across 4 KiB, IDs rotating so responses come back out
// of order), then the model runs again, until it needs nothing new. The shared-memory bytes
// it writes leave as DataBytes-aligned beats with strobes (one beat per distinct content,
// with the mask of the CTAs it goes to), followed by one complete-tx per destination, or a
// single error completion. One command at a time.
// `bug_swizzle` (runtime) flips address bit 4 of beats of swizzled loads: the bench must
// catch it (tests tb/stub_bug_*).
#ifndef TMA_TB_STUB_TMA_BEHAVIORAL_DUT_H_
#define TMA_TB_STUB_TMA_BEHAVIORAL_DUT_H_

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <vector>

#include <systemc>

#include "tb_if.h"
#include "tma/types.h"

namespace tma::tb {

SC_MODULE(tma_behavioral_dut) {
  sc_core::sc_in<bool> clk_i, rst_ni;
  sc_core::sc_in<bool> cmd_valid_i;
  sc_core::sc_out<bool> cmd_ready_o;
  sc_core::sc_in<uint32_t> cmd_op_i, cmd_mode_i, cmd_redop_i, cmd_dim_i;
  sc_core::sc_in<uint64_t> cmd_desc_addr_i;
  sc_core::sc_in<CoordBv> cmd_coords_i;
  sc_core::sc_in<uint64_t> cmd_im2col_i;
  sc_core::sc_in<uint32_t> cmd_smem_addr_i, cmd_mbar_addr_i;
  sc_core::sc_in<bool> cmd_multicast_i;
  sc_core::sc_in<uint32_t> cmd_cta_mask_i, cmd_issuer_i, cmd_dst_cta_i, cmd_cta_group_i, cmd_tag_i;
  sc_core::sc_in<bool> desc_inval_i;
  sc_core::sc_out<bool> m_axi_arvalid_o;
  sc_core::sc_in<bool> m_axi_arready_i;
  sc_core::sc_out<uint32_t> m_axi_arid_o, m_axi_arlen_o, m_axi_arsize_o, m_axi_arburst_o;
  sc_core::sc_out<uint64_t> m_axi_araddr_o;
  sc_core::sc_in<bool> m_axi_rvalid_i;
  sc_core::sc_out<bool> m_axi_rready_o;
  sc_core::sc_in<uint32_t> m_axi_rid_i, m_axi_rresp_i;
  sc_core::sc_in<DataBv> m_axi_rdata_i;
  sc_core::sc_in<bool> m_axi_rlast_i;
  sc_core::sc_out<bool> m_axi_awvalid_o;
  sc_core::sc_in<bool> m_axi_awready_i;
  sc_core::sc_out<uint32_t> m_axi_awid_o, m_axi_awlen_o, m_axi_awsize_o, m_axi_awburst_o;
  sc_core::sc_out<uint64_t> m_axi_awaddr_o;
  sc_core::sc_out<bool> m_axi_wvalid_o;
  sc_core::sc_in<bool> m_axi_wready_i;
  sc_core::sc_out<DataBv> m_axi_wdata_o;
  sc_core::sc_out<uint32_t> m_axi_wstrb_o;
  sc_core::sc_out<bool> m_axi_wlast_o;
  sc_core::sc_in<bool> m_axi_bvalid_i;
  sc_core::sc_out<bool> m_axi_bready_o;
  sc_core::sc_in<uint32_t> m_axi_bid_i, m_axi_bresp_i;
  sc_core::sc_out<bool> smem_wr_valid_o;
  sc_core::sc_in<bool> smem_wr_ready_i;
  sc_core::sc_out<uint32_t> smem_wr_addr_o;
  sc_core::sc_out<DataBv> smem_wr_data_o;
  sc_core::sc_out<uint32_t> smem_wr_strb_o, smem_wr_cta_mask_o;
  sc_core::sc_out<bool> smem_rd_valid_o;
  sc_core::sc_in<bool> smem_rd_ready_i;
  sc_core::sc_out<uint32_t> smem_rd_addr_o, smem_rd_cta_o;
  sc_core::sc_in<bool> smem_rd_rvalid_i;
  sc_core::sc_in<DataBv> smem_rd_rdata_i;
  sc_core::sc_out<bool> cpl_valid_o;
  sc_core::sc_in<bool> cpl_ready_i;
  sc_core::sc_out<uint32_t> cpl_kind_o, cpl_cta_o, cpl_mbar_addr_o, cpl_bytes_o, cpl_error_o,
      cpl_tag_o;
  sc_core::sc_out<bool> busy_o;
  sc_core::sc_out<uint32_t> err_count_o;

  SC_CTOR(tma_behavioral_dut) {
    SC_METHOD(Tick);
    sensitive << clk_i.pos();
    dont_initialize();
  }
  bool bug_swizzle = false;

 private:
  enum class State { kIdle, kFetch, kWrite, kComplete };
  struct Beat {
    uint32_t addr;
    std::array<uint8_t, kDataBytes> data;
    uint32_t strb;
    uint32_t mask;
  };
  struct Cpl {
    uint32_t kind, cta, mbar, bytes, error;
  };
  struct Burst {
    uint64_t line;  // first line address
    uint32_t beats;
  };
  void Tick();
  void Reset();
  void Accept();
  void RunModel();  // one model pass; fills misses_ or the output queues

  State state_ = State::kIdle;
  tma::model::TensorInstr instr_;
  uint64_t desc_addr_ = 0;
  uint32_t tag_ = 0;
  std::map<uint64_t, std::array<uint8_t, kDataBytes>> lines_;  // fetched cache lines
  std::set<uint64_t> err_lines_;                               // lines answered with an error
  std::set<uint64_t> misses_;                                  // lines the last pass lacked
  std::deque<Burst> to_issue_;
  std::map<uint32_t, std::pair<Burst, uint32_t>> inflight_;  // AXI id -> burst, beats seen
  uint32_t next_id_ = 0;
  std::deque<Beat> beats_;
  std::deque<Cpl> cpls_;
  bool ar_q_ = false, wr_q_ = false, cpl_q_ = false, cmd_rdy_q_ = false;
  uint32_t errors_ = 0;
};

}  // namespace tma::tb

#endif  // TMA_TB_STUB_TMA_BEHAVIORAL_DUT_H_
