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
// Eight register stages (latency 8 cycles, a new operand pair every cycle). Stage 1 loads every
// cycle; stages 2..8 load together while any of stages 1..7 holds an operand pair (en_i, a
// kept copy of that flag), so an idle adder holds its registers (one clock enable for the
// stages; a simulator skips their logic):
//   1 unpack: specials, flush, magnitude compare, both exponent differences (in parallel);
//   2 swap: x = the larger magnitude, y the other; the difference, saturated;
//   3 align: y shifted right by the difference; the bits below the sticky position OR-ed into
//     it through a thermometer mask (beside the shifter, not after it);
//   4 add: x + y or x - y on P + 3 bits (P = ManW + 1) and a carry; beside it, the position
//     below which normalisation must stop (exponent 1: subnormal results) as a one-hot marker;
//   5 count: leading zeros of (sum | marker), a two-level tree (4-bit groups, then the first
//     non-zero group), so the count is already limited by the exponent;
//   6 shift: normalisation (right by one on a carry, else left by the count), the exponent
//     field (0 for a subnormal), the overflow of the exponent and the RNE round-up bit;
//   7 round: RNE as one integer increment of {exponent, fraction} from flops (the carry of a
//     fraction of all ones moves into the exponent, up to infinity);
//   8 pack: overflow to infinity, flush, specials.
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
  input  logic         rst_ni,   // (for the assertions only)
  input  logic [W-1:0] a_i,      // old (global) value
  input  logic [W-1:0] b_i,      // new (shared-memory) value
  input  logic         ftz_i,    // flush subnormal inputs and result to signed zero
  input  logic         en_i,     // stages 1..7 hold an operand pair: stages 2..8 load
  input  logic [6:0]   vld_i,    // stage k + 1 holds an operand pair (for the assertions only)
  output logic [W-1:0] sum_o     // a + b, eight cycles after a_i / b_i
);

  // ---- Types and localparams ----
  localparam int unsigned P    = ManW + 1;           // significand with the hidden bit
  localparam int unsigned X    = P + 3;              // plus guard, round, sticky
  localparam int unsigned DW   = $clog2(X + 1);      // exponent difference, saturated at X
  localparam int unsigned LzW  = $clog2(X + 1);      // leading-zero count of X bits
  localparam int unsigned NG   = (X + 3) / 4;        // 4-bit groups of the count
  localparam int unsigned XP   = 4 * NG;             // X padded to whole groups
  localparam logic [ExpW-1:0] EMax = {ExpW{1'b1}};
  localparam logic [W-1:0]    QNan = {1'b0, {(ExpW + ManW){1'b1}}};

  // ======================= 1: unpack, compare =======================
  logic            sa, sb;
  logic [ExpW-1:0] ea, eb, ea_eff, eb_eff;
  logic [ManW-1:0] fa, fb;
  logic            a_nan, b_nan, a_inf, b_inf;

  assign {sa, ea} = {a_i[W-1], a_i[W-2 -: ExpW]};
  assign {sb, eb} = {b_i[W-1], b_i[W-2 -: ExpW]};
  // A flushed subnormal is a zero fraction with exponent field 0: a zero of its sign.
  assign fa = (ftz_i && ea == '0) ? '0 : a_i[ManW-1:0];
  assign fb = (ftz_i && eb == '0) ? '0 : b_i[ManW-1:0];
  assign a_nan  = ea == EMax && a_i[ManW-1:0] != '0;
  assign b_nan  = eb == EMax && b_i[ManW-1:0] != '0;
  assign a_inf  = ea == EMax && a_i[ManW-1:0] == '0;
  assign b_inf  = eb == EMax && b_i[ManW-1:0] == '0;
  assign ea_eff = (ea == '0) ? ExpW'(1) : ea;        // a subnormal has the exponent of 1
  assign eb_eff = (eb == '0) ? ExpW'(1) : eb;

  logic            s1_sa, s1_sb, s1_swap, s1_nan, s1_inf, s1_inf_s, s1_ftz;
  logic [ExpW-1:0] s1_ea, s1_eb, s1_dab, s1_dba;
  logic [ManW-1:0] s1_fa, s1_fb;

  always_ff @(posedge clk_i) begin : proc_s1
    s1_sa    <= sa;
    s1_sb    <= sb;
    // IEEE magnitudes order as integers {exponent, fraction}. Unflushed: a flush changes the
    // order only between two subnormals, whose flushed sum is a zero either way.
    s1_swap  <= {eb, b_i[ManW-1:0]} > {ea, a_i[ManW-1:0]};
    s1_nan   <= a_nan || b_nan || (a_inf && b_inf && (sa != sb));
    s1_inf   <= a_inf || b_inf;
    s1_inf_s <= a_inf ? sa : sb;
    s1_ftz   <= ftz_i;
    s1_ea    <= ea;
    s1_eb    <= eb;
    s1_fa    <= fa;
    s1_fb    <= fb;
    s1_dab   <= ea_eff - eb_eff;
    s1_dba   <= eb_eff - ea_eff;
  end

  // ======================= 2: swap =======================
  logic [ExpW-1:0] ex, ey, ediff;

  assign ex    = s1_swap ? s1_eb : s1_ea;
  assign ey    = s1_swap ? s1_ea : s1_eb;
  assign ediff = s1_swap ? s1_dba : s1_dab;          // >= 0: |x| >= |y|

  logic            s2_sx, s2_sub, s2_nan, s2_inf, s2_inf_s, s2_zero_s, s2_ftz;
  logic [ExpW-1:0] s2_ex;
  logic [P-1:0]    s2_mx, s2_my;
  logic [DW-1:0]   s2_d;

  always_ff @(posedge clk_i) begin : proc_s2
    if (en_i) begin
      s2_sx     <= s1_swap ? s1_sb : s1_sa;
      s2_sub    <= s1_sa ^ s1_sb;
      s2_nan    <= s1_nan;
      s2_inf    <= s1_inf;
      s2_inf_s  <= s1_inf_s;
      s2_zero_s <= s1_sa && s1_sb;    // sign of an exact zero sum: -0 only for (-0) + (-0)
      s2_ftz    <= s1_ftz;
      s2_ex     <= (ex == '0) ? ExpW'(1) : ex;
      s2_mx     <= {ex != '0, s1_swap ? s1_fb : s1_fa};
      s2_my     <= {ey != '0, s1_swap ? s1_fa : s1_fb};
      s2_d      <= (ediff > ExpW'(X)) ? DW'(X) : DW'(ediff);
    end
  end

  // ======================= 3: align =======================
  // Stage logic from here on is written as functions of the stage registers, called where the
  // next stage loads: while the adder is idle a simulator evaluates none of it (synthesis
  // builds the same logic as for continuous assignments).

  // y = my with guard, round and sticky bits, shifted right by d; the bits shifted out at or
  // below the sticky position OR-ed into it (a thermometer mask beside the shifter).
  function automatic logic [X-1:0] align(input logic [P-1:0] my, input logic [DW-1:0] d);
    logic [X-1:0] y_full, thermo;
    logic [X-2:0] y_sh;      // bits X-1..1 of y_full >> d (bit 0 is replaced by the sticky bit)
    y_full = {my, 3'b000};
    y_sh   = y_full[X-1:1] >> d;
    // Bits 0 .. d of y land on or below the sticky position.
    thermo[0] = 1'b1;
    for (int i = 1; i < X; i++) begin
      thermo[i] = DW'(i) <= d;
    end
    align = {y_sh, |(y_full & thermo)};
  endfunction

  logic            s3_sx, s3_sub, s3_nan, s3_inf, s3_inf_s, s3_zero_s, s3_ftz;
  logic [ExpW-1:0] s3_ex, s3_lim;
  logic [X-1:0]    s3_mx, s3_my;

  always_ff @(posedge clk_i) begin : proc_s3
    if (en_i) begin
      {s3_sx, s3_sub, s3_nan, s3_inf, s3_inf_s, s3_zero_s, s3_ftz} <=
          {s2_sx, s2_sub, s2_nan, s2_inf, s2_inf_s, s2_zero_s, s2_ftz};
      s3_ex  <= s2_ex;
      s3_lim <= s2_ex - ExpW'(1);     // normalisation stops at exponent 1
      s3_mx  <= {s2_mx, 3'b000};
      s3_my  <= align(s2_my, s2_d);
    end
  end

  // ======================= 4: add =======================
  // One-hot at sum bit X - 1 - lim: the count of (sum | marker) is min(leading zeros, lim).
  function automatic logic [X-1:0] stop_marker(input logic [ExpW-1:0] lim);
    for (int i = 0; i < X; i++) begin
      stop_marker[i] = lim == ExpW'(X - 1 - i);
    end
  endfunction

  logic            s4_sx, s4_nan, s4_inf, s4_inf_s, s4_zero_s, s4_ftz;
  logic [ExpW-1:0] s4_ex;
  logic [X:0]      s4_sum;
  logic [X-1:0]    s4_marker;

  always_ff @(posedge clk_i) begin : proc_s4
    if (en_i) begin
      {s4_sx, s4_nan, s4_inf, s4_inf_s, s4_zero_s, s4_ftz} <=
          {s3_sx, s3_nan, s3_inf, s3_inf_s, s3_zero_s, s3_ftz};
      s4_ex     <= s3_ex;
      s4_sum    <= s3_sub ? ({1'b0, s3_mx} - {1'b0, s3_my}) : ({1'b0, s3_mx} + {1'b0, s3_my});
      s4_marker <= stop_marker(s3_lim);
    end
  end

  // ======================= 5: leading-zero count =======================
  // Leading zeros of v, a two-level tree: v padded below to whole 4-bit groups (group g holds
  // bits [4g+3:4g] of the padded vector, group NG - 1 the most significant); the count is 4 x
  // (groups above the first non-zero one) + that group's own count; all zero: X.
  function automatic logic [LzW-1:0] lead_zeros(input logic [X-1:0] v);
    logic [XP-1:0] lzv;
    logic [NG-1:0] grp_nz, grp_first;
    logic [3:1]    nib;
    logic [1:0]    grp_lz;
    lzv = XP'(v) << (XP - X);
    for (int g = 0; g < NG; g++) begin
      grp_nz[g] = lzv[4*g +: 4] != 4'd0;
    end
    for (int g = 0; g < NG; g++) begin
      grp_first[g] = grp_nz[g] && (grp_nz >> (g + 1)) == '0;
    end
    lead_zeros = (grp_nz == '0) ? LzW'(X) : '0;
    for (int g = 0; g < NG; g++) begin
      nib    = lzv[4*g+1 +: 3];
      grp_lz = nib[3] ? 2'd0 : nib[2] ? 2'd1 : nib[1] ? 2'd2 : 2'd3;
      lead_zeros = lead_zeros | ({LzW{grp_first[g]}} & LzW'(4 * (NG - 1 - g) + 32'(grp_lz)));
    end
  endfunction

  logic            s5_sx, s5_nan, s5_inf, s5_inf_s, s5_zero_s, s5_ftz, s5_carry, s5_zero;
  logic [ExpW-1:0] s5_ex;
  logic [X:0]      s5_sum;
  logic [LzW-1:0]  s5_sh;

  always_ff @(posedge clk_i) begin : proc_s5
    if (en_i) begin
      {s5_sx, s5_nan, s5_inf, s5_inf_s, s5_zero_s, s5_ftz} <=
          {s4_sx, s4_nan, s4_inf, s4_inf_s, s4_zero_s, s4_ftz};
      s5_ex    <= s4_ex;
      s5_sum   <= s4_sum;
      s5_carry <= s4_sum[X];
      s5_zero  <= s4_sum == '0;
      s5_sh    <= lead_zeros(s4_sum[X-1:0] | s4_marker);
    end
  end

  // ======================= 6: normalise =======================
  // Normalisation (right by one on a carry, else left by the count) and what stage 6 keeps of
  // it: {exponent field, fraction, round-up bit, exponent overflow, exponent, hidden bit}.
  // norm: [X-1] hidden bit, [X-2:3] fraction, [2] guard, [1] round, [0] sticky. A hidden bit
  // of 0 after normalisation is a subnormal: exponent field 0.
  localparam int unsigned S6W = ExpW + ManW + 2 + (ExpW + 1) + 1;

  function automatic logic [S6W-1:0] normalise(input logic carry, input logic [X:0] sum,
                                               input logic [ExpW-1:0] e,
                                               input logic [LzW-1:0] sh);
    logic [X-1:0]  norm;
    logic [ExpW:0] enorm;    // one bit more: a carry out of the largest exponent
    if (carry) begin
      norm  = {sum[X:2], sum[1] | sum[0]};
      enorm = {1'b0, e} + (ExpW + 1)'(1);
    end else begin
      norm  = sum[X-1:0] << sh;
      enorm = {1'b0, e} - (ExpW + 1)'(sh);
    end
    normalise = {norm[X-1] ? enorm[ExpW-1:0] : ExpW'(0),
                 norm[X-2:3],
                 norm[2] && (norm[1] || norm[0] || norm[3]),
                 enorm >= {1'b0, EMax},
                 enorm,
                 norm[X-1]};
  endfunction

  logic            s6_sx, s6_nan, s6_inf, s6_inf_s, s6_zero_s, s6_ftz, s6_zero, s6_rnd, s6_eovf;
  logic [ExpW-1:0] s6_ef;
  logic [ManW-1:0] s6_frac;
  logic [ExpW:0]   s6_e;     // (assertions)
  logic            s6_hid;   // (assertions)

  always_ff @(posedge clk_i) begin : proc_s6
    if (en_i) begin
      {s6_sx, s6_nan, s6_inf, s6_inf_s, s6_zero_s, s6_ftz, s6_zero} <=
          {s5_sx, s5_nan, s5_inf, s5_inf_s, s5_zero_s, s5_ftz, s5_zero};
      {s6_ef, s6_frac, s6_rnd, s6_eovf, s6_e, s6_hid} <=
          normalise(s5_carry, s5_sum, s5_ex, s5_sh);
    end
  end

  // ======================= 7: round =======================
  // (An exponent field of EMax before rounding is an overflow already, caught by s6_eovf.)
  logic            s7_sx, s7_nan, s7_inf, s7_inf_s, s7_zero_s, s7_ftz, s7_zero, s7_eovf;
  logic [ExpW+ManW-1:0] s7_mag;    // {exponent, fraction} after rounding

  always_ff @(posedge clk_i) begin : proc_s7
    if (en_i) begin
      {s7_sx, s7_nan, s7_inf, s7_inf_s, s7_zero_s, s7_ftz, s7_zero, s7_eovf} <=
          {s6_sx, s6_nan, s6_inf, s6_inf_s, s6_zero_s, s6_ftz, s6_zero, s6_eovf};
      s7_mag <= {s6_ef, s6_frac} + (ExpW + ManW)'(s6_rnd);
    end
  end

  // ======================= 8: pack =======================
  // Specials, overflow to infinity, flush of a tiny result.
  function automatic logic [W-1:0] pack(input logic sx, input logic nan, input logic inf,
                                        input logic inf_s, input logic zero,
                                        input logic zero_s, input logic ftz,
                                        input logic eovf, input logic [ExpW+ManW-1:0] mag);
    logic ovf, tiny;
    ovf  = eovf || (mag[ExpW+ManW-1 -: ExpW] == EMax);
    tiny = mag[ExpW+ManW-1 -: ExpW] == '0;
    if (nan) begin
      pack = QNan;
    end else if (inf) begin
      pack = {inf_s, EMax, ManW'(0)};
    end else if (zero) begin
      pack = {zero_s, (ExpW + ManW)'(0)};
    end else if (ovf) begin
      pack = {sx, EMax, ManW'(0)};
    end else if (ftz && tiny) begin
      pack = {sx, (ExpW + ManW)'(0)};
    end else begin
      pack = {sx, mag};
    end
  endfunction

  always_ff @(posedge clk_i) begin : proc_s8
    if (en_i) begin
      sum_o <= pack(s7_sx, s7_nan, s7_inf, s7_inf_s, s7_zero, s7_zero_s, s7_ftz, s7_eovf,
                    s7_mag);
    end
  end

  // ---- Assertions ----
  `TMA_ASSERT_INIT(FormatInRange_A, ExpW >= 4 && ExpW <= 11 && ManW >= 3 && ManW <= 52)
  `TMA_ASSERT_INIT(CountFitsExp_A, ExpW >= LzW && ExpW >= DW)
  // The stages load whenever one holds a pair.
  `TMA_ASSERT_IMPLY(EnabledWhenValid_A, |vld_i, en_i)
  // The larger magnitude comes first, so the exponent difference never wraps.
  `TMA_ASSERT_IMPLY(NoNegDiff_A, vld_i[0], ediff <= EMax - ExpW'(1))
  // The sum is not below the larger operand's exponent by more than the shift may take.
  `TMA_ASSERT_IMPLY(ShiftLimited_A, vld_i[4] && !s5_carry, ExpW'(s5_sh) <= s5_ex - ExpW'(1) ||
                                                          s5_zero)
  // After normalisation the hidden bit is set unless the exponent stopped at 1 (subnormal).
  `TMA_ASSERT_IMPLY(NormalisedOrTiny_A, vld_i[5] && !s6_zero && !s6_nan && !s6_inf,
                    s6_hid || s6_e == (ExpW + 1)'(1))

endmodule

`default_nettype wire
