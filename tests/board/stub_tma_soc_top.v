// SPDX-License-Identifier: Apache-2.0
//
// A stand-in for tma_soc_top in the board shell test (board_shell_tb.v; plain Verilog, so
// Icarus runs the board top without the SystemVerilog core). s_axil: 0x00 a scratch register,
// 0x04 GO (write N: copy N 16-byte beats from SRC to SRC + 0x1000 through m_axi, one read burst
// then one write burst), 0x08 SRC low, 0x0c SRC high, 0x10 STATUS (bit 0 done, bit 1 a response
// was not OKAY), 0x14 GO2 (write N: a read burst of N beats from SRC and, before taking any of
// its R beats, a write burst of the N beats held from the last copy to SRC + 0x1000; then the R
// beats: a subordinate that serves the channels one burst at a time deadlocks here); other
// offsets SLVERR. irq_o is STATUS.done.

`default_nettype none

module tma_soc_top #(
  parameter DataBytes = 16, NumCtas = 4, SmemBytes = 16384, MbarSlots = 4, CplFifoDepth = 16,
  parameter DescCacheEntries = 4, MaxOutstanding = 512, MaxBurstLen = 16, RowFifoDepth = 512,
  parameter Arch = 90
) (
  input  wire                   clk_i,
  input  wire                   rst_ni,
  input  wire                   s_axil_awvalid_i,
  output wire                   s_axil_awready_o,
  input  wire [20:0]            s_axil_awaddr_i,
  input  wire [2:0]             s_axil_awprot_i,
  input  wire                   s_axil_wvalid_i,
  output wire                   s_axil_wready_o,
  input  wire [31:0]            s_axil_wdata_i,
  input  wire [3:0]             s_axil_wstrb_i,
  output reg                    s_axil_bvalid_o,
  input  wire                   s_axil_bready_i,
  output reg  [1:0]             s_axil_bresp_o,
  input  wire                   s_axil_arvalid_i,
  output wire                   s_axil_arready_o,
  input  wire [20:0]            s_axil_araddr_i,
  input  wire [2:0]             s_axil_arprot_i,
  output reg                    s_axil_rvalid_o,
  input  wire                   s_axil_rready_i,
  output reg  [31:0]            s_axil_rdata_o,
  output reg  [1:0]             s_axil_rresp_o,
  output reg                    m_axi_arvalid_o,
  input  wire                   m_axi_arready_i,
  output wire [3:0]             m_axi_arid_o,
  output wire [63:0]            m_axi_araddr_o,
  output wire [7:0]             m_axi_arlen_o,
  output wire [2:0]             m_axi_arsize_o,
  output wire [1:0]             m_axi_arburst_o,
  input  wire                   m_axi_rvalid_i,
  output wire                   m_axi_rready_o,
  input  wire [3:0]             m_axi_rid_i,
  input  wire [DataBytes*8-1:0] m_axi_rdata_i,
  input  wire [1:0]             m_axi_rresp_i,
  input  wire                   m_axi_rlast_i,
  output reg                    m_axi_awvalid_o,
  input  wire                   m_axi_awready_i,
  output wire [3:0]             m_axi_awid_o,
  output wire [63:0]            m_axi_awaddr_o,
  output wire [7:0]             m_axi_awlen_o,
  output wire [2:0]             m_axi_awsize_o,
  output wire [1:0]             m_axi_awburst_o,
  output reg                    m_axi_wvalid_o,
  input  wire                   m_axi_wready_i,
  output wire [DataBytes*8-1:0] m_axi_wdata_o,
  output wire [DataBytes-1:0]   m_axi_wstrb_o,
  output wire                   m_axi_wlast_o,
  input  wire                   m_axi_bvalid_i,
  output wire                   m_axi_bready_o,
  input  wire [3:0]             m_axi_bid_i,
  input  wire [1:0]             m_axi_bresp_i,
  output wire                   irq_o
);
  reg [31:0] scratch, n;
  reg [63:0] src;
  reg [1:0]  st;    // bit 0 done, bit 1 error
  reg [3:0]  phase; // 0 idle, 1 AR, 2 R, 3 AW, 4 W, 5 B; GO2: 6 AR, 7 AW, 8 W, 9 B, 10 R
  reg        two;   // GO2
  reg [7:0]  cnt;
  reg [DataBytes*8-1:0] beats [0:15];

  wire wr = s_axil_awvalid_i && s_axil_wvalid_i && !s_axil_bvalid_o;
  wire rd = s_axil_arvalid_i && !s_axil_rvalid_o;
  assign s_axil_awready_o = wr;
  assign s_axil_wready_o  = wr;
  assign s_axil_arready_o = rd;
  assign m_axi_arid_o = 4'd3;
  assign m_axi_awid_o = 4'd5;
  assign m_axi_araddr_o = src;
  assign m_axi_awaddr_o = src + 64'h1000;
  assign m_axi_arlen_o = n[7:0] - 8'd1;
  assign m_axi_awlen_o = n[7:0] - 8'd1;
  assign m_axi_arsize_o = 3'd4;
  assign m_axi_awsize_o = 3'd4;
  assign m_axi_arburst_o = 2'b01;
  assign m_axi_awburst_o = 2'b01;
  assign m_axi_rready_o = phase == 4'd2 || phase == 4'd10;
  assign m_axi_wdata_o = beats[cnt[3:0]];
  assign m_axi_wstrb_o = {DataBytes{1'b1}};
  assign m_axi_wlast_o = cnt == n[7:0] - 8'd1;
  assign m_axi_bready_o = phase == 4'd5 || phase == 4'd9;
  assign irq_o = st[0];

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      scratch <= 0; n <= 0; src <= 0; st <= 0; phase <= 0; cnt <= 0; two <= 0;
      s_axil_bvalid_o <= 0; s_axil_bresp_o <= 0; s_axil_rvalid_o <= 0; s_axil_rdata_o <= 0;
      s_axil_rresp_o <= 0; m_axi_arvalid_o <= 0; m_axi_awvalid_o <= 0; m_axi_wvalid_o <= 0;
    end else begin
      if (s_axil_bvalid_o && s_axil_bready_i) s_axil_bvalid_o <= 0;
      if (s_axil_rvalid_o && s_axil_rready_i) s_axil_rvalid_o <= 0;
      if (wr) begin
        s_axil_bvalid_o <= 1;
        s_axil_bresp_o  <= 2'b00;
        case (s_axil_awaddr_i)
          21'h00: scratch <= s_axil_wdata_i;
          21'h04: begin n <= s_axil_wdata_i; st <= 0; phase <= 1; cnt <= 0; m_axi_arvalid_o <= 1; end
          21'h14: begin n <= s_axil_wdata_i; st <= 0; phase <= 6; cnt <= 0; m_axi_arvalid_o <= 1; end
          21'h08: src[31:0] <= s_axil_wdata_i;
          21'h0c: src[63:32] <= s_axil_wdata_i;
          default: s_axil_bresp_o <= 2'b10;
        endcase
      end
      if (rd) begin
        s_axil_rvalid_o <= 1;
        s_axil_rresp_o  <= 2'b00;
        case (s_axil_araddr_i)
          21'h00: s_axil_rdata_o <= scratch;
          21'h10: s_axil_rdata_o <= {30'd0, st};
          default: begin s_axil_rdata_o <= 0; s_axil_rresp_o <= 2'b10; end
        endcase
      end
      case (phase)
        4'd1: if (m_axi_arready_i) begin m_axi_arvalid_o <= 0; phase <= 2; end
        4'd6: if (m_axi_arready_i) begin m_axi_arvalid_o <= 0; m_axi_awvalid_o <= 1; phase <= 7; end
        4'd7: if (m_axi_awready_i) begin m_axi_awvalid_o <= 0; m_axi_wvalid_o <= 1; phase <= 8; end
        4'd8: if (m_axi_wready_i) begin
          cnt <= cnt + 1;
          if (m_axi_wlast_o) begin m_axi_wvalid_o <= 0; phase <= 9; end
        end
        4'd9: if (m_axi_bvalid_i) begin
          if (m_axi_bresp_i != 2'b00 || m_axi_bid_i != 4'd5) st[1] <= 1;
          phase <= 10; cnt <= 0;
        end
        4'd2, 4'd10: if (m_axi_rvalid_i) begin
          beats[cnt[3:0]] <= m_axi_rdata_i;
          if (m_axi_rresp_i != 2'b00 || m_axi_rid_i != 4'd3) st[1] <= 1;
          cnt <= cnt + 1;
          if (m_axi_rlast_i) begin
            if (cnt != n[7:0] - 8'd1) st[1] <= 1;
            cnt <= 0;
            if (phase == 4'd10) begin st[0] <= 1; phase <= 0; end
            else begin phase <= 3; m_axi_awvalid_o <= 1; end
          end
        end
        4'd3: if (m_axi_awready_i) begin m_axi_awvalid_o <= 0; m_axi_wvalid_o <= 1; phase <= 4; end
        4'd4: if (m_axi_wready_i) begin
          cnt <= cnt + 1;
          if (m_axi_wlast_o) begin m_axi_wvalid_o <= 0; phase <= 5; end
        end
        4'd5: if (m_axi_bvalid_i) begin
          if (m_axi_bresp_i != 2'b00 || m_axi_bid_i != 4'd5) st[1] <= 1;
          st[0] <= 1; phase <= 0;
        end
        default: ;
      endcase
    end
  end
  wire unused = &{1'b0, s_axil_awprot_i, s_axil_arprot_i, s_axil_wstrb_i, two};
endmodule

`default_nettype wire
