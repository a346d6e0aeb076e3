// SPDX-License-Identifier: Apache-2.0
//
// board_bind: AXI4-Lite protocol checkers (rtl/sva/tma_axil_sva.sv) on the board top's
// internal subordinate ports, bound by module; simulation only (the Verilated board top,
// boards/ulx3s/CMakeLists.txt). With rtl/sva/tma_bind.sv, which checks the SoC top's AXI4-Lite
// port (the crossbar's SoC route) and its AXI4 manager (the engine's bus to board_gmem), every
// bus inside the board top but the bridge's own (whose holes the crossbar answers DECERR) has a
// checker.

`default_nettype none

// The crossbar's route to the global memory's host port.
bind board_gmem tma_axil_sva #(
  .AddrWidth (32)
) u_host_axil_sva (
  .clk_i,
  .rst_ni,
  .awvalid_i (h_awvalid_i),
  .awready_i (h_awready_o),
  .awaddr_i  (h_awaddr_i),
  .wvalid_i  (h_wvalid_i),
  .wready_i  (h_wready_o),
  .wdata_i   (h_wdata_i),
  .wstrb_i   (h_wstrb_i),
  .bvalid_i  (h_bvalid_o),
  .bready_i  (h_bready_i),
  .bresp_i   (h_bresp_o),
  .arvalid_i (h_arvalid_i),
  .arready_i (h_arready_o),
  .araddr_i  (h_araddr_i),
  .rvalid_i  (h_rvalid_o),
  .rready_i  (h_rready_i),
  .rdata_i   (h_rdata_o),
  .rresp_i   (h_rresp_o)
);

// The crossbar's route to the board registers.
bind board_csr tma_axil_sva #(
  .AddrWidth (32)
) u_csr_axil_sva (
  .clk_i,
  .rst_ni,
  .awvalid_i (awvalid_i),
  .awready_i (awready_o),
  .awaddr_i  (awaddr_i),
  .wvalid_i  (wvalid_i),
  .wready_i  (wready_o),
  .wdata_i   (wdata_i),
  .wstrb_i   (wstrb_i),
  .bvalid_i  (bvalid_o),
  .bready_i  (bready_i),
  .bresp_i   (bresp_o),
  .arvalid_i (arvalid_i),
  .arready_i (arready_o),
  .araddr_i  (araddr_i),
  .rvalid_i  (rvalid_o),
  .rready_i  (rready_i),
  .rdata_i   (rdata_o),
  .rresp_i   (rresp_o)
);

`default_nettype wire
