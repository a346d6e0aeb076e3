// SPDX-License-Identifier: Apache-2.0
//
// board_uart_phy: 8N1 UART, ClksPerBit system clocks per bit (>= 4; 33 gives 3.03 Mbaud at
// 100 MHz, within the 1 % the FT231X and the receiver below tolerate). The receiver
// synchronises rx_i through two flops, finds the start bit's falling edge, samples each bit in
// its middle and drops a frame whose stop bit is low. The transmitter takes a byte when
// tx_ready_o (valid/ready) and sends start, 8 data bits LSB first, stop.

`default_nettype none

module board_uart_phy #(
  parameter ClksPerBit = 33
) (
  input  wire       clk_i,
  input  wire       rst_ni,
  // Serial pins
  input  wire       rx_i,
  output wire       tx_o,
  // Received bytes (no back-pressure: a byte is lost if nobody takes it that cycle)
  output reg        rx_valid_o,
  output reg  [7:0] rx_data_o,
  // Bytes to send
  input  wire       tx_valid_i,
  output wire       tx_ready_o,
  input  wire [7:0] tx_data_i
);

  localparam CntW = $clog2(ClksPerBit + ClksPerBit / 2 + 1);
  localparam integer    FirstW = ClksPerBit + ClksPerBit / 2 - 1;  // start edge -> bit 0
  localparam integer    BitW   = ClksPerBit - 1;
  localparam [CntW-1:0] FirstWait = FirstW[CntW-1:0];
  localparam [CntW-1:0] BitWait   = BitW[CntW-1:0];

  // ---- Receiver ----
  reg            rx_s1_q, rx_s2_q;  // synchroniser
  reg            rx_busy_q;
  reg [CntW-1:0] rx_cnt_q;          // clocks left to the next sample
  reg [3:0]      rx_bit_q;          // 0..7 data, 8 stop
  reg [7:0]      rx_shift_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rx_s1_q    <= 1'b1;
      rx_s2_q    <= 1'b1;
      rx_busy_q  <= 1'b0;
      rx_cnt_q   <= {CntW{1'b0}};
      rx_bit_q   <= 4'd0;
      rx_shift_q <= 8'd0;
      rx_valid_o <= 1'b0;
      rx_data_o  <= 8'd0;
    end else begin
      rx_s1_q    <= rx_i;
      rx_s2_q    <= rx_s1_q;
      rx_valid_o <= 1'b0;
      if (!rx_busy_q) begin
        if (!rx_s2_q) begin
          // Start bit: the first data bit's middle is 1.5 bits away.
          rx_busy_q <= 1'b1;
          rx_cnt_q  <= FirstWait;
          rx_bit_q  <= 4'd0;
        end
      end else if (rx_cnt_q != {CntW{1'b0}}) begin
        rx_cnt_q <= rx_cnt_q - 1'b1;
      end else if (rx_bit_q == 4'd8) begin
        rx_busy_q  <= 1'b0;
        rx_valid_o <= rx_s2_q;  // a low stop bit is a framing error: the byte is dropped
        rx_data_o  <= rx_shift_q;
      end else begin
        rx_shift_q <= {rx_s2_q, rx_shift_q[7:1]};
        rx_bit_q   <= rx_bit_q + 1'b1;
        rx_cnt_q   <= BitWait;
      end
    end
  end

  // ---- Transmitter ----
  reg            tx_busy_q;
  reg [CntW-1:0] tx_cnt_q;
  reg [3:0]      tx_bit_q;    // bits left to send after the current one
  reg [8:0]      tx_shift_q;  // {stop, data}; bit 0 leaves after the start bit
  reg            tx_q;

  assign tx_ready_o = !tx_busy_q;
  assign tx_o       = tx_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tx_busy_q  <= 1'b0;
      tx_cnt_q   <= {CntW{1'b0}};
      tx_bit_q   <= 4'd0;
      tx_shift_q <= 9'h1ff;
      tx_q       <= 1'b1;
    end else if (!tx_busy_q) begin
      if (tx_valid_i) begin
        tx_busy_q  <= 1'b1;
        tx_q       <= 1'b0;  // start bit
        tx_shift_q <= {1'b1, tx_data_i};
        tx_bit_q   <= 4'd9;
        tx_cnt_q   <= BitWait;
      end
    end else if (tx_cnt_q != {CntW{1'b0}}) begin
      tx_cnt_q <= tx_cnt_q - 1'b1;
    end else if (tx_bit_q == 4'd0) begin
      tx_busy_q <= 1'b0;
    end else begin
      tx_q       <= tx_shift_q[0];
      tx_shift_q <= {1'b1, tx_shift_q[8:1]};
      tx_bit_q   <= tx_bit_q - 1'b1;
      tx_cnt_q   <= BitWait;
    end
  end

endmodule

`default_nettype wire
