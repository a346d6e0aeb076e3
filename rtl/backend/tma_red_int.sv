// SPDX-License-Identifier: Apache-2.0
//
// tma_red_int: the reductions of one 8-byte slot of the reduction ALU (tma_red_alu) that are not
// floating-point additions, two register stages: integer add / min / max / inc / dec / and / or /
// xor on two 32-bit or one 64-bit element (signed or unsigned by the element type), and min / max
// on four f16 or bf16 elements. Semantics of the C++ model's ReduceElement (silicon D9):
//   add: d + s modulo 2^n;  min / max: signed for s32 / s64, else unsigned;
//   inc: d >= s ? 0 : d + 1;  dec: (d == 0 || d > s) ? s : d - 1 (unsigned);
//   f16 / bf16 min / max: one NaN operand returns the other operand, two NaNs the canonical NaN
//   0x7FFF, -0 orders below +0, otherwise the numeric order.
// d is the old (global) element, s the new (shared-memory) one. Pairs the model does not execute
// give some value; tma_red_alu returns the old data for them.
// Stage A (registered every cycle): the carry chains, side by side: one 65-bit add (a separator
// bit between the halves propagates the carry for 64-bit types and kills it for 32-bit ones),
// the 32-bit compares, d + 1, d - 1, the f16/bf16 orders. Stage B (registered while en_i, set
// at least while stage A holds a pair): the selects. r_o and d_o (the old slot, for the ALU's
// merge) come two cycles after the inputs.

