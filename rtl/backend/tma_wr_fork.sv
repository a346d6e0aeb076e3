// SPDX-License-Identifier: Apache-2.0
//
// tma_wr_fork: splits the walker's store rows into the write direction's work items and
// queues them. A store row writes its in-bounds bytes [head, dend) (head is 0: store
// coordinates are never negative, F3) from the issuing CTA's shared memory to global memory
// at gaddr. For a row with bytes to write it pushes, in one cycle:
//   * the shared-memory read (tma_pkg::smem_rd_job_t: the row's logical beats) to tma_smem_rd;
//   * the realignment (tma_pkg::wr_al_t: shared and global offsets in the beat, length) to
//     tma_wr_align;
//   * the global write (tma_pkg::wr_req_t: first beat, beats) to tma_wr_engine;
// and for the last row of a command its completion information (cpl_info_t) to the write
// engine's command end. A row with nothing to write (out of bounds) is dropped, unless it is
// its command's last: then it becomes a write request of 0 beats, which ends the command
// behind the B responses of its earlier rows. The pushes are synchronous (all destinations
// have room, or none is written), into FIFOs whose readies are flops.
//
// Streams: store rows in (row_t), reads out (smem_rd_job_t), realignments out (wr_al_t),
// writes out (wr_req_t), command information out (cpl_info_t).

`default_nettype none

`include "tma_assert.svh"

