// SPDX-License-Identifier: Apache-2.0
//
// tma_row_fork: splits the walker's rows to the backend and queues them. A register stage
// (the fork register, a spill register) computes what the consumers need of a row, one carry
// chain each: the compact row entry for the aligner (tma_pkg::al_row_t, the DataBytes
// dependent beat geometry), the read request for the burst splitter (tma_pkg::rd_req_t) and,
// with SubByte, the unpack item (tma_pkg::up_row_t). Its output is an eager fork: each
// destination takes the row on its own handshake and the row leaves the fork register when all
// have it. Behind the fork:
//   * the row FIFO (RAM) and the row slice: every row, to the aligner;
//   * the read request: rows with a read (in-bounds bytes), to the splitter (no queue);
//   * the unpack FIFO (RAM, SubByte): one item per read, in read order, to the unpacker;
//   * the command FIFO (RAM): a command's completion information, pushed when its last row
//     enters the fork register, to the write port's command end.
// Every row in flight (read requested, not yet written) holds a row-FIFO entry, so sustained
// throughput needs RowFifoDepth of about memory latency / beats per row (docs/performance.md).
//
// Streams: row in (row_t); aligner rows out (al_row_t), read requests out (rd_req_t), unpack
// items out (up_row_t), command information out (cpl_info_t).

`default_nettype none

`include "tma_assert.svh"

