// SPDX-License-Identifier: Apache-2.0
//
// tma_dup_reg: one register bit held in Copies flops that synthesis keeps apart, for a control
// signal that fans out to logic spread over the die (a load select of a wide register, say).
// Each copy drives a part of the fan-out, so the placer can put it beside that part instead of
// one flop whose net crosses the whole spread.
//
// Every copy is a flop of its own always block with the `keep` attribute: Yosys' opt_merge
// merges identical cells unless both carry it, and a `keep` on the net does not reach the
// cell (checked with synth_ecp5 and synth_xilinx: four copies stay four flops; without the
// attribute, or with the copies as bits of one always block, they become one). The input d_i
// is shared: its logic sits in front of all copies, one LUT level or less is expected there.

`include "tma_assert.svh"

module tma_dup_reg #(
  parameter int unsigned Copies   = 2,
  parameter int unsigned ResetVal = 0   // 0 or 1
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              d_i,
  output logic [Copies-1:0] q_o
);

  for (genvar k = 0; k < Copies; k++) begin : gen_copy
    logic q_q;   // (an _q name: run_synth --keep-names keeps it in route reports)
    (* keep *)
    always_ff @(posedge clk_i or negedge rst_ni) begin : proc_q
      if (!rst_ni) begin
        q_q <= 1'(ResetVal);
      end else begin
        q_q <= d_i;
      end
    end
    assign q_o[k] = q_q;
  end

  // ---- Assertions ----
  `TMA_ASSERT_INIT(CopiesRange_A, Copies >= 1 && Copies <= 64)
  `TMA_ASSERT_INIT(ResetValBool_A, ResetVal <= 1)
  `TMA_ASSERT(CopiesEqual_A, q_o == {Copies{q_o[0]}})

endmodule
