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
// Three register stages, each a valid/ready pipeline stage, one output beat per cycle:
//   G (geometry): walks the output beats k of the row at the head of the row FIFO. Which of
//     them are the first / last in-bounds beat and the last beat of the row are equality
//     compares of k with beat indices the fork computed (no arithmetic per beat); from them it
//     registers the lane masks (in-bounds, strobe) and the source decision of the beat (take a
//     new global beat, preload one first, take the lower half from the previous beat).
//   D (data): takes the global beat the decision asks for, rotates, fills.
//   T (tf32): rounds 4-byte elements of tf32 rows, drives the output.
// A row whose first in-bounds output beat needs two global beats spends one extra cycle in D
// (the preload). Completion-only rows (has_data = 0) pass as one item without a write. A read
// beat with an error response turns the rest of its command into no-write items; the last item
// of the command then carries out_err_o (the engine turns its completion into a bus_error).

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
  output logic                  out_wr_o,       // 1: write this beat; 0: no write
  output logic [31:0]           out_addr_o,     // logical beat address, DataBytes aligned
  output logic [DW-1:0]         out_data_o,
  output logic [DataBytes-1:0]  out_strb_o,
  output logic [2:0]            out_swz_o,
  output logic                  out_last_o,     // last item of a command: complete it
  output logic                  out_err_o,      // with last: a read of the command failed
  output logic [15:0]           out_cta_mask_o,
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

  // ---- G output register (the beat's micro-operation) ----
  logic                 gv_d, gv_q;
  logic                 u_pre_q, u_pop_q, u_lo_new_q, u_wr_q, u_last_q, u_nan_q, u_tf32_q;
  logic [2:0]           u_rot_q, u_swz_q;
  logic [DataBytes-1:0] u_inb_q, u_strb_q;
  logic [AddrHiW-1:0]   u_beat_q;
  logic [15:0]          u_cta_q;
  logic                 d_take;                // D takes the micro-operation

  assign g_go        = row_valid_i && (!gv_q || d_take);
  assign row_ready_o = g_go && row_end;

  always_comb begin : proc_g_next
    k_d       = k_q;
    k_zero_d  = k_zero_q;
    eqh_d     = eqh_q;
    eqd_d     = eqd_q;
    eql_d     = eql_q;
    started_d = started_q;
    done_d    = done_q;
    gv_d      = gv_q;
    if (d_take) gv_d = 1'b0;
    if (g_go) begin
      gv_d      = 1'b1;
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
      gv_q      <= 1'b0;
    end else begin
      k_q       <= k_d;
      k_zero_q  <= k_zero_d;
      eqh_q     <= eqh_d;
      eqd_q     <= eqd_d;
      eql_q     <= eql_d;
      started_q <= started_d;
      done_q    <= done_d;
      gv_q      <= gv_d;
    end
  end

  always_ff @(posedge clk_i) begin : proc_g_data
    if (g_go) begin
      u_pre_q    <= g_pre;
      u_pop_q    <= g_pop;
      u_lo_new_q <= g_lo_new;
      u_rot_q    <= rot;
      u_inb_q    <= g_inb;
      u_strb_q   <= g_strb;
      u_beat_q   <= g_beat;
      u_wr_q     <= row_i.has_data;
      u_last_q   <= row_i.last && row_end;
      u_nan_q    <= row_i.fill_nan;
      u_tf32_q   <= row_i.tf32;
      u_swz_q    <= row_i.swz;
      u_cta_q    <= row_i.cta_mask;
    end
  end

  // ======================= D: take the global beat, rotate, fill =======================
  logic                 pre_done_d, pre_done_q;   // the preload of the micro-op is done
  logic                 err_d, err_q;             // a read of the current command failed
  logic [DW-1:0]        lo_q;                     // the global beat taken last
  logic                 pre_step, out_ok, fire, taken, err_now, d_free, t_take;
  logic [DW-1:0]        lo_beat, aligned, d_data;
  logic [2*DW-1:0]      window;
  logic                 dv_d, dv_q;
  logic                 d_wr_q, d_last_q, d_err_q;
  logic [AddrHiW-1:0]   d_beat_q;
  logic [DW-1:0]        d_data_q;
  logic [DataBytes-1:0] d_strb_q;
  logic [2:0]           d_swz_q;
  logic [15:0]          d_cta_q;
  logic [NumTf-1:0]     d_tf_q;                   // 4-byte elements to round

  assign pre_step     = gv_q && u_pre_q && !pre_done_q;
  assign out_ok       = gv_q && (!u_pre_q || pre_done_q) && d_free;
  assign beat_ready_o = pre_step || (out_ok && u_pop_q);
  assign fire         = out_ok && (!u_pop_q || beat_valid_i);
  assign d_take       = fire;
  assign taken        = beat_valid_i && beat_ready_o;
  assign err_now      = err_q || (taken && beat_err_i);

  assign lo_beat = u_lo_new_q ? beat_data_i : lo_q;
  assign window  = {beat_data_i, lo_beat};

  always_comb begin : proc_rotate
    aligned = window[DW-1:0];
    for (int r = 1; r < Groups; r++) begin
      if (u_rot_q == 3'(r)) aligned = window[r * 128 +: DW];
    end
  end

  always_comb begin : proc_fill
    for (int j = 0; j < DataBytes; j++) begin
      if (u_inb_q[j]) d_data[j*8 +: 8] = aligned[j*8 +: 8];
      else if (u_nan_q) d_data[j*8 +: 8] = (j % 2 == 1) ? 8'h7F : 8'hF7;
      else d_data[j*8 +: 8] = 8'h00;
    end
  end

  always_comb begin : proc_d_next
    pre_done_d = pre_done_q;
    err_d      = err_q;
    dv_d       = dv_q;
    if (t_take) dv_d = 1'b0;
    if (pre_step && beat_valid_i) begin
      pre_done_d = 1'b1;
      err_d      = err_now;
    end
    if (fire) begin
      pre_done_d = 1'b0;
      err_d      = u_last_q ? 1'b0 : err_now;
      dv_d       = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_d_state
    if (!rst_ni) begin
      pre_done_q <= 1'b0;
      err_q      <= 1'b0;
      dv_q       <= 1'b0;
    end else begin
      pre_done_q <= pre_done_d;
      err_q      <= err_d;
      dv_q       <= dv_d;
    end
  end

  always_ff @(posedge clk_i) begin : proc_d_data
    if (taken) begin
      lo_q <= beat_data_i;
    end
    if (fire) begin
      d_wr_q   <= u_wr_q;          // (no write after a failed read: applied in T)
      d_beat_q <= u_beat_q;
      d_data_q <= d_data;
      d_strb_q <= u_strb_q;
      d_swz_q  <= u_swz_q;
      d_last_q <= u_last_q;
      d_err_q  <= err_now;
      d_cta_q  <= u_cta_q;
      for (int g = 0; g < NumTf; g++) begin
        d_tf_q[g] <= u_tf32_q && u_inb_q[4 * g];
      end
    end
  end

  // ======================= T: tf32 rounding, output register =======================
  logic                 tv_d, tv_q, t_free;
  logic                 t_wr_q, t_last_q, t_err_q;
  logic [AddrHiW-1:0]   t_beat_q;
  logic [DW-1:0]        t_data_q, t_data;
  logic [DataBytes-1:0] t_strb_q;
  logic [2:0]           t_swz_q;
  logic [15:0]          t_cta_q;

  assign t_free = !tv_q || out_ready_i;
  assign d_free = !dv_q || t_free;
  assign t_take = dv_q && t_free;

  // Round to nearest, ties to even (25 measured ties, docs/silicon-notes.md): x + 0xFFF +
  // x[13], cleared below bit 13, i.e. x[31:13] + carry; NaN: 0x7FFFE000, sign dropped (D3).
  always_comb begin : proc_tf32
    t_data = d_data_q;
    for (int g = 0; g < NumTf; g++) begin
      if (d_tf_q[g]) begin
        if (d_data_q[g*32+23 +: 8] == 8'hFF && d_data_q[g*32 +: 23] != '0) begin
          t_data[g*32 +: 32] = 32'h7FFFE000;
        end else begin
          t_data[g*32 +: 32] = {d_data_q[g*32+13 +: 19] +
                                19'(d_data_q[g*32+12] &&
                                    (d_data_q[g*32+13] || d_data_q[g*32 +: 12] != '0)),
                                13'd0};
        end
      end
    end
  end

  always_comb begin : proc_t_next
    tv_d = tv_q;
    if (out_ready_i) tv_d = 1'b0;
    if (t_take) tv_d = 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_t_state
    if (!rst_ni) begin
      tv_q <= 1'b0;
    end else begin
      tv_q <= tv_d;
    end
  end

  always_ff @(posedge clk_i) begin : proc_t_data
    if (t_take) begin
      t_wr_q   <= d_wr_q && !d_err_q;
      t_beat_q <= d_beat_q;
      t_data_q <= t_data;
      t_strb_q <= (d_wr_q && !d_err_q) ? d_strb_q : '0;
      t_swz_q  <= d_swz_q;
      t_last_q <= d_last_q;
      t_err_q  <= d_err_q;
      t_cta_q  <= d_cta_q;
    end
  end

  assign out_valid_o    = tv_q;
  assign out_wr_o       = t_wr_q;
  assign out_addr_o     = {t_beat_q, SizeLog2'(0)};
  assign out_data_o     = t_data_q;
  assign out_strb_o     = t_strb_q;
  assign out_swz_o      = t_swz_q;
  assign out_last_o     = t_last_q;
  assign out_err_o      = t_err_q;
  assign out_cta_mask_o = t_cta_q;
  assign busy_o         = gv_q || dv_q || tv_q;

  // Fields not needed at this width (lane bits of the beat address, group bits above Groups).
  logic unused_row;
  assign unused_row = ^{row_i.beat, row_i.xh16, row_i.xl1, row_i.s16, row_i.rot16, grp_ge_h,
                        grp_ge_s, grp_le_l};

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_STABLE(OutHeld_A, out_valid_o, out_ready_i,
                     {out_wr_o, out_addr_o, out_data_o, out_strb_o, out_swz_o, out_last_o,
                      out_err_o, out_cta_mask_o})
  `TMA_ASSERT_STABLE(RowHeld_A, row_valid_i, row_ready_o, row_i)
  // Only the first in-bounds beat can need the upper global beat alone.
  `TMA_ASSERT_NEVER(HiOnlyAtFirst_A, g_go && need_hi && !need_lo && !first_inb)
  // The registered beat compares agree with the beat counter.
  `TMA_ASSERT(BeatFlags_A, row_valid_i |-> k_zero_q == (k_q == '0) && is_h == (k_q == kh) &&
              is_d == (k_q == kd) && is_l == (k_q == kl))
  // The in-bounds beats lie inside the row, the first before the last.
  `TMA_ASSERT(InbInRow_A, row_valid_i && row_i.has_read |-> kh <= kd && kd <= kl)
  // A global beat is taken only while a micro-operation asks for one.
  `TMA_ASSERT_NEVER(BeatWithoutOp_A, beat_ready_o && !gv_q)

endmodule
