// SPDX-License-Identifier: Apache-2.0
//
// tma_red_alu: the reduction ALU of cp.reduce.async.bulk(.tensor): reduces one bus beat of old
// (global) data with one beat of new (shared-memory) data, every element lane in parallel,
// exact to the bit of the C++ model's ReduceElement (cmodel/src/reduce.cc; silicon F5, D9).
//
// Port contract (docs/interfaces.md, "Reduction ALU"):
//   in:  one beat per handshake: in_redop_i (Red*), in_elem_i (Elem*, the model's DType: for
//        cp.reduce.async.bulk the write engine maps .f32 add to ElemF32Ftz, .b32 to ElemU32,
//        .b64 to ElemU64 as the model's bulk_copy.cc does), in_old_i / in_new_i (byte i of the
//        beat at bits 8i+7:8i, little-endian elements, element k of size E at bytes kE..kE+E-1),
//        in_mask_i (byte i takes part), in_user_i (carried unchanged, e.g. address and strobes).
//   out: out_data_o byte i = the reduced byte where in_mask_i[i] is set and the pair executes,
//        else in_old_i's byte; out_mask_o = in_mask_i; out_user_o = in_user_i. Beats leave in
//        order. A pair the model does not execute (tma_red_atop supported_o = 0) returns the
//        old data (the model leaves dst unchanged; the engine reports unsupported_reduction
//        before it reads anything).
//   The mask must be the same for every byte of an element (asserted): an element is reduced
//   whole or not at all.
// Timing: eight register stages (the float adders' pipeline, tma_red_fadd: no stall) into an
// output FIFO (tma_fifo_ram, LUT RAM): latency 10 cycles, one beat per cycle. Stage 1 loads
// every cycle; stages 2..8 load together while any of stages 1..7 holds a beat, so an idle ALU
// holds its registers (one registered clock enable, kept in one copy per adder kind and slot
// (tma_dup_reg) so that no enable net spans the whole ALU; the common enable leaves the delay
// lines shift registers; a simulator skips the stage logic of an idle ALU). in_ready_o is a
// credit count (beats in the stages and the FIFO below the FIFO's room), a flop compare;
// out_ready_i reaches only the FIFO. The integer and f16/bf16 min/max results (tma_red_int, two
// stages) are merged with the old data after stage 2 and delayed to stage 8, where float sums
// replace the bytes of masked float-add elements.
// Floating-point units per 8-byte slot: one f64, two f32, four f16 and four bf16 adders.

`default_nettype none

`include "tma_assert.svh"

