// SPDX-License-Identifier: Apache-2.0
//
// tma_red_int: the reductions of one 8-byte slot of the reduction ALU (tma_red_alu) that are not
// floating-point additions, combinational: integer add / min / max / inc / dec / and / or / xor
// on two 32-bit or one 64-bit element (signed or unsigned by the element type), and min / max on
// four f16 or bf16 elements. Semantics of the C++ model's ReduceElement (silicon D9):
//   add: d + s modulo 2^n;  min / max: signed for s32 / s64, else unsigned;
//   inc: d >= s ? 0 : d + 1;  dec: (d == 0 || d > s) ? s : d - 1 (unsigned);
//   f16 / bf16 min / max: one NaN operand returns the other operand, two NaNs the canonical NaN
//   0x7FFF, -0 orders below +0, otherwise the numeric order.
// d is the old (global) element, s the new (shared-memory) one. Pairs the model does not execute
// give some value; tma_red_alu returns the old data for them.

`default_nettype none

module tma_red_int (
  input  logic [tma_pkg::RedBits-1:0]      redop_i,
  input  logic [tma_pkg::ElemCodeBits-1:0] elem_i,
  input  logic [63:0]                      d_i,      // old (global) slot
  input  logic [63:0]                      s_i,      // new (shared-memory) slot
  output logic [63:0]                      r_o
);

  // ---- Element type classes ----
  logic w64, sgn, bf;

  assign w64 = elem_i == tma_pkg::ElemU64 || elem_i == tma_pkg::ElemS64;
  assign sgn = elem_i == tma_pkg::ElemS32 || elem_i == tma_pkg::ElemS64;
  assign bf  = elem_i == tma_pkg::ElemBF16;

  // ---- Integer arithmetic on two 32-bit halves (the 64-bit forms chain them) ----
  logic [32:0] add_lo;
  logic [31:0] add_hi;
  logic [1:0]  lt32, eq32, ltu32, dz32;
  logic        lt64;
  logic [1:0]  lt;        // d < s per 32-bit lane (both lanes: the 64-bit compare when w64)
  logic [63:0] r_int;

  assign add_lo = {1'b0, d_i[31:0]} + {1'b0, s_i[31:0]};
  assign add_hi = d_i[63:32] + s_i[63:32] + {31'd0, w64 & add_lo[32]};

  for (genvar k = 0; k < 2; k++) begin : gen_cmp
    logic [31:0] dk, sk;
    assign dk       = d_i[32*k +: 32];
    assign sk       = s_i[32*k +: 32];
    assign ltu32[k] = dk < sk;
    assign eq32[k]  = dk == sk;
    assign dz32[k]  = dk == '0;
    assign lt32[k]  = sgn ? ($signed(dk) < $signed(sk)) : ltu32[k];
  end

  // 64-bit: the upper halves decide (signed by the type), equal upper halves leave it to the
  // lower halves, unsigned.
  assign lt64 = lt32[1] || (eq32[1] && ltu32[0]);
  assign lt   = w64 ? {2{lt64}} : lt32;

  always_comb begin : proc_int
    r_int = d_i;
    for (int k = 0; k < 2; k++) begin
      unique case (redop_i)
        tma_pkg::RedMin: r_int[32*k +: 32] = lt[k] ? d_i[32*k +: 32] : s_i[32*k +: 32];
        tma_pkg::RedMax: r_int[32*k +: 32] = lt[k] ? s_i[32*k +: 32] : d_i[32*k +: 32];
        tma_pkg::RedInc: r_int[32*k +: 32] = ltu32[k] ? d_i[32*k +: 32] + 32'd1 : 32'd0;
        tma_pkg::RedDec: r_int[32*k +: 32] = (dz32[k] || !(ltu32[k] || eq32[k])) ?
                                             s_i[32*k +: 32] : d_i[32*k +: 32] - 32'd1;
        tma_pkg::RedAnd: r_int[32*k +: 32] = d_i[32*k +: 32] & s_i[32*k +: 32];
        tma_pkg::RedOr:  r_int[32*k +: 32] = d_i[32*k +: 32] | s_i[32*k +: 32];
        tma_pkg::RedXor: r_int[32*k +: 32] = d_i[32*k +: 32] ^ s_i[32*k +: 32];
        default:         r_int[32*k +: 32] = (k == 0) ? add_lo[31:0] : add_hi;   // RedAdd
      endcase
    end
  end

  // ---- f16 / bf16 min and max ----
  logic [63:0] r_half;

  for (genvar h = 0; h < 4; h++) begin : gen_half
    logic [15:0] dh, sh, dk, sk;
    logic        dn, sn, d_less;
    assign dh = d_i[16*h +: 16];
    assign sh = s_i[16*h +: 16];
    assign dn = bf ? (dh[14:7] == 8'hFF && dh[6:0] != '0) : (dh[14:10] == 5'h1F && dh[9:0] != '0);
    assign sn = bf ? (sh[14:7] == 8'hFF && sh[6:0] != '0) : (sh[14:10] == 5'h1F && sh[9:0] != '0);
    // Sign-magnitude to a key that orders as an unsigned integer (-0 just below +0).
    assign dk     = dh[15] ? ~dh : {1'b1, dh[14:0]};
    assign sk     = sh[15] ? ~sh : {1'b1, sh[14:0]};
    assign d_less = dk < sk;
    always_comb begin : proc_half
      if (dn && sn) begin
        r_half[16*h +: 16] = 16'h7FFF;
      end else if (dn) begin
        r_half[16*h +: 16] = sh;
      end else if (sn) begin
        r_half[16*h +: 16] = dh;
      end else if (redop_i == tma_pkg::RedMin) begin
        r_half[16*h +: 16] = d_less ? dh : sh;
      end else begin
        r_half[16*h +: 16] = d_less ? sh : dh;
      end
    end
  end

  assign r_o = (elem_i == tma_pkg::ElemF16 || bf) ? r_half : r_int;

endmodule

`default_nettype wire
