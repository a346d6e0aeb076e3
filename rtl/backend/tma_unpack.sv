// SPDX-License-Identifier: Apache-2.0
//
// tma_unpack: expands the packed sub-byte element types of sm_100 from their global-memory
// layout to their shared-memory layout, between the AXI R channel and the row aligner.
// .b4x16_p64 (16U4_ALIGN16B) keeps a unit of 16 elements in 8 global bytes, .b6x16_p32
// (16U6_ALIGN16B) in 12; in shared memory every unit takes 16 bytes, data in the low g = 8/12
// bytes, zero above (cmodel tensor_copy.cc, unit_gbytes / unit_sbytes).
//
// Per row that reads global memory the engine pushes one row item {mode, goff, in_beats,
// units}. Pass-through rows forward in_beats beats unchanged. A packed row consumes in_beats
// beats and emits out_beats = ceil((goff + 16 units) / DataBytes) beats: output byte
// goff + 16u + j (j < g) = input byte goff + g u + j of the row, every other byte zero. Each
// output beat carries the OR of the error flags of the input beats it used.
//
// Output beat k holds the units u = k DataBytes/16 + s - goff/16 (slot s): their input bytes
// form one chunk of DataBytes g/16 bytes starting at S_k = goff (16 - g)/16 + k DataBytes g/16,
// a multiple of 4 bytes that lies in input beats b_k and b_k + 1 (b_k = S_k / DataBytes). The
// window {e1, e0} holds those two beats; output word p = 4s + jw (jw < g/4) takes window word
// o_k + (g/4) s + jw (o_k = S_k % DataBytes in words), a choice among DataBytes/4 + s words.
// The per-word selects, keep bits (unit in range, jw < g/4), the beats to pop and whether e1
// is needed are computed one beat ahead into registers; the data path is register -> narrow
// mux -> AND -> output register. One output beat per cycle while input beats keep up (a packed
// row needs fewer input than output beats). Streams: row items and input beats see a ready
// that depends on flops only; the output is a tma_spill_reg (OutSpill = 1) or wires.
// Design note and the engine changes needed to use it: docs/rtl-unpack.md.

`default_nettype none

`include "tma_assert.svh"

