// SPDX-License-Identifier: Apache-2.0
//
// tma_spill_reg: a two-entry register slice that cuts both the valid/data path and the ready
// path of a stream at full throughput (the semantics of common_cells spill_register).
//
// Register A takes every input item; while register B is empty, A drives the output. When the
// output stalls, A's item moves to B, so A can still take one more item: in_ready_o depends
// only on flops (it is low only when both registers hold an item), and out_valid_o/out_data_o
// come straight from flops. With an always-valid source and an always-ready sink it moves one
// item per cycle, with one cycle of latency. Bypass = 1 turns the cell into wires.
//
// The two full flags exist twice: the input side (in_ready_o, the data enables) reads one pair,
// the output side (out_valid_o and the select of out_data_o, which fans out to Width LUTs
// beside the consumer) reads a second pair of flops that hold the flags inverted. The inverted
// polarity (set on reset) keeps synthesis from merging the copies, so the placer can put each
// pair beside the logic it drives instead of one flop between both ends of the stream.

`include "tma_assert.svh"

module tma_spill_reg #(
  parameter int unsigned Width  = 32,
  parameter int unsigned Bypass = 0      // 0: register slice, 1: wires
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // Input stream
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [Width-1:0] in_data_i,
  // Output stream
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [Width-1:0] out_data_o
);

  if (Bypass != 0) begin : gen_bypass
    assign out_valid_o = in_valid_i;
    assign in_ready_o  = out_ready_i;
    assign out_data_o  = in_data_i;

    // Clock and reset are used only by the assertions.
    logic unused_clk_rst;
    assign unused_clk_rst = clk_i ^ rst_ni;
  end else begin : gen_spill
    // ---- Signals ----
    logic             a_full_d, a_full_q;
    logic             b_full_d, b_full_q;
    logic [Width-1:0] a_data_q, b_data_q;
    logic             a_fill, a_drain;   // A takes an input item; A's item leaves A
    logic             b_fill, b_drain;   // B takes A's item; B's item leaves on the output
    // Output-side copies of the full flags, inverted, with their own next-state logic.
    logic             na_o_d, na_o_q, nb_o_d, nb_o_q;
    logic             o_a_fill, o_a_drain, o_b_fill, o_b_drain;

    // ---- Control ----
    assign a_fill  = in_valid_i && in_ready_o;
    assign a_drain = a_full_q && !b_full_q;           // to the output, or into B if stalled
    assign b_fill  = a_drain && !out_ready_i;
    assign b_drain = b_full_q && out_ready_i;

    assign a_full_d = a_fill || (a_full_q && !a_drain);
    assign b_full_d = b_fill || (b_full_q && !b_drain);

    assign in_ready_o  = !a_full_q || !b_full_q;

    // The same transitions on the output-side copies (!na_o_q is a_full_q, !nb_o_q b_full_q).
    assign o_a_fill  = in_valid_i && (na_o_q || nb_o_q);
    assign o_a_drain = !na_o_q && nb_o_q;
    assign o_b_fill  = o_a_drain && !out_ready_i;
    assign o_b_drain = !nb_o_q && out_ready_i;
    assign na_o_d    = !(o_a_fill || (!na_o_q && !o_a_drain));
    assign nb_o_d    = !(o_b_fill || (!nb_o_q && !o_b_drain));

    assign out_valid_o = !na_o_q || !nb_o_q;
    assign out_data_o  = nb_o_q ? a_data_q : b_data_q;   // B always holds the older item

    // ---- Flops ----
    always_ff @(posedge clk_i or negedge rst_ni) begin : proc_full
      if (!rst_ni) begin
        a_full_q <= 1'b0;
        b_full_q <= 1'b0;
        na_o_q   <= 1'b1;
        nb_o_q   <= 1'b1;
      end else begin
        a_full_q <= a_full_d;
        b_full_q <= b_full_d;
        na_o_q   <= na_o_d;
        nb_o_q   <= nb_o_d;
      end
    end

    // Data flops without reset. Their enables are functions of the full flags only, so neither
    // in_valid_i nor out_ready_i fans out to the Width data enables: A loads whenever it may
    // take an item (in_ready_o; without one, A is empty or its item leaves this cycle, so the
    // load overwrites nothing), B loads whenever it is empty (when B is empty its data is
    // unused; a b_fill cycle loads A's item, as b_fill requires B to be empty).
    always_ff @(posedge clk_i) begin : proc_data
      if (in_ready_o) begin
        a_data_q <= in_data_i;
      end
      if (!b_full_q) begin
        b_data_q <= a_data_q;
      end
    end

    // ---- Assertions ----
    // An item in A or B is never overwritten before it has left.
    `TMA_ASSERT_NEVER(NoOverwriteA_A, a_fill && a_full_q && !a_drain)
    `TMA_ASSERT_NEVER(NoOverwriteB_A, b_fill && b_full_q && !b_drain)
    // The output-side copies always equal the flags.
    `TMA_ASSERT(OutCopies_A, na_o_q == !a_full_q && nb_o_q == !b_full_q)
    // Ready is low only when both registers are full.
    `TMA_ASSERT(ReadyLowOnlyFull_A, !in_ready_o |-> (a_full_q && b_full_q))
    `TMA_COVER(BothFull_C, a_full_q && b_full_q)
  end

  // ---- Assertions ----
  `TMA_ASSERT_INIT(WidthPositive_A, Width >= 1)
  `TMA_ASSERT_INIT(BypassBool_A, Bypass <= 1)
  `TMA_ASSERT_STABLE(OutStable_A, out_valid_o, out_ready_i, out_data_o)
  // Input stream contract, required of the upstream.
  `TMA_ASSERT_STABLE(InStable_A, in_valid_i, in_ready_o, in_data_i)

endmodule
