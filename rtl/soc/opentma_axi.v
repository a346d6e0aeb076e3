// SPDX-License-Identifier: Apache-2.0
//
// opentma_axi: the OpenTMA SoC top (tma_soc_top) as a Verilog-2001 IP block with the port
// names Vivado's IP packager infers as interfaces: aclk, aresetn, s_axil_* (AXI4-Lite,
// registers and shared-memory window, docs/soc.md), m_axi_* (AXI4 manager to global memory),
// irq (level, active high). The AXI4 signals the core does not drive are constants: LOCK 0,
// CACHE 0011 (normal, bufferable, non-cacheable), PROT 000, QOS 0. synth/vivado/ has the
// packaging and out-of-context timing scripts.

`default_nettype none

module opentma_axi #(
  parameter DATA_BYTES         = 16,      // AXI4 data bus bytes: 16, 32 or 64
  parameter NUM_CTAS           = 4,       // CTAs of the cluster shell, 1 .. 16
  parameter SMEM_BYTES         = 16384,   // shared memory per CTA, power of two, <= 65536
  parameter MBAR_SLOTS         = 4,       // mbarrier slots per CTA, 1 .. 4
  parameter CPL_FIFO_DEPTH     = 16,      // completion FIFO records, 2 .. 255
  parameter DESC_CACHE_ENTRIES = 4,       // descriptor cache entries, 1 .. 16
  parameter MAX_OUTSTANDING    = 512,     // engine read bursts in flight, 1 .. 1024
  parameter MAX_BURST_LEN      = 16,      // beats per AXI4 burst, 1 .. 256
  parameter ROW_FIFO_DEPTH     = 512,     // engine rows in flight, >= 2
  parameter ARCH               = 90,      // newest architecture the engine obeys: 90, 100, 103
  parameter STORE_PATH         = 1        // 0: no write direction (stores, reductions and bulk
                                          // writes answer unsupported; a smaller engine)
) (
  (* X_INTERFACE_INFO = "xilinx.com:signal:clock:1.0 aclk CLK" *)
  (* X_INTERFACE_PARAMETER = "ASSOCIATED_BUSIF s_axil:m_axi, ASSOCIATED_RESET aresetn" *)
  input  wire                      aclk,
  (* X_INTERFACE_INFO = "xilinx.com:signal:reset:1.0 aresetn RST" *)
  (* X_INTERFACE_PARAMETER = "POLARITY ACTIVE_LOW" *)
  input  wire                      aresetn,
  // AXI4-Lite subordinate
  input  wire [20:0]               s_axil_awaddr,
  input  wire [2:0]                s_axil_awprot,
  input  wire                      s_axil_awvalid,
  output wire                      s_axil_awready,
  input  wire [31:0]               s_axil_wdata,
  input  wire [3:0]                s_axil_wstrb,
  input  wire                      s_axil_wvalid,
  output wire                      s_axil_wready,
  output wire [1:0]                s_axil_bresp,
  output wire                      s_axil_bvalid,
  input  wire                      s_axil_bready,
  input  wire [20:0]               s_axil_araddr,
  input  wire [2:0]                s_axil_arprot,
  input  wire                      s_axil_arvalid,
  output wire                      s_axil_arready,
  output wire [31:0]               s_axil_rdata,
  output wire [1:0]                s_axil_rresp,
  output wire                      s_axil_rvalid,
  input  wire                      s_axil_rready,
  // AXI4 manager
  output wire [3:0]                m_axi_awid,
  output wire [63:0]               m_axi_awaddr,
  output wire [7:0]                m_axi_awlen,
  output wire [2:0]                m_axi_awsize,
  output wire [1:0]                m_axi_awburst,
  output wire                      m_axi_awlock,
  output wire [3:0]                m_axi_awcache,
  output wire [2:0]                m_axi_awprot,
  output wire [3:0]                m_axi_awqos,
  output wire                      m_axi_awvalid,
  input  wire                      m_axi_awready,
  output wire [DATA_BYTES*8-1:0]   m_axi_wdata,
  output wire [DATA_BYTES-1:0]     m_axi_wstrb,
  output wire                      m_axi_wlast,
  output wire                      m_axi_wvalid,
  input  wire                      m_axi_wready,
  input  wire [3:0]                m_axi_bid,
  input  wire [1:0]                m_axi_bresp,
  input  wire                      m_axi_bvalid,
  output wire                      m_axi_bready,
  output wire [3:0]                m_axi_arid,
  output wire [63:0]               m_axi_araddr,
  output wire [7:0]                m_axi_arlen,
  output wire [2:0]                m_axi_arsize,
  output wire [1:0]                m_axi_arburst,
  output wire                      m_axi_arlock,
  output wire [3:0]                m_axi_arcache,
  output wire [2:0]                m_axi_arprot,
  output wire [3:0]                m_axi_arqos,
  output wire                      m_axi_arvalid,
  input  wire                      m_axi_arready,
  input  wire [3:0]                m_axi_rid,
  input  wire [DATA_BYTES*8-1:0]   m_axi_rdata,
  input  wire [1:0]                m_axi_rresp,
  input  wire                      m_axi_rlast,
  input  wire                      m_axi_rvalid,
  output wire                      m_axi_rready,
  // Interrupt
  (* X_INTERFACE_INFO = "xilinx.com:signal:interrupt:1.0 irq INTERRUPT" *)
  (* X_INTERFACE_PARAMETER = "SENSITIVITY LEVEL_HIGH" *)
  output wire                      irq
);

  assign m_axi_awlock  = 1'b0;
  assign m_axi_awcache = 4'b0011;
  assign m_axi_awprot  = 3'b000;
  assign m_axi_awqos   = 4'b0000;
  assign m_axi_arlock  = 1'b0;
  assign m_axi_arcache = 4'b0011;
  assign m_axi_arprot  = 3'b000;
  assign m_axi_arqos   = 4'b0000;

  tma_soc_top #(
    .DataBytes        (DATA_BYTES),
    .NumCtas          (NUM_CTAS),
    .SmemBytes        (SMEM_BYTES),
    .MbarSlots        (MBAR_SLOTS),
    .CplFifoDepth     (CPL_FIFO_DEPTH),
    .DescCacheEntries (DESC_CACHE_ENTRIES),
    .MaxOutstanding   (MAX_OUTSTANDING),
    .MaxBurstLen      (MAX_BURST_LEN),
    .RowFifoDepth     (ROW_FIFO_DEPTH),
    .Arch             (ARCH),
    .StorePath        (STORE_PATH)
  ) u_core (
    .clk_i            (aclk),
    .rst_ni           (aresetn),
    .s_axil_awvalid_i (s_axil_awvalid),
    .s_axil_awready_o (s_axil_awready),
    .s_axil_awaddr_i  (s_axil_awaddr),
    .s_axil_awprot_i  (s_axil_awprot),
    .s_axil_wvalid_i  (s_axil_wvalid),
    .s_axil_wready_o  (s_axil_wready),
    .s_axil_wdata_i   (s_axil_wdata),
    .s_axil_wstrb_i   (s_axil_wstrb),
    .s_axil_bvalid_o  (s_axil_bvalid),
    .s_axil_bready_i  (s_axil_bready),
    .s_axil_bresp_o   (s_axil_bresp),
    .s_axil_arvalid_i (s_axil_arvalid),
    .s_axil_arready_o (s_axil_arready),
    .s_axil_araddr_i  (s_axil_araddr),
    .s_axil_arprot_i  (s_axil_arprot),
    .s_axil_rvalid_o  (s_axil_rvalid),
    .s_axil_rready_i  (s_axil_rready),
    .s_axil_rdata_o   (s_axil_rdata),
    .s_axil_rresp_o   (s_axil_rresp),
    .m_axi_arvalid_o  (m_axi_arvalid),
    .m_axi_arready_i  (m_axi_arready),
    .m_axi_arid_o     (m_axi_arid),
    .m_axi_araddr_o   (m_axi_araddr),
    .m_axi_arlen_o    (m_axi_arlen),
    .m_axi_arsize_o   (m_axi_arsize),
    .m_axi_arburst_o  (m_axi_arburst),
    .m_axi_rvalid_i   (m_axi_rvalid),
    .m_axi_rready_o   (m_axi_rready),
    .m_axi_rid_i      (m_axi_rid),
    .m_axi_rdata_i    (m_axi_rdata),
    .m_axi_rresp_i    (m_axi_rresp),
    .m_axi_rlast_i    (m_axi_rlast),
    .m_axi_awvalid_o  (m_axi_awvalid),
    .m_axi_awready_i  (m_axi_awready),
    .m_axi_awid_o     (m_axi_awid),
    .m_axi_awaddr_o   (m_axi_awaddr),
    .m_axi_awlen_o    (m_axi_awlen),
    .m_axi_awsize_o   (m_axi_awsize),
    .m_axi_awburst_o  (m_axi_awburst),
    .m_axi_wvalid_o   (m_axi_wvalid),
    .m_axi_wready_i   (m_axi_wready),
    .m_axi_wdata_o    (m_axi_wdata),
    .m_axi_wstrb_o    (m_axi_wstrb),
    .m_axi_wlast_o    (m_axi_wlast),
    .m_axi_bvalid_i   (m_axi_bvalid),
    .m_axi_bready_o   (m_axi_bready),
    .m_axi_bid_i      (m_axi_bid),
    .m_axi_bresp_i    (m_axi_bresp),
    .irq_o            (irq)
  );

endmodule

`default_nettype wire