module tma_unpack #(
  parameter  int unsigned DataBytes = 16,       // 16, 32, 64, 128
  parameter  bit          OutSpill  = 1'b1,     // 1: registered output (spill register)
  localparam int unsigned DW        = DataBytes * 8,
  localparam int unsigned OffW      = $clog2(DataBytes),
  localparam int unsigned CntW      = tma_pkg::BeatCntW
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // Row items (one per row that reads global memory, in the order of the reads)
  input  logic             row_valid_i,
  output logic             row_ready_o,
  input  logic [1:0]       row_mode_i,      // 0 pass-through, 1 packed 8-byte, 2 packed 12-byte
  input  logic [OffW-1:0]  row_goff_i,      // row's first global byte in its first beat, % 16 = 0
  input  logic [CntW-1:0]  row_in_beats_i,  // global beats of the row's read, >= 1
  input  logic [3:0]       row_units_i,     // packed: 16-element units read, 1 .. 8
  // Global read beats (in order, in_beats per row)
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [DW-1:0]    in_data_i,
  input  logic             in_err_i,
  // Beats in the shared-memory layout (16-byte units)
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [DW-1:0]    out_data_o,
  output logic             out_err_o,
  // Status
  output logic             busy_o
);

  localparam int unsigned W        = DataBytes / 4;    // 32-bit words per beat
  localparam int unsigned W4       = DataBytes / 16;   // unit slots per beat
  localparam int unsigned OW       = $clog2(W);        // word offset in a beat
  localparam int unsigned MW       = W4 + 8;           // unit slots a row can touch
  localparam int unsigned Inc8     = W / 2;            // chunk words per output beat, g = 8
  localparam int unsigned Inc12    = 3 * W / 4;        // g = 12
  localparam int unsigned WinWords = W + 3 * W4 - 1;   // window words any output word reads

  // ---- Next row: its first beat's decisions, precomputed at intake ----
  logic                nxt_v_d, nxt_v_q;
  logic                nxt_pt_q, nxt_g12_q;
  logic [OW-1:0]       nxt_o_q;              // o_1 (o of the row's second beat), in words
  logic [MW-1:0]       nxt_m_q;              // slot mask of the beats after the first
  logic [CntW-1:0]     nxt_rem_q;            // input beats of the row
  logic                nxt_last_q;
  logic [1:0]          nxt_pop_q;
  logic                nxt_e1_q;

  // ---- Current output beat (decisions registered one beat ahead) ----
  logic                cur_v_d, cur_v_q;
  logic                cur_pt_q, cur_g12_q;
  logic [OW-1:0]       cur_o_q;              // o_k+1: o of the next beat
  logic [MW-1:0]       cur_m_q;              // slot mask of the beats after this one
  logic [CntW-1:0]     cur_rem_q;            // input beats of the row from e0 on
  logic                cur_last_q;           // last output beat of the row
  logic [1:0]          cur_pop_q;            // input beats to pop when the beat leaves
  logic                cur_e1_q;             // the beat uses e1

  // ---- Input window: e0 = beat b_k, e1 = beat b_k + 1 ----
  logic                e0_v_d, e0_v_q, e1_v_d, e1_v_q;
  logic [DW-1:0]       e0_d, e0_q, e1_d, e1_q;
  logic                e0_err_d, e0_err_q, e1_err_d, e1_err_q;
  logic [32*WinWords-1:0] win;
  logic                v0a, v1a;             // e0 / e1 valid after the pop
  logic                e0_from_e1, e0_ce, e1_ce;
  logic                ok_d, ok_q;           // registered sp_valid
  logic                e1_need;              // e1 needed by the beat of the next cycle
  logic [1:0]          pop_n;                // cur_pop of the next cycle
  // Window enables precomputed a cycle ahead (from next-state values), so that each enable
  // is one LUT of {adv, in_valid_i, these flops} before its fan-out of DataBytes x 8 flops.
  logic                ce_a_d, ce_a_q;       // e0 valid, e1 empty              (no adv)
  logic                ce_b_d, ce_b_q;       // e1 takes the input              (adv)
  logic                ce_c_d, ce_c_q;       // e0 takes e1: pop 1, e1 valid    (adv)
  logic                ce_pop_d, ce_pop_q;   // pop != 0                        (adv)
  logic                ce_e_d, ce_e_q;       // e0 empty                        (no adv)
  logic                e0_from_e1_d;

  // ---- Handshakes ----
  logic                sp_valid, sp_ready, adv, take, step, row_fire, push;
  logic [1:0]          pop;
  logic [DW-1:0]       beat;
  logic                beat_err;

  assign sp_valid    = ok_q;
  // adv: the current beat enters the output stage (adv_q: registered, see proc_adv)
  assign take        = nxt_v_q && (!cur_v_q || (adv && cur_last_q));
  assign step        = adv && !cur_last_q;
  assign row_ready_o = !nxt_v_q || take;
  assign row_fire    = row_valid_i && row_ready_o;
  assign pop         = adv ? cur_pop_q : 2'd0;
  assign in_ready_o  = !e1_v_q || (adv && ce_pop_q);
  assign push        = in_valid_i && in_ready_o;

  // ---- Beat set-up, copy i: the first beat of an incoming row (row item -> nxt) ----
  logic [2:0]          r_g16;                // goff / 16
  logic [7:0]          r_ones;               // units ones
  logic                i_pt, i_g12, i_is1, i_ge2, i_last, i_e1;
  logic [OW-1:0]       i_o;
  logic [MW-1:0]       i_mf;                 // slot mask of the row
  logic [OW:0]         i_t;                  // o + chunk words
  logic [1:0]          i_pop;

  always_comb begin : proc_setup_i
    r_g16 = 3'(row_goff_i >> 4);
    for (int i = 0; i < 8; i++) begin
      r_ones[i] = (4'(i) < row_units_i);
    end
    i_pt  = (row_mode_i == tma_pkg::PkNone);
    i_g12 = (row_mode_i == tma_pkg::PkG12);
    // S_0 = goff (16 - g) / 16 bytes: g16 words (g = 12) or 2 g16 words (g = 8)
    i_o   = i_g12 ? OW'(r_g16) : OW'({r_g16, 1'b0});
    i_mf  = i_pt ? '0 : MW'(r_ones) << r_g16;
    i_is1 = (row_in_beats_i == CntW'(1));
    i_ge2 = (row_in_beats_i >= CntW'(2));
    i_t   = {1'b0, i_o} + (i_g12 ? (OW+1)'(Inc12) : (OW+1)'(Inc8));
    i_last = i_pt ? i_is1 : (i_mf[MW-1:W4] == '0);
    if (i_pt) begin
      i_pop = 2'd1;
    end else if (i_last) begin
      i_pop = i_ge2 ? 2'd2 : 2'd1;       // drop the row's remaining beats
    end else begin
      i_pop = {1'b0, i_t >= (OW+1)'(W)};
    end
    i_e1 = !i_pt && i_ge2 && (i_last || i_t > (OW+1)'(W));
  end

  // ---- Beat set-up, copy w: the current row's next beat (cur -> cur) ----
  // Within a row at most one beat is popped before the last output beat.
  logic                w_is1, w_ge2, w_last, w_e1;
  logic [OW-1:0]       w_o;
  logic [CntW-1:0]     w_rem;
  logic [OW:0]         w_t;
  logic [1:0]          w_pop;

  always_comb begin : proc_setup_w
    w_o   = cur_o_q;
    w_rem = cur_rem_q - CntW'(cur_pop_q);
    w_is1 = cur_pop_q[0] ? (cur_rem_q == CntW'(2)) : (cur_rem_q == CntW'(1));
    w_ge2 = cur_pop_q[0] ? (cur_rem_q >= CntW'(3)) : (cur_rem_q >= CntW'(2));
    w_t   = {1'b0, w_o} + (cur_g12_q ? (OW+1)'(Inc12) : (OW+1)'(Inc8));
    w_last = cur_pt_q ? w_is1 : (cur_m_q[MW-1:W4] == '0);
    if (cur_pt_q) begin
      w_pop = 2'd1;
    end else if (w_last) begin
      w_pop = w_ge2 ? 2'd2 : 2'd1;
    end else begin
      w_pop = {1'b0, w_t >= (OW+1)'(W)};
    end
    w_e1 = !cur_pt_q && w_ge2 && (w_last || w_t > (OW+1)'(W));
  end

  always_comb begin : proc_nxt_v
    nxt_v_d = nxt_v_q;
    if (take) nxt_v_d = 1'b0;
    if (row_fire) nxt_v_d = 1'b1;
  end

  assign cur_v_d = take || step || (cur_v_q && !adv);

  // ---- Window update ----
  // e0 loads e1 (pop 1 with e1 valid) or the input (e0 empty after the pop); e1 loads only the
  // input. The e0 source is chosen by flops alone: while e1 is valid, e0 can only take e1,
  // except after a pop of 2.
  always_comb begin : proc_window
    v0a = e0_v_q;
    v1a = e1_v_q;
    if (pop == 2'd1) begin
      v0a = e1_v_q;
      v1a = 1'b0;
    end else if (pop == 2'd2) begin
      v0a = 1'b0;
      v1a = 1'b0;
    end
    // e0 loads when it takes e1 (pop 1 with e1 valid) or may take the input (it is empty
    // after the pop), e1 when it may take the input (e0 stays valid, e1 is empty after the
    // pop). The input loads do not wait for in_valid_i: without an input item the register's
    // valid flag is clear next cycle and the data loaded is unused, so in_valid_i (from the R
    // channel) does not reach the 2 x DW enables.
    e0_ce      = adv ? (ce_c_q || ce_pop_q) : ce_e_q;
    e1_ce      = adv ? ce_b_q : ce_a_q;
    e0_d       = e0_from_e1 ? e1_q : in_data_i;
    e0_err_d   = e0_from_e1 ? e1_err_q : in_err_i;
    e1_d       = in_data_i;
    e1_err_d   = in_err_i;
    e0_v_d     = v0a || push;
    e1_v_d     = v1a || (push && v0a);
  end

  // Next cycle's "the current beat has what it needs" (sp_valid), registered so that the
  // window and output enables are one or two LUTs deep from flops.
  always_comb begin : proc_ok
    e1_need      = take ? nxt_e1_q : step ? w_e1 : cur_e1_q;
    pop_n        = take ? nxt_pop_q : step ? w_pop : cur_pop_q;
    ok_d         = cur_v_d && e0_v_d && (!e1_need || e1_v_d);
    ce_a_d       = e0_v_d && !e1_v_d;
    ce_b_d       = (pop_n == 2'd0 && !e1_v_d) || (pop_n == 2'd1 && e1_v_d);
    ce_c_d       = pop_n == 2'd1 && e1_v_d;
    ce_pop_d     = pop_n != 2'd0;
    ce_e_d       = !e0_v_d;
    e0_from_e1_d = e1_v_d && pop_n != 2'd2;
  end

  // adv = sp_valid && sp_ready. With the spill register, its next value is formed here from
  // the spill's next state (shadow copies of its two full flags), so adv is a flop.
  if (OutSpill) begin : gen_adv_reg
    logic sa_d, sa_q, sb_d, sb_q, adv_d, adv_q;
    always_comb begin : proc_adv
      sa_d  = adv || (sa_q && sb_q);                       // A fills, or stays (B full)
      sb_d  = (sa_q && !sb_q && !out_ready_i) || (sb_q && !out_ready_i);
      adv_d = ok_d && !(sa_d && sb_d);
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin : proc_adv_q
      if (!rst_ni) begin
        sa_q  <= 1'b0;
        sb_q  <= 1'b0;
        adv_q <= 1'b0;
      end else begin
        sa_q  <= sa_d;
        sb_q  <= sb_d;
        adv_q <= adv_d;
      end
    end
    assign adv = adv_q;
    // Registered a cycle ahead from shadow flags with their own next-state logic (so not a
    // tma_dup_reg of the spill register's flags, whose next state is inside that cell).
    `TMA_ASSERT_COPY(AdvCopy_A, adv_q, sp_valid && sp_ready)
    `TMA_ASSERT_COPY(ShadowSpillCopy_A, !(sa_q && sb_q), sp_ready)
  end else begin : gen_adv_comb
    assign adv = sp_valid && sp_ready;
  end

  assign win = {e1_q[32*(WinWords-W)-1:0], e0_q};

  // ---- Per output word: registered select + keep, narrow mux ----
  for (genvar p = 0; p < W; p++) begin : gen_word
    localparam int unsigned S    = p / 4;
    localparam int unsigned JW   = p % 4;
    // Candidates: window words Base .. Base + Nc - 1 (pass: p; g = 12: o + 3S + JW;
    // g = 8: o + 2S + JW, JW < 2).
    localparam int unsigned Base = (JW == 3) ? p : (JW == 2) ? 3 * S + 2 : 2 * S + JW;
    localparam int unsigned Nc   = (JW == 3) ? 1 : (JW == 2) ? W : W + S;
    localparam int unsigned SelW = (Nc > 1) ? $clog2(Nc) : 1;

    logic        i_keep, w_keep, nxt_keep_q;
    logic [31:0] word;

    if (JW == 3) begin : gen_pad
      // Padding word of a unit: pass-through only.
      logic keep_q;
      assign i_keep = i_pt;
      assign w_keep = cur_pt_q;
      assign word   = keep_q ? win[32*p +: 32] : 32'd0;

      always_ff @(posedge clk_i) begin : proc_sel
        if (row_fire) nxt_keep_q <= i_keep;
        if (take) begin
          keep_q <= nxt_keep_q;
        end else if (step) begin
          keep_q <= w_keep;
        end
      end
    end else begin : gen_data
      logic [SelW-1:0]         i_sel, w_sel, nxt_sel_q;
      logic [32*(2**SelW)-1:0] cand;

      for (genvar c = 0; c < 2**SelW; c++) begin : gen_cand
        if (c < Nc) begin : gen_word_c
          assign cand[32*c +: 32] = win[32*(Base+c) +: 32];
        end else begin : gen_zero_c
          assign cand[32*c +: 32] = 32'd0;
        end
      end

      // Relative to Base: pass p - Base (2S, or S for JW = 2); g = 12: o + S (JW < 2) or o
      // (JW = 2); g = 8: o (JW < 2). One add of a small constant on a flop or a mux of flops.
      always_comb begin : proc_sel_rel
        if (i_pt) begin
          i_sel = SelW'((JW == 2) ? S : 2 * S);
        end else if (i_g12 && JW < 2) begin
          i_sel = SelW'(i_o) + SelW'(S);
        end else begin
          i_sel = SelW'(i_o);
        end
        if (cur_pt_q) begin
          w_sel = SelW'((JW == 2) ? S : 2 * S);
        end else if (cur_g12_q && JW < 2) begin
          w_sel = SelW'(w_o) + SelW'(S);
        end else begin
          w_sel = SelW'(w_o);
        end
        i_keep = i_pt || (i_mf[S] && (JW < 2 || i_g12));
        w_keep = cur_pt_q || (cur_m_q[S] && (JW < 2 || cur_g12_q));
      end

      always_ff @(posedge clk_i) begin : proc_nxt_sel
        if (row_fire) begin
          nxt_sel_q  <= i_sel;
          nxt_keep_q <= i_keep;
        end
      end

      // One copy of the select per 16-bit half word: each select flop drives half the mux
      // bits, so it can sit next to them. The copy of half 1 is stored inverted, so that
      // synthesis cannot merge the two copies (the inversion folds into the mux LUTs). Each
      // copy loads with its own enables and holds its own value, which a tma_dup_reg (one
      // shared input, no enable) cannot express: HalfSelCopy_A ties the two.
      for (genvar h = 0; h < 2; h++) begin : gen_half
        localparam logic [SelW-1:0] Inv = (h == 1) ? '1 : '0;
        logic [SelW-1:0]         sel_q, sel_t;
        logic                    keep_q;
        logic [16*(2**SelW)-1:0] cand_h;

        for (genvar c = 0; c < 2**SelW; c++) begin : gen_cand_h
          assign cand_h[16*c +: 16] = cand[32*c + 16*h +: 16];
        end

        assign sel_t            = sel_q ^ Inv;
        assign word[16*h +: 16] = (keep_q ^ Inv[0]) ? cand_h[16*sel_t +: 16] : 16'd0;

        always_ff @(posedge clk_i) begin : proc_sel
          if (take) begin
            sel_q  <= nxt_sel_q ^ Inv;
            keep_q <= nxt_keep_q ^ Inv[0];
          end else if (step) begin
            sel_q  <= w_sel ^ Inv;
            keep_q <= w_keep ^ Inv[0];
          end
        end
      end
      // (The copies have no reset: equal from the first row's take on, so whenever a row is
      // current.)
      `TMA_ASSERT_IMPLY(HalfSelCopy_A, cur_v_q,
                        {gen_half[1].sel_q, gen_half[1].keep_q} ==
                        ~{gen_half[0].sel_q, gen_half[0].keep_q})
    end

    assign beat[32*p +: 32] = word;
  end

  assign beat_err = e0_err_q || (cur_e1_q && e1_err_q);

  // ---- Flops ----
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_state
    if (!rst_ni) begin
      nxt_v_q    <= 1'b0;
      nxt_pt_q   <= 1'b0;
      nxt_g12_q  <= 1'b0;
      nxt_o_q    <= '0;
      nxt_m_q    <= '0;
      nxt_rem_q  <= '0;
      nxt_last_q <= 1'b0;
      nxt_pop_q  <= '0;
      nxt_e1_q   <= 1'b0;
      cur_v_q    <= 1'b0;
      cur_pt_q   <= 1'b0;
      cur_g12_q  <= 1'b0;
      cur_o_q    <= '0;
      cur_m_q    <= '0;
      cur_rem_q  <= '0;
      cur_last_q <= 1'b0;
      cur_pop_q  <= '0;
      cur_e1_q   <= 1'b0;
      e0_v_q     <= 1'b0;
      e1_v_q     <= 1'b0;
      e0_err_q   <= 1'b0;
      e1_err_q   <= 1'b0;
      ok_q       <= 1'b0;
      ce_a_q     <= 1'b0;
      ce_b_q     <= 1'b1;
      ce_c_q     <= 1'b0;
      ce_pop_q   <= 1'b0;
      ce_e_q     <= 1'b1;
      e0_from_e1 <= 1'b0;
    end else begin
      ok_q       <= ok_d;
      ce_a_q     <= ce_a_d;
      ce_b_q     <= ce_b_d;
      ce_c_q     <= ce_c_d;
      ce_pop_q   <= ce_pop_d;
      ce_e_q     <= ce_e_d;
      e0_from_e1 <= e0_from_e1_d;
      nxt_v_q  <= nxt_v_d;
      cur_v_q  <= cur_v_d;
      e0_v_q   <= e0_v_d;
      e1_v_q   <= e1_v_d;
      if (e0_ce) e0_err_q <= e0_err_d;
      if (e1_ce) e1_err_q <= e1_err_d;
      if (row_fire) begin
        nxt_pt_q   <= i_pt;
        nxt_g12_q  <= i_g12;
        nxt_o_q    <= i_t[OW-1:0];
        nxt_m_q    <= i_mf >> W4;
        nxt_rem_q  <= row_in_beats_i;
        nxt_last_q <= i_last;
        nxt_pop_q  <= i_pop;
        nxt_e1_q   <= i_e1;
      end
      if (take) begin
        cur_pt_q   <= nxt_pt_q;
        cur_g12_q  <= nxt_g12_q;
        cur_o_q    <= nxt_o_q;
        cur_m_q    <= nxt_m_q;
        cur_rem_q  <= nxt_rem_q;
        cur_last_q <= nxt_last_q;
        cur_pop_q  <= nxt_pop_q;
        cur_e1_q   <= nxt_e1_q;
      end else if (step) begin
        cur_o_q    <= w_t[OW-1:0];
        cur_m_q    <= cur_m_q >> W4;
        cur_rem_q  <= w_rem;
        cur_last_q <= w_last;
        cur_pop_q  <= w_pop;
        cur_e1_q   <= w_e1;
      end
    end
  end

  // Beat data flops without reset.
  always_ff @(posedge clk_i) begin : proc_data
    if (e0_ce) e0_q <= e0_d;
    if (e1_ce) e1_q <= e1_d;
  end

  // ---- Output ----
  tma_spill_reg #(
    .Width  (DW + 1),
    .Bypass (OutSpill ? 0 : 1)
  ) u_out (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (sp_valid),
    .in_ready_o  (sp_ready),
    .in_data_i   ({beat_err, beat}),
    .out_valid_o (out_valid_o),
    .out_ready_i (out_ready_i),
    .out_data_o  ({out_err_o, out_data_o})
  );

  assign busy_o = nxt_v_q || cur_v_q || e0_v_q || out_valid_o;

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A,
                   DataBytes == 16 || DataBytes == 32 || DataBytes == 64 || DataBytes == 128)
  `TMA_ASSERT_IMPLY(RowModeLegal_A, row_valid_i,
                    row_mode_i == tma_pkg::PkNone || row_mode_i == tma_pkg::PkG8 ||
                      row_mode_i == tma_pkg::PkG12)
  `TMA_ASSERT_IMPLY(RowGoffAligned_A, row_valid_i, row_goff_i[3:0] == 4'd0)
  `TMA_ASSERT_IMPLY(RowBeatsLegal_A, row_valid_i, row_in_beats_i != '0)
  `TMA_ASSERT_IMPLY(RowUnitsLegal_A, row_valid_i && row_mode_i != tma_pkg::PkNone,
                    row_units_i >= 4'd1 && row_units_i <= 4'd8)
  // Packed rows read exactly the beats of their units.
  `TMA_ASSERT_IMPLY(RowPackedBeats_A, row_valid_i && row_mode_i != tma_pkg::PkNone,
                    32'(row_in_beats_i) == (32'(row_goff_i) +
                                            (row_mode_i == tma_pkg::PkG12 ? 32'd12 : 32'd8) *
                                            32'(row_units_i) + DataBytes - 1) / DataBytes)
  `TMA_ASSERT_IMPLY(LastBeatPopsRest_A, cur_v_q && cur_last_q, cur_rem_q <= CntW'(2))
  `TMA_ASSERT_IMPLY(LastBeatCountsExact_A, cur_v_q && cur_last_q, cur_rem_q == CntW'(cur_pop_q))
  `TMA_ASSERT_IMPLY(PopTwoUsesE1_A, cur_v_q && cur_pop_q == 2'd2, cur_e1_q)
  `TMA_ASSERT_IMPLY(PopOnlyValid_A, adv && cur_pop_q == 2'd2, e1_v_q)
  `TMA_ASSERT_IMPLY(E1ImpliesE0_A, e1_v_q, e0_v_q)
  // Flags registered a cycle ahead (their next state in proc_ok).
  `TMA_ASSERT_COPY(OkCopy_A, ok_q, cur_v_q && e0_v_q && (!cur_e1_q || e1_v_q))
  `TMA_ASSERT_COPY(CeCopy_A, {ce_a_q, ce_e_q, ce_pop_q, ce_c_q, ce_b_q, e0_from_e1},
                   {e0_v_q && !e1_v_q, !e0_v_q, cur_pop_q != 2'd0, cur_pop_q == 2'd1 && e1_v_q,
                    (cur_pop_q == 2'd0 && !e1_v_q) || (cur_pop_q == 2'd1 && e1_v_q),
                    e1_v_q && cur_pop_q != 2'd2})
  `TMA_ASSERT_STABLE(RowHeld_A, row_valid_i, row_ready_o,
                     {row_mode_i, row_goff_i, row_in_beats_i, row_units_i})
  `TMA_ASSERT_STABLE(InHeld_A, in_valid_i, in_ready_o, {in_data_i, in_err_i})
  `TMA_ASSERT_STABLE(OutHeld_A, out_valid_o, out_ready_i, {out_data_o, out_err_o})
  `TMA_COVER(PopTwo_C, adv && cur_pop_q == 2'd2)
  `TMA_COVER(UsesE1_C, adv && cur_e1_q && !cur_last_q)

endmodule

`default_nettype wire
