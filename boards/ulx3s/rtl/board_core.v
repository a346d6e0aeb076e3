// SPDX-License-Identifier: Apache-2.0
//
// board_core: the ULX3S board's logic behind the UART PHY (docs/board.md), in one clock domain:
//
//   bytes <-> board_uartbone (LiteX UARTBone framing -> AXI4-Lite manager) -> board_axil_xbar:
//       0x0000_0000 .. 0x001f_ffff  opentma_axi s_axil (CSRs, shared-memory windows)
//       0x1000_0000 .. 0x1fff_ffff  board_gmem host port (RAM byte = address mod 2^28)
//       0x2000_0000 .. 0x2000_0fff  board_csr (ID, global-memory window, status)
//   opentma_axi m_axi -> board_gmem engine port (GmemBytes of block RAM, the window the host
//     sets in board_csr)
//   led_o[0] heartbeat, [1] engine busy (AXI4 traffic, stretched), [2] irq, [3] an error seen
//   (board STATUS), [4] UART frame activity, [7:5] off.
//
// opentma_board_top puts the PLL, the reset synchroniser and the UART PHY in front of it. The
// byte port is the PHY's: rx_valid_i without back-pressure (a byte that finds the bridge's FIFO
// full is lost and counted in the board STATUS); rx_ready_o (that FIFO not full) is for a
// byte-level host, the fast board simulation, and is left open on the board.

