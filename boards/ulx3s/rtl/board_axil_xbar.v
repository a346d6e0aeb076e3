// SPDX-License-Identifier: Apache-2.0
//
// board_axil_xbar: AXI4-Lite crossbar of one manager and NumSubs subordinates (32-bit data).
// Subordinate k answers the addresses a with (a & Masks[k]) == Bases[k] (32 bits per entry,
// entry k in bits 32k+31..32k); an address no subordinate claims is answered DECERR by the
// crossbar itself. One write and one read are in flight at a time: the crossbar takes the
// address, locks the route, passes AW/W (or AR) and the response through, then frees it.
// Address, data and strobes go to every subordinate; only the routed one sees a valid.

`default_nettype none

module board_axil_xbar #(
  parameter NumSubs = 3,
  parameter [32*NumSubs-1:0] Bases = {32'h2000_0000, 32'h1000_0000, 32'h0000_0000},
  parameter [32*NumSubs-1:0] Masks = {32'hffff_f000, 32'hf000_0000, 32'hffe0_0000}
) (
  input  wire                   clk_i,
  input  wire                   rst_ni,
  // Manager side
  input  wire [31:0]            m_awaddr_i,
  input  wire                   m_awvalid_i,
  output wire                   m_awready_o,
  input  wire [31:0]            m_wdata_i,
  input  wire [3:0]             m_wstrb_i,
  input  wire                   m_wvalid_i,
  output wire                   m_wready_o,
  output wire [1:0]             m_bresp_o,
  output wire                   m_bvalid_o,
  input  wire                   m_bready_i,
  input  wire [31:0]            m_araddr_i,
  input  wire                   m_arvalid_i,
  output wire                   m_arready_o,
  output wire [31:0]            m_rdata_o,
  output wire [1:0]             m_rresp_o,
  output wire                   m_rvalid_o,
  input  wire                   m_rready_i,
  // Subordinate side (entry k: bits of subordinate k)
  output wire [31:0]            s_awaddr_o,
  output wire [NumSubs-1:0]     s_awvalid_o,
  input  wire [NumSubs-1:0]     s_awready_i,
  output wire [31:0]            s_wdata_o,
  output wire [3:0]             s_wstrb_o,
  output wire [NumSubs-1:0]     s_wvalid_o,
  input  wire [NumSubs-1:0]     s_wready_i,
  input  wire [2*NumSubs-1:0]   s_bresp_i,
  input  wire [NumSubs-1:0]     s_bvalid_i,
  output wire [NumSubs-1:0]     s_bready_o,
  output wire [31:0]            s_araddr_o,
  output wire [NumSubs-1:0]     s_arvalid_o,
  input  wire [NumSubs-1:0]     s_arready_i,
  input  wire [32*NumSubs-1:0]  s_rdata_i,
  input  wire [2*NumSubs-1:0]   s_rresp_i,
  input  wire [NumSubs-1:0]     s_rvalid_i,
  output wire [NumSubs-1:0]     s_rready_o
);

  localparam SelW = $clog2(NumSubs + 1);
  localparam [SelW-1:0] NoSub = NumSubs;  // the crossbar's own DECERR responder

  // The subordinate an address belongs to (NoSub: none).
  function [SelW-1:0] decode;
    input [31:0] a;
    integer k;
    begin
      decode = NoSub;
      for (k = NumSubs - 1; k >= 0; k = k - 1) begin
        if ((a & Masks[32*k +: 32]) == Bases[32*k +: 32]) decode = k[SelW-1:0];
      end
    end
  endfunction

  // ---- Writes ----
  reg            wr_act_q, aw_done_q, w_done_q;
  reg [SelW-1:0] wr_sel_q;
  reg [31:0]     awaddr_q;
  wire           wr_err_w = wr_sel_q == NoSub;
  wire           aw_go_w  = wr_act_q && !aw_done_q;
  wire           w_go_w   = wr_act_q && !w_done_q;
  wire           aw_hs_w  = aw_go_w && (wr_err_w || s_awready_i[wr_sel_q]);
  wire           w_hs_w   = w_go_w && m_wvalid_i && (wr_err_w || s_wready_i[wr_sel_q]);
  wire           b_ok_w   = wr_act_q && aw_done_q && w_done_q;

  assign m_awready_o = aw_hs_w;
  assign m_wready_o  = w_hs_w;
  assign s_awaddr_o  = awaddr_q;
  assign s_wdata_o   = m_wdata_i;
  assign s_wstrb_o   = m_wstrb_i;
  assign m_bvalid_o  = b_ok_w && (wr_err_w || s_bvalid_i[wr_sel_q]);
  assign m_bresp_o   = wr_err_w ? 2'b11 : s_bresp_i[2*wr_sel_q +: 2];

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_act_q  <= 1'b0;
      aw_done_q <= 1'b0;
      w_done_q  <= 1'b0;
      wr_sel_q  <= NoSub;
      awaddr_q  <= 32'd0;
    end else if (!wr_act_q) begin
      if (m_awvalid_i) begin
        wr_act_q <= 1'b1;
        wr_sel_q <= decode(m_awaddr_i);
        awaddr_q <= m_awaddr_i;
      end
    end else begin
      if (aw_hs_w) aw_done_q <= 1'b1;
      if (w_hs_w) w_done_q <= 1'b1;
      if (m_bvalid_o && m_bready_i) begin
        wr_act_q  <= 1'b0;
        aw_done_q <= 1'b0;
        w_done_q  <= 1'b0;
      end
    end
  end

  // ---- Reads ----
  reg            rd_act_q, ar_done_q;
  reg [SelW-1:0] rd_sel_q;
  reg [31:0]     araddr_q;
  wire           rd_err_w = rd_sel_q == NoSub;
  wire           ar_go_w  = rd_act_q && !ar_done_q;
  wire           ar_hs_w  = ar_go_w && (rd_err_w || s_arready_i[rd_sel_q]);

  assign m_arready_o = ar_hs_w;
  assign s_araddr_o  = araddr_q;
  assign m_rvalid_o  = rd_act_q && ar_done_q && (rd_err_w || s_rvalid_i[rd_sel_q]);
  assign m_rdata_o   = rd_err_w ? 32'd0 : s_rdata_i[32*rd_sel_q +: 32];
  assign m_rresp_o   = rd_err_w ? 2'b11 : s_rresp_i[2*rd_sel_q +: 2];

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_act_q  <= 1'b0;
      ar_done_q <= 1'b0;
      rd_sel_q  <= NoSub;
      araddr_q  <= 32'd0;
    end else if (!rd_act_q) begin
      if (m_arvalid_i) begin
        rd_act_q <= 1'b1;
        rd_sel_q <= decode(m_araddr_i);
        araddr_q <= m_araddr_i;
      end
    end else begin
      if (ar_hs_w) ar_done_q <= 1'b1;
      if (m_rvalid_o && m_rready_i) begin
        rd_act_q  <= 1'b0;
        ar_done_q <= 1'b0;
      end
    end
  end

  // ---- Valids and readies of the routed subordinate ----
  genvar g;
  generate
    for (g = 0; g < NumSubs; g = g + 1) begin : g_sub
      assign s_awvalid_o[g] = aw_go_w && wr_sel_q == g;
      assign s_wvalid_o[g]  = w_go_w && m_wvalid_i && wr_sel_q == g;
      assign s_bready_o[g]  = b_ok_w && m_bready_i && wr_sel_q == g;
      assign s_arvalid_o[g] = ar_go_w && rd_sel_q == g;
      assign s_rready_o[g]  = rd_act_q && ar_done_q && m_rready_i && rd_sel_q == g;
    end
  endgenerate

endmodule

`default_nettype wire