module tma_row_fork #(
  parameter int unsigned DataBytes    = 16,   // 16, 32, 64 or 128
  parameter int unsigned NumCtas      = 16,   // 1 .. 16
  parameter int unsigned RowFifoDepth = 512,  // rows between walker and aligner, >= 2
  parameter int unsigned SubByte      = 1     // 1: unpack items for tma_unpack
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Rows (from the N-D walker)
  input  logic                  row_valid_i,
  output logic                  row_ready_o,
  input  tma_pkg::row_t         row_i,
  // Row entries (to the aligner)
  output logic                  al_row_valid_o,
  input  logic                  al_row_ready_i,
  output tma_pkg::al_row_t      al_row_o,
  // Read requests (to the burst splitter)
  output logic                  rd_req_valid_o,
  input  logic                  rd_req_ready_i,
  output tma_pkg::rd_req_t      rd_req_o,
  // Unpack items (to the unpacker; SubByte = 0: never valid)
  output logic                  up_row_valid_o,
  input  logic                  up_row_ready_i,
  output tma_pkg::up_row_t      up_row_o,
  // Completion information of each command (to the write port's command end)
  output logic                  info_valid_o,
  input  logic                  info_ready_i,
  output tma_pkg::cpl_info_t    info_o,
  // Status
  output logic                  busy_o
);

  localparam int unsigned SizeLog2     = $clog2(DataBytes);
  localparam int unsigned Groups       = DataBytes / 16;          // 16-byte groups of a beat
  localparam logic [2:0]  GroupMask    = 3'(Groups - 1);
  localparam int unsigned LaneEndW     = SizeLog2 + 1;
  localparam int unsigned CmdFifoDepth = (RowFifoDepth / 4 > 4) ? RowFifoDepth / 4 : 4;
  // Row FIFO entry: al_row_t with only the NumCtas low bits of its cta_mask (the last field).
  localparam int unsigned RowEntryW    = tma_pkg::AlRowWidth - 16 + NumCtas;
  // Fork register entry, packed and unpacked in the same field order below.
  localparam int unsigned ForkW        = RowEntryW + 2 + (64 - SizeLog2) + tma_pkg::RowBytesW +
                                         LaneEndW + 2 + 4 + SizeLog2 + 1;
  // Unpack FIFO entry: up_row_t with only the SizeLog2 low bits of goff.
  localparam int unsigned UpEntryW     = 2 + SizeLog2 + tma_pkg::BeatCntW + 4;

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

  // ---- Signals ----
  // The walker's row, in 16-byte groups of a beat (positions x = row byte + s, s the row's
  // shared address mod DataBytes; tma_pkg::al_row_t)
  logic [2:0]  smem_grp;        // s / 16
  logic [2:0]  gaddr_grp;       // group of the row's first global byte in its beat
  logic [2:0]  head_grp;        // group of the row's first in-bounds byte
  logic [2:0]  rot_grp;         // realignment rotation (gaddr - head - s) mod DataBytes, / 16
  logic [3:0]  split_grp;       // groups of a shifted beat taken from the lower global beat,
                                // 1 .. Groups (Groups = 8 at DataBytes 128: four bits)
  logic [11:0] xhead;           // head + s (bits [3:0] are zero)
  // The fork register's input ...
  logic                          fork_in_valid, fork_in_ready;
  tma_pkg::al_row_t              al_row_d;
  logic                          read_d;        // the row needs a global read
  logic [tma_pkg::RowBytesW-1:0] span_d;        // global bytes read: dend - head (packed: less)
  logic [LaneEndW-1:0]           lane_end_d;    // gaddr mod DataBytes + DataBytes - 1
  logic [3:0]                    units_d;       // 16-byte units (dend - head) / 16
  logic [6:0]                    units12;       // units x 12 (b6x16_p32 global bytes)
  // ... and output
  logic                          fork_valid, fork_ready;
  logic [RowEntryW-1:0]          row_entry_q;   // the row FIFO entry
  logic                          read_q;        // the row needs a global read
  logic                          no_read_q;     // !read_q, the fork's own copy (see below)
  logic [63:SizeLog2]            gaddr_beat_q;  // the read's first beat address
  logic [tma_pkg::RowBytesW-1:0] span_q;
  logic [LaneEndW-1:0]           lane_end_q;
  logic [1:0]                    pk_q;          // packed sub-byte row (tma_pkg::Pk*)
  logic [3:0]                    units_q;
  logic [SizeLog2-1:0]           goff_q;        // gaddr mod DataBytes
  logic                          pf_d, pf_q;    // a prefetch's row
  // Eager fork: which destinations already have the row in the fork register
  logic sent_row_d, sent_req_d, sent_up_d;
  logic sent_row_q, sent_req_q, sent_up_q;
  logic done_row, done_req, done_up;            // the destination has it or takes it now
  logic row_fifo_in_valid, row_fifo_in_ready;
  logic up_fifo_in_valid, up_fifo_in_ready;
  logic cmd_fifo_in_valid, cmd_fifo_in_ready;
  logic [tma_pkg::BeatCntW-1:0] in_beats;       // global beats of the row's read

  // ---- Fork register input: what the consumers need of the row ----
  assign smem_grp  = row_i.smem_addr[6:4] & GroupMask;
  assign gaddr_grp = row_i.gaddr[6:4] & GroupMask;
  assign head_grp  = row_i.head[6:4] & GroupMask;
  assign rot_grp   = (gaddr_grp - head_grp - smem_grp) & GroupMask;
  assign split_grp = 4'(Groups) - {1'b0, rot_grp};
  assign xhead     = row_i.head + {5'd0, smem_grp, 4'd0};
  assign read_d    = row_i.has_data && (row_i.dend > row_i.head);
  // A prefetch's row (tensor or bulk): a done with no destination CTA (stores and reductions
  // do not come here); its read carries ARCACHE AxiCachePrefetch.
  assign pf_d      = row_i.cpl.kind == tma_pkg::CplDone && row_i.cpl.cta_mask == '0;

  always_comb begin : proc_al_row
    al_row_d          = '0;
    al_row_d.has_data = row_i.has_data;
    al_row_d.last     = row_i.last;
    al_row_d.has_read = read_d;
    al_row_d.beat     = row_i.smem_addr[31:4];
    al_row_d.xh16     = xhead[11:4];
    al_row_d.xd1      = row_i.dend + s16_m1(smem_grp);
    al_row_d.xl1      = row_i.row_bytes + s16_m1(smem_grp);
    al_row_d.s16      = smem_grp;
    al_row_d.rot16    = rot_grp;
    al_row_d.lo_ok    = {1'b0, (head_grp + smem_grp) & GroupMask} < split_grp;
    al_row_d.hi_ok    = {1'b0, al_row_d.xd1[6:4] & GroupMask} >= split_grp;
    al_row_d.h_at0    = (xhead[11:SizeLog2] == '0);
    al_row_d.d_at0    = (al_row_d.xd1[11:SizeLog2] == '0);
    al_row_d.l_at0    = (al_row_d.xl1[11:SizeLog2] == '0);
    al_row_d.fill_nan = row_i.fill_nan;
    al_row_d.tf32     = row_i.tf32;
    al_row_d.swz      = row_i.swz;
    al_row_d.cta_mask = row_i.cpl.cta_mask & 16'((32'd1 << NumCtas) - 1);
  end

  // Read span in global bytes: a packed row reads g (8 or 12) bytes per 16-byte unit (units
  // x 12 as a table after the 4-bit subtract: one carry chain in the stage).
  assign units_d = row_i.dend[7:4] - row_i.head[7:4];
  always_comb begin : proc_span
    unique case (units_d)
      4'd0:    units12 = 7'd0;
      4'd1:    units12 = 7'd12;
      4'd2:    units12 = 7'd24;
      4'd3:    units12 = 7'd36;
      4'd4:    units12 = 7'd48;
      4'd5:    units12 = 7'd60;
      4'd6:    units12 = 7'd72;
      4'd7:    units12 = 7'd84;
      default: units12 = 7'd96;   // 8 (a packed row has at most 8 units)
    endcase
    span_d = row_i.dend - row_i.head;
    if (row_i.pk == tma_pkg::PkG8) span_d = tma_pkg::RowBytesW'({units_d, 3'd0});
    if (row_i.pk == tma_pkg::PkG12) span_d = tma_pkg::RowBytesW'(units12);
  end
  assign lane_end_d = LaneEndW'(row_i.gaddr[SizeLog2-1:0]) + LaneEndW'(DataBytes - 1);

  // A row enters the fork register together with its command's completion information (into
  // the command FIFO) when it is the command's last.
  assign fork_in_valid     = row_valid_i && (!row_i.last || cmd_fifo_in_ready);
  assign row_ready_o       = fork_in_ready && (!row_i.last || cmd_fifo_in_ready);
  assign cmd_fifo_in_valid = row_valid_i && row_i.last && fork_in_ready;

  // ---- Fork register ----
  // A spill register: the walker's ready and the command FIFO's push depend on its flops only.
  // read_d is stored twice, once inverted (no_read_q): the fork's own handshake logic reads
  // no_read_q, the destinations' valids read read_q, so each flop sits by the logic it selects
  // (two storage bits of one value, each with its own consumers; ForkReadCopy_A ties them).
  tma_spill_reg #(
    .Width  (ForkW),
    .Bypass (0),
    .Copies (4)   // per-slice flag copies: the register's bits sit by three consumers
  ) u_fork_reg (
    .clk_i,
    .rst_ni,
    .in_valid_i  (fork_in_valid),
    .in_ready_o  (fork_in_ready),
    .in_data_i   ({al_row_d[tma_pkg::AlRowWidth-1:16], al_row_d.cta_mask[NumCtas-1:0], read_d,
                   !read_d, row_i.gaddr[63:SizeLog2], span_d, lane_end_d, row_i.pk, units_d,
                   row_i.gaddr[SizeLog2-1:0], pf_d}),
    .out_valid_o (fork_valid),
    .out_ready_i (fork_ready),
    .out_data_o  ({row_entry_q, read_q, no_read_q, gaddr_beat_q, span_q, lane_end_q, pk_q,
                   units_q, goff_q, pf_q})
  );

  // ---- Eager fork ----
  // sent_*_q records a destination that already has the fork register's row, so each
  // destination's valid is a function of the register's flops and its ready reaches only the
  // register's output side.
  assign done_row   = sent_row_q || row_fifo_in_ready;
  assign done_req   = no_read_q || sent_req_q || rd_req_ready_i;
  assign done_up    = no_read_q || sent_up_q || up_fifo_in_ready;
  assign fork_ready = done_row && done_req && done_up;

  // A destination keeps its sent flag while the row stays (not every destination has it).
  assign sent_row_d = fork_valid && !fork_ready && done_row;
  assign sent_req_d = fork_valid && !fork_ready && !no_read_q && done_req;
  assign sent_up_d  = fork_valid && !fork_ready && !no_read_q && done_up;

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_sent
    if (!rst_ni) begin
      sent_row_q <= 1'b0;
      sent_req_q <= 1'b0;
      sent_up_q  <= 1'b0;
    end else begin
      sent_row_q <= sent_row_d;
      sent_req_q <= sent_req_d;
      sent_up_q  <= sent_up_d;
    end
  end

  assign row_fifo_in_valid = fork_valid && !sent_row_q;
  assign rd_req_valid_o    = fork_valid && read_q && !sent_req_q;
  assign up_fifo_in_valid  = fork_valid && read_q && !sent_up_q;
  assign in_beats          = tma_pkg::BeatCntW'((span_q + tma_pkg::RowBytesW'(lane_end_q)) >>
                                                SizeLog2);
  assign rd_req_o.addr     = {gaddr_beat_q, SizeLog2'(0)};
  assign rd_req_o.nbeats   = in_beats;
  assign rd_req_o.pf       = pf_q;

  // ---- Row FIFO (RAM) and row slice ----
  logic                 row_fifo_out_valid, row_fifo_out_ready, row_fifo_nonempty;
  logic [RowEntryW-1:0] row_fifo_out;
  logic                 row_slice_valid;
  logic [RowEntryW-1:0] row_slice_out;

  tma_fifo_ram #(
    .Width (RowEntryW),
    .Depth (RowFifoDepth),
    .InReg (1'b1)
  ) u_row_fifo (
    .clk_i,
    .rst_ni,
    .in_valid_i  (row_fifo_in_valid),
    .in_ready_o  (row_fifo_in_ready),
    .in_data_i   (row_entry_q),
    .out_valid_o (row_fifo_out_valid),
    .out_ready_i (row_fifo_out_ready),
    .out_data_o  (row_fifo_out),
    .nonempty_o  (row_fifo_nonempty)
  );

  // Row slice: the aligner's row pop (which waits on its beat input and the write port's room)
  // ends at this register's flops instead of running into the row FIFO's read state.
  tma_spill_reg #(
    .Width  (RowEntryW),
    .Bypass (0),
    .Copies (2)
  ) u_row_slice (
    .clk_i,
    .rst_ni,
    .in_valid_i  (row_fifo_out_valid),
    .in_ready_o  (row_fifo_out_ready),
    .in_data_i   (row_fifo_out),
    .out_valid_o (row_slice_valid),
    .out_ready_i (al_row_ready_i),
    .out_data_o  (row_slice_out)
  );

  assign al_row_valid_o = row_slice_valid;
  always_comb begin : proc_al_row_out
    al_row_o          = {row_slice_out[RowEntryW-1:NumCtas], 16'd0};
    al_row_o.cta_mask = 16'(row_slice_out[NumCtas-1:0]);
  end

  // ---- Command FIFO (RAM) ----
  logic cmd_fifo_nonempty;

  tma_fifo_ram #(
    .Width (tma_pkg::CplInfoWidth),
    .Depth (CmdFifoDepth),
    .InReg (1'b1)
  ) u_cmd_fifo (
    .clk_i,
    .rst_ni,
    .in_valid_i  (cmd_fifo_in_valid),
    .in_ready_o  (cmd_fifo_in_ready),
    .in_data_i   (row_i.cpl),
    .out_valid_o (info_valid_o),
    .out_ready_i (info_ready_i),
    .out_data_o  (info_o),
    .nonempty_o  (cmd_fifo_nonempty)
  );

  // ---- Unpack FIFO (RAM, SubByte): one item per read, in read order ----
  logic up_fifo_nonempty;

  if (SubByte != 0) begin : gen_unpack
    logic [UpEntryW-1:0] up_fifo_out;

    tma_fifo_ram #(
      .Width (UpEntryW),
      .Depth (RowFifoDepth),
      .InReg (1'b1)
    ) u_unpack_fifo (
      .clk_i,
      .rst_ni,
      .in_valid_i  (up_fifo_in_valid),
      .in_ready_o  (up_fifo_in_ready),
      .in_data_i   ({pk_q, goff_q, in_beats, units_q}),
      .out_valid_o (up_row_valid_o),
      .out_ready_i (up_row_ready_i),
      .out_data_o  (up_fifo_out),
      .nonempty_o  (up_fifo_nonempty)
    );

    always_comb begin : proc_up_row
      up_row_o          = '0;
      up_row_o.pk       = up_fifo_out[UpEntryW-1 -: 2];
      up_row_o.goff     = 7'(up_fifo_out[UpEntryW-3 -: SizeLog2]);
      up_row_o.in_beats = up_fifo_out[4 +: tma_pkg::BeatCntW];
      up_row_o.units    = up_fifo_out[3:0];
    end
  end else begin : gen_no_unpack
    assign up_fifo_in_ready = 1'b1;
    assign up_fifo_nonempty = 1'b0;
    assign up_row_valid_o   = 1'b0;
    assign up_row_o         = '0;
    logic unused_up;
    assign unused_up = ^{pk_q, goff_q, units_q, up_fifo_in_valid, up_row_ready_i};
  end

  assign busy_o = fork_valid || row_fifo_nonempty || row_slice_valid || cmd_fifo_nonempty ||
                  up_fifo_nonempty;

  logic unused_xhead;
  assign unused_xhead = ^xhead[3:0];
  logic unused_bmask;                   // (a store row's byte mask: not on load rows)
  assign unused_bmask = ^{row_i.bmask_en, row_i.bmask};

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_INIT(NumCtasLegal_A, NumCtas >= 1 && NumCtas <= 16)
  `TMA_ASSERT_INIT(RowFifoDepthLegal_A, RowFifoDepth >= 2)
  `TMA_ASSERT_INIT(SubByteLegal_A, SubByte <= 1)
  `TMA_ASSERT_INIT(AlRowWidth_A, tma_pkg::AlRowWidth == $bits(tma_pkg::al_row_t))
  `TMA_ASSERT_INIT(UpRowWidth_A, tma_pkg::UpRowWidth == $bits(tma_pkg::up_row_t))
  // The sent flags belong to the row in the fork register (and a read's flags to a read row).
  `TMA_ASSERT_IMPLY(ForkSentHeld_A, (sent_row_q || sent_req_q || sent_up_q), fork_valid)
  `TMA_ASSERT_IMPLY(ForkSentRead_A, (sent_req_q || sent_up_q), read_q)
  // no_read_q is the inverted copy of read_q (both bits of one register entry, so equal while
  // the register holds a row; its data flops have no reset).
  `TMA_ASSERT_IMPLY(ForkReadCopy_A, fork_valid, no_read_q == !read_q)
  `TMA_ASSERT_IMPLY(PackedRowWhole_A, row_valid_i && row_i.has_data &&
                                      row_i.pk != tma_pkg::PkNone && row_i.dend > row_i.head,
                    row_i.head[3:0] == 4'd0 && row_i.dend[3:0] == 4'd0 &&
                    row_i.dend - row_i.head <= 12'd128)
  `TMA_ASSERT_IMPLY(RowAligned_A, row_valid_i && row_i.has_data,
                    row_i.smem_addr[3:0] == 4'd0 && row_i.gaddr[3:0] == 4'd0)
  `TMA_ASSERT_STABLE(AlRowHeld_A, al_row_valid_o, al_row_ready_i, al_row_o)
  `TMA_ASSERT_STABLE(RdReqHeld_A, rd_req_valid_o, rd_req_ready_i, rd_req_o)

endmodule

`default_nettype wire
