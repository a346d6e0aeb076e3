// SPDX-License-Identifier: Apache-2.0
//
// The ULX3S board shell at the bit level (Icarus, plain Verilog): opentma_board_top with the
// PLL bypassed and the engine replaced by stub_tma_soc_top.v, driven through its UART pins
// with LiteX UARTBone frames at CPB clocks per bit. Checks: board registers (ID, scratch,
// STATUS sticky bits and their clearing), an address nobody claims (DECERR, STATUS bit 1),
// burst and fixed-address frames, an unknown command byte dropped, a frame abandoned after
// the idle timeout, the global memory through the host port, and the engine port (the stub
// copies beats through m_axi) inside and across the window (SLVERR, STATUS bit 0).
// Prints "PASS" and finishes, or "FAIL ..." and exits through $fatal.

`timescale 1ns / 1ps
`default_nettype none

module board_shell_tb;
  parameter CPB = 4;

  reg        clk = 1'b0;
  reg        rxd = 1'b1;   // into the board (ftdi_txd)
  wire       txd;          // out of the board (ftdi_rxd)
  wire [7:0] led;
  wire       gpio0;
  integer    errors = 0;

  always #20 clk = !clk;

  opentma_board_top #(
    .UsePll      (0),
    .SysMhz      (25),
    .ClksPerBit  (CPB),
    .TimeoutClks (4000),
    .GmemBytes   (16384),
    .HeartBit    (4)
  ) dut (
    .clk_25mhz  (clk),
    .btn        (1'b1),
    .ftdi_txd   (rxd),
    .ftdi_rxd   (txd),
    .led        (led),
    .wifi_gpio0 (gpio0)
  );

  task send_byte(input [7:0] b);
    integer k;
    begin
      rxd = 1'b0;
      repeat (CPB) @(posedge clk);
      for (k = 0; k < 8; k = k + 1) begin
        rxd = b[k];
        repeat (CPB) @(posedge clk);
      end
      rxd = 1'b1;
      repeat (CPB) @(posedge clk);
    end
  endtask

  task recv_byte(output [7:0] b);
    integer k, w;
    begin
      w = 0;
      while (txd && w < 200000) begin
        @(posedge clk);
        w = w + 1;
      end
      if (w >= 200000) begin
        $display("FAIL no reply byte");
        errors = errors + 1;
      end
      repeat (CPB + CPB / 2) @(posedge clk);
      for (k = 0; k < 8; k = k + 1) begin
        b[k] = txd;
        repeat (CPB) @(posedge clk);
      end
      if (!txd) begin
        $display("FAIL stop bit low");
        errors = errors + 1;
      end
    end
  endtask

  task send_word(input [31:0] w);
    begin
      send_byte(w[31:24]);
      send_byte(w[23:16]);
      send_byte(w[15:8]);
      send_byte(w[7:0]);
    end
  endtask

  task recv_word(output [31:0] w);
    begin
      recv_byte(w[31:24]);
      recv_byte(w[23:16]);
      recv_byte(w[15:8]);
      recv_byte(w[7:0]);
    end
  endtask

  // One-word frames at byte addresses.
  task wr(input [31:0] a, input [31:0] d);
    begin
      send_byte(8'h01);
      send_byte(8'd1);
      send_word(a >> 2);
      send_word(d);
      repeat (60) @(posedge clk);  // the write lands before the next frame's first access
    end
  endtask

  task rd(input [31:0] a, output [31:0] d);
    begin
      send_byte(8'h02);
      send_byte(8'd1);
      send_word(a >> 2);
      recv_word(d);
    end
  endtask

  task expect_eq(input [31:0] got, input [31:0] want, input [8*40-1:0] what);
    begin
      if (got !== want) begin
        $display("FAIL %0s: got %h, want %h", what, got, want);
        errors = errors + 1;
      end
    end
  endtask

  // Polls the stub's STATUS until done (bit 0), 50 reads at most.
  task stub_wait(output [31:0] st);
    integer k;
    begin
      st = 0;
      for (k = 0; k < 50 && !(st & 1); k = k + 1) rd(32'h10, st);
    end
  endtask

  localparam [31:0] Csr = 32'h2000_0000, Gmem = 32'h1000_0000;
  reg [31:0] v, v2;
  integer    i;

  initial begin
    repeat (20) @(posedge clk);
    rd(Csr + 32'h00, v);
    expect_eq(v, 32'h4f54_4d42, "board ID");
    rd(Csr + 32'h04, v);
    expect_eq(v, 32'd16384, "GMEM_BYTES");
    wr(Csr + 32'h1c, 32'hcafe_f00d);
    rd(Csr + 32'h1c, v);
    expect_eq(v, 32'hcafe_f00d, "scratch");

    // Nobody answers 0x3000_0000: DECERR, data 0, STATUS bit 1; W1C clears it.
    rd(32'h3000_0000, v);
    expect_eq(v, 32'd0, "DECERR read data");
    rd(Csr + 32'h14, v);
    expect_eq(v & 32'h7, 32'h2, "STATUS after DECERR");
    wr(Csr + 32'h14, 32'h2);
    rd(Csr + 32'h14, v);
    expect_eq(v & 32'h7, 32'h0, "STATUS cleared");

    // Burst write of 4 words into global memory, burst read back.
    send_byte(8'h01);
    send_byte(8'd4);
    send_word((Gmem + 32'h100) >> 2);
    for (i = 0; i < 4; i = i + 1) send_word(32'h1111_1111 * (i + 1));
    repeat (60) @(posedge clk);
    send_byte(8'h02);
    send_byte(8'd4);
    send_word((Gmem + 32'h100) >> 2);
    for (i = 0; i < 4; i = i + 1) begin
      recv_word(v);
      expect_eq(v, 32'h1111_1111 * (i + 1), "gmem burst read");
    end

    // Fixed-address read (0x04) of the scratch register twice, after a dropped 0x55 byte.
    send_byte(8'h55);
    send_byte(8'h04);
    send_byte(8'd2);
    send_word((Csr + 32'h1c) >> 2);
    recv_word(v);
    recv_word(v2);
    expect_eq(v, 32'hcafe_f00d, "fixed read 1");
    expect_eq(v2, 32'hcafe_f00d, "fixed read 2");

    // An abandoned frame (command and length, then silence past the timeout).
    send_byte(8'h02);
    send_byte(8'd1);
    repeat (5000) @(posedge clk);
    rd(Csr + 32'h00, v);
    expect_eq(v, 32'h4f54_4d42, "ID after an abandoned frame");

    // Engine port: the window at 0x7000_0000_0000, 8 KiB; the stub copies 4 beats from
    // base + 0x100 to base + 0x1100.
    wr(Csr + 32'h08, 32'h0000_0000);
    wr(Csr + 32'h0c, 32'h0000_7000);
    wr(Csr + 32'h10, 32'h2000);
    for (i = 0; i < 16; i = i + 1) wr(Gmem + 32'h100 + 4 * i, 32'h0101_0101 * i + 32'h0a0b_0c0d);
    wr(32'h08, 32'h0000_0100);
    wr(32'h0c, 32'h0000_7000);
    wr(32'h04, 32'd4);
    stub_wait(v);
    expect_eq(v, 32'h1, "stub copy status (done, no error)");
    for (i = 0; i < 16; i = i + 1) begin
      rd(Gmem + 32'h1100 + 4 * i, v);
      expect_eq(v, 32'h0101_0101 * i + 32'h0a0b_0c0d, "engine copy through the window");
    end
    rd(Csr + 32'h14, v);
    expect_eq(v & 32'h7, 32'h0, "STATUS after the copy");

    // A read burst held unanswered while a write burst goes first (GO2): both complete.
    wr(32'h14, 32'd4);
    stub_wait(v);
    expect_eq(v, 32'h1, "write burst while a read burst waits");

    // The window ends 8 bytes into the destination: the write burst gets SLVERR.
    wr(Csr + 32'h10, 32'h1108);
    wr(32'h04, 32'd4);
    stub_wait(v);
    expect_eq(v, 32'h3, "stub copy status (done, error)");
    rd(Csr + 32'h14, v);
    expect_eq(v & 32'h7, 32'h1, "STATUS after a beat past the window");
    // A read below the window base is out of it too.
    wr(Csr + 32'h10, 32'h2000);
    wr(Csr + 32'h14, 32'h7);
    wr(32'h08, 32'hffff_ff00);
    wr(32'h0c, 32'h0000_6fff);
    wr(32'h04, 32'd1);
    stub_wait(v);
    expect_eq(v, 32'h3, "stub read below the window");

    // The host port past GMEM_BYTES: SLVERR (STATUS bit 1).
    wr(Csr + 32'h14, 32'h7);
    rd(Gmem + 32'h4000, v);
    rd(Csr + 32'h14, v);
    expect_eq(v & 32'h7, 32'h2, "STATUS after a host access past the RAM");
    expect_eq({31'd0, gpio0}, 32'd1, "wifi_gpio0 high");

    if (errors == 0) begin
      $display("PASS board shell at %0d clocks per bit", CPB);
      $finish;
    end
    $fatal(1, "FAIL %0d checks", errors);
  end
endmodule

`default_nettype wire
