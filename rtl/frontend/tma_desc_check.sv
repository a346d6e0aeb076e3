// SPDX-License-Identifier: Apache-2.0
//
// tma_desc_check: checks a fetched map against the descriptor rules (decode and encoder rules,
// the derived fields, the box-size product) and derives what the job setup needs from it (the
// decoded flags, the walker view, the address steps), in nine registered cycles.
//
// In: the decoded fields (held by tma_desc_decode until the next fetch); start_i is the last
// beat of a fetch without error, cycle 0 follows. Out: the map (tma_pkg::map_t: its fields,
// what this block derived, the verdict `bad`) in the last cycle (8), and held after it until
// the next start. Every check is registered before it sets `bad`; the derived fields are
// written in the cycle that computes them, each write selected by a kept copy (tma_dup_reg)
// of the cycle flag:
//   cycle 0      decoded flags of the map, the walker dims (kind and tensor dim of each)
//   cycle 1      the walker view (dim, es, box, stride of each walker dim; five copies of the
//                flag, one per field group)
//   cycle 2      the strides' pieces that are not zero; the field and row rules set `bad`
//   cycle 3      rule 16 (the im2col bounding box is not empty) sets `bad`
//   cycles 2..7  the address steps es x stride (one shift-add per cycle, written in 4..7)
//   cycles 0..8  the box-size product E x prod floor(box / es) (im2col: cpp x E x ppc) by
//                registered 18 x 18 multiplies and reciprocals, compared with the box-bytes
//                field in cycle 7; cycle 8 sets `bad` from it (rules 14 / 20).

`default_nettype none

`include "tma_assert.svh"