`default_nettype none

module board_core #(
  parameter SysMhz      = 100,
  parameter TimeoutClks = SysMhz * 100000,   // 100 ms: an unfinished UARTBone frame is dropped
  parameter GmemBytes   = 262144,
  parameter DataBytes   = 16,
  parameter NumCtas     = 4,
  parameter SmemBytes   = 16384,
  parameter MbarSlots   = 4,
  parameter Arch        = 103,               // newest architecture the engine obeys (90, 100, 103)
  parameter StorePath   = 1,                 // 0: the engine without its write direction
  parameter HeartBit    = 26,                // led_o[0] toggles every 2^HeartBit clocks
  parameter UseEbr      = 1                  // board_gmem: ECP5 DP16KD output registers
) (
  input  wire       clk_i,
  input  wire       rst_ni,
  // Bytes from the host (the UART PHY's receiver)
  input  wire       rx_valid_i,
  output wire       rx_ready_o,
  input  wire [7:0] rx_data_i,
  // Bytes to the host (the UART PHY's transmitter)
  output wire       tx_valid_o,
  input  wire       tx_ready_i,
  output wire [7:0] tx_data_o,
  output wire [7:0] led_o
);

  localparam DW = DataBytes * 8;

  wire [31:0] br_awaddr, br_wdata, br_araddr, br_rdata;
  wire [3:0]  br_wstrb;
  wire [1:0]  br_bresp, br_rresp;
  wire        br_awvalid, br_awready, br_wvalid, br_wready, br_bvalid, br_bready;
  wire        br_arvalid, br_arready, br_rvalid, br_rready;
  wire        link_err, overflow, link_active;
  board_uartbone #(.TimeoutClks(TimeoutClks)) u_bridge (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .rx_valid_i  (rx_valid_i),
    .rx_ready_o  (rx_ready_o),
    .rx_data_i   (rx_data_i),
    .tx_valid_o  (tx_valid_o),
    .tx_ready_i  (tx_ready_i),
    .tx_data_o   (tx_data_o),
    .m_awaddr_o  (br_awaddr),
    .m_awvalid_o (br_awvalid),
    .m_awready_i (br_awready),
    .m_wdata_o   (br_wdata),
    .m_wstrb_o   (br_wstrb),
    .m_wvalid_o  (br_wvalid),
    .m_wready_i  (br_wready),
    .m_bresp_i   (br_bresp),
    .m_bvalid_i  (br_bvalid),
    .m_bready_o  (br_bready),
    .m_araddr_o  (br_araddr),
    .m_arvalid_o (br_arvalid),
    .m_arready_i (br_arready),
    .m_rdata_i   (br_rdata),
    .m_rresp_i   (br_rresp),
    .m_rvalid_i  (br_rvalid),
    .m_rready_o  (br_rready),
    .bus_err_o   (link_err),
    .overflow_o  (overflow),
    .active_o    (link_active)
  );

  // ---- Crossbar: 0 SoC, 1 global memory, 2 board registers ----
  wire [31:0] xs_awaddr, xs_wdata, xs_araddr;
  wire [3:0]  xs_wstrb;
  wire [2:0]  xs_awvalid, xs_awready, xs_wvalid, xs_wready, xs_bvalid, xs_bready;
  wire [2:0]  xs_arvalid, xs_arready, xs_rvalid, xs_rready;
  wire [5:0]  xs_bresp, xs_rresp;
  wire [95:0] xs_rdata;
  board_axil_xbar #(
    .NumSubs (3),
    .Bases   ({32'h2000_0000, 32'h1000_0000, 32'h0000_0000}),
    .Masks   ({32'hffff_f000, 32'hf000_0000, 32'hffe0_0000})
  ) u_xbar (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .m_awaddr_i  (br_awaddr),
    .m_awvalid_i (br_awvalid),
    .m_awready_o (br_awready),
    .m_wdata_i   (br_wdata),
    .m_wstrb_i   (br_wstrb),
    .m_wvalid_i  (br_wvalid),
    .m_wready_o  (br_wready),
    .m_bresp_o   (br_bresp),
    .m_bvalid_o  (br_bvalid),
    .m_bready_i  (br_bready),
    .m_araddr_i  (br_araddr),
    .m_arvalid_i (br_arvalid),
    .m_arready_o (br_arready),
    .m_rdata_o   (br_rdata),
    .m_rresp_o   (br_rresp),
    .m_rvalid_o  (br_rvalid),
    .m_rready_i  (br_rready),
    .s_awaddr_o  (xs_awaddr),
    .s_awvalid_o (xs_awvalid),
    .s_awready_i (xs_awready),
    .s_wdata_o   (xs_wdata),
    .s_wstrb_o   (xs_wstrb),
    .s_wvalid_o  (xs_wvalid),
    .s_wready_i  (xs_wready),
    .s_bresp_i   (xs_bresp),
    .s_bvalid_i  (xs_bvalid),
    .s_bready_o  (xs_bready),
    .s_araddr_o  (xs_araddr),
    .s_arvalid_o (xs_arvalid),
    .s_arready_i (xs_arready),
    .s_rdata_i   (xs_rdata),
    .s_rresp_i   (xs_rresp),
    .s_rvalid_i  (xs_rvalid),
    .s_rready_o  (xs_rready)
  );

  // ---- The engine (the SoC top through its Verilog-2001 wrapper) ----
  wire [3:0]    m_awid, m_arid, m_bid, m_rid;
  wire [63:0]   m_awaddr, m_araddr;
  wire [7:0]    m_awlen, m_arlen;
  wire [2:0]    m_awsize, m_arsize, m_awprot, m_arprot;
  wire [1:0]    m_awburst, m_arburst, m_bresp, m_rresp;
  wire          m_awlock, m_arlock;
  wire [3:0]    m_awcache, m_arcache, m_awqos, m_arqos;
  wire          m_awvalid, m_awready, m_wlast, m_wvalid, m_wready, m_bvalid, m_bready;
  wire          m_arvalid, m_arready, m_rlast, m_rvalid, m_rready;
  wire [DW-1:0] m_wdata, m_rdata;
  wire [DataBytes-1:0] m_wstrb;
  wire          irq;

  opentma_axi #(
    .DATA_BYTES (DataBytes),
    .NUM_CTAS   (NumCtas),
    .SMEM_BYTES (SmemBytes),
    .MBAR_SLOTS (MbarSlots),
    .ARCH       (Arch),
    .STORE_PATH (StorePath)
  ) u_tma (
    .aclk           (clk_i),
    .aresetn        (rst_ni),
    .s_axil_awaddr  (xs_awaddr[20:0]),
    .s_axil_awprot  (3'b000),
    .s_axil_awvalid (xs_awvalid[0]),
    .s_axil_awready (xs_awready[0]),
    .s_axil_wdata   (xs_wdata),
    .s_axil_wstrb   (xs_wstrb),
    .s_axil_wvalid  (xs_wvalid[0]),
    .s_axil_wready  (xs_wready[0]),
    .s_axil_bresp   (xs_bresp[1:0]),
    .s_axil_bvalid  (xs_bvalid[0]),
    .s_axil_bready  (xs_bready[0]),
    .s_axil_araddr  (xs_araddr[20:0]),
    .s_axil_arprot  (3'b000),
    .s_axil_arvalid (xs_arvalid[0]),
    .s_axil_arready (xs_arready[0]),
    .s_axil_rdata   (xs_rdata[31:0]),
    .s_axil_rresp   (xs_rresp[1:0]),
    .s_axil_rvalid  (xs_rvalid[0]),
    .s_axil_rready  (xs_rready[0]),
    .m_axi_awid     (m_awid),
    .m_axi_awaddr   (m_awaddr),
    .m_axi_awlen    (m_awlen),
    .m_axi_awsize   (m_awsize),
    .m_axi_awburst  (m_awburst),
    .m_axi_awlock   (m_awlock),
    .m_axi_awcache  (m_awcache),
    .m_axi_awprot   (m_awprot),
    .m_axi_awqos    (m_awqos),
    .m_axi_awvalid  (m_awvalid),
    .m_axi_awready  (m_awready),
    .m_axi_wdata    (m_wdata),
    .m_axi_wstrb    (m_wstrb),
    .m_axi_wlast    (m_wlast),
    .m_axi_wvalid   (m_wvalid),
    .m_axi_wready   (m_wready),
    .m_axi_bid      (m_bid),
    .m_axi_bresp    (m_bresp),
    .m_axi_bvalid   (m_bvalid),
    .m_axi_bready   (m_bready),
    .m_axi_arid     (m_arid),
    .m_axi_araddr   (m_araddr),
    .m_axi_arlen    (m_arlen),
    .m_axi_arsize   (m_arsize),
    .m_axi_arburst  (m_arburst),
    .m_axi_arlock   (m_arlock),
    .m_axi_arcache  (m_arcache),
    .m_axi_arprot   (m_arprot),
    .m_axi_arqos    (m_arqos),
    .m_axi_arvalid  (m_arvalid),
    .m_axi_arready  (m_arready),
    .m_axi_rid      (m_rid),
    .m_axi_rdata    (m_rdata),
    .m_axi_rresp    (m_rresp),
    .m_axi_rlast    (m_rlast),
    .m_axi_rvalid   (m_rvalid),
    .m_axi_rready   (m_rready),
    .irq            (irq)
  );

  // ---- Global memory and the board registers ----
  wire [63:0] gmem_base;
  wire [31:0] gmem_limit;
  wire        gmem_err;
  board_gmem #(.DataBytes(DataBytes), .GmemBytes(GmemBytes), .UseEbr(UseEbr)) u_gmem (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .base_i      (gmem_base),
    .limit_i     (gmem_limit),
    .bus_err_o   (gmem_err),
    .e_arid_i    (m_arid),
    .e_araddr_i  (m_araddr),
    .e_arlen_i   (m_arlen),
    .e_arvalid_i (m_arvalid),
    .e_arready_o (m_arready),
    .e_rid_o     (m_rid),
    .e_rdata_o   (m_rdata),
    .e_rresp_o   (m_rresp),
    .e_rlast_o   (m_rlast),
    .e_rvalid_o  (m_rvalid),
    .e_rready_i  (m_rready),
    .e_awid_i    (m_awid),
    .e_awaddr_i  (m_awaddr),
    .e_awlen_i   (m_awlen),
    .e_awvalid_i (m_awvalid),
    .e_awready_o (m_awready),
    .e_wdata_i   (m_wdata),
    .e_wstrb_i   (m_wstrb),
    .e_wlast_i   (m_wlast),
    .e_wvalid_i  (m_wvalid),
    .e_wready_o  (m_wready),
    .e_bid_o     (m_bid),
    .e_bresp_o   (m_bresp),
    .e_bvalid_o  (m_bvalid),
    .e_bready_i  (m_bready),
    .h_awaddr_i  (xs_awaddr),
    .h_awvalid_i (xs_awvalid[1]),
    .h_awready_o (xs_awready[1]),
    .h_wdata_i   (xs_wdata),
    .h_wstrb_i   (xs_wstrb),
    .h_wvalid_i  (xs_wvalid[1]),
    .h_wready_o  (xs_wready[1]),
    .h_bresp_o   (xs_bresp[3:2]),
    .h_bvalid_o  (xs_bvalid[1]),
    .h_bready_i  (xs_bready[1]),
    .h_araddr_i  (xs_araddr),
    .h_arvalid_i (xs_arvalid[1]),
    .h_arready_o (xs_arready[1]),
    .h_rdata_o   (xs_rdata[63:32]),
    .h_rresp_o   (xs_rresp[3:2]),
    .h_rvalid_o  (xs_rvalid[1]),
    .h_rready_i  (xs_rready[1])
  );

  // Busy: AXI4 traffic in the last 2^20 clocks.
  reg [20:0] busy_q;
  wire       traffic_w = m_arvalid || m_awvalid || m_rvalid || m_wvalid;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) busy_q <= 21'd0;
    else if (traffic_w) busy_q <= 21'h1fffff;
    else if (busy_q != 21'd0) busy_q <= busy_q - 1'b1;
  end
  wire busy = busy_q != 21'd0;

  wire [2:0] sticky;
  board_csr #(
    .GmemBytes (GmemBytes),
    .SysHz     (SysMhz * 1000000),
    .DataBytes (DataBytes)
  ) u_csr (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .awaddr_i     (xs_awaddr),
    .awvalid_i    (xs_awvalid[2]),
    .awready_o    (xs_awready[2]),
    .wdata_i      (xs_wdata),
    .wstrb_i      (xs_wstrb),
    .wvalid_i     (xs_wvalid[2]),
    .wready_o     (xs_wready[2]),
    .bresp_o      (xs_bresp[5:4]),
    .bvalid_o     (xs_bvalid[2]),
    .bready_i     (xs_bready[2]),
    .araddr_i     (xs_araddr),
    .arvalid_i    (xs_arvalid[2]),
    .arready_o    (xs_arready[2]),
    .rdata_o      (xs_rdata[95:64]),
    .rresp_o      (xs_rresp[5:4]),
    .rvalid_o     (xs_rvalid[2]),
    .rready_i     (xs_rready[2]),
    .gmem_base_o  (gmem_base),
    .gmem_limit_o (gmem_limit),
    .gmem_err_i   (gmem_err),
    .link_err_i   (link_err),
    .overflow_i   (overflow),
    .irq_i        (irq),
    .busy_i       (busy),
    .sticky_o     (sticky)
  );

  // ---- LEDs ----
  reg [HeartBit:0] heart_q;
  reg [20:0]       uart_led_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      heart_q    <= {(HeartBit + 1){1'b0}};
      uart_led_q <= 21'd0;
    end else begin
      heart_q <= heart_q + 1'b1;
      if (link_active) uart_led_q <= 21'h1fffff;
      else if (uart_led_q != 21'd0) uart_led_q <= uart_led_q - 1'b1;
    end
  end
  assign led_o = {3'b000, uart_led_q != 21'd0, sticky != 3'd0, irq, busy,
                heart_q[HeartBit]};

  wire unused_w = &{1'b0, m_awsize, m_arsize, m_awburst, m_arburst, m_awlock, m_arlock,
                    m_awcache, m_arcache, m_awprot, m_arprot, m_awqos, m_arqos};

endmodule

`default_nettype wire
