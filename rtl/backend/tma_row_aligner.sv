// SPDX-License-Identifier: Apache-2.0
//
// tma_row_aligner: turns row entries (tma_pkg::al_row_t, from the engine's row FIFO) and the
// global read beats of their in-bounds bytes into logical (unswizzled) shared-memory beats: it
// realigns bus beats to the row's shared-memory lanes, writes the OOB fill (zero, or 0x7FF7 per
// 16 bits) for every byte outside the in-bounds range without any read for it, rounds 4-byte
// elements to tf32 (silicon D3) and sets byte strobes to exactly the row's bytes. All positions
// are multiples of 16 bytes except the in-bounds end, so the realignment is a rotation by a
// multiple of 16 bytes of the window {global beat w + 1, global beat w}.
//
// Three stages, one output beat per cycle; G, D and T each end in a two-entry spill register
// (tma_spill_reg), and the global beats enter through a spill register (B):
//   G (geometry): walks the output beats k of the row at the head of the row FIFO. Which of
//     them are the first / last in-bounds beat and the last beat of the row are equality
//     compares of k with beat indices the fork computed (no arithmetic per beat); from them it
//     computes the lane masks (in-bounds, strobe) and the source decision of the beat (take a
//     new global beat, preload one first, take the lower half from the previous beat): the
//     beat's micro-operation, into G's spill register.
//   D (data): takes the global beat the decision asks for, rotates, fills, into D's spill
//     register (with the tf32 tests of the aligned beat).
//   T (tf32): rounds 4-byte elements of tf32 rows into T's spill register, which drives the
//     output.
// Timing: a spill register's input ready is a function of its own flops, so out_ready_i
// reaches only T's register, beat_ready_o comes from B's, G advances on G's register's room
// and the row valid, D on D's register's room and G's and B's outputs, and T's room reaches
// only D's register; no handshake passes through two stages.
// A row whose first in-bounds output beat needs two global beats spends one extra cycle in D
// (the preload). Completion-only rows (has_data = 0) pass as one item without a write. A read
// beat with an error response turns the rest of its command into no-write items; the last item
// of the command then carries out_o.err (the engine turns its completion into a bus_error).

`default_nettype none

`include "tma_assert.svh"