module tma_desc_check (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic                       start_i,
  input  tma_pkg::desc_fields_t      fields_i,
  input  tma_pkg::desc_chk_fields_t  chk_i,
  output logic                       busy_o,          // cycles 0..8
  output logic                       map_valid_o,     // cycle 8
  output logic                       map_valid_next_o,  // cycle 7 (map_valid_o next cycle)
  output tma_pkg::map_t              map_o
);

  localparam int unsigned MaxDims = tma_pkg::MaxDims;

  logic                  busy_q;
  logic [3:0]            chk_cycle_q;
  logic                  chk_last_q;          // cycle 8
  logic                  chk_next;            // the check continues next cycle
  tma_pkg::map_derived_t der_d, der_q;        // derived fields
  logic                  bad_d, bad_q;        // verdict so far
  tma_pkg::desc_fields_t f;
  assign f        = fields_i;
  assign chk_next = busy_q && !chk_last_q;

  // ---- Fields as arrays ----
  logic [35:0] f_stride [MaxDims-1];   // units of 16 bytes
  logic [31:0] f_dim_m1 [MaxDims];
  logic [2:0]  f_es_m1  [MaxDims];
  logic [7:0]  f_box_m1 [MaxDims];     // im2col: entry 0 is channels per pixel - 1
  logic [33:0] f_lower  [MaxDims-2];   // im2col corners (the decoded rank flags: from cycle 1)
  logic [33:0] f_upper  [MaxDims-2];
  logic [33:0] lower_q  [MaxDims-2];
  logic [3:0]  rank;
  logic [MaxDims-1:0] rank_gt_q;       // bit i: i < rank (from cycle 1)
  logic        i2c, il, sb_half, sb_pk;
  logic        wide;                   // an im2col-wide map (im2col::w / im2col::w::128)
  logic        wide_swz_ok;            // rule 24: a swizzle the im2col-wide map allows
  logic [1:0]  esz;                    // log2 E (decoded flags) ...
  logic [1:0]  esz_dec;                // ... decoded from the type (cycle 0)
  logic        is_float;
  logic [7:0]  span;                   // swizzle span in bytes (0: none)
  logic [31:0] swz_repeat;
  always_comb begin : proc_fields
    for (int i = 0; i < MaxDims - 1; i++) f_stride[i] = f.stride[i];
    for (int i = 0; i < MaxDims; i++) begin
      f_dim_m1[i] = f.dim_m1[i];
      f_es_m1[i]  = f.es_m1[i];
    end
    f_box_m1[0] = f.box0_m1;
    for (int i = 1; i < MaxDims; i++) f_box_m1[i] = f.box_hi[8*(i-1) +: 8];
    for (int k = 0; k < MaxDims - 2; k++) begin
      f_lower[k] = tma_pkg::im2col_corner(f.box_hi, der_q.is_rank3, der_q.is_rank4, k, 1'b0);
      f_upper[k] = tma_pkg::im2col_corner(f.box_hi, der_q.is_rank3, der_q.is_rank4, k, 1'b1);
    end
    unique case (f.dtype)
      tma_pkg::DtU8, tma_pkg::DtB4x16, tma_pkg::DtB4x16P64, tma_pkg::DtB6x16P32: esz_dec = 2'd0;
      tma_pkg::DtU16, tma_pkg::DtF16, tma_pkg::DtBF16:                         esz_dec = 2'd1;
      tma_pkg::DtU32, tma_pkg::DtS32, tma_pkg::DtF32, tma_pkg::DtF32Ftz:       esz_dec = 2'd2;
      default:                                                                 esz_dec = 2'd3;
    endcase
    is_float = (f.dtype >= tma_pkg::DtF16 && f.dtype <= tma_pkg::DtBF16);
    span = tma_pkg::swz_span_bytes(f.swz);
    unique case (f.swz)
      tma_pkg::SwzNone: swz_repeat = tma_pkg::SwzRepeatNone;
      tma_pkg::Swz32B:  swz_repeat = tma_pkg::SwzRepeat32B;
      tma_pkg::Swz64B:  swz_repeat = tma_pkg::SwzRepeat64B;
      tma_pkg::Swz128B, tma_pkg::Swz128BA32, tma_pkg::Swz128BA32F8, tma_pkg::Swz128BA64: begin
        swz_repeat = tma_pkg::SwzRepeat128B;
      end
      default:          swz_repeat = tma_pkg::SwzRepeat96B;
    endcase
  end
  assign rank    = {1'b0, f.rank_m1} + 4'd1;
  assign i2c     = f.im2col;
  assign wide    = f.im2col && chk_i.wide;
  assign il      = der_q.is_il;
  assign esz     = der_q.elem_log2;
  assign sb_half = der_q.is_b4x16;
  assign sb_pk   = der_q.is_b4x16p64 || der_q.is_b6x16p32;

  // ---- Walker dims (cycle 0): tile: walker dim d is tensor dim d; interleave: walker dim 1 is
  // dim 0 in chunks, then the dims above it except rank - 2. im2col: walker dims 1 .. rank - 2
  // are the spatial dims (tensor dims 1 .. rank - 2, or 0 .. rank - 3 with interleave), walker
  // dim rank - 1 is N. im2col-wide: only W (walker dim 1) is walked; H and D (walker dims
  // 2 .. rank - 2) are tile dims of box 1 (they stay at their coordinates, their bounds still
  // checked), then N. ----
  logic [11:0] w_kind, w_tdim;   // walker dim d at [3 (d - 1) +: 3]
  always_comb begin : proc_walk_dims
    logic       mil;
    logic [2:0] td;
    mil = (f.il != tma_pkg::IlNone);
    for (int d = 1; d < MaxDims; d++) begin
      w_kind[3*(d-1) +: 3] = tma_pkg::WalkNone;
      td          = 3'(d);
      if (!i2c) begin
        if (!mil) begin
          td = 3'(d);
        end else if (d == 1) begin
          td = 3'd0;
        end else begin
          td = (4'(d) < rank - 4'd1) ? 3'(d - 1) : 3'(d);
        end
        if ({1'b0, td} < rank) begin
          w_kind[3*(d-1) +: 3] = (mil && d == 1) ? tma_pkg::WalkChunk : tma_pkg::WalkTile;
        end
      end else if (wide && d >= 2 && 4'(d) + 4'd2 <= rank) begin
        w_kind[3*(d-1) +: 3] = tma_pkg::WalkTile;
        td          = 3'(d);
      end else if (4'(d) + 4'd2 <= rank) begin
        w_kind[3*(d-1) +: 3] = tma_pkg::WalkSpatial;
        td          = mil ? 3'(d - 1) : 3'(d);
      end else if (4'(d) + 4'd1 == rank) begin
        w_kind[3*(d-1) +: 3] = tma_pkg::WalkN;
        td          = f.rank_m1;
      end
      w_tdim[3*(d-1) +: 3] = td;
    end
  end

  // ---- Rules (all give invalid_descriptor) and the box-size product ----
  logic        rules_a, rules_b;          // cycle 1: field codes, alignment, row rules
  logic        rules_a_q, rules_b_q;      // (each compare ends in its own flop)
  logic [31:0] far_d [MaxDims-2];         // rule 16: dim + 1 + upper (32-bit, wrapping)
  logic [31:0] far_q [MaxDims-2];
  logic [32:0] far_s [MaxDims-2];         // {far, 1}
  logic [MaxDims-3:0] corner_bad, corner_bad_q;   // cycle 2, per spatial dim
  logic [8:0]  box_p1_d [MaxDims];        // box + 1 (cycle 0) ...
  logic [8:0]  box_p1_q [MaxDims];
  logic [12:0] recip_d [MaxDims];         // ... and ceil(4096 / es)
  logic [12:0] recip_q [MaxDims];
  logic [20:0] box_rq_d [MaxDims];        // their product (cycle 1)
  logic [20:0] box_rq_q [MaxDims];
  logic [10:0] factor_d [MaxDims];        // size factors (cycle 2)
  logic [10:0] factor_q [MaxDims];
  logic        size_zero_d, size_zero_q;  // a tiled factor is 0: the size is 0
  logic        factor_e_d, factor_e_q;    // the last factor is multiplied by E
  logic [16:0] prod_01_d, prod_01_q, prod_23_d, prod_23_q;   // cycle 3
  logic [11:0] prod_4_d, prod_4_q;
  logic [33:0] prod_0123_d, prod_0123_q;  // cycle 4
  logic        size_over_d, size_over_q;  // cycle 5
  logic [18:0] prod_low_d, prod_low_q;    // (b4x16: nibbles, up to 2 x MaxBoxBytes)
  logic [29:0] total_lo_q;                // cycle 6: prod_low[17:0] x prod_4 (one 18x18) ...
  logic [11:0] total_hi_q;                // ... and prod_low[18] x prod_4 / 2^18
  logic [29:0] total_d, total_q;          // cycle 7: their sum
  logic [31:0] bb_m1_q;                   // box-bytes field - 1 (b4x16, odd nibbles)
  logic        bb_nz_q;                   // box-bytes field != 0
  logic        bb_ok;                     // cycle 7: the box-bytes field matches
  logic        bb_ok_q, total_big_q;      // cycle 8
  logic        size_bad;                  // cycle 8: rules 14 / 20 and the box-bytes field
  logic [7:0]  span_e;                    // span / E (elements)
  logic [29:0] max_box;                   // MaxBoxBytes (b4x16: in nibbles)
  // the walker dims' steps es x stride = a + b + c (cycles 2..5: stride and es of walker dim
  // cycle - 1, cycles 3..6: the shifted operands, cycles 4..7: the sum): es 1, 2, 4, 8: s << k;
  // 3, 5, 6: two shifted strides; 7: 8s - s
  logic [35:0] step_s_d, step_s_q;
  logic [2:0]  step_e_d, step_e_q;        // es - 1
  logic [38:0] step_a_d, step_a_q, step_b_d, step_b_q;
  logic        step_c_d, step_c_q;
  logic [39:0] step_sum;                  // {a + b + c, 1}

  // ceil(4096 / es): floor(b x recip(es) / 4096) == floor(b / es) for b 1..1024 when es is a
  // power of two, for b 1..256 otherwise (tests/rtl/frontend/desc_check_test.cc checks it).
  function automatic logic [12:0] recip(input logic [2:0] es_m1);
    unique case (es_m1)
      3'd0: recip = 13'd4096;
      3'd1: recip = 13'd2048;
      3'd2: recip = 13'd1366;
      3'd3: recip = 13'd1024;
      3'd4: recip = 13'd820;
      3'd5: recip = 13'd683;
      3'd6: recip = 13'd586;
      default: recip = 13'd512;
    endcase
  endfunction

  assign span_e  = span >> esz;
  assign wide_swz_ok = (f.swz == tma_pkg::Swz64B || f.swz == tma_pkg::Swz128B ||
                        f.swz == tma_pkg::Swz128BA32 ||
                        (f.swz == tma_pkg::Swz96B && !chk_i.wide_mode)) &&
                       !(der_q.is_b6x16p32 && f.swz == tma_pkg::Swz96B) &&
                       !(der_q.is_b4x16p64 && (f.swz == tma_pkg::Swz64B ||
                                               f.swz == tma_pkg::Swz96B));
  assign max_box = sb_half ? 30'(2 * tma_pkg::MaxBoxBytes) : 30'(tma_pkg::MaxBoxBytes);

  always_comb begin : proc_chk
    logic [4:0] rb_lo;   // (box0 + 1) mod 32, for row_bytes[3:0]
    logic [3:0] rb_nib;
    rb_lo   = 5'(f.box0_m1[3:0]) + 5'd1;
    rb_nib  = 4'(rb_lo << esz);
    rules_a = 1'b0;
    rules_b = 1'b0;
    // (im2col-wide: the bit only on an im2col map; the wide-mode bit only on a wide map)
    if (f.rank_m1 > 3'(MaxDims - 1) || (chk_i.wide && !i2c) || (chk_i.wide_mode && !wide) ||
        (i2c && 32'(rank) < tma_pkg::MinIm2colRank) || f.dtype > tma_pkg::DtB6x16P32 ||
        (f.tf32 && f.dtype != tma_pkg::DtF32 && f.dtype != tma_pkg::DtF32Ftz) ||
        f.il > tma_pkg::Il32B ||
        (chk_i.swz96 &&
         (chk_i.span != tma_pkg::SwzSpanNone || chk_i.atom != tma_pkg::SwzAtom16B)) ||
        (chk_i.span != tma_pkg::SwzSpan128B && chk_i.atom != tma_pkg::SwzAtom16B) || chk_i.rsv ||
        (!i2c && f.ppc_m1 != 10'd0) ||
        (i2c && !wide && f.rank_m1 == 3'd4 && (f.box_hi[15] || f.box_hi[31])) ||
        chk_i.swz_repeat != swz_repeat) begin
      rules_b = 1'b1;
    end
    if (f.addr[3:0] != 4'd0 || (f.il == tma_pkg::Il32B && f.addr[4]) ||
        (il && f.rank_m1 < 3'd2) || (f.fill_nan && !is_float)) begin
      rules_a = 1'b1;
    end
    // rules 12/13 (tile), 17/19 (im2col): row bytes % 16, row bytes <= span
    if (rb_nib != 4'd0 || (f.il == tma_pkg::IlNone && f.swz != tma_pkg::SwzNone &&
                           (sb_half ? {1'b0, f.box0_m1[7:1]} : f.box0_m1) >= span_e)) begin
      rules_a = 1'b1;
    end
    // sub-byte encoder rules (sm_100; model encoder.cc): b4x16: dim[0] % 2, box[0] % 32;
    // b4x16_p64 / b6x16_p32: address and strides % 32, dim[0] % 128, box[0] (cpp) == 128, the
    // swizzles each allows (b6x16_p32 with a 128B swizzle: no interleave)
    if ((sb_half && (!f_dim_m1[0][0] || f.box0_m1[4:0] != 5'h1F)) ||
        (sb_pk && (f.addr[4] || f_dim_m1[0][6:0] != 7'h7F || f.box0_m1 != 8'd127 ||
                   (!wide && !(f.swz == tma_pkg::SwzNone || f.swz == tma_pkg::Swz128B ||
                               f.swz == tma_pkg::Swz128BA32 ||
                               (f.dtype == tma_pkg::DtB6x16P32 &&
                                f.swz == tma_pkg::Swz128BA64))) ||
                   (der_q.is_b6x16p32 && il && f.swz != tma_pkg::SwzNone)))) begin
      rules_a = 1'b1;
    end
    // rules 23 / 24 (im2col-wide): interleave none; swizzle 64B, 128B, 128B_atom_32B, or 96B
    // in mode W (sm_103: the arch check); b6x16_p32 not 96B, b4x16_p64 128B / 128B_atom_32B
    if (wide && (il || !wide_swz_ok)) rules_a = 1'b1;
    // rule 4 (sm_103): the 96B swizzle needs interleave none and no packed sub-byte type
    if (f.swz == tma_pkg::Swz96B && (il || sb_pk)) rules_a = 1'b1;
    for (int i = 0; i < MaxDims - 1; i++) begin
      if (f.il == tma_pkg::Il32B && f_stride[i][0]) rules_a = 1'b1;
      if (sb_pk && f_stride[i][0]) rules_a = 1'b1;
    end
    // dim + upper + 1 as one carry chain: {a, 1} + {b, 1} = 2 (a + b + 1)
    for (int k = 0; k < MaxDims - 2; k++) begin
      far_s[k] = {(il ? f_dim_m1[k] : f_dim_m1[k+1]), 1'b1} + {f_upper[k][31:0], 1'b1};
      far_d[k] = far_s[k][32:1];
    end
    for (int i = 0; i < MaxDims; i++) begin
      box_p1_d[i] = {1'b0, f_box_m1[i]} + 9'd1;
      recip_d[i]  = recip(f_es_m1[i]);
      box_rq_d[i] = 21'(box_p1_q[i]) * 21'(recip_q[i]);
    end
    // cycle 2: rule 16 (bounding box not empty: dim + upper > lower, 32-bit); the factors
    for (int k = 0; k < MaxDims - 2; k++) begin
      corner_bad[k] = i2c && rank_gt_q[k+2] && (k == 0 || !wide) &&
                      signed'(far_q[k]) <= signed'(lower_q[k][31:0]);
    end
    size_zero_d = 1'b0;
    for (int i = 0; i < MaxDims; i++) begin
      factor_d[i] = 11'd1;
      if (!i2c && rank_gt_q[i]) begin
        factor_d[i] = {2'b00, box_rq_q[i][20:12]};
        if (box_rq_q[i][20:12] == 9'd0) size_zero_d = 1'b1;
      end
    end
    if (i2c) begin
      factor_d[0] = 11'(f.box0_m1) + 11'd1;    // cpp
      factor_d[1] = 11'd1 << esz;              // E
      factor_d[2] = 11'(f.ppc_m1) + 11'd1;     // ppc
    end
    factor_e_d = !i2c;
    // cycles 3..6: E x f0 .. f4 (im2col: cpp x E x ppc), capped above MaxBoxBytes
    prod_01_d   = 17'(factor_q[0]) * 17'(factor_q[1]);
    prod_23_d   = 17'(factor_q[2]) * 17'(factor_q[3]);
    prod_4_d    = factor_e_q ? 12'(factor_q[4]) << esz : 12'(factor_q[4]);
    prod_0123_d = 34'(prod_01_q) * 34'(prod_23_q);
    size_over_d = (prod_0123_q > 34'(max_box));
    prod_low_d  = prod_0123_q[18:0];
    total_d     = total_lo_q + {total_hi_q, 18'd0};
    unique case (chk_cycle_q)
      4'd2:    begin step_s_d = der_q.walk_stride[0]; step_e_d = der_q.walk_es_m1[0]; end
      4'd3:    begin step_s_d = der_q.walk_stride[1]; step_e_d = der_q.walk_es_m1[1]; end
      4'd4:    begin step_s_d = der_q.walk_stride[2]; step_e_d = der_q.walk_es_m1[2]; end
      default: begin step_s_d = der_q.walk_stride[3]; step_e_d = der_q.walk_es_m1[3]; end
    endcase
    begin : blk_step
      logic [38:0] sv;
      sv       = 39'(step_s_q);
      step_c_d = 1'b0;
      step_b_d = '0;
      unique case (step_e_q)
        3'd0: step_a_d = sv;
        3'd1: step_a_d = sv << 1;
        3'd2: begin step_a_d = sv << 1; step_b_d = sv; end
        3'd3: step_a_d = sv << 2;
        3'd4: begin step_a_d = sv << 2; step_b_d = sv; end
        3'd5: begin step_a_d = sv << 2; step_b_d = sv << 1; end
        3'd6: begin step_a_d = sv << 3; step_b_d = ~sv; step_c_d = 1'b1; end
        default: step_a_d = sv << 3;
      endcase
    end
    step_sum = {step_a_q, 1'b1} + {step_b_q, step_c_q};
    // b4x16: the field is ceil(nibbles / 2)
    bb_ok    = sb_half ? (33'(total_q) == {chk_i.box_bytes, 1'b0} ||
                          33'(total_q) == {bb_m1_q, 1'b1}) :
                         (32'(total_q) == chk_i.box_bytes);
    size_bad = size_zero_q ? bb_nz_q : (size_over_q || total_big_q || !bb_ok_q);
  end

  // ---- Cycle flags (kept copies) and the derived fields ----
  logic       sel_c0, sel_c2, sel_c3;
  logic [4:0] sel_c1;   // the walker view: one copy per field group
  logic [3:0] sel_step; // cycles 4..7: walk_step[j]
  tma_dup_reg #(.Copies (1)) u_sel_c0 (.clk_i, .rst_ni, .d_i (start_i), .q_o (sel_c0));
  tma_dup_reg #(.Copies (5)) u_sel_c1 (
    .clk_i, .rst_ni, .d_i (chk_next && chk_cycle_q == 4'd0), .q_o (sel_c1)
  );
  tma_dup_reg #(.Copies (1)) u_sel_c2 (
    .clk_i, .rst_ni, .d_i (chk_next && chk_cycle_q == 4'd1), .q_o (sel_c2)
  );
  tma_dup_reg #(.Copies (1)) u_sel_c3 (
    .clk_i, .rst_ni, .d_i (chk_next && chk_cycle_q == 4'd2), .q_o (sel_c3)
  );
  for (genvar j = 0; j < 4; j++) begin : gen_sel_step
    logic st_j;
    tma_dup_reg #(.Copies (1)) u_sel_step (
      .clk_i, .rst_ni, .d_i (chk_next && chk_cycle_q == 4'(j + 3)), .q_o (st_j)
    );
    assign sel_step[j] = st_j;
    `TMA_ASSERT_COPY(SelStep_A, st_j, busy_q && chk_cycle_q == 4'(j + 4))
  end
  `TMA_ASSERT_COPY(SelC0_A, sel_c0, busy_q && chk_cycle_q == 4'd0)
  // The walker view's kind and tensor dim (der_q's, written in cycle 0), one copy per field
  // group that cycle 1 selects with them (0 dim, 1 es, 2 box, 3 stride), so each select's net
  // stays beside its group
  localparam int unsigned ViewW = 2 * 4 * 3;
  logic [4*ViewW-1:0] view_q;
  tma_dup_reg #(.Width (ViewW), .Copies (4)) u_view (
    .clk_i, .rst_ni,
    .d_i (sel_c0 ? {w_kind, w_tdim} : {der_q.walk_kind, der_q.walk_tdim}), .q_o (view_q)
  );
  `TMA_ASSERT_COPY(ViewCopy_A, view_q, {4{der_q.walk_kind, der_q.walk_tdim}})
  function automatic logic [2:0] view_kind(input logic [4*ViewW-1:0] v, input int c,
                                           input int d);
    view_kind = v[c * ViewW + 12 + 3 * d +: 3];
  endfunction
  function automatic logic [2:0] view_tdim(input logic [4*ViewW-1:0] v, input int c,
                                           input int d);
    view_tdim = v[c * ViewW + 3 * d +: 3];
  endfunction
  `TMA_ASSERT_COPY(SelC1_A, sel_c1, {5{busy_q && chk_cycle_q == 4'd1}})
  `TMA_ASSERT_COPY(SelC2_A, sel_c2, busy_q && chk_cycle_q == 4'd2)
  `TMA_ASSERT_COPY(SelC3_A, sel_c3, busy_q && chk_cycle_q == 4'd3)

  // Stride of walker dim d (the view, cycle 1): the chunk for dim 0.
  function automatic logic [35:0] view_stride(input logic [143:0] stride,
                                              input logic is_il32, input logic [2:0] kind,
                                              input logic [2:0] td);
    view_stride = '0;
    if (kind != tma_pkg::WalkNone) begin
      if (td == 3'd0) view_stride = is_il32 ? 36'd2 : 36'd1;
      // (a mux over constant offsets: an offset computed as 36 x index would elaborate as a
      // multiply, which synthesis maps to a multiplier block)
      for (int k = 0; k < 4; k++) begin
        if (td != 3'd0 && 2'(td - 3'd1) == 2'(k)) view_stride = stride[36 * k +: 36];
      end
    end
  endfunction

  function automatic logic [2:0] nonzero_pieces(input logic [35:0] s);
    nonzero_pieces = {s[35:34] != 2'd0, s[33:17] != 17'd0, s[16:0] != 17'd0};
  endfunction

  always_comb begin : proc_derived
    logic [2:0] rm2;
    rm2   = f.rank_m1 - 3'd1;
    der_d = der_q;
    if (sel_c0) begin
      der_d.walk_kind   = w_kind;
      der_d.walk_tdim   = w_tdim;
      der_d.is_il       = (f.il != tma_pkg::IlNone);
      der_d.is_il32     = (f.il == tma_pkg::Il32B);
      der_d.is_b4x16    = (f.dtype == tma_pkg::DtB4x16);
      der_d.is_b4x16p64 = (f.dtype == tma_pkg::DtB4x16P64);
      der_d.is_b6x16p32 = (f.dtype == tma_pkg::DtB6x16P32);
      der_d.is_rank3    = (rank == 4'd3) || wide;
      der_d.is_wide     = wide;
      der_d.is_w128     = wide && chk_i.wide_mode;
      der_d.is_rank4    = (rank == 4'd4);
      der_d.is_rank5    = (rank == 4'd5);
      der_d.fix_dim     = 5'd1 << rm2;
      der_d.elem_log2   = esz_dec;
      // c0 to bytes: the sub-byte types first, then interleave (im2col: zero), else E
      der_d.c0_scale = '0;
      if (f.dtype == tma_pkg::DtB4x16 || f.dtype == tma_pkg::DtB4x16P64) begin
        der_d.c0_scale[6] = 1'b1;
      end else if (f.dtype == tma_pkg::DtB6x16P32) begin
        der_d.c0_scale[7] = 1'b1;
      end else if (f.il != tma_pkg::IlNone) begin
        der_d.c0_scale[{2'b10, f.il == tma_pkg::Il32B}] = !f.im2col;
      end else begin
        der_d.c0_scale[{1'b0, esz_dec}] = 1'b1;
      end
    end
    for (int d = 1; d < MaxDims; d++) begin
      if (sel_c1[(d < 3) ? 0 : 1]) begin
        der_d.walk_dim_m1[d-1] = '0;
        if (view_kind(view_q, 0, d - 1) != tma_pkg::WalkNone) begin
          der_d.walk_dim_m1[d-1] = f_dim_m1[view_tdim(view_q, 0, d - 1)];
        end
      end
      if (sel_c1[0]) begin
        der_d.walk_es_m1[d-1] = '0;
        if (view_kind(view_q, 1, d - 1) != tma_pkg::WalkNone) begin
          der_d.walk_es_m1[d-1] = f_es_m1[view_tdim(view_q, 1, d - 1)];
        end
      end
      // (im2col-wide: H and D have box 1; their box fields hold the corners)
      if (sel_c1[2]) der_d.walk_box_m1[d-1] = der_q.is_wide ? 8'd0 :
                                                f_box_m1[view_tdim(view_q, 2, d - 1)];
      if (sel_c1[(d < 3) ? 3 : 4]) begin
        der_d.walk_stride[d-1] = view_stride(f.stride, der_q.is_il32, view_kind(view_q, 3, d - 1),
                                             view_tdim(view_q, 3, d - 1));
      end
    end
    if (sel_c1[2]) der_d.fix_stride = f_stride[2'(f.rank_m1 - 3'd2)];
    if (sel_c2) begin
      for (int d = 0; d < MaxDims - 1; d++) begin
        der_d.walk_stride_nz[d] = nonzero_pieces(der_q.walk_stride[d]);
      end
      der_d.fix_stride_nz = nonzero_pieces(der_q.fix_stride);
    end
    for (int j = 0; j < 4; j++) begin
      if (sel_step[j]) der_d.walk_step[j] = step_sum[39:1];
    end
    // The verdict: cleared at the start, set by the rules (registered a cycle before).
    bad_d = bad_q;
    if (sel_c2 && (rules_a_q || rules_b_q)) bad_d = 1'b1;
    if (sel_c3 && corner_bad_q != '0) bad_d = 1'b1;
    if (chk_last_q && size_bad) bad_d = 1'b1;
    if (start_i) bad_d = 1'b0;
  end

  assign busy_o           = busy_q;
  assign map_valid_o      = chk_last_q;
  assign map_valid_next_o = chk_next && chk_cycle_q == 4'd7;
  assign map_o.bad        = bad_q || (chk_last_q && size_bad);
  assign map_o.fields     = fields_i;
  assign map_o.derived    = der_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_regs
    if (!rst_ni) begin
      busy_q       <= 1'b0;
      chk_cycle_q  <= '0;
      chk_last_q   <= 1'b0;
      der_q        <= '0;
      bad_q        <= 1'b0;
      rules_a_q    <= 1'b0;
      rules_b_q    <= 1'b0;
      corner_bad_q <= '0;
      rank_gt_q    <= '0;
      for (int k = 0; k < MaxDims - 2; k++) begin
        far_q[k]   <= '0;
        lower_q[k] <= '0;
      end
      for (int i = 0; i < MaxDims; i++) begin
        box_p1_q[i] <= '0;
        recip_q[i]  <= '0;
        box_rq_q[i] <= '0;
        factor_q[i] <= '0;
      end
      size_zero_q <= 1'b0;
      factor_e_q  <= 1'b0;
      prod_01_q   <= '0;
      prod_23_q   <= '0;
      prod_4_q    <= '0;
      prod_0123_q <= '0;
      size_over_q <= 1'b0;
      prod_low_q  <= '0;
      total_lo_q  <= '0;
      total_hi_q  <= '0;
      total_q     <= '0;
      bb_m1_q     <= '0;
      bb_nz_q     <= 1'b0;
      bb_ok_q     <= 1'b0;
      total_big_q <= 1'b0;
      step_s_q    <= '0;
      step_e_q    <= '0;
      step_a_q    <= '0;
      step_b_q    <= '0;
      step_c_q    <= 1'b0;
    end else begin
      busy_q       <= start_i || chk_next;
      chk_cycle_q  <= start_i ? 4'd0 : chk_cycle_q + 4'(busy_q);
      chk_last_q   <= busy_q && chk_cycle_q == 4'd7;
      der_q        <= der_d;
      bad_q        <= bad_d;
      rules_a_q    <= rules_a;
      rules_b_q    <= rules_b;
      corner_bad_q <= corner_bad;
      for (int i = 0; i < MaxDims; i++) rank_gt_q[i] <= 4'(i) < rank;
      for (int k = 0; k < MaxDims - 2; k++) begin
        far_q[k]   <= far_d[k];
        lower_q[k] <= f_lower[k];
      end
      for (int i = 0; i < MaxDims; i++) begin
        box_p1_q[i] <= box_p1_d[i];
        recip_q[i]  <= recip_d[i];
        box_rq_q[i] <= box_rq_d[i];
        factor_q[i] <= factor_d[i];
      end
      size_zero_q <= size_zero_d;
      factor_e_q  <= factor_e_d;
      prod_01_q   <= prod_01_d;
      prod_23_q   <= prod_23_d;
      prod_4_q    <= prod_4_d;
      prod_0123_q <= prod_0123_d;
      size_over_q <= size_over_d;
      prod_low_q  <= prod_low_d;
      total_lo_q  <= 30'(prod_low_q[17:0]) * 30'(prod_4_q);
      total_hi_q  <= prod_low_q[18] ? prod_4_q : 12'd0;
      total_q     <= total_d;
      bb_m1_q     <= chk_i.box_bytes - 32'd1;
      bb_nz_q     <= chk_i.box_bytes != 32'd0;
      bb_ok_q     <= bb_ok;
      total_big_q <= total_q > max_box;
      step_s_q    <= step_s_d;
      step_e_q    <= step_e_d;
      step_a_q    <= step_a_d;
      step_b_q    <= step_b_d;
      step_c_q    <= step_c_d;
    end
  end

  logic unused_bits;
  assign unused_bits = ^{box_rq_q[0][11:0], box_rq_q[1][11:0], box_rq_q[2][11:0],
                         box_rq_q[3][11:0], box_rq_q[4][11:0], far_s[0][0], far_s[1][0],
                         far_s[2][0], step_sum[0], f_lower[0][33:32], f_lower[1][33:32],
                         f_lower[2][33:32], f_upper[0][33:32], f_upper[1][33:32],
                         f_upper[2][33:32], lower_q[0][33:32], lower_q[1][33:32],
                         lower_q[2][33:32]};

  // ---- Assertions ----
  `TMA_ASSERT_INIT(MapDerivedWidth_A, tma_pkg::MapDerivedWidth == $bits(tma_pkg::map_derived_t))
  `TMA_ASSERT_INIT(MapWidth_A, tma_pkg::MapWidth == $bits(tma_pkg::map_t))
  `TMA_ASSERT_NEVER(StartWhileBusy_A, start_i && busy_q)
  `TMA_ASSERT_COPY(LastCycle_A, chk_last_q, busy_q && chk_cycle_q == 4'd8)

endmodule

`default_nettype wire
