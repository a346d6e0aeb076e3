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
//   * the write data item (tma_pkg::wr_red_t: reduction or store, beats) to tma_wr_red;
//   * for a reduction row, the read of its global bytes (tma_pkg::rd_req_t, the old data of
//     the read-modify-write) to the reductions' burst splitter and the read engine;
// and for the last row of a command its completion information (cpl_info_t) to the write
// engine's command end. With AtomicReduce = 1, a reduction row whose pair has an AXI5
// AtomicStore form (tma_red_atop) is done at the memory: no old-data read, its write data item
// passes the ALU (inverted for the CLR form of and) and its global write carries the AWATOP and
// the element size, for tma_atop_split at the AXI write port. The first row of a reduction
// waits until the store direction behind the fork is empty, so its reads see every earlier
// store's and reduction's writes (and an atomic one's AtomicStores follow them):
// read-modify-write is atomic against the engine's own writes (not against other managers).
// Both inputs of that test are a cycle old, so they come from flops: idle_i is registered by
// the engine (the blocks behind were empty in the previous cycle) and qe_q says that the
// fork's queues were empty and took nothing in the previous cycle. Together they mean the
// direction is empty now: the blocks behind receive items only from these queues, which had
// none to give in the previous cycle, and the queues received none (engine assertion
// StIdleLate_A, RedFirstAlone_A here). A reduction's first row may so wait one cycle more.
// A row with nothing to write (out of bounds) is dropped, unless it is its command's last:
// then it becomes a write request of 0 beats, which ends the command behind the B responses
// of its earlier rows. The pushes are synchronous (all destinations
// have room, or none is written), into FIFOs whose readies are flops.
//
// Streams: store rows in (row_t), reads out (smem_rd_job_t), realignments out (wr_al_t),
// writes out (wr_req_t), write data items out (wr_red_t), old-data reads out (rd_req_t),
// command information out (cpl_info_t).

`default_nettype none

`include "tma_assert.svh"

