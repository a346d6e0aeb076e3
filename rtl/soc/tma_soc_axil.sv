// SPDX-License-Identifier: Apache-2.0
//
// tma_soc_axil: the SoC top's AXI4-Lite subordinate port, split by address (docs/soc.md):
//   0x000000 - 0x0003FF  the register block (tma_reg_top, AXI4-Lite)
//   0x100000 - 0x1FFFFF  the cluster shell's host window (cta x 0x10000 + byte address)
//   anything else        SLVERR, no access
// One transaction at a time: AW and W (in either order) or AR are taken into holding
// registers, the access runs on its target, the response is returned; a read and a write
// ready together alternate. Every request is answered, so an illegal access never hangs.

`default_nettype none

`include "tma_assert.svh"

module tma_soc_axil #(
  parameter int unsigned AddrWidth = 21
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // AXI4-Lite subordinate (host side)
  input  logic                 s_awvalid_i,
  output logic                 s_awready_o,
  input  logic [AddrWidth-1:0] s_awaddr_i,
  input  logic                 s_wvalid_i,
  output logic                 s_wready_o,
  input  logic [31:0]          s_wdata_i,
  input  logic [3:0]           s_wstrb_i,
  output logic                 s_bvalid_o,
  input  logic                 s_bready_i,
  output logic [1:0]           s_bresp_o,
  input  logic                 s_arvalid_i,
  output logic                 s_arready_o,
  input  logic [AddrWidth-1:0] s_araddr_i,
  output logic                 s_rvalid_o,
  input  logic                 s_rready_i,
  output logic [31:0]          s_rdata_o,
  output logic [1:0]           s_rresp_o,
  // AXI4-Lite manager to the register block
  output logic                 r_awvalid_o,
  input  logic                 r_awready_i,
  output logic [9:0]           r_awaddr_o,
  output logic                 r_wvalid_o,
  input  logic                 r_wready_i,
  output logic [31:0]          r_wdata_o,
  output logic [3:0]           r_wstrb_o,
  input  logic                 r_bvalid_i,
  output logic                 r_bready_o,
  input  logic [1:0]           r_bresp_i,
  output logic                 r_arvalid_o,
  input  logic                 r_arready_i,
  output logic [9:0]           r_araddr_o,
  input  logic                 r_rvalid_i,
  output logic                 r_rready_o,
  input  logic [31:0]          r_rdata_i,
  input  logic [1:0]           r_rresp_i,
  // Cluster shell host window
  output logic                 w_req_valid_o,
  input  logic                 w_req_ready_i,
  output logic                 w_req_we_o,
  output logic [19:0]          w_req_addr_o,
  output logic [31:0]          w_req_wdata_o,
  output logic [3:0]           w_req_wstrb_o,
  input  logic                 w_rsp_valid_i,
  input  logic [31:0]          w_rsp_rdata_i,
  input  logic                 w_rsp_err_i
);

  typedef enum logic [2:0] {
    AxIdle, AxRegAddr, AxRegResp, AxWinReq, AxWinResp, AxDone
  } ax_state_e;

  ax_state_e            state_d, state_q;
  logic                 aw_full_q, w_full_q, ar_full_q, is_wr_q, last_wr_q;
  logic                 aw_sent_q, w_sent_q;
  logic [AddrWidth-1:0] awaddr_q, araddr_q;
  logic [31:0]          wdata_q, rdata_q;
  logic [3:0]           wstrb_q;
  logic [1:0]           resp_q;
  logic                 start_wr, start_rd, to_reg, to_win;
  logic [AddrWidth-1:10] addr_hi;   // the bits that pick the target

  localparam logic [1:0] RespOkay   = 2'b00;
  localparam logic [1:0] RespSlvErr = 2'b10;

  // ---- Holding registers ----
  assign s_awready_o = !aw_full_q;
  assign s_wready_o  = !w_full_q;
  assign s_arready_o = !ar_full_q;

  // ---- Which access runs next, and where ----
  assign start_wr = state_q == AxIdle && aw_full_q && w_full_q && !(ar_full_q && last_wr_q);
  assign start_rd = state_q == AxIdle && ar_full_q && !start_wr;
  assign addr_hi  = start_wr ? awaddr_q[AddrWidth-1:10] : araddr_q[AddrWidth-1:10];
  assign to_reg   = addr_hi == '0;
  assign to_win   = addr_hi[AddrWidth-1:20] == (AddrWidth-20)'(1);

  always_comb begin : proc_next
    state_d = state_q;
    unique case (state_q)
      AxIdle: begin
        if (start_wr || start_rd) begin
          state_d = to_reg ? AxRegAddr : to_win ? AxWinReq : AxDone;
        end
      end
      AxRegAddr: begin
        if (is_wr_q ? (aw_sent_q || r_awready_i) && (w_sent_q || r_wready_i)
                    : r_arready_i) begin
          state_d = AxRegResp;
        end
      end
      AxRegResp: if (is_wr_q ? r_bvalid_i : r_rvalid_i) state_d = AxDone;
      AxWinReq:  if (w_req_ready_i) state_d = AxWinResp;
      AxWinResp: if (w_rsp_valid_i) state_d = AxDone;
      AxDone:    if (is_wr_q ? s_bready_i : s_rready_i) state_d = AxIdle;
      default:   state_d = AxIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_regs
    if (!rst_ni) begin
      state_q   <= AxIdle;
      aw_full_q <= 1'b0;
      w_full_q  <= 1'b0;
      ar_full_q <= 1'b0;
      is_wr_q   <= 1'b0;
      last_wr_q <= 1'b0;
      aw_sent_q <= 1'b0;
      w_sent_q  <= 1'b0;
      awaddr_q  <= '0;
      araddr_q  <= '0;
      wdata_q   <= '0;
      wstrb_q   <= '0;
      rdata_q   <= '0;
      resp_q    <= RespOkay;
    end else begin
      state_q <= state_d;
      if (s_awvalid_i && s_awready_o) begin
        aw_full_q <= 1'b1;
        awaddr_q  <= s_awaddr_i;
      end
      if (s_wvalid_i && s_wready_o) begin
        w_full_q <= 1'b1;
        wdata_q  <= s_wdata_i;
        wstrb_q  <= s_wstrb_i;
      end
      if (s_arvalid_i && s_arready_o) begin
        ar_full_q <= 1'b1;
        araddr_q  <= s_araddr_i;
      end
      if (start_wr || start_rd) begin
        is_wr_q   <= start_wr;
        last_wr_q <= start_wr;
        aw_sent_q <= 1'b0;
        w_sent_q  <= 1'b0;
        resp_q    <= RespSlvErr;   // an address no target decodes
        rdata_q   <= '0;
      end
      if (state_q == AxRegAddr) begin
        if (r_awvalid_o && r_awready_i) aw_sent_q <= 1'b1;
        if (r_wvalid_o && r_wready_i) w_sent_q <= 1'b1;
      end
      if (state_q == AxRegResp && is_wr_q && r_bvalid_i) resp_q <= r_bresp_i;
      if (state_q == AxRegResp && !is_wr_q && r_rvalid_i) begin
        resp_q  <= r_rresp_i;
        rdata_q <= r_rdata_i;
      end
      if (state_q == AxWinResp && w_rsp_valid_i) begin
        resp_q  <= w_rsp_err_i ? RespSlvErr : RespOkay;
        rdata_q <= w_rsp_rdata_i;
      end
      if (state_q == AxDone && (is_wr_q ? s_bready_i : s_rready_i)) begin
        if (is_wr_q) begin
          aw_full_q <= 1'b0;
          w_full_q  <= 1'b0;
        end else begin
          ar_full_q <= 1'b0;
        end
      end
    end
  end

  // ---- Register block ----
  assign r_awvalid_o = state_q == AxRegAddr && is_wr_q && !aw_sent_q;
  assign r_awaddr_o  = awaddr_q[9:0];
  assign r_wvalid_o  = state_q == AxRegAddr && is_wr_q && !w_sent_q;
  assign r_wdata_o   = wdata_q;
  assign r_wstrb_o   = wstrb_q;
  assign r_bready_o  = state_q == AxRegResp && is_wr_q;
  assign r_arvalid_o = state_q == AxRegAddr && !is_wr_q;
  assign r_araddr_o  = araddr_q[9:0];
  assign r_rready_o  = state_q == AxRegResp && !is_wr_q;

  // ---- Shell window ----
  assign w_req_valid_o = state_q == AxWinReq;
  assign w_req_we_o    = is_wr_q;
  assign w_req_addr_o  = is_wr_q ? awaddr_q[19:0] : araddr_q[19:0];
  assign w_req_wdata_o = wdata_q;
  assign w_req_wstrb_o = wstrb_q;

  // ---- Responses ----
  assign s_bvalid_o = state_q == AxDone && is_wr_q;
  assign s_bresp_o  = resp_q;
  assign s_rvalid_o = state_q == AxDone && !is_wr_q;
  assign s_rdata_o  = rdata_q;
  assign s_rresp_o  = resp_q;

  `TMA_ASSERT_INIT(AddrWidthLegal_A, AddrWidth == 21)
  `TMA_ASSERT_STABLE(RegAwHeld_A, r_awvalid_o, r_awready_i, r_awaddr_o)
  `TMA_ASSERT_STABLE(RegArHeld_A, r_arvalid_o, r_arready_i, r_araddr_o)
  `TMA_ASSERT_STABLE(WinReqHeld_A, w_req_valid_o, w_req_ready_i, w_req_addr_o)

endmodule

`default_nettype wire
