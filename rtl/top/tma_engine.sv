// SPDX-License-Identifier: Apache-2.0
//
// tma_engine: the OpenTMA tensor engine, load path (issue 6). Integration of the command
// controller (intake, descriptor cache/fetch, validation, issue arithmetic), the N-D walker,
// the row fork (a register stage computing the compact row entry and the read span), the row
// FIFO and the command FIFO (RAM: tma_fifo_ram), the burst splitter, the read engine (AR
// arbitration, outstanding limit as credits, R routing by ID), the row aligner (realign, OOB
// fill, tf32), the swizzle unit, the shared-memory write port and the completion unit.
// Every row in flight (read requested, not yet written) holds a row-FIFO entry, so sustained
// throughput needs RowFifoDepth and MaxOutstanding of about memory latency / beats per row
// (docs/performance.md). docs/rtl.md is the theory of operation.

`include "tma_assert.svh"

module tma_engine #(
  parameter  int unsigned DataBytes        = 16,   // 16, 32, 64 or 128
  parameter  int unsigned NumCtas          = 16,   // 1 .. 16
  parameter  int unsigned MaxOutstanding   = 512,  // data read bursts in flight, 1 .. 1024
  parameter  int unsigned DescCacheEntries = 4,    // 1 .. 16
  parameter  int unsigned MaxBurstLen      = 16,   // beats per AXI4 burst, 1 .. 256
  parameter  int unsigned RowFifoDepth     = 512,  // rows between walker and aligner, >= 2
  // 1: the packed sub-byte types b4x16_p64 / b6x16_p32 (sm_100) are unpacked (tma_unpack:
  // ~490 LUT6 at DataBytes 16, ~4k at 64); 0: no unpacker, they give `unsupported`
  parameter  int unsigned SubByte          = (DataBytes <= 32) ? 1 : 0,
  localparam int unsigned DW               = DataBytes * 8
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // Commands
  input  logic                 cmd_valid_i,
  output logic                 cmd_ready_o,
  input  tma_pkg::cmd_t        cmd_i,
  input  logic                 desc_inval_i,
  // AXI4 read address / data (global memory)
  output logic                 ar_valid_o,
  input  logic                 ar_ready_i,
  output logic [3:0]           ar_id_o,
  output tma_pkg::ar_t         ar_o,
  input  logic                 r_valid_i,
  output logic                 r_ready_o,
  input  logic [3:0]           r_id_i,
  input  logic [DW-1:0]        r_data_i,
  input  logic [1:0]           r_resp_i,
  input  logic                 r_last_i,
  // Shared-memory write port
  output logic                 smem_wr_valid_o,
  input  logic                 smem_wr_ready_i,
  output logic [31:0]          smem_wr_addr_o,
  output logic [DW-1:0]        smem_wr_data_o,
  output logic [DataBytes-1:0] smem_wr_strb_o,
  output logic [15:0]          smem_wr_cta_mask_o,
  // Completions
  output logic                 cpl_valid_o,
  input  logic                 cpl_ready_i,
  output tma_pkg::cpl_t        cpl_o,
  // Status
  output logic                 busy_o,
  output logic [15:0]          err_count_o
);

  localparam int unsigned SizeLog2 = $clog2(DataBytes);
  localparam int unsigned OutW     = $clog2(MaxOutstanding + 1);
  localparam int unsigned ItemW    = 1 + 32 + DW + DataBytes + 1 + 1 + NumCtas;

  // ---- Command controller ----
  logic          desc_ar_valid, desc_ar_ready;   // the controller's descriptor reads ...
  tma_pkg::ar_t  desc_ar;
  logic          da_valid, da_ready;             // ... out of their AR slice
  tma_pkg::ar_t  da_ar;
  logic          desc_r_valid_q, desc_r_err_q;   // the controller's descriptor beats, registered
  logic [DW-1:0] desc_r_data_q;
  logic          job_valid, job_ready;
  tma_pkg::job_t job;
  logic          ctrl_busy;

  // Descriptor beats reach the controller a cycle after the port (always accepted there: the
  // controller takes every beat of its Fetch state). The controller loads its decoded map's
  // fields with each beat, an enable of several hundred flops; from the port, the id compare,
  // the valid and the beat count in front of that enable were the engine's critical path at
  // -6 (ad90e8f). Data and response are copied every cycle: only the valid is qualified.
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_desc_r
    if (!rst_ni) begin
      desc_r_valid_q <= 1'b0;
      desc_r_err_q   <= 1'b0;
    end else begin
      desc_r_valid_q <= r_valid_i && (r_id_i == tma_pkg::AxiIdDesc);
      desc_r_err_q   <= r_resp_i != 2'b00;
    end
  end
  always_ff @(posedge clk_i) begin : proc_desc_r_data
    desc_r_data_q <= r_data_i;
  end

  tma_frontend #(
    .DataBytes    (DataBytes),
    .CacheEntries (DescCacheEntries),
    .NumCtas      (NumCtas),
    .SubByte      (SubByte)
  ) u_ctrl (
    .clk_i,
    .rst_ni,
    .cmd_valid_i,
    .cmd_ready_o,
    .cmd_i,
    .desc_inval_i,
    .ar_valid_o  (desc_ar_valid),
    .ar_ready_i  (desc_ar_ready),
    .ar_o        (desc_ar),
    .r_valid_i   (desc_r_valid_q),
    .r_data_i    (desc_r_data_q),
    .r_err_i     (desc_r_err_q),
    .job_valid_o (job_valid),
    .job_ready_i (job_ready),
    .job_o       (job),
    .busy_o      (ctrl_busy)
  );

  // ---- N-D walker ----
  logic          row_valid, row_ready;
  tma_pkg::row_t row;
  logic          walker_busy;

  tma_nd_walker u_walker (
    .clk_i,
    .rst_ni,
    .job_valid_i (job_valid),
    .job_ready_o (job_ready),
    .job_i       (job),
    .row_valid_o (row_valid),
    .row_ready_i (row_ready),
    .row_o       (row),
    .busy_o      (walker_busy)
  );

  // ---- Row fork (stage F): every row to the row FIFO, rows with reads also to the splitter ----
  // The fork registers the walker's row and what the aligner and the splitter need of it
  // (one carry chain each): the compact row entry (tma_pkg::al_row_t) and the read span. The
  // completion information of a command goes to the command FIFO when its last row enters F.
  // F is a spill register (u_f), so the walker's ready and the command FIFO's push depend on
  // its flops only; its output is an eager fork: each destination (row FIFO, splitter,
  // unpacker FIFO) takes the row on its own handshake, and the row leaves F when all have it.
  localparam int unsigned Groups = DataBytes / 16;
  localparam logic [2:0]  GMask  = 3'(Groups - 1);
  localparam int unsigned CW     = SizeLog2 + 1;

  // 16 x s - 1 (12 bits, wraps to 0xFFF for s = 0), as a table: no carry chain.
  function automatic logic [11:0] s16_m1(input logic [2:0] s16);
    unique case (s16)
      3'd0:    s16_m1 = 12'hFFF;
      3'd1:    s16_m1 = 12'h00F;
      3'd2:    s16_m1 = 12'h01F;
      3'd3:    s16_m1 = 12'h02F;
      3'd4:    s16_m1 = 12'h03F;
      3'd5:    s16_m1 = 12'h04F;
      3'd6:    s16_m1 = 12'h05F;
      default: s16_m1 = 12'h06F;
    endcase
  endfunction

  localparam int unsigned AlRamW = tma_pkg::AlRowWidth - 16 + NumCtas;   // row FIFO entry
  localparam int unsigned FW     = AlRamW + 2 + (64 - SizeLog2) + tma_pkg::RowBytesW + CW + 2 +
                                   4 + SizeLog2;

  logic             f_in_valid, f_in_ready;
  tma_pkg::al_row_t f_al_d;
  logic             f_read_d, f_read_q;          // the row needs a global read
  logic             f_nread_q;                   // !f_read_q, a second output bit for the
                                                 // fork's own logic (inverted: not merged)
  logic [AlRamW-1:0] f_row_q;                   // the row FIFO entry
  logic [63:SizeLog2] f_gaddr_q;
  logic [tma_pkg::RowBytesW-1:0] f_span_d, f_span_q;   // dend - head
  logic [CW-1:0]    f_c_d, f_c_q;               // gaddr mod DataBytes + DataBytes - 1
  logic [1:0]       f_pk_q;                     // packed sub-byte row (tma_pkg::Pk*) ...
  logic [3:0]       f_units_d, f_units_q;       // ... its 16-byte units (dend - head) / 16
  logic [SizeLog2-1:0] f_goff_q;                // gaddr mod DataBytes
  logic             fv_q, f_out_ready;          // F's output stream
  logic             cq_in_valid, cq_in_ready;
  logic [2:0]       r_s16, r_g16, r_h16, r_rot, r_split;
  logic [11:0]      r_xh;                       // head + s (bits [3:0] are zero)

  assign r_s16   = row.smem_addr[6:4] & GMask;
  assign r_g16   = row.gaddr[6:4] & GMask;
  assign r_h16   = row.head[6:4] & GMask;
  assign r_rot   = (r_g16 - r_h16 - r_s16) & GMask;
  assign r_split = 3'(Groups) - r_rot;                 // lanes (in groups) from the lower beat
  assign r_xh    = row.head + {5'd0, r_s16, 4'd0};

  always_comb begin : proc_fork
    f_al_d          = '0;
    f_al_d.has_data = row.has_data;
    f_al_d.last     = row.last;
    f_al_d.has_read = f_read_d;
    f_al_d.beat     = row.smem_addr[31:4];
    f_al_d.xh16     = r_xh[11:4];
    f_al_d.xd1      = row.dend + s16_m1(r_s16);
    f_al_d.xl1      = row.row_bytes + s16_m1(r_s16);
    f_al_d.s16      = r_s16;
    f_al_d.rot16    = r_rot;
    f_al_d.lo_ok    = ((r_h16 + r_s16) & GMask) < r_split;
    f_al_d.hi_ok    = (f_al_d.xd1[6:4] & GMask) >= r_split;
    f_al_d.h_at0    = (r_xh[11:SizeLog2] == '0);
    f_al_d.d_at0    = (f_al_d.xd1[11:SizeLog2] == '0);
    f_al_d.l_at0    = (f_al_d.xl1[11:SizeLog2] == '0);
    f_al_d.fill_nan = row.fill_nan;
    f_al_d.tf32     = row.tf32;
    f_al_d.swz      = row.swz;
    f_al_d.cta_mask = row.cpl.cta_mask & 16'((32'd1 << NumCtas) - 1);
  end
  assign f_read_d = row.has_data && (row.dend > row.head);
  // Read span in global bytes: a packed row reads g (8 or 12) bytes per 16-byte unit (units
  // x 12 as a table after the 4-bit subtract: one carry chain in the stage).
  logic [6:0] f_units12;
  assign f_units_d = row.dend[7:4] - row.head[7:4];
  always_comb begin : proc_f_span
    unique case (f_units_d)
      4'd0:    f_units12 = 7'd0;
      4'd1:    f_units12 = 7'd12;
      4'd2:    f_units12 = 7'd24;
      4'd3:    f_units12 = 7'd36;
      4'd4:    f_units12 = 7'd48;
      4'd5:    f_units12 = 7'd60;
      4'd6:    f_units12 = 7'd72;
      4'd7:    f_units12 = 7'd84;
      default: f_units12 = 7'd96;   // 8 (a packed row has at most 8 units)
    endcase
    f_span_d = row.dend - row.head;
    if (row.pk == tma_pkg::PkG8) f_span_d = tma_pkg::RowBytesW'({f_units_d, 3'd0});
    if (row.pk == tma_pkg::PkG12) f_span_d = tma_pkg::RowBytesW'(f_units12);
  end
  assign f_c_d    = CW'(row.gaddr[SizeLog2-1:0]) + CW'(DataBytes - 1);

  // A row enters F together with its command's completion information when it is the last.
  assign f_in_valid  = row_valid && (!row.last || cq_in_ready);
  assign row_ready   = f_in_ready && (!row.last || cq_in_ready);
  assign cq_in_valid = row_valid && row.last && f_in_ready;

  tma_spill_reg #(
    .Width  (FW),
    .Bypass (0),
    .Copies (4)   // per-slice flag copies: F's bits sit by three different consumers
  ) u_f (
    .clk_i,
    .rst_ni,
    .in_valid_i  (f_in_valid),
    .in_ready_o  (f_in_ready),
    .in_data_i   ({f_al_d[tma_pkg::AlRowWidth-1:16], f_al_d.cta_mask[NumCtas-1:0], f_read_d,
                   !f_read_d, row.gaddr[63:SizeLog2], f_span_d, f_c_d, row.pk, f_units_d,
                   row.gaddr[SizeLog2-1:0]}),
    .out_valid_o (fv_q),
    .out_ready_i (f_out_ready),
    .out_data_o  ({f_row_q, f_read_q, f_nread_q, f_gaddr_q, f_span_q, f_c_q, f_pk_q, f_units_q,
                   f_goff_q})
  );

  // Eager fork: sent_*_q records a destination that already has F's row, so each destination's
  // valid is a function of F's flops and its ready reaches only F's output side. (The fork's
  // own logic reads f_nread_q, the destinations' valids f_read_q: one selects by F's flags,
  // the other by the destinations.)
  logic rowq_in_ready, req_valid, req_ready;
  tma_pkg::rd_req_t req;
  logic upq_in_valid, upq_in_ready;             // unpacker row-item FIFO (SubByte)
  logic sent_row_q, sent_req_q, sent_up_q;
  logic row_done, req_done, up_done;

  assign row_done    = sent_row_q || rowq_in_ready;
  assign req_done    = f_nread_q || sent_req_q || req_ready;
  assign up_done     = f_nread_q || sent_up_q || upq_in_ready;
  assign f_out_ready = row_done && req_done && up_done;

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_f_sent
    if (!rst_ni) begin
      sent_row_q <= 1'b0;
      sent_req_q <= 1'b0;
      sent_up_q  <= 1'b0;
    end else begin
      sent_row_q <= fv_q && !f_out_ready && row_done;
      sent_req_q <= fv_q && !f_out_ready && !f_nread_q && req_done;
      sent_up_q  <= fv_q && !f_out_ready && !f_nread_q && up_done;
    end
  end

  // ---- Row FIFO (RAM) and command FIFO (RAM) ----
  localparam int unsigned CmdFifoDepth = (RowFifoDepth / 4 > 4) ? RowFifoDepth / 4 : 4;

  logic                 rowq_in_valid, rowq_out_valid, rowq_out_ready, rowq_nonempty;
  logic [AlRamW-1:0]    rowq_out;
  logic                 ra_valid, ra_ready;    // rows out of the row slice (to the aligner)
  logic [AlRamW-1:0]    ra_row;
  tma_pkg::al_row_t     al_row;

  assign rowq_in_valid = fv_q && !sent_row_q;

  tma_fifo_ram #(
    .Width (AlRamW),
    .Depth (RowFifoDepth),
    .InReg (1'b1)
  ) u_row_fifo (
    .clk_i,
    .rst_ni,
    .in_valid_i  (rowq_in_valid),
    .in_ready_o  (rowq_in_ready),
    .in_data_i   (f_row_q),
    .out_valid_o (rowq_out_valid),
    .out_ready_i (rowq_out_ready),
    .out_data_o  (rowq_out),
    .nonempty_o  (rowq_nonempty)
  );

  // Row slice: the aligner's row pop (which waits on its beat input and the write port's room)
  // ends at this register's flops instead of running into the row FIFO's read state.
  tma_spill_reg #(
    .Width  (AlRamW),
    .Bypass (0),
    .Copies (2)
  ) u_row_slice (
    .clk_i,
    .rst_ni,
    .in_valid_i  (rowq_out_valid),
    .in_ready_o  (rowq_out_ready),
    .in_data_i   (rowq_out),
    .out_valid_o (ra_valid),
    .out_ready_i (ra_ready),
    .out_data_o  (ra_row)
  );

  always_comb begin : proc_al_row
    al_row          = {ra_row[AlRamW-1:NumCtas], 16'd0};
    al_row.cta_mask = 16'(ra_row[NumCtas-1:0]);
  end

  logic               cq_out_valid, cq_out_ready, cq_nonempty;
  tma_pkg::cpl_info_t cq_out;

  tma_fifo_ram #(
    .Width (tma_pkg::CplInfoWidth),
    .Depth (CmdFifoDepth),
    .InReg (1'b1)
  ) u_cmd_fifo (
    .clk_i,
    .rst_ni,
    .in_valid_i  (cq_in_valid),
    .in_ready_o  (cq_in_ready),
    .in_data_i   (row.cpl),
    .out_valid_o (cq_out_valid),
    .out_ready_i (cq_out_ready),
    .out_data_o  (cq_out),
    .nonempty_o  (cq_nonempty)
  );

  // ---- Burst splitter and read engine ----
  logic         split_ar_valid, split_ar_ready, split_busy;
  tma_pkg::ar_t split_ar;
  logic [OutW-1:0] credits_d, credits_q;         // data bursts that may still be issued
  logic         credit_ok_q;                     // credits_q != 0, registered
  logic         sa_valid, sa_ready;              // data ARs out of the AR slice
  tma_pkg::ar_t sa_ar;
  logic         data_ar_valid, data_ar_ready;
  logic         data_ar_fire, data_r_last_fire;
  logic [1:0]   arb_ready;
  logic         arb_idx;

  assign req_valid   = fv_q && f_read_q && !sent_req_q;
  assign upq_in_valid = fv_q && f_read_q && !sent_up_q;
  assign req.addr    = {f_gaddr_q, SizeLog2'(0)};
  assign req.nbeats  = tma_pkg::BeatCntW'((f_span_q + tma_pkg::RowBytesW'(f_c_q)) >> SizeLog2);

  tma_burst_split #(
    .DataBytes   (DataBytes),
    .MaxBurstLen (MaxBurstLen)
  ) u_split (
    .clk_i,
    .rst_ni,
    .req_valid_i (req_valid),
    .req_ready_o (req_ready),
    .req_i       (req),
    .ar_valid_o  (split_ar_valid),
    .ar_ready_i  (split_ar_ready),
    .ar_o        (split_ar),
    .busy_o      (split_busy)
  );

  // AR slice: the splitter's ready path ends here (in_ready_o of a spill register depends on
  // flops only), so the AR port, the arbiter and the credit test do not reach the splitter.
  tma_spill_reg #(
    .Width  (tma_pkg::ArWidth),
    .Bypass (0)
  ) u_ar_slice (
    .clk_i,
    .rst_ni,
    .in_valid_i  (split_ar_valid),
    .in_ready_o  (split_ar_ready),
    .in_data_i   (split_ar),
    .out_valid_o (sa_valid),
    .out_ready_i (sa_ready),
    .out_data_o  (sa_ar)
  );

  // Descriptor AR slice: the controller's AR handshake ends at flops (its ar_valid_o is a
  // compare of its fetch counters), so the arbiter's grant does not reach into the controller.
  tma_spill_reg #(
    .Width  (tma_pkg::ArWidth),
    .Bypass (0)
  ) u_desc_ar_slice (
    .clk_i,
    .rst_ni,
    .in_valid_i  (desc_ar_valid),
    .in_ready_o  (desc_ar_ready),
    .in_data_i   (desc_ar),
    .out_valid_o (da_valid),
    .out_ready_i (da_ready),
    .out_data_o  (da_ar)
  );

  // At most MaxOutstanding data bursts in flight; all data reads use one ID, so AXI4 returns
  // them in order. The limit is a credit counter whose zero test is registered (credit_ok_q
  // is credits_q != 0: it is loaded with credits_d != 0 whenever credits_q is loaded).
  assign data_ar_valid = sa_valid && credit_ok_q;
  assign sa_ready      = data_ar_ready && credit_ok_q;

  tma_stream_arb #(
    .NumIn  (2),
    .Width  (tma_pkg::ArWidth),
    .LockIn (1)
  ) u_ar_arb (
    .clk_i,
    .rst_ni,
    .in_valid_i  ({da_valid, data_ar_valid}),
    .in_ready_o  (arb_ready),
    .in_data_i   ({da_ar, sa_ar}),
    .out_valid_o (ar_valid_o),
    .out_ready_i (ar_ready_i),
    .out_data_o  (ar_o),
    .out_idx_o   (arb_idx)
  );
  assign data_ar_ready = arb_ready[0];
  assign da_ready      = arb_ready[1];
  assign ar_id_o       = arb_idx ? tma_pkg::AxiIdDesc : tma_pkg::AxiIdData;

  // ---- R routing ----
  logic beat_valid, beat_ready;
  logic ub_valid, ub_ready, ub_err, up_busy;    // data beats in the shared-memory layout
  logic [DW-1:0] ub_data;
  assign beat_valid       = r_valid_i && (r_id_i != tma_pkg::AxiIdDesc);
  assign r_ready_o        = (r_id_i == tma_pkg::AxiIdDesc) ? 1'b1 : beat_ready;
  assign data_ar_fire     = data_ar_valid && data_ar_ready;
  assign data_r_last_fire = beat_valid && beat_ready && r_last_i;

  // A burst's credit returns one cycle after its last beat (rlast_q), so the R handshake
  // (which reaches back through the aligner's ready) does not meet the counter's adder and
  // zero test in the same cycle.
  logic rlast_q;

  always_comb begin : proc_credits
    credits_d = credits_q;
    if (data_ar_fire && !rlast_q) credits_d = credits_q - 1'b1;
    if (!data_ar_fire && rlast_q) credits_d = credits_q + 1'b1;
  end

  // ---- Sub-byte unpacker (docs/rtl-unpack.md): one row item per read, in the order of the
  // reads, in the same handshake as the read request; the R beats of ID 0 pass through it ----
  if (SubByte != 0) begin : gen_unpack
    localparam int unsigned UpW = 2 + SizeLog2 + tma_pkg::BeatCntW + 4;
    logic          upq_out_valid, upq_out_ready, upq_nonempty, up_busy_blk;
    logic [UpW-1:0] upq_out;

    tma_fifo_ram #(
      .Width (UpW),
      .Depth (RowFifoDepth),
      .InReg (1'b1)
    ) u_unpack_fifo (
      .clk_i,
      .rst_ni,
      .in_valid_i  (upq_in_valid),
      .in_ready_o  (upq_in_ready),
      .in_data_i   ({f_pk_q, f_goff_q, req.nbeats, f_units_q}),
      .out_valid_o (upq_out_valid),
      .out_ready_i (upq_out_ready),
      .out_data_o  (upq_out),
      .nonempty_o  (upq_nonempty)
    );

    tma_unpack #(
      .DataBytes (DataBytes)
    ) u_unpack (
      .clk_i,
      .rst_ni,
      .row_valid_i    (upq_out_valid),
      .row_ready_o    (upq_out_ready),
      .row_mode_i     (upq_out[UpW-1 -: 2]),
      .row_goff_i     (upq_out[UpW-3 -: SizeLog2]),
      .row_in_beats_i (upq_out[4 +: tma_pkg::BeatCntW]),
      .row_units_i    (upq_out[3:0]),
      .in_valid_i     (beat_valid),
      .in_ready_o     (beat_ready),
      .in_data_i      (r_data_i),
      .in_err_i       (r_resp_i != 2'b00),
      .out_valid_o    (ub_valid),
      .out_ready_i    (ub_ready),
      .out_data_o     (ub_data),
      .out_err_o      (ub_err),
      .busy_o         (up_busy_blk)
    );
    assign up_busy = up_busy_blk || upq_nonempty;
  end else begin : gen_no_unpack
    assign upq_in_ready = 1'b1;
    assign ub_valid     = beat_valid;
    assign beat_ready   = ub_ready;
    assign ub_data      = r_data_i;
    assign ub_err       = (r_resp_i != 2'b00);
    assign up_busy      = 1'b0;
    logic unused_pk;
    assign unused_pk = ^{f_pk_q, f_goff_q, f_units_q, upq_in_valid};
  end

  // ---- Row aligner ----
  logic                 al_valid, al_ready, al_wr, al_last, al_err;
  logic [31:0]          al_addr;
  logic [DW-1:0]        al_data;
  logic [DataBytes-1:0] al_strb;
  logic [2:0]           al_swz;
  logic [6:3]           al_lane;
  logic [15:0]          al_cta;
  logic                 al_busy;

  tma_row_aligner #(
    .DataBytes (DataBytes)
  ) u_aligner (
    .clk_i,
    .rst_ni,
    .row_valid_i    (ra_valid),
    .row_ready_o    (ra_ready),
    .row_i          (al_row),
    .beat_valid_i   (ub_valid),
    .beat_ready_o   (ub_ready),
    .beat_data_i    (ub_data),
    .beat_err_i     (ub_err),
    .out_valid_o    (al_valid),
    .out_ready_i    (al_ready),
    .out_wr_o       (al_wr),
    .out_addr_o     (al_addr),
    .out_data_o     (al_data),
    .out_strb_o     (al_strb),
    .out_swz_o      (al_swz),
    .out_lane_o     (al_lane),
    .out_last_o     (al_last),
    .out_err_o      (al_err),
    .out_cta_mask_o (al_cta),
    .busy_o         (al_busy)
  );

  // ---- Swizzle (on the absolute shared address) ----
  logic [31:0]          sw_addr;
  logic [DW-1:0]        sw_data;
  logic [DataBytes-1:0] sw_strb;

  tma_swizzle #(
    .DataBytes (DataBytes),
    .LaneIn    (1)          // the aligner computed the granule permutation a stage earlier
  ) u_swizzle (
    .mode_i (al_swz),
    .addr_i (al_addr),
    .lane_i (al_lane),
    .data_i (al_data),
    .strb_i (al_strb),
    .addr_o (sw_addr),
    .data_o (sw_data),
    .strb_o (sw_strb)
  );

  // ---- Shared-memory write port ----
  logic                 pv, pready, p_wr, p_last, p_err;
  logic [31:0]          p_addr;
  logic [DW-1:0]        p_data;
  logic [DataBytes-1:0] p_strb;
  logic [NumCtas-1:0]   p_cta;
  logic                 dq_in_valid, dq_in_ready, dq_out_valid, dq_out_ready, dq_err;
  logic [1:0]           dq_usage;

  tma_spill_reg #(
    .Width  (ItemW),
    .Bypass (0),
    .Copies (4)   // per-slice flag copies (the swizzle spreads the beat's bytes)
  ) u_port_reg (
    .clk_i,
    .rst_ni,
    .in_valid_i  (al_valid),
    .in_ready_o  (al_ready),
    .in_data_i   ({al_wr, sw_addr, sw_data, sw_strb, al_last, al_err, al_cta[NumCtas-1:0]}),
    .out_valid_o (pv),
    .out_ready_i (pready),
    .out_data_o  ({p_wr, p_addr, p_data, p_strb, p_last, p_err, p_cta})
  );

  // A beat that ends a command leaves only when its end can be queued (done FIFO: the
  // command's read-error flag; its completion information waits in the command FIFO).
  assign smem_wr_valid_o    = pv && p_wr && (!p_last || dq_in_ready);
  assign smem_wr_addr_o     = p_addr;
  assign smem_wr_data_o     = p_data;
  assign smem_wr_strb_o     = p_strb;
  assign smem_wr_cta_mask_o = 16'(p_cta);
  assign pready      = (!p_last || dq_in_ready) && (!p_wr || smem_wr_ready_i);
  // (valid only when it is taken: the smem ready may drop again, valid must not.)
  assign dq_in_valid = pv && p_last && dq_in_ready && (!p_wr || smem_wr_ready_i);

  tma_fifo #(
    .Width       (1),
    .Depth       (2),
    .FallThrough (0)
  ) u_done_fifo (
    .clk_i,
    .rst_ni,
    .clr_i       (1'b0),
    .in_valid_i  (dq_in_valid),
    .in_ready_o  (dq_in_ready),
    .in_data_i   (p_err),
    .out_valid_o (dq_out_valid),
    .out_ready_i (dq_out_ready),
    .out_data_o  (dq_err),
    .usage_o     (dq_usage)
  );

  // A finished command: its completion information, a bus_error if one of its reads failed.
  logic               info_valid, info_ready;
  tma_pkg::cpl_info_t info;

  always_comb begin : proc_info
    info = cq_out;
    if (dq_err && cq_out.kind == tma_pkg::CplTx) begin
      info.kind = tma_pkg::CplError;
      info.err  = tma_pkg::ErrBusError;
    end
  end
  assign info_valid   = dq_out_valid && cq_out_valid;
  assign dq_out_ready = info_ready && cq_out_valid;
  assign cq_out_ready = info_ready && dq_out_valid;

  tma_cpl_unit u_cpl (
    .clk_i,
    .rst_ni,
    .info_valid_i (info_valid),
    .info_ready_o (info_ready),
    .info_i       (info),
    .cpl_valid_o,
    .cpl_ready_i,
    .cpl_o
  );

  logic unused_fork;
  assign unused_fork = ^{r_xh[3:0], al_cta};

  // ---- Status ----
  logic [15:0] err_count_d, err_count_q;
  assign err_count_d = err_count_q + 16'((cpl_valid_o && cpl_ready_i &&
                                          cpl_o.kind == tma_pkg::CplError) ? 1 : 0);

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_state
    if (!rst_ni) begin
      credits_q     <= OutW'(MaxOutstanding);
      credit_ok_q   <= 1'b1;
      rlast_q       <= 1'b0;
      err_count_q   <= '0;
    end else begin
      credits_q     <= credits_d;
      credit_ok_q   <= (credits_d != '0);
      rlast_q       <= data_r_last_fire;
      err_count_q   <= err_count_d;
    end
  end

  assign err_count_o = err_count_q;
  assign busy_o = ctrl_busy || walker_busy || fv_q || rowq_nonempty || ra_valid || split_busy ||
                  sa_valid || da_valid ||
                  (credits_q != OutW'(MaxOutstanding)) || al_busy || pv || (dq_usage != '0) ||
                  cq_nonempty || cpl_valid_o || up_busy;

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_INIT(NumCtasLegal_A, NumCtas >= 1 && NumCtas <= 16)
  `TMA_ASSERT_INIT(MaxOutstandingLegal_A, MaxOutstanding >= 1 && MaxOutstanding <= 1024)
  `TMA_ASSERT_INIT(DescCacheEntriesLegal_A, DescCacheEntries >= 1 && DescCacheEntries <= 16)
  `TMA_ASSERT_INIT(MaxBurstLenLegal_A, MaxBurstLen >= 1 && MaxBurstLen <= 256)
  `TMA_ASSERT_INIT(RowFifoDepthLegal_A, RowFifoDepth >= 2)
  `TMA_ASSERT_INIT(SubByteLegal_A, SubByte <= 1)
  // The fork's sent flags belong to the row in F (and a read's flags to a read row).
  `TMA_ASSERT_IMPLY(ForkSentHeld_A, (sent_row_q || sent_req_q || sent_up_q), fv_q)
  `TMA_ASSERT_IMPLY(ForkSentRead_A, (sent_req_q || sent_up_q), f_read_q)
  `TMA_ASSERT_IMPLY(ForkReadCopy_A, fv_q, f_nread_q == !f_read_q)
  // The aligner's granule permutation is the swizzle's own of the beat it goes with.
  `TMA_ASSERT_IMPLY(SwizzleLane_A, al_valid,
                    al_lane == tma_pkg::swz_lanes(al_swz, al_addr[9:7], DataBytes))
  `TMA_ASSERT_IMPLY(PackedRowWhole_A, row_valid && row.has_data && row.pk != tma_pkg::PkNone &&
                                      row.dend > row.head,
                    row.head[3:0] == 4'd0 && row.dend[3:0] == 4'd0 &&
                    row.dend - row.head <= 12'd128)
  `TMA_ASSERT_STABLE(SmemHeld_A, smem_wr_valid_o, smem_wr_ready_i,
                     {smem_wr_addr_o, smem_wr_data_o, smem_wr_strb_o, smem_wr_cta_mask_o})
  `TMA_ASSERT_IMPLY(NoLostDescBeat_A, r_valid_i && r_id_i == tma_pkg::AxiIdDesc, r_ready_o)
  `TMA_ASSERT(CreditOkMatches_A, credit_ok_q == (credits_q != '0))
  `TMA_ASSERT_NEVER(OutstandingUnderflow_A, rlast_q && !data_ar_fire &&
                                            credits_q == OutW'(MaxOutstanding))
  `TMA_ASSERT_IMPLY(RowAligned_A, row_valid && row.has_data,
                    row.smem_addr[3:0] == 4'd0 && row.gaddr[3:0] == 4'd0)
  `TMA_ASSERT_IMPLY(CmdBeforeEnd_A, dq_out_valid, cq_out_valid)

endmodule
