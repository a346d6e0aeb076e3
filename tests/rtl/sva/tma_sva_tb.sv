// SPDX-License-Identifier: Apache-2.0
//
// tma_sva_tb: the protocol checkers of rtl/sva/ with their channels as plain ports, so a test
// can drive legal traffic and plant each protocol violation (tests/rtl/sva/sva_checkers_test.cc).
//   u_rd   tma_axi_rd_sva, DataBytes 16, MaxBursts 4 (the checker's room runs out at 5)
//   u_wr   tma_axi_wr_sva, DataBytes 16, MaxBursts 4
//   u_nwr  tma_axi_wr_sva, DataBytes 32, Narrow (the SoC port's form), on the same channels
//   u_axil tma_axil_sva, MaxWait 16
//   u_st   tma_stream_sva, 16-bit payload
// Data buses are 64 bits wide at the ports and repeated to the bus width.

`default_nettype none

module tma_sva_tb (
  input logic        clk_i,
  input logic        rst_ni,
  // AXI4 read
  input logic        ar_valid_i,
  input logic [3:0]  ar_id_i,
  input logic [63:0] ar_addr_i,
  input logic [7:0]  ar_len_i,
  input logic [2:0]  ar_size_i,
  input logic [1:0]  ar_burst_i,
  input logic        r_ready_i,
  input logic        ar_ready_i,
  input logic        r_valid_i,
  input logic [3:0]  r_id_i,
  input logic [1:0]  r_resp_i,
  input logic        r_last_i,
  input logic [63:0] r_data_i,
  // AXI4 write
  input logic        aw_valid_i,
  input logic [3:0]  aw_id_i,
  input logic [63:0] aw_addr_i,
  input logic [7:0]  aw_len_i,
  input logic [2:0]  aw_size_i,
  input logic [1:0]  aw_burst_i,
  input logic [5:0]  aw_atop_i,
  input logic        w_valid_i,
  input logic        w_last_i,
  input logic        b_ready_i,
  input logic        aw_ready_i,
  input logic        w_ready_i,
  input logic        b_valid_i,
  input logic [3:0]  b_id_i,
  input logic [1:0]  b_resp_i,
  input logic [63:0] w_data_i,
  input logic [15:0] w_strb_i,
  // AXI4-Lite
  input logic        l_awvalid_i,
  input logic        l_awready_i,
  input logic [20:0] l_awaddr_i,
  input logic        l_wvalid_i,
  input logic        l_wready_i,
  input logic [31:0] l_wdata_i,
  input logic [3:0]  l_wstrb_i,
  input logic        l_bvalid_i,
  input logic        l_bready_i,
  input logic [1:0]  l_bresp_i,
  input logic        l_arvalid_i,
  input logic        l_arready_i,
  input logic [20:0] l_araddr_i,
  input logic        l_rvalid_i,
  input logic        l_rready_i,
  input logic [31:0] l_rdata_i,
  input logic [1:0]  l_rresp_i,
  // Stream
  input logic        s_valid_i,
  input logic        s_ready_i,
  input logic [15:0] s_data_i
);

  tma_pkg::axi_rd_req_t rd_req;
  tma_pkg::axi_rd_rsp_t rd_rsp;
  tma_pkg::axi_wr_req_t wr_req;
  tma_pkg::axi_wr_rsp_t wr_rsp;

  assign rd_req = {ar_valid_i, ar_id_i, ar_addr_i, ar_len_i, ar_size_i, ar_burst_i,
                   tma_pkg::AxiCacheNormal, r_ready_i};
  assign rd_rsp = {ar_ready_i, r_valid_i, r_id_i, r_resp_i, r_last_i};
  assign wr_req = {aw_valid_i, aw_id_i, aw_addr_i, aw_len_i, aw_size_i, aw_burst_i,
                   aw_atop_i, w_valid_i, w_last_i, b_ready_i};
  assign wr_rsp = {aw_ready_i, w_ready_i, b_valid_i, b_id_i, b_resp_i};

  tma_axi_rd_sva #(
    .DataBytes (16),
    .MaxBursts (4)
  ) u_rd (
    .clk_i,
    .rst_ni,
    .req_i    (rd_req),
    .rsp_i    (rd_rsp),
    .r_data_i ({2{r_data_i}})
  );

  tma_axi_wr_sva #(
    .DataBytes (16),
    .MaxBursts (4)
  ) u_wr (
    .clk_i,
    .rst_ni,
    .req_i    (wr_req),
    .rsp_i    (wr_rsp),
    .w_data_i ({2{w_data_i}}),
    .w_strb_i (w_strb_i)
  );

  tma_axi_wr_sva #(
    .DataBytes (32),
    .Narrow    (1)
  ) u_nwr (
    .clk_i,
    .rst_ni,
    .req_i    (wr_req),
    .rsp_i    (wr_rsp),
    .w_data_i ({4{w_data_i}}),
    .w_strb_i ({16'h0, w_strb_i})
  );

  tma_axil_sva #(
    .AddrWidth (21),
    .MaxWait   (16)
  ) u_axil (
    .clk_i,
    .rst_ni,
    .awvalid_i (l_awvalid_i),
    .awready_i (l_awready_i),
    .awaddr_i  (l_awaddr_i),
    .wvalid_i  (l_wvalid_i),
    .wready_i  (l_wready_i),
    .wdata_i   (l_wdata_i),
    .wstrb_i   (l_wstrb_i),
    .bvalid_i  (l_bvalid_i),
    .bready_i  (l_bready_i),
    .bresp_i   (l_bresp_i),
    .arvalid_i (l_arvalid_i),
    .arready_i (l_arready_i),
    .araddr_i  (l_araddr_i),
    .rvalid_i  (l_rvalid_i),
    .rready_i  (l_rready_i),
    .rdata_i   (l_rdata_i),
    .rresp_i   (l_rresp_i)
  );

  tma_stream_sva #(
    .Width (16)
  ) u_st (
    .clk_i,
    .rst_ni,
    .valid_i (s_valid_i),
    .ready_i (s_ready_i),
    .data_i  (s_data_i)
  );

endmodule

`default_nettype wire
