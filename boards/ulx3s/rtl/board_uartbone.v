// SPDX-License-Identifier: Apache-2.0
//
// board_uartbone: LiteX UARTBone framing (litex/soc/cores/uart.py Stream2Wishbone) from a byte
// stream to an AXI4-Lite manager, one access at a time. Frames, multi-byte fields big-endian:
//   0x01 / 0x03  len  addr[4]  data[4] x len   write len words, incrementing / fixed address
//   0x02 / 0x04  len  addr[4]                  read len words; the reply is data[4] x len
// `addr` is a word address: the AXI address is {addr[29:0], 2'b00}. Writes get no reply. A
// byte of another command is dropped. A frame left unfinished for TimeoutClks clocks is
// abandoned (LiteX: 100 ms). An access answered SLVERR / DECERR pulses bus_err_o (a read
// still returns its data). Received bytes wait in a FIFO of 2^FifoLog2 (the PHY has no
// back-pressure); one that finds it full pulses overflow_o and is lost.

`default_nettype none

module board_uartbone #(
  parameter TimeoutClks = 10000000,
  parameter FifoLog2    = 5
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  // Bytes from the UART
  input  wire        rx_valid_i,
  output wire        rx_ready_o,   // the FIFO has room (for a byte-level host; a UART ignores it)
  input  wire [7:0]  rx_data_i,
  // Bytes to the UART
  output reg         tx_valid_o,
  input  wire        tx_ready_i,
  output reg  [7:0]  tx_data_o,
  // AXI4-Lite manager
  output reg  [31:0] m_awaddr_o,
  output reg         m_awvalid_o,
  input  wire        m_awready_i,
  output reg  [31:0] m_wdata_o,
  output wire [3:0]  m_wstrb_o,
  output reg         m_wvalid_o,
  input  wire        m_wready_i,
  input  wire [1:0]  m_bresp_i,
  input  wire        m_bvalid_i,
  output wire        m_bready_o,
  output reg  [31:0] m_araddr_o,
  output reg         m_arvalid_o,
  input  wire        m_arready_i,
  input  wire [31:0] m_rdata_i,
  input  wire [1:0]  m_rresp_i,
  input  wire        m_rvalid_i,
  output wire        m_rready_o,
  // Events
  output reg         bus_err_o,
  output reg         overflow_o,
  output wire        active_o    // a frame is in progress
);

  localparam [3:0] SCmd = 4'd0, SLen = 4'd1, SAddr = 4'd2, SWData = 4'd3, SWReq = 4'd4,
                   SWResp = 4'd5, SRReq = 4'd6, SRResp = 4'd7, SRSend = 4'd8;
  localparam TimeoutW = $clog2(TimeoutClks + 1);
  localparam Depth = 1 << FifoLog2;

  // ---- Receive FIFO ----
  reg [7:0]        fifo_mem [0:Depth-1];
  reg [FifoLog2:0] wr_ptr_q, rd_ptr_q;
  wire             fifo_empty = wr_ptr_q == rd_ptr_q;
  wire             fifo_full  = wr_ptr_q == {~rd_ptr_q[FifoLog2], rd_ptr_q[FifoLog2-1:0]};
  wire [7:0]       byte_w     = fifo_mem[rd_ptr_q[FifoLog2-1:0]];
  wire             take_w;
  assign rx_ready_o = !fifo_full;

  always @(posedge clk_i) begin
    if (rx_valid_i && !fifo_full) fifo_mem[wr_ptr_q[FifoLog2-1:0]] <= rx_data_i;
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_ptr_q   <= {(FifoLog2 + 1){1'b0}};
      rd_ptr_q   <= {(FifoLog2 + 1){1'b0}};
      overflow_o <= 1'b0;
    end else begin
      overflow_o <= rx_valid_i && fifo_full;
      if (rx_valid_i && !fifo_full) wr_ptr_q <= wr_ptr_q + 1'b1;
      if (take_w) rd_ptr_q <= rd_ptr_q + 1'b1;
    end
  end

  // ---- Frame FSM ----
  reg [3:0]          state_q;
  reg [7:0]          cmd_q;
  reg [7:0]          left_q;     // words left in the frame
  reg [1:0]          idx_q;      // byte of the field being received / sent
  reg [31:0]         addr_q;     // word address
  reg [31:0]         data_q;
  reg [TimeoutW-1:0] idle_q;     // clocks without a byte inside a frame

  wire rx_state_w = state_q == SLen || state_q == SAddr || state_q == SWData;
  assign take_w    = !fifo_empty && (state_q == SCmd || rx_state_w);
  assign m_wstrb_o  = 4'hf;
  assign m_bready_o = state_q == SWResp;
  assign m_rready_o = state_q == SRResp;
  assign active_o   = state_q != SCmd;

  wire incr_w = cmd_q == 8'h01 || cmd_q == 8'h02;
  wire read_w = cmd_q == 8'h02 || cmd_q == 8'h04;
  wire [31:0] next_addr_w = incr_w ? addr_q + 1'b1 : addr_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= SCmd;
      cmd_q       <= 8'd0;
      left_q      <= 8'd0;
      idx_q       <= 2'd0;
      addr_q      <= 32'd0;
      data_q      <= 32'd0;
      idle_q      <= {TimeoutW{1'b0}};
      m_awaddr_o  <= 32'd0;
      m_awvalid_o <= 1'b0;
      m_wdata_o   <= 32'd0;
      m_wvalid_o  <= 1'b0;
      m_araddr_o  <= 32'd0;
      m_arvalid_o <= 1'b0;
      tx_valid_o  <= 1'b0;
      tx_data_o   <= 8'd0;
      bus_err_o   <= 1'b0;
    end else begin
      bus_err_o <= 1'b0;
      idle_q    <= (rx_state_w && !take_w) ? idle_q + 1'b1 : {TimeoutW{1'b0}};
      if (rx_state_w && idle_q == TimeoutClks[TimeoutW-1:0]) begin
        state_q <= SCmd;
      end else begin
        case (state_q)
          SCmd: begin
            if (take_w && byte_w >= 8'h01 && byte_w <= 8'h04) begin
              cmd_q   <= byte_w;
              state_q <= SLen;
            end
          end
          SLen: begin
            if (take_w) begin
              left_q  <= byte_w;
              idx_q   <= 2'd0;
              state_q <= byte_w == 8'd0 ? SCmd : SAddr;
            end
          end
          SAddr: begin
            if (take_w) begin
              addr_q <= {addr_q[23:0], byte_w};
              idx_q  <= idx_q + 1'b1;
              if (idx_q == 2'd3) state_q <= read_w ? SRReq : SWData;
            end
          end
          SWData: begin
            if (take_w) begin
              data_q <= {data_q[23:0], byte_w};
              idx_q  <= idx_q + 1'b1;
              if (idx_q == 2'd3) begin
                m_awaddr_o  <= {addr_q[29:0], 2'b00};
                m_wdata_o   <= {data_q[23:0], byte_w};
                m_awvalid_o <= 1'b1;
                m_wvalid_o  <= 1'b1;
                state_q     <= SWReq;
              end
            end
          end
          SWReq: begin
            if (m_awready_i) m_awvalid_o <= 1'b0;
            if (m_wready_i) m_wvalid_o <= 1'b0;
            if ((!m_awvalid_o || m_awready_i) && (!m_wvalid_o || m_wready_i)) state_q <= SWResp;
          end
          SWResp: begin
            if (m_bvalid_i) begin
              bus_err_o <= m_bresp_i != 2'b00;
              addr_q    <= next_addr_w;
              left_q    <= left_q - 1'b1;
              state_q   <= left_q == 8'd1 ? SCmd : SWData;
            end
          end
          SRReq: begin
            if (!m_arvalid_o) begin
              m_araddr_o  <= {addr_q[29:0], 2'b00};
              m_arvalid_o <= 1'b1;
            end else if (m_arready_i) begin
              m_arvalid_o <= 1'b0;
              state_q     <= SRResp;
            end
          end
          SRResp: begin
            if (m_rvalid_i) begin
              bus_err_o <= m_rresp_i != 2'b00;
              data_q    <= m_rdata_i;
              idx_q     <= 2'd0;
              state_q   <= SRSend;
            end
          end
          SRSend: begin
            if (!tx_valid_o) begin
              tx_valid_o <= 1'b1;
              tx_data_o  <= data_q[31:24];
            end else if (tx_ready_i) begin
              tx_valid_o <= 1'b0;
              data_q     <= {data_q[23:0], 8'd0};
              idx_q      <= idx_q + 1'b1;
              if (idx_q == 2'd3) begin
                addr_q  <= next_addr_w;
                left_q  <= left_q - 1'b1;
                state_q <= left_q == 8'd1 ? SCmd : SRReq;
              end
            end
          end
          default: state_q <= SCmd;
        endcase
      end
    end
  end

endmodule

`default_nettype wire
