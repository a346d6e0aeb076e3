// SPDX-License-Identifier: Apache-2.0
//
// tma_bind: attaches the protocol checkers of rtl/sva/ to the engine's ports (simulation only:
// rtl/sva/tma_sva.f is Verilated with rtl/tma.f, never synthesized). Bound by module, so every
// tma_engine instance is checked.

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

`default_nettype wire
