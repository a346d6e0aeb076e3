// SPDX-License-Identifier: Apache-2.0
//
// tma_soc_engine: tma_engine with a register slice on each of its streaming ports, as the SoC
// top instantiates it (docs/soc.md). The engine's timing is closed out of context with every
// port a flop of the measuring shell (docs/timing.md); in the SoC the command sources'
// arbitration, the completion merge, the register block and the shared memories meet those
// ports, and without flops between them a path runs from one block's flops through the other's
// logic (on the board: the command handshake into the command register's clock enable, spread
// over the die). Here every port is a flop on the SoC side:
//   command in, completions and group completions out, the shared-memory write port and the
//   read port's requests: tma_spill_reg (full throughput, one cycle of latency, both the
//   valid/data and the ready path cut);
//   shared-memory read data: one register stage (the port has no back-pressure; the engine
//   takes an answer one or more cycles after its request, docs/interfaces.md);
//   busy: registered, and high while a slice holds an item.
// The AXI4 channels are sliced by tma_soc_axi / tma_soc_wr_arb and the board's memory; the
// settings (desc_inval, arch, cluster) come from register flops and pass through.

`default_nettype none

`include "tma_assert.svh"

module tma_soc_engine #(
  parameter  int unsigned DataBytes        = 16,
  parameter  int unsigned NumCtas          = 16,
  parameter  int unsigned MaxOutstanding   = 512,
  parameter  int unsigned DescCacheEntries = 4,
  parameter  int unsigned MaxBurstLen      = 16,
  parameter  int unsigned RowFifoDepth     = 512,
  parameter  int unsigned Arch             = 2,
  parameter  int unsigned PrefetchReads    = 1,
  parameter  int unsigned StoreClipElem    = 0,
  parameter  int unsigned BulkSizeStrict   = 0,
  parameter  int unsigned StorePath        = 1,
  localparam int unsigned DW               = DataBytes * 8
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Commands
  input  logic                  cmd_valid_i,
  output logic                  cmd_ready_o,
  input  tma_pkg::cmd_t         cmd_i,
  input  logic                  desc_inval_i,
  input  logic [1:0]            arch_i,
  input  logic [3:0]            cluster_i,
  // AXI4 read and write channels (passed through)
  output tma_pkg::axi_rd_req_t  axi_rd_req_o,
  input  tma_pkg::axi_rd_rsp_t  axi_rd_rsp_i,
  input  logic [DW-1:0]         axi_r_data_i,
  output tma_pkg::axi_wr_req_t  axi_wr_req_o,
  input  tma_pkg::axi_wr_rsp_t  axi_wr_rsp_i,
  output logic [DW-1:0]         axi_w_data_o,
  output logic [DataBytes-1:0]  axi_w_strb_o,
  // Shared-memory write port
  output logic                  smem_wr_valid_o,
  input  logic                  smem_wr_ready_i,
  output tma_pkg::smem_wr_t     smem_wr_o,
  output logic [DW-1:0]         smem_wr_data_o,
  output logic [DataBytes-1:0]  smem_wr_strb_o,
  // Shared-memory read port: requests; one data beat per request, in order, no back-pressure
  output logic                  smem_rd_valid_o,
  input  logic                  smem_rd_ready_i,
  output tma_pkg::smem_rd_t     smem_rd_o,
  input  logic                  smem_rd_rvalid_i,
  input  logic [DW-1:0]         smem_rd_rdata_i,
  // Completions and bulk async-group completions
  output logic                  cpl_valid_o,
  input  logic                  cpl_ready_i,
  output tma_pkg::cpl_t         cpl_o,
  output logic                  bg_cpl_valid_o,
  input  logic                  bg_cpl_ready_i,
  output tma_pkg::bg_cpl_t      bg_cpl_o,
  // Status
  output logic                  busy_o,
  output logic [15:0]           err_count_o
);

  localparam int unsigned SmemWrSliceW = tma_pkg::SmemWrWidth + DW + DataBytes;

  // ---- Signals (the engine's side of each slice) ----
  logic                 cmd_valid, cmd_ready;
  tma_pkg::cmd_t        cmd;
  logic                 wr_valid, wr_ready;
  tma_pkg::smem_wr_t    wr;
  logic [DW-1:0]        wr_data;
  logic [DataBytes-1:0] wr_strb;
  logic                 rd_valid, rd_ready;
  tma_pkg::smem_rd_t    rd;
  logic                 rvalid_q;
  logic [DW-1:0]        rdata_q;
  logic                 cpl_valid, cpl_ready, bg_valid, bg_ready;
  tma_pkg::cpl_t        cpl;
  tma_pkg::bg_cpl_t     bg;
  logic                 core_busy, busy_q;

  tma_engine #(
    .DataBytes        (DataBytes),
    .NumCtas          (NumCtas),
    .MaxOutstanding   (MaxOutstanding),
    .DescCacheEntries (DescCacheEntries),
    .MaxBurstLen      (MaxBurstLen),
    .RowFifoDepth     (RowFifoDepth),
    .Arch             (Arch),
    .PrefetchReads    (PrefetchReads),
    .StoreClipElem    (StoreClipElem),
    .BulkSizeStrict   (BulkSizeStrict),
    .StorePath        (StorePath)
  ) u_core (
    .clk_i,
    .rst_ni,
    .cmd_valid_i     (cmd_valid),
    .cmd_ready_o     (cmd_ready),
    .cmd_i           (cmd),
    .desc_inval_i,
    .arch_i,
    .cluster_i,
    .axi_rd_req_o,
    .axi_rd_rsp_i,
    .axi_r_data_i,
    .axi_wr_req_o,
    .axi_wr_rsp_i,
    .axi_w_data_o,
    .axi_w_strb_o,
    .smem_rd_valid_o (rd_valid),
    .smem_rd_ready_i (rd_ready),
    .smem_rd_o       (rd),
    .smem_rd_rvalid_i(rvalid_q),
    .smem_rd_rdata_i (rdata_q),
    .smem_wr_valid_o (wr_valid),
    .smem_wr_ready_i (wr_ready),
    .smem_wr_o       (wr),
    .smem_wr_data_o  (wr_data),
    .smem_wr_strb_o  (wr_strb),
    .cpl_valid_o     (cpl_valid),
    .cpl_ready_i     (cpl_ready),
    .cpl_o           (cpl),
    .bg_cpl_valid_o  (bg_valid),
    .bg_cpl_ready_i  (bg_ready),
    .bg_cpl_o        (bg),
    .busy_o          (core_busy),
    .err_count_o
  );

  // ---- Slices ----
  tma_spill_reg #(
    .Width (tma_pkg::CmdWidth)
  ) u_cmd_slice (
    .clk_i,
    .rst_ni,
    .in_valid_i  (cmd_valid_i),
    .in_ready_o  (cmd_ready_o),
    .in_data_i   (cmd_i),
    .out_valid_o (cmd_valid),
    .out_ready_i (cmd_ready),
    .out_data_o  (cmd)
  );

  tma_spill_reg #(
    .Width (tma_pkg::CplWidth)
  ) u_cpl_slice (
    .clk_i,
    .rst_ni,
    .in_valid_i  (cpl_valid),
    .in_ready_o  (cpl_ready),
    .in_data_i   (cpl),
    .out_valid_o (cpl_valid_o),
    .out_ready_i (cpl_ready_i),
    .out_data_o  (cpl_o)
  );

  tma_spill_reg #(
    .Width (tma_pkg::BgCplWidth)
  ) u_bg_slice (
    .clk_i,
    .rst_ni,
    .in_valid_i  (bg_valid),
    .in_ready_o  (bg_ready),
    .in_data_i   (bg),
    .out_valid_o (bg_cpl_valid_o),
    .out_ready_i (bg_cpl_ready_i),
    .out_data_o  (bg_cpl_o)
  );

  tma_spill_reg #(
    .Width (SmemWrSliceW)
  ) u_wr_slice (
    .clk_i,
    .rst_ni,
    .in_valid_i  (wr_valid),
    .in_ready_o  (wr_ready),
    .in_data_i   ({wr, wr_data, wr_strb}),
    .out_valid_o (smem_wr_valid_o),
    .out_ready_i (smem_wr_ready_i),
    .out_data_o  ({smem_wr_o, smem_wr_data_o, smem_wr_strb_o})
  );

  tma_spill_reg #(
    .Width (tma_pkg::SmemRdWidth)
  ) u_rd_slice (
    .clk_i,
    .rst_ni,
    .in_valid_i  (rd_valid),
    .in_ready_o  (rd_ready),
    .in_data_i   (rd),
    .out_valid_o (smem_rd_valid_o),
    .out_ready_i (smem_rd_ready_i),
    .out_data_o  (smem_rd_o)
  );

  // Read data: one register stage (the data loads only with its valid).
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_rvalid
    if (!rst_ni) begin
      rvalid_q <= 1'b0;
    end else begin
      rvalid_q <= smem_rd_rvalid_i;
    end
  end

  always_ff @(posedge clk_i) begin : proc_rdata
    if (smem_rd_rvalid_i) begin
      rdata_q <= smem_rd_rdata_i;
    end
  end

  // Busy: the engine's (registered; a command taken counts from the cycle it is taken) or an
  // item in a slice or the read-data stage.
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_busy
    if (!rst_ni) begin
      busy_q <= 1'b0;
    end else begin
      busy_q <= core_busy || (cmd_valid && cmd_ready);  // no low cycle between take and busy
    end
  end

  assign busy_o = busy_q || cmd_valid || cpl_valid_o || bg_cpl_valid_o || smem_wr_valid_o ||
                  smem_rd_valid_o || rvalid_q;

  `TMA_ASSERT_INIT(CmdWidth_A, tma_pkg::CmdWidth == $bits(tma_pkg::cmd_t))
  `TMA_ASSERT_INIT(CplWidth_A, tma_pkg::CplWidth == $bits(tma_pkg::cpl_t))
  `TMA_ASSERT_INIT(BgCplWidth_A, tma_pkg::BgCplWidth == $bits(tma_pkg::bg_cpl_t))
  `TMA_ASSERT_INIT(SmemWrWidth_A, tma_pkg::SmemWrWidth == $bits(tma_pkg::smem_wr_t))
  `TMA_ASSERT_INIT(SmemRdWidth_A, tma_pkg::SmemRdWidth == $bits(tma_pkg::smem_rd_t))

endmodule

`default_nettype wire