module tma_wr_fork #(
  parameter  int unsigned DataBytes = 16,   // 16, 32, 64 or 128
  parameter  int unsigned Depth     = 8,    // entries of each row queue, >= 2
  parameter  int unsigned CmdDepth  = 128,  // commands between the fork and their end, >= 2
  parameter  int unsigned AtomicReduce = 0, // 1: reductions with an AtomicStore form at the memory
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
  // Write data items (to tma_wr_red)
  output logic                    wd_valid_o,
  input  logic                    wd_ready_i,
  output tma_pkg::wr_red_t        wd_o,
  // Reads of the reduction rows' old data (to their burst splitter)
  output logic                    rr_valid_o,
  input  logic                    rr_ready_i,
  output tma_pkg::rd_req_t        rr_o,
  // The store direction behind the fork was empty in the previous cycle (registered)
  input  logic                    idle_i,
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
  tma_pkg::wr_red_t       wd_d;
  tma_pkg::rd_req_t       rr_d;
  // The row's reduction pair as an AXI5 AtomicStore (AtomicReduce)
  logic                   pair_ok;
  logic [tma_pkg::AtopBits-1:0] pair_atop;
  logic                   pair_inv;
  logic                   atom;       // the row is a reduction done at the memory

  tma_red_atop u_red_atop (
    .redop_i     (row_i.cpl.redop),
    .elem_i      (row_i.cpl.elem),
    .supported_o (pair_ok),
    .atop_o      (pair_atop),
    .atop_inv_o  (pair_inv)
  );

  assign atom = AtomicReduce != 0 && row_i.cpl.red && pair_atop != tma_pkg::AtopNone;

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
    wr_d.atop   = atom ? pair_atop : tma_pkg::AtopNone;
    wr_d.esz8   = atom && (row_i.cpl.elem == tma_pkg::ElemU64 ||
                           row_i.cpl.elem == tma_pkg::ElemS64);
    wd_d        = '0;
    wd_d.red    = row_i.cpl.red && !atom;
    wd_d.inv    = atom && pair_inv;
    wd_d.redop  = row_i.cpl.redop;
    wd_d.elem   = row_i.cpl.elem;
    wd_d.nbeats = tma_pkg::BeatCntW'(g_end >> SizeLog2);
    wd_d.bmask_en = row_i.bmask_en;
    wd_d.bmask    = row_i.bmask;
    rr_d.addr   = wr_d.addr;
    rr_d.nbeats = wd_d.nbeats;
    rr_d.pf     = 1'b0;
  end

  // ---- Synchronous fork into the queues ----
  logic rd_in_ready, al_in_ready, wr_in_ready, info_in_ready, wd_in_ready, rr_in_ready;
  logic need_wr, need_rr, take;
  logic in_cmd_q;    // a command's rows have begun: the next row is not a first row
  logic hold;        // a reduction's first row waits for the empty store direction
  logic qe_q;        // the queues were empty and took no row in the previous cycle

  assign need_wr     = has_wr || row_i.last;
  assign need_rr     = has_wr && row_i.cpl.red && !atom;
  assign hold        = row_i.cpl.red && !in_cmd_q && !(idle_i && qe_q);
  assign row_ready_o = rd_in_ready && al_in_ready && wr_in_ready && info_in_ready &&
                       wd_in_ready && rr_in_ready && !hold;
  assign take        = row_valid_i && row_ready_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_in_cmd
    if (!rst_ni) begin
      in_cmd_q <= 1'b0;
    end else if (take) begin
      in_cmd_q <= !row_i.last;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_qe
    if (!rst_ni) begin
      qe_q <= 1'b0;
    end else begin
      qe_q <= !busy_o && !take;
    end
  end

  logic [1:0]        rd_usage, rr_usage;
  logic [UsageW-1:0] al_usage, wr_usage, wd_usage;

  tma_fifo #(
    .Width    (tma_pkg::SmemRdJobWidth),
    .Depth    (2),
    .FlopWrEn (1'b1)
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
    .Width    (tma_pkg::WrAlWidth),
    .Depth    (Depth),
    .FlopWrEn (1'b1)
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
    .Width    (tma_pkg::WrReqWidth),
    .Depth    (Depth),
    .FlopWrEn (1'b1)
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

  // The command information waits here until the command's last B: one entry per store
  // command in flight (a RAM: CmdDepth x CplInfoWidth, with a staging register in front so
  // that the take reaches only its valid flop).
  logic info_nonempty;

  tma_fifo_ram #(
    .Width (tma_pkg::CplInfoWidth),
    .Depth (CmdDepth),
    .InReg (1'b1)
  ) u_info_q (
    .clk_i,
    .rst_ni,
    .in_valid_i  (take && row_i.last),
    .in_ready_o  (info_in_ready),
    .in_data_i   (row_i.cpl),
    .out_valid_o (info_valid_o),
    .out_ready_i (info_ready_i),
    .out_data_o  (info_o),
    .nonempty_o  (info_nonempty)
  );

  tma_fifo #(
    .Width    (tma_pkg::WrRedWidth),
    .Depth    (Depth),
    .FlopWrEn (1'b1)
  ) u_wd_q (
    .clk_i,
    .rst_ni,
    .clr_i       (1'b0),
    .in_valid_i  (take && has_wr),
    .in_ready_o  (wd_in_ready),
    .in_data_i   (wd_d),
    .out_valid_o (wd_valid_o),
    .out_ready_i (wd_ready_i),
    .out_data_o  (wd_o),
    .usage_o     (wd_usage)
  );

  tma_fifo #(
    .Width    (tma_pkg::RdReqWidth),
    .Depth    (2),
    .FlopWrEn (1'b1)
  ) u_rr_q (
    .clk_i,
    .rst_ni,
    .clr_i       (1'b0),
    .in_valid_i  (take && need_rr),
    .in_ready_o  (rr_in_ready),
    .in_data_i   (rr_d),
    .out_valid_o (rr_valid_o),
    .out_ready_i (rr_ready_i),
    .out_data_o  (rr_o),
    .usage_o     (rr_usage)
  );

  assign busy_o = rd_usage != '0 || al_usage != '0 || wr_usage != '0 || info_nonempty ||
                  wd_usage != '0 || rr_usage != '0;

  logic unused_bits;
  assign unused_bits = ^{row_i, s_end[SizeLog2-1:0], g_end[SizeLog2-1:0], pair_ok};

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_INIT(DepthLegal_A, Depth >= 2)
  `TMA_ASSERT_INIT(AtomicReduceLegal_A, AtomicReduce <= 1)
  `TMA_ASSERT_INIT(CmdDepthLegal_A, CmdDepth >= 2)
  `TMA_ASSERT_INIT(SmemRdJobWidth_A, tma_pkg::SmemRdJobWidth == $bits(tma_pkg::smem_rd_job_t))
  `TMA_ASSERT_INIT(WrAlWidth_A, tma_pkg::WrAlWidth == $bits(tma_pkg::wr_al_t))
  `TMA_ASSERT_INIT(WrReqWidth_A, tma_pkg::WrReqWidth == $bits(tma_pkg::wr_req_t))
  `TMA_ASSERT_INIT(WrRedWidth_A, tma_pkg::WrRedWidth == $bits(tma_pkg::wr_red_t))
  `TMA_ASSERT_INIT(RdReqWidth_A, tma_pkg::RdReqWidth == $bits(tma_pkg::rd_req_t))
  // Store rows start at row byte 0 (no negative coordinate, F3) and are 16-byte aligned in
  // both memories (F1, F2, 16-byte strides and pitch).
  `TMA_ASSERT_IMPLY(StoreHeadZero_A, row_valid_i && row_i.has_data, row_i.head == '0)
  `TMA_ASSERT_IMPLY(StoreAligned_A, row_valid_i && has_wr,
                    row_i.smem_addr[3:0] == 4'd0 && row_i.gaddr[3:0] == 4'd0)
  // A reduction's first row enters only empty queues (with the engine's StIdleLate_A: the
  // whole store direction is empty then).
  `TMA_ASSERT_IMPLY(RedFirstAlone_A, take && row_i.cpl.red && !in_cmd_q, !busy_o)
  // A reduction done at the memory is a supported integer pair (the ALU never sees it).
  `TMA_ASSERT_IMPLY(AtomPairSupported_A, row_valid_i && atom, pair_ok)
  `TMA_ASSERT_IMPLY(StoreRowFits_A, row_valid_i && row_i.has_data, row_i.dend <= row_i.row_bytes)

endmodule

`default_nettype wire