module tma_wr_fork #(
  parameter  int unsigned DataBytes = 16,   // 16, 32, 64 or 128
  parameter  int unsigned Depth     = 8,    // entries of each queue, >= 2
  localparam int unsigned SizeLog2  = $clog2(DataBytes)
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  // Store rows (from the walker, through the engine's store demux)
  input  logic                    row_valid_i,
  output logic                    row_ready_o,
  input  tma_pkg::row_t           row_i,
  // Shared-memory reads (to tma_smem_rd)
  output logic                    rd_valid_o,
  input  logic                    rd_ready_i,
  output tma_pkg::smem_rd_job_t   rd_o,
  // Realignments (to tma_wr_align)
  output logic                    al_valid_o,
  input  logic                    al_ready_i,
  output tma_pkg::wr_al_t         al_o,
  // Global writes (to tma_wr_engine)
  output logic                    wr_valid_o,
  input  logic                    wr_ready_i,
  output tma_pkg::wr_req_t        wr_o,
  // Completion information of each store command (to tma_wr_engine)
  output logic                    info_valid_o,
  input  logic                    info_ready_i,
  output tma_pkg::cpl_info_t      info_o,
  // Status
  output logic                    busy_o
);

  localparam int unsigned UsageW = $clog2(Depth + 1);
  localparam int unsigned RbW    = tma_pkg::RowBytesW;

  // ---- The row's work items ----
  logic [RbW-1:0]         len;        // bytes to write (dend - head, head == 0)
  logic [RbW:0]           s_end;      // s + len + DataBytes - 1 (shared beats x DataBytes)
  logic [RbW:0]           g_end;      // g + len + DataBytes - 1 (global beats x DataBytes)
  logic                   has_wr;     // the row writes
  tma_pkg::smem_rd_job_t  rd_d;
  tma_pkg::wr_al_t        al_d;
  tma_pkg::wr_req_t       wr_d;

  assign len    = row_i.dend;
  assign has_wr = row_i.has_data && row_i.dend != '0;
  assign s_end  = (RbW + 1)'(row_i.smem_addr[SizeLog2-1:0]) + (RbW + 1)'(len) +
                  (RbW + 1)'(DataBytes - 1);
  assign g_end  = (RbW + 1)'(row_i.gaddr[SizeLog2-1:0]) + (RbW + 1)'(len) +
                  (RbW + 1)'(DataBytes - 1);

  always_comb begin : proc_items
    rd_d        = '0;
    rd_d.beat   = {row_i.smem_addr[31:SizeLog2], SizeLog2'(0)};
    rd_d.nbeats = tma_pkg::BeatCntW'(s_end >> SizeLog2);
    rd_d.swz    = row_i.swz;
    rd_d.cta    = row_i.cpl.cta;
    al_d        = '0;
    al_d.s16    = 3'(row_i.smem_addr[SizeLog2-1:0] >> 4);
    al_d.g16    = 3'(row_i.gaddr[SizeLog2-1:0] >> 4);
    al_d.len    = len;
    wr_d        = '0;
    wr_d.addr   = {row_i.gaddr[63:SizeLog2], SizeLog2'(0)};
    wr_d.nbeats = has_wr ? tma_pkg::BeatCntW'(g_end >> SizeLog2) : '0;
    wr_d.last   = row_i.last;
  end

  // ---- Synchronous fork into the queues ----
  logic rd_in_ready, al_in_ready, wr_in_ready, info_in_ready;
  logic need_wr, take;

  assign need_wr     = has_wr || row_i.last;
  assign row_ready_o = rd_in_ready && al_in_ready && wr_in_ready && info_in_ready;
  assign take        = row_valid_i && row_ready_o;

  logic [1:0]        rd_usage;
  logic [UsageW-1:0] al_usage, wr_usage, info_usage;

  tma_fifo #(
    .Width (tma_pkg::SmemRdJobWidth),
    .Depth (2)
  ) u_rd_q (
    .clk_i,
    .rst_ni,
    .clr_i       (1'b0),
    .in_valid_i  (take && has_wr),
    .in_ready_o  (rd_in_ready),
    .in_data_i   (rd_d),
    .out_valid_o (rd_valid_o),
    .out_ready_i (rd_ready_i),
    .out_data_o  (rd_o),
    .usage_o     (rd_usage)
  );

  tma_fifo #(
    .Width (tma_pkg::WrAlWidth),
    .Depth (Depth)
  ) u_al_q (
    .clk_i,
    .rst_ni,
    .clr_i       (1'b0),
    .in_valid_i  (take && has_wr),
    .in_ready_o  (al_in_ready),
    .in_data_i   (al_d),
    .out_valid_o (al_valid_o),
    .out_ready_i (al_ready_i),
    .out_data_o  (al_o),
    .usage_o     (al_usage)
  );

  tma_fifo #(
    .Width (tma_pkg::WrReqWidth),
    .Depth (Depth)
  ) u_wr_q (
    .clk_i,
    .rst_ni,
    .clr_i       (1'b0),
    .in_valid_i  (take && need_wr),
    .in_ready_o  (wr_in_ready),
    .in_data_i   (wr_d),
    .out_valid_o (wr_valid_o),
    .out_ready_i (wr_ready_i),
    .out_data_o  (wr_o),
    .usage_o     (wr_usage)
  );

  tma_fifo #(
    .Width (tma_pkg::CplInfoWidth),
    .Depth (Depth)
  ) u_info_q (
    .clk_i,
    .rst_ni,
    .clr_i       (1'b0),
    .in_valid_i  (take && row_i.last),
    .in_ready_o  (info_in_ready),
    .in_data_i   (row_i.cpl),
    .out_valid_o (info_valid_o),
    .out_ready_i (info_ready_i),
    .out_data_o  (info_o),
    .usage_o     (info_usage)
  );

  assign busy_o = rd_usage != '0 || al_usage != '0 || wr_usage != '0 || info_usage != '0;

  logic unused_bits;
  assign unused_bits = ^{row_i, s_end[SizeLog2-1:0], g_end[SizeLog2-1:0]};

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_INIT(DepthLegal_A, Depth >= 2)
  `TMA_ASSERT_INIT(SmemRdJobWidth_A, tma_pkg::SmemRdJobWidth == $bits(tma_pkg::smem_rd_job_t))
  `TMA_ASSERT_INIT(WrAlWidth_A, tma_pkg::WrAlWidth == $bits(tma_pkg::wr_al_t))
  `TMA_ASSERT_INIT(WrReqWidth_A, tma_pkg::WrReqWidth == $bits(tma_pkg::wr_req_t))
  // Store rows start at row byte 0 (no negative coordinate, F3) and are 16-byte aligned in
  // both memories (F1, F2, 16-byte strides and pitch).
  `TMA_ASSERT_IMPLY(StoreHeadZero_A, row_valid_i && row_i.has_data, row_i.head == '0)
  `TMA_ASSERT_IMPLY(StoreAligned_A, row_valid_i && has_wr,
                    row_i.smem_addr[3:0] == 4'd0 && row_i.gaddr[3:0] == 4'd0)
  `TMA_ASSERT_IMPLY(StoreRowFits_A, row_valid_i && row_i.has_data, row_i.dend <= row_i.row_bytes)

endmodule

`default_nettype wire
