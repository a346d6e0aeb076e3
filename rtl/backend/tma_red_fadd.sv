// SPDX-License-Identifier: Apache-2.0
//
// tma_red_fadd: pipelined IEEE 754 binary floating-point adder of one element of the reduction
// ALU (tma_red_alu), for any format of ExpW exponent and ManW fraction bits (f16 5/10, bf16
// 8/7, f32 8/23, f64 11/52). Result exact to the bit of the C++ model's ReduceElement:
//   - round to nearest, ties to even; subnormal inputs and results kept (gradual underflow);
//     overflow rounds to infinity;
//   - ftz_i = 1 (f32.ftz / tf32.ftz maps): a subnormal input counts as a zero of its sign, and a
//     result that is subnormal after rounding becomes a zero of its sign;
//   - x + (-x) = +0, (-0) + (-0) = -0;
//   - a NaN input or inf + (-inf) gives the canonical NaN: sign 0, exponent and fraction all
//     ones (0x7FFF, 0x7FFFFFFF, 0x7FFFFFFFFFFFFFFF);
//   - inf + finite = that inf.
//
// Six register stages (latency 6 cycles; every stage advances when en_i is high, else holds):
//   1 unpack: specials, flush, magnitude compare and swap (|x| >= |y|), exponent difference;
//   2 align: y shifted right by the difference into guard, round and sticky bits;
//   3 add: x + y or x - y on P + 3 bits (P = ManW + 1) and a carry;
//   4 count: leading zeros of the sum, limited so the exponent stays >= 1 (subnormal results);
//   5 shift: normalisation (right by one on a carry, else left by the count);
//   6 round: RNE as one integer increment of {exponent, fraction} (the carry of a fraction of
//     all ones moves into the exponent, up to infinity), flush, specials, pack.
// Guard, round and sticky suffice: an effective subtraction of operands at least two binades
// apart loses at most one leading bit (the sticky bit moves to the round position, still below
// the last kept bit), and one within a binade is exact before normalisation.

`default_nettype none

`include "tma_assert.svh"

