// SPDX-License-Identifier: Apache-2.0
//
// The bench top: the pin-level interface (TmaIf) and the DUT bound to it, either the
// Verilated RTL (Vtma_sim_top, when the build has it) or the model-as-DUT stand-in.
#ifndef TMA_TB_TB_TOP_H_
#define TMA_TB_TB_TOP_H_

#include <memory>
#include <string>

#include <systemc>

#include "stub/tma_behavioral_dut.h"
#include "tb_if.h"

namespace tma::tb {

// Binds every port of a tma_sim_top-shaped module (the Verilated one or the stub).
template <class D>
void BindDut(D& d, TmaIf& v) {
  d.clk_i(v.clk);
  d.rst_ni(v.rst_n);
  d.cmd_valid_i(v.cmd_valid);
  d.cmd_ready_o(v.cmd_ready);
  d.cmd_op_i(v.cmd_op);
  d.cmd_mode_i(v.cmd_mode);
  d.cmd_redop_i(v.cmd_redop);
  d.cmd_dim_i(v.cmd_dim);
  d.cmd_desc_addr_i(v.cmd_desc_addr);
  d.cmd_coords_i(v.cmd_coords);
  d.cmd_im2col_i(v.cmd_im2col);
  d.cmd_smem_addr_i(v.cmd_smem_addr);
  d.cmd_mbar_addr_i(v.cmd_mbar_addr);
  d.cmd_multicast_i(v.cmd_multicast);
  d.cmd_cta_mask_i(v.cmd_cta_mask);
  d.cmd_issuer_i(v.cmd_issuer);
  d.cmd_dst_cta_i(v.cmd_dst_cta);
  d.cmd_cta_group_i(v.cmd_cta_group);
  d.cmd_tag_i(v.cmd_tag);
  d.desc_inval_i(v.desc_inval);
  d.m_axi_arvalid_o(v.arvalid);
  d.m_axi_arready_i(v.arready);
  d.m_axi_arid_o(v.arid);
  d.m_axi_araddr_o(v.araddr);
  d.m_axi_arlen_o(v.arlen);
  d.m_axi_arsize_o(v.arsize);
  d.m_axi_arburst_o(v.arburst);
  d.m_axi_rvalid_i(v.rvalid);
  d.m_axi_rready_o(v.rready);
  d.m_axi_rid_i(v.rid);
  d.m_axi_rdata_i(v.rdata);
  d.m_axi_rresp_i(v.rresp);
  d.m_axi_rlast_i(v.rlast);
  d.m_axi_awvalid_o(v.awvalid);
  d.m_axi_awready_i(v.awready);
  d.m_axi_awid_o(v.awid);
  d.m_axi_awaddr_o(v.awaddr);
  d.m_axi_awlen_o(v.awlen);
  d.m_axi_awsize_o(v.awsize);
  d.m_axi_awburst_o(v.awburst);
  d.m_axi_wvalid_o(v.wvalid);
  d.m_axi_wready_i(v.wready);
  d.m_axi_wdata_o(v.wdata);
  d.m_axi_wstrb_o(v.wstrb);
  d.m_axi_wlast_o(v.wlast);
  d.m_axi_bvalid_i(v.bvalid);
  d.m_axi_bready_o(v.bready);
  d.m_axi_bid_i(v.bid);
  d.m_axi_bresp_i(v.bresp);
  d.smem_wr_valid_o(v.smem_wr_valid);
  d.smem_wr_ready_i(v.smem_wr_ready);
  d.smem_wr_addr_o(v.smem_wr_addr);
  d.smem_wr_data_o(v.smem_wr_data);
  d.smem_wr_strb_o(v.smem_wr_strb);
  d.smem_wr_cta_mask_o(v.smem_wr_cta_mask);
  d.smem_rd_valid_o(v.smem_rd_valid);
  d.smem_rd_ready_i(v.smem_rd_ready);
  d.smem_rd_addr_o(v.smem_rd_addr);
  d.smem_rd_cta_o(v.smem_rd_cta);
  d.smem_rd_rvalid_i(v.smem_rd_rvalid);
  d.smem_rd_rdata_i(v.smem_rd_rdata);
  d.cpl_valid_o(v.cpl_valid);
  d.cpl_ready_i(v.cpl_ready);
  d.cpl_kind_o(v.cpl_kind);
  d.cpl_cta_o(v.cpl_cta);
  d.cpl_mbar_addr_o(v.cpl_mbar_addr);
  d.cpl_bytes_o(v.cpl_bytes);
  d.cpl_error_o(v.cpl_error);
  d.cpl_tag_o(v.cpl_tag);
  d.busy_o(v.busy);
  d.err_count_o(v.err_count);
}

}  // namespace tma::tb

#endif  // TMA_TB_TB_TOP_H_
