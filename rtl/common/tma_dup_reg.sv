// SPDX-License-Identifier: Apache-2.0
//
// tma_dup_reg: the kept-copy cell. One register of Width bits held in Copies flop groups that
// synthesis keeps apart, for a control value that fans out to logic spread over the die (the
// load select of a wide register, say). Each copy drives a part of the fan-out, so the placer
// can put it beside that part instead of one flop whose net crosses the whole spread. This is
// the engine's one idiom for timing copies; every user ties the copies to their definition
// with TMA_ASSERT_COPY.
//
// Every copy is a flop group of its own always block with the `keep` attribute: Yosys'
// opt_merge merges identical cells unless both carry it, and a `keep` on the net does not
// reach the cell (synth_ecp5 and synth_xilinx: four copies stay four flops; without the
// attribute, or with the copies as bits of one always block, they become one). The input d_i
// is shared: its logic sits in front of all copies, one LUT level or less is expected there.
// Invert = 1 stores ~d_i (a copy of the opposite polarity, for a consumer that wants it).
// Copies goes up to 256 (the reduction ALU at DataBytes 128 keeps 80: five adder kinds x 16
// slots); d_i then drives one flop per copy, a fan-out the placer spreads like any other net.

`default_nettype none

`include "tma_assert.svh"

module tma_dup_reg #(
  parameter int unsigned Width    = 1,
  parameter int unsigned Copies   = 2,
  parameter bit          Invert   = 1'b0,
  parameter int unsigned ResetVal = 0   // reset value of d (the stored value before Invert)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic [Width-1:0]         d_i,
  output logic [Copies*Width-1:0]  q_o    // copy k at [k*Width +: Width]
);

  localparam logic [Width-1:0] ResetQ = Invert ? ~Width'(ResetVal) : Width'(ResetVal);

  for (genvar k = 0; k < Copies; k++) begin : gen_copy
    logic [Width-1:0] q_q;   // (an _q name: run_synth --keep-names keeps it in route reports)
    (* keep *)
    always_ff @(posedge clk_i or negedge rst_ni) begin : proc_q
      if (!rst_ni) begin
        q_q <= ResetQ;
      end else begin
        q_q <= Invert ? ~d_i : d_i;
      end
    end
    assign q_o[k*Width +: Width] = q_q;
    `TMA_ASSERT_COPY(CopyEqual_A, q_q, q_o[Width-1:0])
  end

  // ---- Assertions ----
  `TMA_ASSERT_INIT(WidthRange_A, Width >= 1)
  `TMA_ASSERT_INIT(CopiesRange_A, Copies >= 1 && Copies <= 256)
  `TMA_ASSERT_INIT(ResetValFits_A, Width >= 32 || ResetVal < (1 << Width))

endmodule

`default_nettype wire
