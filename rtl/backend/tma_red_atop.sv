// SPDX-License-Identifier: Apache-2.0
//
// tma_red_atop: what a reduction pair (redOp x element type, tma_pkg numbering) is, for the
// reduction ALU and the write engine, combinational:
//   supported_o: the pair executes (the model's ReductionSupported, silicon F5: add
//     u32/s32/u64/f32/f16/bf16/f64/tf32/f32.ftz/tf32.ftz; min/max u32/s32/u64/s64/f16/bf16;
//     inc/dec u32; and/or/xor u32/s32/u64 -- 33 pairs); every other pair is
//     unsupported_reduction;
//   atop_o: the AXI5 AWATOP with which a memory that executes atomics can do the pair itself
//     (an AtomicStore, no data returned), AtopNone where the engine must read, reduce and write
//     back (tma_red_alu):
//       add u32/s32/u64        -> AtomicStore ADD   (two's complement: one op for both)
//       min u32/u64            -> AtomicStore UMIN  ; min s32/s64 -> SMIN
//       max u32/u64            -> AtomicStore UMAX  ; max s32/s64 -> SMAX
//       and u32/s32/u64        -> AtomicStore CLR with inverted data (mem & ~~s = mem & s)
//       or  u32/s32/u64        -> AtomicStore SET   (mem | s)
//       xor u32/s32/u64        -> AtomicStore EOR   (mem ^ s)
//       inc, dec u32           -> none: PTX wraps at the operand (d >= s ? 0 : d + 1), AXI5 has
//                                 no such operation
//       every floating-point pair (add, f16/bf16 min/max) -> none: AXI5 atomics are integer;
//   atop_inv_o: the write data must be inverted (the CLR form of and).
// An AtomicStore carries one element (AWSIZE = the element size, AWLEN = 0, little-endian:
// AWATOP bit 3 = 0); its data and strobes are the element's bytes as in a plain write.

`default_nettype none

module tma_red_atop (
  input  logic [tma_pkg::RedBits-1:0]      redop_i,
  input  logic [tma_pkg::ElemCodeBits-1:0] elem_i,
  output logic                             supported_o,
  output logic [tma_pkg::AtopBits-1:0]     atop_o,
  output logic                             atop_inv_o
);

  logic u32, s32, u64, s64, f16, bf16, f32, f64;

  assign u32  = elem_i == tma_pkg::ElemU32;
  assign s32  = elem_i == tma_pkg::ElemS32;
  assign u64  = elem_i == tma_pkg::ElemU64;
  assign s64  = elem_i == tma_pkg::ElemS64;
  assign f16  = elem_i == tma_pkg::ElemF16;
  assign bf16 = elem_i == tma_pkg::ElemBF16;
  assign f64  = elem_i == tma_pkg::ElemF64;
  assign f32  = elem_i == tma_pkg::ElemF32 || elem_i == tma_pkg::ElemF32Ftz ||
                elem_i == tma_pkg::ElemTF32 || elem_i == tma_pkg::ElemTF32Ftz;

  always_comb begin : proc_pair
    supported_o = 1'b0;
    atop_o      = tma_pkg::AtopNone;
    atop_inv_o  = 1'b0;
    unique case (redop_i)
      tma_pkg::RedAdd: begin
        supported_o = u32 || s32 || u64 || f32 || f16 || bf16 || f64;
        if (u32 || s32 || u64) atop_o = tma_pkg::AtopStAdd;
      end
      tma_pkg::RedMin, tma_pkg::RedMax: begin
        supported_o = u32 || s32 || u64 || s64 || f16 || bf16;
        if (u32 || u64) begin
          atop_o = (redop_i == tma_pkg::RedMin) ? tma_pkg::AtopStUmin : tma_pkg::AtopStUmax;
        end else if (s32 || s64) begin
          atop_o = (redop_i == tma_pkg::RedMin) ? tma_pkg::AtopStSmin : tma_pkg::AtopStSmax;
        end
      end
      tma_pkg::RedInc, tma_pkg::RedDec: begin
        supported_o = u32;
      end
      tma_pkg::RedAnd, tma_pkg::RedOr, tma_pkg::RedXor: begin
        supported_o = u32 || s32 || u64;
        if (supported_o) begin
          atop_inv_o = redop_i == tma_pkg::RedAnd;
          atop_o     = (redop_i == tma_pkg::RedAnd) ? tma_pkg::AtopStClr :
                       (redop_i == tma_pkg::RedOr)  ? tma_pkg::AtopStSet : tma_pkg::AtopStEor;
        end
      end
      default: ;
    endcase
  end

endmodule

`default_nettype wire