`default_nettype none

module tma_red_int (
  input  logic                             clk_i,
  input  logic [tma_pkg::RedBits-1:0]      redop_i,
  input  logic [tma_pkg::ElemCodeBits-1:0] elem_i,
  input  logic [63:0]                      d_i,      // old (global) slot
  input  logic [63:0]                      s_i,      // new (shared-memory) slot
  input  logic                             en_i,     // stage B loads (set while A holds a pair)
  output logic [63:0]                      r_o,      // result, two cycles later
  output logic [63:0]                      d_o       // d_i, two cycles later
);

  // ======================= A: carry chains =======================
  logic        w64, sgn, bf;
  logic [64:0] add65;
  logic [1:0]  ltu32, lts32, eq32, dz32;
  logic [3:0]  d_less, dn, sn;

  assign w64 = elem_i == tma_pkg::ElemU64 || elem_i == tma_pkg::ElemS64;
  assign sgn = elem_i == tma_pkg::ElemS32 || elem_i == tma_pkg::ElemS64;
  assign bf  = elem_i == tma_pkg::ElemBF16;

  // Bit 32 of the 65-bit sum separates the halves: 1 + 0 passes the carry, 0 + 0 stops it.
  assign add65 = {d_i[63:32], w64, d_i[31:0]} + {s_i[63:32], 1'b0, s_i[31:0]};

  for (genvar k = 0; k < 2; k++) begin : gen_cmp
    logic [31:0] dk, sk;
    assign dk       = d_i[32*k +: 32];
    assign sk       = s_i[32*k +: 32];
    assign ltu32[k] = dk < sk;
    assign lts32[k] = $signed(dk) < $signed(sk);
    assign eq32[k]  = dk == sk;
    assign dz32[k]  = dk == '0;
  end

  for (genvar h = 0; h < 4; h++) begin : gen_half_cmp
    logic [15:0] dh, sh, dk, sk;
    assign dh = d_i[16*h +: 16];
    assign sh = s_i[16*h +: 16];
    assign dn[h] = bf ? (dh[14:7] == 8'hFF && dh[6:0] != '0) :
                        (dh[14:10] == 5'h1F && dh[9:0] != '0);
    assign sn[h] = bf ? (sh[14:7] == 8'hFF && sh[6:0] != '0) :
                        (sh[14:10] == 5'h1F && sh[9:0] != '0);
    // Sign-magnitude to a key that orders as an unsigned integer (-0 just below +0).
    assign dk        = dh[15] ? ~dh : {1'b1, dh[14:0]};
    assign sk        = sh[15] ? ~sh : {1'b1, sh[14:0]};
    assign d_less[h] = dk < sk;
  end

  logic [tma_pkg::RedBits-1:0] a_op;
  logic                        a_w64, a_sgn, a_half;
  logic [63:0]                 a_d, a_s, a_add, a_inc, a_dec;
  logic [1:0]                  a_ltu, a_lts, a_eq, a_dz;
  logic [3:0]                  a_dless, a_dn, a_sn;

  always_ff @(posedge clk_i) begin : proc_a
    a_op    <= redop_i;
    a_w64   <= w64;
    a_sgn   <= sgn;
    a_half  <= elem_i == tma_pkg::ElemF16 || bf;
    a_d     <= d_i;
    a_s     <= s_i;
    a_add   <= {add65[64:33], add65[31:0]};
    a_inc   <= {d_i[63:32] + 32'd1, d_i[31:0] + 32'd1};
    a_dec   <= {d_i[63:32] - 32'd1, d_i[31:0] - 32'd1};
    a_ltu   <= ltu32;
    a_lts   <= lts32;
    a_eq    <= eq32;
    a_dz    <= dz32;
    a_dless <= d_less;
    a_dn    <= dn;
    a_sn    <= sn;
  end

  // ======================= B: selects =======================
  logic [1:0]  lt32, lt;
  logic        lt64;

  assign lt32 = a_sgn ? a_lts : a_ltu;
  // 64-bit: the upper halves decide (signed by the type), equal upper halves leave it to the
  // lower halves, unsigned.
  assign lt64 = lt32[1] || (a_eq[1] && a_ltu[0]);
  assign lt   = a_w64 ? {2{lt64}} : lt32;

  // The selects are functions of the stage-A registers, called where stage B loads: while the
  // unit is idle a simulator evaluates none of it (synthesis builds the same logic).
  function automatic logic [63:0] int_result(input logic [tma_pkg::RedBits-1:0] op,
                                             input logic [1:0] lt_k, input logic [1:0] ltu,
                                             input logic [1:0] eq, input logic [1:0] dz,
                                             input logic [63:0] d, input logic [63:0] s,
                                             input logic [63:0] inc, input logic [63:0] dec,
                                             input logic [63:0] add);
    int_result = d;
    for (int k = 0; k < 2; k++) begin
      unique case (op)
        tma_pkg::RedMin: int_result[32*k +: 32] = lt_k[k] ? d[32*k +: 32] : s[32*k +: 32];
        tma_pkg::RedMax: int_result[32*k +: 32] = lt_k[k] ? s[32*k +: 32] : d[32*k +: 32];
        tma_pkg::RedInc: int_result[32*k +: 32] = ltu[k] ? inc[32*k +: 32] : 32'd0;
        tma_pkg::RedDec: int_result[32*k +: 32] = (dz[k] || !(ltu[k] || eq[k])) ?
                                                  s[32*k +: 32] : dec[32*k +: 32];
        tma_pkg::RedAnd: int_result[32*k +: 32] = d[32*k +: 32] & s[32*k +: 32];
        tma_pkg::RedOr:  int_result[32*k +: 32] = d[32*k +: 32] | s[32*k +: 32];
        tma_pkg::RedXor: int_result[32*k +: 32] = d[32*k +: 32] ^ s[32*k +: 32];
        default:         int_result[32*k +: 32] = add[32*k +: 32];   // RedAdd
      endcase
    end
  endfunction

  // f16 / bf16 min and max.
  function automatic logic [63:0] half_result(input logic is_min, input logic [3:0] dless,
                                              input logic [3:0] d_nan, input logic [3:0] s_nan,
                                              input logic [63:0] d, input logic [63:0] s);
    for (int h = 0; h < 4; h++) begin
      if (d_nan[h] && s_nan[h]) begin
        half_result[16*h +: 16] = 16'h7FFF;
      end else if (d_nan[h]) begin
        half_result[16*h +: 16] = s[16*h +: 16];
      end else if (s_nan[h]) begin
        half_result[16*h +: 16] = d[16*h +: 16];
      end else if (is_min == dless[h]) begin
        half_result[16*h +: 16] = d[16*h +: 16];   // min and d < s, or max and d >= s
      end else begin
        half_result[16*h +: 16] = s[16*h +: 16];
      end
    end
  endfunction

  always_ff @(posedge clk_i) begin : proc_b
    if (en_i) begin
      r_o <= a_half ? half_result(a_op == tma_pkg::RedMin, a_dless, a_dn, a_sn, a_d, a_s) :
                      int_result(a_op, lt, a_ltu, a_eq, a_dz, a_d, a_s, a_inc, a_dec, a_add);
      d_o <= a_d;
    end
  end

  // (Bit 32 of the 65-bit sum is the separator.)
  logic unused_sep;
  assign unused_sep = add65[32];

endmodule

`default_nettype wire