module tma_red_alu #(
  parameter  int unsigned DataBytes = 16,
  parameter  int unsigned UserWidth = 1,
  localparam int unsigned DW        = DataBytes * 8
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  // Beats to reduce
  input  logic                             in_valid_i,
  output logic                             in_ready_o,
  input  logic [tma_pkg::RedBits-1:0]      in_redop_i,   // Red*
  input  logic [tma_pkg::ElemCodeBits-1:0] in_elem_i,    // Elem* (model DType)
  input  logic [DW-1:0]                    in_old_i,     // global (destination) data
  input  logic [DW-1:0]                    in_new_i,     // shared-memory (source) data
  input  logic [DataBytes-1:0]             in_mask_i,    // bytes to reduce
  input  logic [UserWidth-1:0]             in_user_i,    // carried unchanged
  // Reduced beats, in order
  output logic                             out_valid_o,
  input  logic                             out_ready_i,
  output logic [DW-1:0]                    out_data_o,
  output logic [DataBytes-1:0]             out_mask_o,
  output logic [UserWidth-1:0]             out_user_o,
  // Status: a beat is inside
  output logic                             busy_o
);

  // ---- Types and localparams ----
  localparam int unsigned Slots  = DataBytes / 8;
  localparam int unsigned Stages = 8;                   // tma_red_fadd's latency
  localparam int unsigned FifoD  = 16;                  // output FIFO RAM entries
  localparam int unsigned Cap    = FifoD - 1;           // beats in the stages and the FIFO
  localparam int unsigned CntW   = $clog2(Cap + 1);
  // Float-add kinds of a beat (which adder's sums stage 6 takes)
  localparam logic [1:0] FkF16  = 2'd0;
  localparam logic [1:0] FkBf16 = 2'd1;
  localparam logic [1:0] FkF32  = 2'd2;
  localparam logic [1:0] FkF64  = 2'd3;
  // The beat's control (integer select, float select, float kind, mask, user) for stages 1-2,
  // then with the merged data for stages 3-8
  localparam int unsigned CtlW  = 1 + 1 + 2 + DataBytes + UserWidth;
  localparam int unsigned DlyCW = CtlW - 1;
  // Kept copies of the stage enable (stages 1..7 hold a beat): per 8-byte slot one for its f64
  // adder, its f32 adders, its f16 adders, its bf16 adders, and its integer unit and data in
  // stages 2..8 (slot 0's also for the control)
  localparam int unsigned EnKinds = 5;
  localparam int unsigned EnF64   = 0;
  localparam int unsigned EnF32   = 1;
  localparam int unsigned EnF16   = 2;
  localparam int unsigned EnBf16  = 3;
  localparam int unsigned EnData  = 4;

  // ---- Signals ----
  logic                 in_hs, out_hs;
  logic [CntW-1:0]      cnt_q;              // beats accepted and not yet taken
  logic                 sup, atop_inv;
  logic [tma_pkg::AtopBits-1:0] atop;
  logic                 is_f16, is_bf16, is_f32, is_f64, fadd, ftz;
  logic [1:0]           fk;
  logic [DW-1:0]        int_r, int_d;
  logic [CtlW-1:0]      ctl_q [2];          // stages 1, 2
  logic                 isel2, fadd2;
  logic [1:0]           fk2;
  logic [DataBytes-1:0] mask2;
  logic [UserWidth-1:0] user2;
  logic [Stages-1:0]    v_q;                // stage k + 1 holds a beat
  logic [EnKinds*Slots-1:0] en_q;           // copies of |v_q[Stages-2:0]
  logic [DW-1:0]        dly_data_q [Stages-2];  // stage k + 3's merged data
  logic [DlyCW-1:0]     dly_ctl_q  [Stages-2];  // stage k + 3's control
  logic [DW-1:0]        m7;
  logic                 fsel7;
  logic [1:0]           fk7;
  logic [DataBytes-1:0] mask7;
  logic [UserWidth-1:0] user7;
  logic [DW-1:0]        f16_r, bf16_r, f32_r, f64_r, fres, res;
  logic                 fifo_ready, unused_nonempty;

  // ---- Stage 1: classification, integer path, merge with the old data ----
  tma_red_atop u_pair (
    .redop_i     (in_redop_i),
    .elem_i      (in_elem_i),
    .supported_o (sup),
    .atop_o      (atop),
    .atop_inv_o  (atop_inv)
  );

  assign is_f16  = in_elem_i == tma_pkg::ElemF16;
  assign is_bf16 = in_elem_i == tma_pkg::ElemBF16;
  assign is_f64  = in_elem_i == tma_pkg::ElemF64;
  assign ftz     = in_elem_i == tma_pkg::ElemF32Ftz || in_elem_i == tma_pkg::ElemTF32Ftz;
  assign is_f32  = ftz || in_elem_i == tma_pkg::ElemF32 || in_elem_i == tma_pkg::ElemTF32;
  assign fadd    = in_redop_i == tma_pkg::RedAdd && (is_f16 || is_bf16 || is_f32 || is_f64);
  assign fk      = is_f64 ? FkF64 : is_f32 ? FkF32 : is_bf16 ? FkBf16 : FkF16;

  for (genvar j = 0; j < Slots; j++) begin : gen_int
    tma_red_int u_int (
      .clk_i,
      .redop_i (in_redop_i),
      .elem_i  (in_elem_i),
      .d_i     (in_old_i[64*j +: 64]),
      .s_i     (in_new_i[64*j +: 64]),
      .en_i    (en_q[EnKinds*j+EnData]),
      .r_o     (int_r[64*j +: 64]),
      .d_o     (int_d[64*j +: 64])
    );
  end

  // After stage 2: the integer results into the masked bytes of executing non-float-add pairs
  // (a function of one slot, called where stage 3 loads).
  assign {isel2, fadd2, fk2, mask2, user2} = ctl_q[1];
  function automatic logic [63:0] merge_slot(input logic [63:0] r, input logic [63:0] d,
                                             input logic [7:0] mask, input logic sel);
    for (int i = 0; i < 8; i++) begin
      merge_slot[8*i +: 8] = (mask[i] && sel) ? r[8*i +: 8] : d[8*i +: 8];
    end
  endfunction

  // ---- Float adders (their own eight stages) ----
  for (genvar j = 0; j < Slots; j++) begin : gen_f64
    tma_red_fadd #(.ExpW(11), .ManW(52)) u_add (
      .clk_i, .rst_ni, .en_i (en_q[EnKinds*j+EnF64]), .vld_i (v_q[Stages-2:0]),
      .ftz_i (1'b0),
      .a_i (in_old_i[64*j +: 64]), .b_i (in_new_i[64*j +: 64]), .sum_o (f64_r[64*j +: 64])
    );
  end
  for (genvar j = 0; j < 2 * Slots; j++) begin : gen_f32
    tma_red_fadd #(.ExpW(8), .ManW(23)) u_add (
      .clk_i, .rst_ni, .en_i (en_q[EnKinds*(j/2)+EnF32]), .vld_i (v_q[Stages-2:0]),
      .ftz_i (ftz),
      .a_i (in_old_i[32*j +: 32]), .b_i (in_new_i[32*j +: 32]), .sum_o (f32_r[32*j +: 32])
    );
  end
  for (genvar j = 0; j < 4 * Slots; j++) begin : gen_f16
    tma_red_fadd #(.ExpW(5), .ManW(10)) u_add (
      .clk_i, .rst_ni, .en_i (en_q[EnKinds*(j/4)+EnF16]), .vld_i (v_q[Stages-2:0]),
      .ftz_i (1'b0),
      .a_i (in_old_i[16*j +: 16]), .b_i (in_new_i[16*j +: 16]), .sum_o (f16_r[16*j +: 16])
    );
    tma_red_fadd #(.ExpW(8), .ManW(7)) u_add_bf (
      .clk_i, .rst_ni, .en_i (en_q[EnKinds*(j/4)+EnBf16]), .vld_i (v_q[Stages-2:0]),
      .ftz_i (1'b0),
      .a_i (in_old_i[16*j +: 16]), .b_i (in_new_i[16*j +: 16]), .sum_o (bf16_r[16*j +: 16])
    );
  end

  // ---- Stages 1..8: the beat's merged data and control beside the adders ----
  assign in_ready_o = cnt_q < CntW'(Cap);
  assign in_hs      = in_valid_i && in_ready_o;
  assign out_hs     = out_valid_o && out_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_valid
    if (!rst_ni) begin
      v_q   <= '0;
      cnt_q <= '0;
    end else begin
      v_q   <= {v_q[Stages-2:0], in_hs};
      cnt_q <= cnt_q + CntW'(in_hs) - CntW'(out_hs);
    end
  end

  // The enable of stages 2..8 in the next cycle: a beat enters or one is in stages 1..6.
  tma_dup_reg #(
    .Width  (1),
    .Copies (EnKinds * Slots)
  ) u_en (
    .clk_i,
    .rst_ni,
    .d_i    (in_hs || |v_q[Stages-3:0]),
    .q_o    (en_q)
  );

  always_ff @(posedge clk_i) begin : proc_ctl1
    ctl_q[0] <= {sup && !fadd, fadd, fk, in_mask_i, in_user_i};
  end

  always_ff @(posedge clk_i) begin : proc_dly
    if (en_q[EnData]) begin
      ctl_q[1]     <= ctl_q[0];
      dly_ctl_q[0] <= {fadd2, fk2, mask2, user2};
      for (int k = 1; k < Stages - 2; k++) begin
        dly_ctl_q[k] <= dly_ctl_q[k-1];
      end
    end
    for (int j = 0; j < Slots; j++) begin
      if (en_q[EnKinds*j+EnData]) begin
        dly_data_q[0][64*j +: 64] <= merge_slot(int_r[64*j +: 64], int_d[64*j +: 64],
                                                mask2[8*j +: 8], isel2);
        for (int k = 1; k < Stages - 2; k++) begin
          dly_data_q[k][64*j +: 64] <= dly_data_q[k-1][64*j +: 64];
        end
      end
    end
  end

  // ---- Last stage: float sums into the masked bytes of float-add beats ----
  assign m7                         = dly_data_q[Stages-3];
  assign {fsel7, fk7, mask7, user7} = dly_ctl_q[Stages-3];

  always_comb begin : proc_fres
    unique case (fk7)
      FkF64:   fres = f64_r;
      FkF32:   fres = f32_r;
      FkBf16:  fres = bf16_r;
      default: fres = f16_r;
    endcase
  end

  for (genvar i = 0; i < DataBytes; i++) begin : gen_out
    assign res[8*i +: 8] = (fsel7 && mask7[i]) ? fres[8*i +: 8] : m7[8*i +: 8];
  end

  // The credit count keeps the FIFO from filling: it always takes the last stage's beat.
  tma_fifo_ram #(
    .Width  (DW + DataBytes + UserWidth),
    .Depth  (FifoD),
    .OutReg (1'b0)
  ) u_out (
    .clk_i,
    .rst_ni,
    .in_valid_i  (v_q[Stages-1]),
    .in_ready_o  (fifo_ready),
    .in_data_i   ({res, mask7, user7}),
    .out_valid_o,
    .out_ready_i,
    .out_data_o  ({out_data_o, out_mask_o, out_user_o}),
    .nonempty_o  (unused_nonempty)
  );

  assign busy_o = cnt_q != '0;

  // The pair's AXI5 form is the write engine's business.
  logic unused_atop;
  assign unused_atop = ^{atop, atop_inv};

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesValid_A, DataBytes == 8 || DataBytes == 16 || DataBytes == 32 ||
                                     DataBytes == 64 || DataBytes == 128)
  `TMA_ASSERT_INIT(UserWidthValid_A, UserWidth >= 1)
  // Input stream contract, required of the source.
  `TMA_ASSERT_STABLE(InStable_A, in_valid_i, in_ready_o,
                     {in_redop_i, in_elem_i, in_old_i, in_new_i, in_mask_i, in_user_i})
  `TMA_ASSERT_STABLE(OutStable_A, out_valid_o, out_ready_i, {out_data_o, out_mask_o, out_user_o})

  // An element is reduced whole or not at all: the mask is constant over each element of an
  // executing pair (E = 2, 4 or 8 bytes by type).
  logic mask_uniform;
  always_comb begin : proc_mask_uniform
    mask_uniform = 1'b1;
    for (int i = 0; i < DataBytes; i++) begin
      if ((is_f16 || is_bf16) && in_mask_i[i] != in_mask_i[i & ~1]) mask_uniform = 1'b0;
      if ((is_f32 || in_elem_i == tma_pkg::ElemU32 || in_elem_i == tma_pkg::ElemS32) &&
          in_mask_i[i] != in_mask_i[i & ~3]) mask_uniform = 1'b0;
      if ((is_f64 || in_elem_i == tma_pkg::ElemU64 || in_elem_i == tma_pkg::ElemS64) &&
          in_mask_i[i] != in_mask_i[i & ~7]) mask_uniform = 1'b0;
    end
  end
  `TMA_ASSERT_IMPLY(MaskPerElement_A, in_valid_i && sup, mask_uniform)
  `TMA_COVER(FloatAddBeat_C, in_valid_i && in_ready_o && fadd && |in_mask_i)
  `TMA_ASSERT_IMPLY(FifoTakesBeat_A, v_q[Stages-1], fifo_ready)
  `TMA_ASSERT_COPY(EnCopy_A, en_q[0], |v_q[Stages-2:0])
  `TMA_COVER(Backpressure_C, out_valid_o && !out_ready_i)

endmodule

`default_nettype wire