module tma_red_fadd #(
  parameter  int unsigned ExpW = 8,
  parameter  int unsigned ManW = 23,
  localparam int unsigned W    = 1 + ExpW + ManW
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         en_i,     // advance every stage (else hold)
  input  logic [W-1:0] a_i,      // old (global) value
  input  logic [W-1:0] b_i,      // new (shared-memory) value
  input  logic         ftz_i,    // flush subnormal inputs and result to signed zero
  output logic [W-1:0] sum_o     // a + b, six cycles (enabled ones) after a_i / b_i
);

  // ---- Types and localparams ----
  localparam int unsigned P    = ManW + 1;           // significand with the hidden bit
  localparam int unsigned X    = P + 3;              // plus guard, round, sticky
  localparam int unsigned DW   = $clog2(X + 1);      // exponent difference, saturated at X
  localparam int unsigned LzW  = $clog2(X + 1);      // leading-zero count of X bits
  localparam logic [ExpW-1:0] EMax = {ExpW{1'b1}};
  localparam logic [W-1:0]    QNan = {1'b0, {(ExpW + ManW){1'b1}}};

  // ======================= 1: unpack, compare, swap =======================
  logic            sa, sb;
  logic [ExpW-1:0] ea, eb;
  logic [ManW-1:0] fa, fb;
  logic            a_nan, b_nan, a_inf, b_inf;
  logic            swap;
  logic [ExpW-1:0] ex, ey, ex_eff, ey_eff, ediff;
  logic [ManW-1:0] fx, fy;

  assign {sa, ea} = {a_i[W-1], a_i[W-2 -: ExpW]};
  assign {sb, eb} = {b_i[W-1], b_i[W-2 -: ExpW]};
  // A flushed subnormal is a zero fraction with exponent field 0: a zero of its sign.
  assign fa = (ftz_i && ea == '0) ? '0 : a_i[ManW-1:0];
  assign fb = (ftz_i && eb == '0) ? '0 : b_i[ManW-1:0];
  assign a_nan = ea == EMax && a_i[ManW-1:0] != '0;
  assign b_nan = eb == EMax && b_i[ManW-1:0] != '0;
  assign a_inf = ea == EMax && a_i[ManW-1:0] == '0;
  assign b_inf = eb == EMax && b_i[ManW-1:0] == '0;
  // IEEE magnitudes order as integers {exponent, fraction}.
  assign swap   = {eb, fb} > {ea, fa};
  assign ex     = swap ? eb : ea;
  assign ey     = swap ? ea : eb;
  assign fx     = swap ? fb : fa;
  assign fy     = swap ? fa : fb;
  assign ex_eff = (ex == '0) ? ExpW'(1) : ex;        // a subnormal has the exponent of 1
  assign ey_eff = (ey == '0) ? ExpW'(1) : ey;
  assign ediff  = ex_eff - ey_eff;

  logic            s1_sx, s1_sub, s1_nan, s1_inf, s1_inf_s, s1_zero_s, s1_ftz;
  logic [ExpW-1:0] s1_ex;
  logic [P-1:0]    s1_mx, s1_my;
  logic [DW-1:0]   s1_d;

  always_ff @(posedge clk_i) begin : proc_s1
    if (en_i) begin
      s1_sx     <= swap ? sb : sa;
      s1_sub    <= sa ^ sb;
      s1_nan    <= a_nan || b_nan || (a_inf && b_inf && (sa != sb));
      s1_inf    <= a_inf || b_inf;
      s1_inf_s  <= a_inf ? sa : sb;
      s1_zero_s <= sa && sb;        // sign of an exact zero sum: -0 only for (-0) + (-0)
      s1_ftz    <= ftz_i;
      s1_ex     <= ex_eff;
      s1_mx     <= {ex != '0, fx};
      s1_my     <= {ey != '0, fy};
      s1_d      <= (ediff > ExpW'(X)) ? DW'(X) : DW'(ediff);
    end
  end

  // ======================= 2: align =======================
  logic [2*X-1:0] y_wide;
  logic [X-1:0]   y_al;

  assign y_wide = {s1_my, 3'b000, X'(0)} >> s1_d;
  // Every bit shifted below the sticky position ORs into it.
  assign y_al   = {y_wide[2*X-1 -: X-1], y_wide[X] | (|y_wide[X-1:0])};

  logic            s2_sx, s2_sub, s2_nan, s2_inf, s2_inf_s, s2_zero_s, s2_ftz;
  logic [ExpW-1:0] s2_ex;
  logic [X-1:0]    s2_mx, s2_my;

  always_ff @(posedge clk_i) begin : proc_s2
    if (en_i) begin
      {s2_sx, s2_sub, s2_nan, s2_inf, s2_inf_s, s2_zero_s, s2_ftz} <=
          {s1_sx, s1_sub, s1_nan, s1_inf, s1_inf_s, s1_zero_s, s1_ftz};
      s2_ex <= s1_ex;
      s2_mx <= {s1_mx, 3'b000};
      s2_my <= y_al;
    end
  end

  // ======================= 3: add =======================
  logic [X:0] sum;

  assign sum = s2_sub ? ({1'b0, s2_mx} - {1'b0, s2_my}) : ({1'b0, s2_mx} + {1'b0, s2_my});

  logic            s3_sx, s3_nan, s3_inf, s3_inf_s, s3_zero_s, s3_ftz;
  logic [ExpW-1:0] s3_ex;
  logic [X:0]      s3_sum;

  always_ff @(posedge clk_i) begin : proc_s3
    if (en_i) begin
      {s3_sx, s3_nan, s3_inf, s3_inf_s, s3_zero_s, s3_ftz} <=
          {s2_sx, s2_nan, s2_inf, s2_inf_s, s2_zero_s, s2_ftz};
      s3_ex  <= s2_ex;
      s3_sum <= sum;
    end
  end

  // ======================= 4: leading-zero count =======================
  logic [LzW-1:0]  lz;
  logic            lz_found;
  logic [ExpW-1:0] lz_lim;

  // Leading zeros of the X bits below the carry (X when all zero).
  always_comb begin : proc_lzc
    lz       = LzW'(X);
    lz_found = 1'b0;
    for (int i = X - 1; i >= 0; i--) begin
      if (s3_sum[i] && !lz_found) begin
        lz       = LzW'(X - 1 - i);
        lz_found = 1'b1;
      end
    end
  end

  // The shift stops at exponent 1: below, the result is subnormal.
  assign lz_lim = s3_ex - ExpW'(1);

  logic            s4_sx, s4_nan, s4_inf, s4_inf_s, s4_zero_s, s4_ftz, s4_carry, s4_zero;
  logic [ExpW-1:0] s4_ex;
  logic [X:0]      s4_sum;
  logic [LzW-1:0]  s4_sh;

  always_ff @(posedge clk_i) begin : proc_s4
    if (en_i) begin
      {s4_sx, s4_nan, s4_inf, s4_inf_s, s4_zero_s, s4_ftz} <=
          {s3_sx, s3_nan, s3_inf, s3_inf_s, s3_zero_s, s3_ftz};
      s4_ex    <= s3_ex;
      s4_sum   <= s3_sum;
      s4_carry <= s3_sum[X];
      s4_zero  <= s3_sum == '0;
      s4_sh    <= (ExpW'(lz) > lz_lim) ? LzW'(lz_lim) : lz;
    end
  end

  // ======================= 5: normalise =======================
  logic [X-1:0]  norm;
  logic [ExpW:0] enorm;    // one bit more: a carry out of the largest exponent

  always_comb begin : proc_norm
    if (s4_carry) begin
      norm  = {s4_sum[X:2], s4_sum[1] | s4_sum[0]};
      enorm = {1'b0, s4_ex} + (ExpW + 1)'(1);
    end else begin
      norm  = s4_sum[X-1:0] << s4_sh;
      enorm = {1'b0, s4_ex} - (ExpW + 1)'(s4_sh);
    end
  end

  logic            s5_sx, s5_nan, s5_inf, s5_inf_s, s5_zero_s, s5_ftz, s5_zero;
  logic [ExpW:0]   s5_e;
  logic [X-1:0]    s5_m;

  always_ff @(posedge clk_i) begin : proc_s5
    if (en_i) begin
      {s5_sx, s5_nan, s5_inf, s5_inf_s, s5_zero_s, s5_ftz, s5_zero} <=
          {s4_sx, s4_nan, s4_inf, s4_inf_s, s4_zero_s, s4_ftz, s4_zero};
      s5_e <= enorm;
      s5_m <= norm;
    end
  end

  // ======================= 6: round and pack =======================
  logic                 rnd_up;
  logic [ExpW-1:0]      efield;
  logic [ExpW+ManW-1:0] mag;       // {exponent, fraction} after rounding
  logic                 ovf, tiny;
  logic [W-1:0]         res;

  // s5_m: [X-1] hidden bit, [X-2:3] fraction, [2] guard, [1] round, [0] sticky.
  assign rnd_up = s5_m[2] && (s5_m[1] || s5_m[0] || s5_m[3]);
  // Hidden bit 0 after normalisation: subnormal, exponent field 0.
  assign efield = s5_m[X-1] ? s5_e[ExpW-1:0] : '0;
  // (An exponent field of EMax before rounding is an overflow already, caught by s5_e.)
  assign mag    = {efield, s5_m[X-2:3]} + (ExpW + ManW)'(rnd_up);
  assign ovf    = (s5_e >= {1'b0, EMax}) || (mag[ExpW+ManW-1 -: ExpW] == EMax);
  assign tiny   = mag[ExpW+ManW-1 -: ExpW] == '0;

  always_comb begin : proc_pack
    if (s5_nan) begin
      res = QNan;
    end else if (s5_inf) begin
      res = {s5_inf_s, EMax, ManW'(0)};
    end else if (s5_zero) begin
      res = {s5_zero_s, (ExpW + ManW)'(0)};
    end else if (ovf) begin
      res = {s5_sx, EMax, ManW'(0)};
    end else if (s5_ftz && tiny) begin
      res = {s5_sx, (ExpW + ManW)'(0)};
    end else begin
      res = {s5_sx, mag[ExpW+ManW-1:0]};
    end
  end

  always_ff @(posedge clk_i) begin : proc_s6
    if (en_i) begin
      sum_o <= res;
    end
  end

  // ---- Assertions ----
  `TMA_ASSERT_INIT(FormatInRange_A, ExpW >= 4 && ExpW <= 11 && ManW >= 3 && ManW <= 52)
  `TMA_ASSERT_INIT(LzFitsExp_A, ExpW >= LzW)
  // The larger magnitude comes first, so the exponent difference never wraps.
  `TMA_ASSERT_IMPLY(NoNegDiff_A, en_i, ex_eff >= ey_eff)

endmodule

`default_nettype wire
