// SPDX-License-Identifier: Apache-2.0
//
// tma_bind: attaches the protocol checkers of rtl/sva/ to the engine's ports (simulation only:
// rtl/sva/tma_sva.f is Verilated with rtl/tma.f, never synthesized). Bound by module, so every
// tma_engine instance is checked (the engine inside the SoC top too).
//
// Every AXI port: the engine's AXI4 read manager (descriptor fetches, data reads and the
// reductions' old-data reads share it, told apart by ID) and its AXI4 write manager; the SoC
// top's AXI4 manager, read channels (engine and command ring fetcher) and write channels
// (engine stores and completion ring records), and its AXI4-Lite subordinate.

`default_nettype none

// AXI4 read channels (manager duties and subordinate duties).
bind tma_engine tma_axi_rd_sva #(
  .DataBytes (DataBytes)
) u_axi_rd_sva (
  .clk_i,
  .rst_ni,
  .req_i    (axi_rd_req_o),
  .rsp_i    (axi_rd_rsp_i),
  .r_data_i (axi_r_data_i)
);

// AXI4 write channels (manager duties and subordinate duties).
bind tma_engine tma_axi_wr_sva #(
  .DataBytes (DataBytes)
) u_axi_wr_sva (
  .clk_i,
  .rst_ni,
  .req_i    (axi_wr_req_o),
  .rsp_i    (axi_wr_rsp_i),
  .w_data_i (axi_w_data_o),
  .w_strb_i (axi_w_strb_o)
);

// Shared-memory read requests.
bind tma_engine tma_stream_sva #(
  .Width (tma_pkg::SmemRdWidth)
) u_smem_rd_sva (
  .clk_i,
  .rst_ni,
  .valid_i (smem_rd_valid_o),
  .ready_i (smem_rd_ready_i),
  .data_i  (smem_rd_o)
);

// Command stream (the environment's duty).
bind tma_engine tma_stream_sva #(
  .Width (tma_pkg::CmdWidth)
) u_cmd_sva (
  .clk_i,
  .rst_ni,
  .valid_i (cmd_valid_i),
  .ready_i (cmd_ready_o),
  .data_i  (cmd_i)
);

// Shared-memory writes.
bind tma_engine tma_stream_sva #(
  .Width (tma_pkg::SmemWrWidth + DataBytes * 9)
) u_smem_wr_sva (
  .clk_i,
  .rst_ni,
  .valid_i (smem_wr_valid_o),
  .ready_i (smem_wr_ready_i),
  .data_i  ({smem_wr_o, smem_wr_data_o, smem_wr_strb_o})
);

// Completions.
bind tma_engine tma_stream_sva #(
  .Width (tma_pkg::CplWidth)
) u_cpl_sva (
  .clk_i,
  .rst_ni,
  .valid_i (cpl_valid_o),
  .ready_i (cpl_ready_i),
  .data_i  (cpl_o)
);

// The SoC top's AXI4-Lite subordinate port (registers and shared-memory window).
bind tma_soc_top tma_axil_sva #(
  .AddrWidth (21)
) u_axil_sva (
  .clk_i,
  .rst_ni,
  .awvalid_i (s_axil_awvalid_i),
  .awready_i (s_axil_awready_o),
  .awaddr_i  (s_axil_awaddr_i),
  .wvalid_i  (s_axil_wvalid_i),
  .wready_i  (s_axil_wready_o),
  .wdata_i   (s_axil_wdata_i),
  .wstrb_i   (s_axil_wstrb_i),
  .bvalid_i  (s_axil_bvalid_o),
  .bready_i  (s_axil_bready_i),
  .bresp_i   (s_axil_bresp_o),
  .arvalid_i (s_axil_arvalid_i),
  .arready_i (s_axil_arready_o),
  .araddr_i  (s_axil_araddr_i),
  .rvalid_i  (s_axil_rvalid_o),
  .rready_i  (s_axil_rready_i),
  .rdata_i   (s_axil_rdata_o),
  .rresp_i   (s_axil_rresp_o)
);

// The SoC top's AXI4 read channels (engine and command ring fetcher together).
bind tma_soc_top tma_axi_rd_sva #(
  .DataBytes (DataBytes)
) u_m_axi_rd_sva (
  .clk_i,
  .rst_ni,
  .req_i    ({m_axi_arvalid_o, m_axi_arid_o, m_axi_araddr_o, m_axi_arlen_o, m_axi_arsize_o,
              m_axi_arburst_o, tma_pkg::AxiCacheNormal, m_axi_rready_o}),
  .rsp_i    ({m_axi_arready_i, m_axi_rvalid_i, m_axi_rid_i, m_axi_rresp_i, m_axi_rlast_i}),
  .r_data_i (m_axi_rdata_i)
);

// The SoC top's AXI4 write channels (engine stores and completion ring records: 16-byte
// single-beat bursts, narrower than the bus at DataBytes 32 and 64).
bind tma_soc_top tma_axi_wr_sva #(
  .DataBytes (DataBytes),
  .Narrow    (1)
) u_m_axi_wr_sva (
  .clk_i,
  .rst_ni,
  .req_i    ({m_axi_awvalid_o, m_axi_awid_o, m_axi_awaddr_o, m_axi_awlen_o, m_axi_awsize_o,
              m_axi_awburst_o, 6'd0, m_axi_wvalid_o, m_axi_wlast_o, m_axi_bready_o}),
  .rsp_i    ({m_axi_awready_i, m_axi_wready_i, m_axi_bvalid_i, m_axi_bid_i, m_axi_bresp_i}),
  .w_data_i (m_axi_wdata_o),
  .w_strb_i (m_axi_wstrb_o)
);

`default_nettype wire