module tma_row_aligner #(
  parameter  int unsigned DataBytes = 16,
  localparam int unsigned DW        = DataBytes * 8
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Row entries (in order, from the row FIFO; held until taken)
  input  logic                  row_valid_i,
  output logic                  row_ready_o,
  input  tma_pkg::al_row_t      row_i,
  // Global read beats of the rows' in-bounds bytes, in order
  input  logic                  beat_valid_i,
  output logic                  beat_ready_o,
  input  logic [DW-1:0]         beat_data_i,
  input  logic                  beat_err_i,
  // Logical shared-memory beats (and completion-only items)
  output logic                  out_valid_o,
  input  logic                  out_ready_i,
  output tma_pkg::smem_beat_t   out_o,          // wr = 0: completion-only item
  output logic [DW-1:0]         out_data_o,
  output logic [DataBytes-1:0]  out_strb_o,
  // Status
  output logic                  busy_o
);

  localparam int unsigned SizeLog2 = $clog2(DataBytes);
  localparam int unsigned Groups   = DataBytes / 16;          // 16-byte lane groups of a beat
  localparam int unsigned LgG      = SizeLog2 - 4;
  localparam logic [2:0]  GMask    = 3'(Groups - 1);
  localparam int unsigned AddrHiW  = 28 - LgG;                // beat address bits above the lanes
  localparam int unsigned NumTf    = DataBytes / 4;

  // ======================= G: beat geometry and source decision =======================
  logic [7:0]           k_d, k_q;              // output beat of the current row
  logic                 started_d, started_q;  // the row's first in-bounds beat has passed
  logic                 done_d, done_q;        // the row's last in-bounds beat has passed
  logic [7:0]           kh, kd, kl;            // first / last in-bounds beat, last beat
  logic [2:0]           xh_grp, s_grp, l_grp, rot;
  logic [SizeLog2-1:0]  xd_lane;
  logic                 is_h, is_d, is_l, k_zero;
  logic                 row_end, inb_any, first_inb, last_inb, rot_nz, need_lo, need_hi;
  logic                 g_pre, g_pop, g_lo_new;
  logic [DataBytes-1:0] g_inb, g_strb;
  logic [AddrHiW-1:0]   g_beat;
  logic                 g_go;

  assign kh      = row_i.xh16 >> LgG;
  assign kd      = 8'(row_i.xd1 >> SizeLog2);
  assign kl      = 8'(row_i.xl1 >> SizeLog2);
  assign xh_grp  = row_i.xh16[2:0] & GMask;
  assign xd_lane = row_i.xd1[SizeLog2-1:0];
  assign l_grp   = row_i.xl1[6:4] & GMask;
  assign s_grp   = row_i.s16 & GMask;
  assign rot     = row_i.rot16 & GMask;

  // Whether beat k is beat kh / kd / kl: registered one beat ahead (k + 1 compared while beat
  // k is generated); at beat 0 of a row from the entry's own flags.
  logic k_zero_d, k_zero_q, eqh_d, eqh_q, eqd_d, eqd_q, eql_d, eql_q;
  assign k_zero    = k_zero_q;
  assign is_h      = k_zero_q ? row_i.h_at0 : eqh_q;
  assign is_d      = k_zero_q ? row_i.d_at0 : eqd_q;
  assign is_l      = k_zero_q ? row_i.l_at0 : eql_q;
  assign row_end   = !row_i.has_data || is_l;
  assign inb_any   = row_i.has_read && (started_q || is_h) && !done_q;
  assign first_inb = inb_any && !started_q;
  assign last_inb  = inb_any && is_d;
  assign rot_nz    = (rot != '0);
  assign need_lo   = inb_any && (!first_inb || row_i.lo_ok);
  assign need_hi   = inb_any && rot_nz && (!last_inb || row_i.hi_ok);

  // Source decision. Without rotation every in-bounds beat is one global beat. With rotation,
  // beat w (lower lanes) was taken by the previous output beat except at the first in-bounds
  // beat, which takes one global beat, or two (a preload) when it needs both halves.
  always_comb begin : proc_decide
    if (!rot_nz) begin
      g_pre    = 1'b0;
      g_pop    = need_lo;
      g_lo_new = 1'b1;
    end else if (first_inb) begin
      g_pre    = need_lo && need_hi;
      g_pop    = 1'b1;
      g_lo_new = need_lo && !need_hi;
    end else begin
      g_pre    = 1'b0;
      g_pop    = need_hi;
      g_lo_new = 1'b0;
    end
  end

  // Lane groups at or above the first in-bounds / first row group, at or below the last.
  logic [7:0] grp_ge_h, grp_ge_s, grp_le_l;
  assign grp_ge_h = 8'hFF << xh_grp;
  assign grp_ge_s = 8'hFF << s_grp;
  assign grp_le_l = ~(8'hFE << l_grp);

  always_comb begin : proc_masks
    for (int j = 0; j < DataBytes; j++) begin
      g_inb[j]  = inb_any && (!first_inb || grp_ge_h[j / 16]) &&
                  (!last_inb || SizeLog2'(j) <= xd_lane);
      g_strb[j] = row_i.has_data && (!k_zero || grp_ge_s[j / 16]) && (!is_l || grp_le_l[j / 16]);
    end
  end

  assign g_beat = row_i.beat[27:LgG] + AddrHiW'(k_q);

  // ---- G output: the beat's micro-operation, in a two-entry spill register ----
  // G advances when the spill register has room (flops only), D takes from its output, so
  // neither stage's enables see the other's handshake.
  localparam int unsigned UW = 3 + 3 + 2 * DataBytes + AddrHiW + 4 + 3 + 16;
  logic                 gv;                    // a micro-operation waits for D
  logic                 g_room;                // the spill register can take one
  logic                 u_pre, u_pop, u_lo_new, u_wr, u_last, u_nan, u_tf32;
  logic [2:0]           u_rot, u_swz;
  logic [DataBytes-1:0] u_inb, u_strb;
  logic [AddrHiW-1:0]   u_beat;
  logic [15:0]          u_cta;
  logic                 d_take;                // D takes the micro-operation

  assign g_go        = row_valid_i && g_room;
  assign row_ready_o = g_go && row_end;

  always_comb begin : proc_g_next
    k_d       = k_q;
    k_zero_d  = k_zero_q;
    eqh_d     = eqh_q;
    eqd_d     = eqd_q;
    eql_d     = eql_q;
    started_d = started_q;
    done_d    = done_q;
    if (g_go) begin
      k_d       = row_end ? '0 : k_q + 8'd1;
      k_zero_d  = row_end;
      eqh_d     = (k_q + 8'd1 == kh);
      eqd_d     = (k_q + 8'd1 == kd);
      eql_d     = (k_q + 8'd1 == kl);
      started_d = !row_end && (started_q || (row_i.has_read && is_h));
      done_d    = !row_end && (done_q || last_inb);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_g_state
    if (!rst_ni) begin
      k_q       <= '0;
      k_zero_q  <= 1'b1;
      eqh_q     <= 1'b0;
      eqd_q     <= 1'b0;
      eql_q     <= 1'b0;
      started_q <= 1'b0;
      done_q    <= 1'b0;
    end else begin
      k_q       <= k_d;
      k_zero_q  <= k_zero_d;
      eqh_q     <= eqh_d;
      eqd_q     <= eqd_d;
      eql_q     <= eql_d;
      started_q <= started_d;
      done_q    <= done_d;
    end
  end

  tma_spill_reg #(
    .Width  (UW),
    .Bypass (0)
  ) u_g_reg (
    .clk_i,
    .rst_ni,
    .in_valid_i  (row_valid_i),
    .in_ready_o  (g_room),
    .in_data_i   ({g_pre, g_pop, g_lo_new, rot, row_i.swz, g_inb, g_strb, g_beat,
                   row_i.has_data, row_i.last && row_end, row_i.fill_nan, row_i.tf32,
                   row_i.cta_mask}),
    .out_valid_o (gv),
    .out_ready_i (d_take),
    .out_data_o  ({u_pre, u_pop, u_lo_new, u_rot, u_swz, u_inb, u_strb, u_beat, u_wr, u_last,
                   u_nan, u_tf32, u_cta})
  );

  // ======================= B: the global beats, in a two-entry spill register ===========
  // beat_ready_o is a function of its flops, and D reads the beat from flops beside it: the
  // handshake with the source does not pass through D.
  // Each 4-byte element's tf32 tests are taken here, from the global beat, and travel with
  // it: a NaN (exponent all ones, mantissa not zero) and "rounds up" (round to nearest, ties
  // to even: bit 12 set and bit 13 or any of bits [11:0] set). The aligner moves whole
  // 16-byte groups and a tf32 element is 4-byte aligned, so an element's flags move with it.
  logic          b_valid, b_ready, b_err;
  logic [DW-1:0] b_data;
  logic [NumTf-1:0] bi_nan, bi_up, b_nan, b_up;

  always_comb begin : proc_b_tf
    for (int g = 0; g < NumTf; g++) begin
      bi_nan[g] = beat_data_i[g*32+23 +: 8] == 8'hFF && beat_data_i[g*32 +: 23] != '0;
      bi_up[g]  = beat_data_i[g*32+12] &&
                  (beat_data_i[g*32+13] || beat_data_i[g*32 +: 12] != '0);
    end
  end

  tma_spill_reg #(
    .Width  (DW + 1 + 2 * NumTf),
    .Bypass (0)
  ) u_b_reg (
    .clk_i,
    .rst_ni,
    .in_valid_i  (beat_valid_i),
    .in_ready_o  (beat_ready_o),
    .in_data_i   ({beat_err_i, bi_nan, bi_up, beat_data_i}),
    .out_valid_o (b_valid),
    .out_ready_i (b_ready),
    .out_data_o  ({b_err, b_nan, b_up, b_data})
  );

  // ======================= D: take the global beat, rotate, fill =======================
  logic                 pre_done_d, pre_done_q;   // the preload of the micro-op is done
  logic                 pre_err_q;                // the preloaded beat had an error response
  logic [DW-1:0]        lo_q;                     // the global beat taken last
  logic [NumTf-1:0]     lo_nan_q, lo_up_q;        // ... its elements' tf32 flags
  logic                 pre_step, out_ok, fire, taken, d_free, t_take;
  logic [DW-1:0]        lo_beat, aligned, d_data;
  logic [2*DW-1:0]      window;
  logic [NumTf-1:0]     lo_nan, lo_up, a_nan, a_up;   // the flags of lo_beat and of aligned
  logic [2*NumTf-1:0]   win_nan, win_up;
  logic                 d_berr;                   // a beat of the item failed
  // tf32 decisions for the aligned beat, per 4-byte element: round it; it is a NaN; it rounds
  // up (the last two imply the first), so T only selects
  logic [NumTf-1:0]     d_tf, d_nan, d_up;
  logic [19*NumTf-1:0]  d_inc;                    // bits [31:13] + 1 of each element
  // D's spill register output (dq_*)
  logic                 dv;
  logic                 dq_wr, dq_last, dq_berr;
  logic [AddrHiW-1:0]   dq_beat;
  logic [DW-1:0]        dq_data;
  logic [DataBytes-1:0] dq_strb;
  logic [2:0]           dq_swz;
  logic [15:0]          dq_cta;
  logic [NumTf-1:0]     dq_tf, dq_nan, dq_up;
  logic [19*NumTf-1:0]  dq_inc;

  // With one 16-byte group per beat (DataBytes 16) there is no rotation: no preload, no lower
  // half from the previous beat, so lo_q and the preload state drop out by construction.
  localparam bit Rot = (Groups > 1);
  logic pre_op, lo_new;
  assign pre_op = Rot && u_pre;
  assign lo_new = !Rot || u_lo_new;

  assign pre_step     = gv && pre_op && !pre_done_q;
  assign out_ok       = gv && (!pre_op || pre_done_q) && d_free;
  assign b_ready      = pre_step || (out_ok && u_pop);
  assign fire         = out_ok && (!u_pop || b_valid);
  assign d_take       = fire;
  assign taken        = b_valid && b_ready;

  assign lo_beat = lo_new ? b_data : lo_q;
  assign window  = {b_data, lo_beat};
  assign lo_nan  = lo_new ? b_nan : lo_nan_q;
  assign lo_up   = lo_new ? b_up : lo_up_q;
  assign win_nan = {b_nan, lo_nan};
  assign win_up  = {b_up, lo_up};

  always_comb begin : proc_rotate
    aligned = window[DW-1:0];
    a_nan   = win_nan[NumTf-1:0];
    a_up    = win_up[NumTf-1:0];
    for (int r = 1; r < Groups; r++) begin
      if (u_rot == 3'(r)) begin
        aligned = window[r * 128 +: DW];
        a_nan   = win_nan[r * 4 +: NumTf];
        a_up    = win_up[r * 4 +: NumTf];
      end
    end
  end

  always_comb begin : proc_fill
    for (int j = 0; j < DataBytes; j++) begin
      if (u_inb[j]) d_data[j*8 +: 8] = aligned[j*8 +: 8];
      else if (u_nan) d_data[j*8 +: 8] = (j % 2 == 1) ? 8'h7F : 8'hF7;
      else d_data[j*8 +: 8] = 8'h00;
    end
  end

  always_comb begin : proc_d_next
    pre_done_d = pre_done_q;
    if (pre_step && b_valid) begin
      pre_done_d = 1'b1;
    end
    if (fire) begin
      pre_done_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_d_state
    if (!rst_ni) begin
      pre_done_q <= 1'b0;
    end else begin
      pre_done_q <= pre_done_d;
    end
  end

  always_ff @(posedge clk_i) begin : proc_d_data
    if (Rot && taken) begin   // without rotation lo_q is never read: no flops
      lo_q     <= b_data;
      lo_nan_q <= b_nan;
      lo_up_q  <= b_up;
    end
    if (pre_step && b_valid) begin
      pre_err_q <= b_err;
    end
  end

  // The tf32 decisions for the aligned beat (its flags come from B): a rounded element is in
  // bounds, so its bytes are aligned's (the fill does not touch them). Round to nearest, ties
  // to even (25 measured ties, docs/silicon-notes.md): x + 0xFFF + x[13], cleared below bit
  // 13, is x[31:13] + 1 when the element rounds up; a NaN becomes 0x7FFFE000, sign dropped
  // (D3).
  always_comb begin : proc_d_tf
    for (int g = 0; g < NumTf; g++) begin
      d_tf[g]  = u_tf32 && u_inb[4 * g];
      d_nan[g] = d_tf[g] && a_nan[g];
      d_up[g]  = d_tf[g] && a_up[g];
      d_inc[19*g +: 19] = aligned[g*32+13 +: 19] + 19'd1;
    end
  end
  assign d_berr = (u_pop && b_err) || (pre_op && pre_err_q);

  localparam int unsigned DQW = 1 + AddrHiW + DW + DataBytes + 3 + 1 + 1 + 16 + 22 * NumTf;
  logic t_in_ready;   // T's register takes D's item

  tma_spill_reg #(
    .Width  (DQW),
    .Bypass (0),
    .Copies (2)
  ) u_d_reg (
    .clk_i,
    .rst_ni,
    .in_valid_i  (fire),
    .in_ready_o  (d_free),
    .in_data_i   ({u_wr, u_beat, d_data, u_strb, u_swz, u_last, d_berr, u_cta, d_tf, d_nan,
                   d_up, d_inc}),   // (u_wr: no write after a failed read: in T)
    .out_valid_o (dv),
    .out_ready_i (t_in_ready),
    .out_data_o  ({dq_wr, dq_beat, dq_data, dq_strb, dq_swz, dq_last, dq_berr, dq_cta, dq_tf,
                   dq_nan, dq_up, dq_inc})
  );

  // ======================= T: tf32 rounding, output spill register =======================
  localparam int unsigned TW = 1 + AddrHiW + DW + DataBytes + 3 + 1 + 1 + 16 + 4;
  logic [DW-1:0]        t_data;
  logic                 t_wr;
  logic                 t_wr_o, t_last_o, t_err_o;   // T's output register: out_o's fields
  logic [AddrHiW-1:0]   t_beat_o;
  logic [2:0]           t_swz_o;
  logic [15:0]          t_cta_mask_o;
  logic [6:3]           t_lane_o;

  assign t_take = dv && t_in_ready;
  // The swizzle's granule permutation of the beat (address bits [6:3] below the beat that its
  // mode XORs), computed here from D's flops and carried in T, so the write port's 8 x
  // DataBytes multiplexers select by a flop (tma_swizzle LaneIn).
  logic [6:3] t_lane;
  logic [2:0] t_line;   // the beat's 128-byte line, address bits [9:7]
  assign t_line = 3'({dq_beat, SizeLog2'(0)} >> 7);
  assign t_lane = tma_pkg::swz_lanes(dq_swz, t_line, DataBytes);
  // A read beat with an error response turns the rest of its command into no-write items:
  // the error is accumulated here, in item order, as items move from D to T (a function of
  // flops), and cleared after the command's last item.
  logic st_err_d, st_err_q, t_err;
  assign t_err    = st_err_q || dq_berr;
  assign t_wr     = dq_wr && !t_err;
  assign st_err_d = t_err && !dq_last;

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_t_err
    if (!rst_ni) begin
      st_err_q <= 1'b0;
    end else if (t_take) begin
      st_err_q <= st_err_d;
    end
  end


  // tf32 rounding, decided in D (proc_d_tf): T selects each element's bits [31:13] from the
  // NaN pattern, the increment and the data (nan and up imply tf), and clears bits [12:0] of
  // a rounded element: per bit a LUT of D's flops and the select of D's output.
  always_comb begin : proc_tf32
    t_data = dq_data;
    for (int g = 0; g < NumTf; g++) begin
      t_data[g*32+13 +: 19] = dq_nan[g] ? 19'h3FFFF :
                              (dq_up[g] ? dq_inc[19*g +: 19] : dq_data[g*32+13 +: 19]);
      if (dq_tf[g]) begin
        t_data[g*32 +: 13] = '0;
      end
    end
  end

  tma_spill_reg #(
    .Width  (TW),
    .Bypass (0),
    .Copies (4)   // per-slice flag copies: the select of T's output reaches the swizzle
  ) u_t_reg (
    .clk_i,
    .rst_ni,
    .in_valid_i  (dv),
    .in_ready_o  (t_in_ready),
    .in_data_i   ({t_wr, dq_beat, t_data, t_wr ? dq_strb : '0, dq_swz, dq_last, t_err,
                   dq_cta, t_lane}),
    .out_valid_o (out_valid_o),
    .out_ready_i (out_ready_i),
    .out_data_o  ({t_wr_o, t_beat_o, out_data_o, out_strb_o, t_swz_o, t_last_o, t_err_o,
                   t_cta_mask_o, t_lane_o})
  );

  always_comb begin : proc_out
    out_o          = '0;
    out_o.wr       = t_wr_o;
    out_o.last     = t_last_o;
    out_o.err      = t_err_o;
    out_o.swz      = t_swz_o;
    out_o.lane     = t_lane_o;
    out_o.addr     = {t_beat_o, SizeLog2'(0)};
    out_o.cta_mask = t_cta_mask_o;
  end
  assign busy_o     = gv || b_valid || dv || out_valid_o;

  // Fields not needed at this width (lane bits of the beat address, group bits above Groups).
  logic unused_row;
  assign unused_row = ^{row_i.beat, row_i.xh16, row_i.xl1, row_i.s16, row_i.rot16, grp_ge_h,
                        grp_ge_s, grp_le_l};

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_STABLE(OutHeld_A, out_valid_o, out_ready_i,
                     {out_o, out_data_o, out_strb_o})
  `TMA_ASSERT_STABLE(RowHeld_A, row_valid_i, row_ready_o, row_i)
  // Only the first in-bounds beat can need the upper global beat alone.
  `TMA_ASSERT_NEVER(HiOnlyAtFirst_A, g_go && need_hi && !need_lo && !first_inb)
  // The registered beat compares agree with the beat counter.
  `TMA_ASSERT_IMPLY(BeatFlags_A, row_valid_i, k_zero_q == (k_q == '0) && is_h == (k_q == kh) &&
                    is_d == (k_q == kd) && is_l == (k_q == kl))
  // The in-bounds beats lie inside the row, the first before the last.
  `TMA_ASSERT_IMPLY(InbInRow_A, row_valid_i && row_i.has_read, kh <= kd && kd <= kl)
  // The tf32 flags describe D's data wherever they are used.
  for (genvar g = 0; g < NumTf; g++) begin : gen_tf_chk
    `TMA_ASSERT_IMPLY(TfFlags_A, dv,
                      dq_nan[g] == (dq_tf[g] && dq_data[g*32+23 +: 8] == 8'hFF &&
                                    dq_data[g*32 +: 23] != '0) &&
                      dq_up[g] == (dq_tf[g] && dq_data[g*32+12] &&
                                   (dq_data[g*32+13] || dq_data[g*32 +: 12] != '0)) &&
                      (!dq_tf[g] || dq_inc[19*g +: 19] == dq_data[g*32+13 +: 19] + 19'd1))
  end
  // A global beat is taken only while a micro-operation asks for one.
  // Without rotation G never asks for a preload or the previous beat.
  `TMA_ASSERT_IMPLY(NoRotOneGroup_A, gv, Rot || (!u_pre && u_lo_new))
  `TMA_ASSERT_NEVER(BeatWithoutOp_A, b_ready && !gv)

endmodule

`default_nettype wire
