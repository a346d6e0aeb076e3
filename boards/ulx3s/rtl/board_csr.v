// SPDX-License-Identifier: Apache-2.0
//
// board_csr: the ULX3S board's own registers (AXI4-Lite, 32-bit; docs/board.md):
//   0x00 ID          RO  0x4f544d42 ("OTMB")
//   0x04 GMEM_BYTES  RO  block-RAM global memory size
//   0x08 GMEM_BASE_LO, 0x0c GMEM_BASE_HI  RW  engine address of RAM byte 0
//   0x10 GMEM_LIMIT  RW  bytes of the window the engine may use (beats past it: SLVERR)
//   0x14 STATUS      W1C bit 0 gmem SLVERR seen, bit 1 host-link SLVERR/DECERR seen, bit 2 UART
//                        receive FIFO overflow; RO bit 3 irq, bit 4 engine busy (LED)
//   0x18 SYS_HZ      RO  system clock in Hz
//   0x1c SCRATCH     RW
//   0x20 DATA_BYTES  RO  engine AXI4 data bytes
// Other offsets answer SLVERR.

`default_nettype none

module board_csr #(
  parameter GmemBytes = 262144,
  parameter SysHz     = 100000000,
  parameter DataBytes = 16
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire [31:0] awaddr_i,
  input  wire        awvalid_i,
  output wire        awready_o,
  input  wire [31:0] wdata_i,
  input  wire [3:0]  wstrb_i,
  input  wire        wvalid_i,
  output wire        wready_o,
  output reg  [1:0]  bresp_o,
  output reg         bvalid_o,
  input  wire        bready_i,
  input  wire [31:0] araddr_i,
  input  wire        arvalid_i,
  output wire        arready_o,
  output reg  [31:0] rdata_o,
  output reg  [1:0]  rresp_o,
  output reg         rvalid_o,
  input  wire        rready_i,
  // Board state
  output reg  [63:0] gmem_base_o,
  output reg  [31:0] gmem_limit_o,
  input  wire        gmem_err_i,
  input  wire        link_err_i,
  input  wire        overflow_i,
  input  wire        irq_i,
  input  wire        busy_i,
  output wire [2:0]  sticky_o     // STATUS bits 2..0
);

  reg [2:0]  sticky_q;
  reg [31:0] scratch_q;

  wire       wr_go_w = awvalid_i && wvalid_i && !bvalid_o;
  wire       rd_go_w = arvalid_i && !rvalid_o;
  wire [7:0] woff_w  = awaddr_i[7:0];
  wire [7:0] roff_w  = araddr_i[7:0];
  wire       wr_ok_w = awaddr_i[11:8] == 4'd0 && wstrb_i == 4'hf &&
                       (woff_w == 8'h08 || woff_w == 8'h0c || woff_w == 8'h10 ||
                        woff_w == 8'h14 || woff_w == 8'h1c);

  assign sticky_o  = sticky_q;
  assign awready_o = wr_go_w;
  assign wready_o  = wr_go_w;
  assign arready_o = rd_go_w;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bresp_o      <= 2'b00;
      bvalid_o     <= 1'b0;
      rdata_o      <= 32'd0;
      rresp_o      <= 2'b00;
      rvalid_o     <= 1'b0;
      gmem_base_o  <= 64'd0;
      gmem_limit_o <= 32'd0;
      sticky_q     <= 3'd0;
      scratch_q    <= 32'd0;
    end else begin
      sticky_q <= sticky_q | {overflow_i, link_err_i, gmem_err_i};
      if (bvalid_o && bready_i) bvalid_o <= 1'b0;
      if (rvalid_o && rready_i) rvalid_o <= 1'b0;
      if (wr_go_w) begin
        bvalid_o <= 1'b1;
        bresp_o  <= wr_ok_w ? 2'b00 : 2'b10;
        if (wr_ok_w) begin
          case (woff_w)
            8'h08: gmem_base_o[31:0] <= wdata_i;
            8'h0c: gmem_base_o[63:32] <= wdata_i;
            8'h10: gmem_limit_o <= wdata_i;
            8'h14: sticky_q <= (sticky_q & ~wdata_i[2:0]) | {overflow_i, link_err_i, gmem_err_i};
            default: scratch_q <= wdata_i;
          endcase
        end
      end
      if (rd_go_w) begin
        rvalid_o <= 1'b1;
        rresp_o  <= 2'b00;
        rdata_o  <= 32'd0;
        if (araddr_i[11:8] != 4'd0) begin
          rresp_o <= 2'b10;
        end else begin
          case (roff_w)
            8'h00: rdata_o <= 32'h4f54_4d42;
            8'h04: rdata_o <= GmemBytes;
            8'h08: rdata_o <= gmem_base_o[31:0];
            8'h0c: rdata_o <= gmem_base_o[63:32];
            8'h10: rdata_o <= gmem_limit_o;
            8'h14: rdata_o <= {27'd0, busy_i, irq_i, sticky_q};
            8'h18: rdata_o <= SysHz;
            8'h1c: rdata_o <= scratch_q;
            8'h20: rdata_o <= DataBytes;
            default: rresp_o <= 2'b10;
          endcase
        end
      end
    end
  end

  wire unused_w = &{1'b0, awaddr_i[31:12], araddr_i[31:12]};

endmodule

`default_nettype wire
