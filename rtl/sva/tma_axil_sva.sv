// SPDX-License-Identifier: Apache-2.0
//
// tma_axil_sva: AXI4-Lite protocol checker of a subordinate port, bound from outside
// (rtl/sva/tma_bind.sv); simulation only. Checks both sides:
//   * manager duties: AW, W and AR hold valid with a stable payload until ready;
//   * subordinate duties: B and R hold valid with a stable payload until ready; no B without
//     an accepted AW and W, no R without an accepted AR; responses are OKAY or SLVERR (the
//     port never answers EXOKAY or DECERR);
//   * liveness: an accepted request is answered within MaxWait cycles (an illegal access must
//     be answered, not hang).

`default_nettype none

`include "tma_assert.svh"

module tma_axil_sva #(
  parameter int unsigned AddrWidth = 21,
  parameter int unsigned MaxWait   = 1024
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input logic                 awvalid_i,
  input logic                 awready_i,
  input logic [AddrWidth-1:0] awaddr_i,
  input logic                 wvalid_i,
  input logic                 wready_i,
  input logic [31:0]          wdata_i,
  input logic [3:0]           wstrb_i,
  input logic                 bvalid_i,
  input logic                 bready_i,
  input logic [1:0]           bresp_i,
  input logic                 arvalid_i,
  input logic                 arready_i,
  input logic [AddrWidth-1:0] araddr_i,
  input logic                 rvalid_i,
  input logic                 rready_i,
  input logic [31:0]          rdata_i,
  input logic [1:0]           rresp_i
);

  logic [7:0]  aw_out_q, w_out_q, ar_out_q;   // accepted requests not yet answered
  logic [15:0] wr_wait_q, rd_wait_q;          // cycles the oldest request has waited
  logic        aw_fire, w_fire, b_fire, ar_fire, r_fire;

  assign aw_fire = awvalid_i && awready_i;
  assign w_fire  = wvalid_i && wready_i;
  assign b_fire  = bvalid_i && bready_i;
  assign ar_fire = arvalid_i && arready_i;
  assign r_fire  = rvalid_i && rready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_count
    if (!rst_ni) begin
      aw_out_q  <= '0;
      w_out_q   <= '0;
      ar_out_q  <= '0;
      wr_wait_q <= '0;
      rd_wait_q <= '0;
    end else begin
      aw_out_q  <= aw_out_q + 8'(aw_fire) - 8'(b_fire);
      w_out_q   <= w_out_q + 8'(w_fire) - 8'(b_fire);
      ar_out_q  <= ar_out_q + 8'(ar_fire) - 8'(r_fire);
      wr_wait_q <= (b_fire || aw_out_q == '0 || w_out_q == '0) ? '0 : wr_wait_q + 16'd1;
      rd_wait_q <= (r_fire || ar_out_q == '0) ? '0 : rd_wait_q + 16'd1;
    end
  end

  `TMA_ASSERT_STABLE(AwHeld_A, awvalid_i, awready_i, awaddr_i)
  `TMA_ASSERT_STABLE(WHeld_A, wvalid_i, wready_i, {wdata_i, wstrb_i})
  `TMA_ASSERT_STABLE(ArHeld_A, arvalid_i, arready_i, araddr_i)
  `TMA_ASSERT_STABLE(BHeld_A, bvalid_i, bready_i, bresp_i)
  `TMA_ASSERT_STABLE(RHeld_A, rvalid_i, rready_i, {rdata_i, rresp_i})
  `TMA_ASSERT_IMPLY(BAfterWrite_A, bvalid_i, aw_out_q != '0 && w_out_q != '0)
  `TMA_ASSERT_IMPLY(RAfterRead_A, rvalid_i, ar_out_q != '0)
  `TMA_ASSERT_IMPLY(BRespLegal_A, bvalid_i, bresp_i == 2'b00 || bresp_i == 2'b10)
  `TMA_ASSERT_IMPLY(RRespLegal_A, rvalid_i, rresp_i == 2'b00 || rresp_i == 2'b10)
  `TMA_ASSERT(WriteAnswered_A, 32'(wr_wait_q) < MaxWait)
  `TMA_ASSERT(ReadAnswered_A, 32'(rd_wait_q) < MaxWait)

endmodule

`default_nettype wire
