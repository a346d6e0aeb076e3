// SPDX-License-Identifier: Apache-2.0
//
// opentma_board_top: OpenTMA on the ULX3S-85F (docs/board.md). Plain Verilog:
//
//   clk_25mhz -> ulx3s_pll (SysMhz) -> one clock domain for everything below
//   ftdi_txd/ftdi_rxd <-> board_uart_phy (ClksPerBit) <-> board_core (the UARTBone bridge, the
//     AXI4-Lite crossbar, opentma_axi, the global memory, the board registers, the LEDs)
//   led[0] heartbeat, led[1] engine busy (AXI4 traffic, stretched), led[2] irq, led[3] an
//   error seen (board STATUS), led[4] UART frame activity, led[7:5] off.
//
// Reset: the PLL's lock, the power-on counter and btn[0] (PWR, active low), synchronised.

`default_nettype none

module opentma_board_top #(
  parameter UsePll      = 1,
  parameter SysMhz      = 100,
  parameter BaudRate    = 3000000,
  parameter ClksPerBit  = (SysMhz * 1000000 + BaudRate / 2) / BaudRate,
  parameter TimeoutClks = SysMhz * 100000,   // 100 ms: an unfinished UARTBone frame is dropped
  parameter GmemBytes   = 262144,
  parameter DataBytes   = 16,
  parameter NumCtas     = 4,
  parameter SmemBytes   = 16384,
  parameter MbarSlots   = 4,
  parameter Arch        = 103,               // newest architecture the engine obeys (90, 100, 103)
  parameter StorePath   = 1,                 // 0: the engine without its write direction
  parameter HeartBit    = 26                 // led[0] toggles every 2^HeartBit clocks
) (
  input  wire       clk_25mhz,
  input  wire [0:0] btn,         // PWR button, low when pressed
  input  wire       ftdi_txd,    // FTDI -> FPGA
  output wire       ftdi_rxd,    // FPGA -> FTDI
  output wire [7:0] led,
  output wire       wifi_gpio0   // high: the ESP32 leaves the FPGA alone
);

  // ---- Clock and reset ----
  wire clk, locked;
  ulx3s_pll #(.UsePll(UsePll), .SysMhz(SysMhz)) u_pll (
    .clk_25_i (clk_25mhz),
    .clk_o    (clk),
    .locked_o (locked)
  );

  reg [3:0] por_q = 4'd0;
  reg [1:0] rst_sync_q = 2'b00;
  wire      rst_req_w = !locked || !btn[0] || !por_q[3];
  wire      rst_n = rst_sync_q[1];
  always @(posedge clk) begin
    if (!por_q[3]) por_q <= por_q + 1'b1;
    rst_sync_q <= rst_req_w ? 2'b00 : {rst_sync_q[0], 1'b1};
  end

  assign wifi_gpio0 = 1'b1;

  // ---- UART ----
  wire       rx_valid, tx_valid, tx_ready;
  wire [7:0] rx_data, tx_data;
  board_uart_phy #(.ClksPerBit(ClksPerBit)) u_uart (
    .clk_i      (clk),
    .rst_ni     (rst_n),
    .rx_i       (ftdi_txd),
    .tx_o       (ftdi_rxd),
    .rx_valid_o (rx_valid),
    .rx_data_o  (rx_data),
    .tx_valid_i (tx_valid),
    .tx_ready_o (tx_ready),
    .tx_data_i  (tx_data)
  );

  // ---- Everything behind the PHY ----
  wire rx_room;
  board_core #(
    .SysMhz      (SysMhz),
    .TimeoutClks (TimeoutClks),
    .GmemBytes   (GmemBytes),
    .DataBytes   (DataBytes),
    .NumCtas     (NumCtas),
    .SmemBytes   (SmemBytes),
    .MbarSlots   (MbarSlots),
    .Arch        (Arch),
    .StorePath   (StorePath),
    .HeartBit    (HeartBit),
    .UseEbr      (UsePll)
  ) u_core (
    .clk_i      (clk),
    .rst_ni     (rst_n),
    .rx_valid_i (rx_valid),
    .rx_ready_o (rx_room),       // the UART has no flow control: unused
    .rx_data_i  (rx_data),
    .tx_valid_o (tx_valid),
    .tx_ready_i (tx_ready),
    .tx_data_o  (tx_data),
    .led_o      (led)
  );

  wire unused_w = &{1'b0, BaudRate[0], rx_room};

endmodule

`default_nettype wire
