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
// beside the consumer) reads a second pair, stored as empty flags (inverted) with its own
// next-state logic from the output side's flops, so the placer can put each pair beside the
// logic it drives instead of one flop between both ends of the stream. TMA_ASSERT_COPY ties
// each output-side flag to the input-side flag it mirrors.
//
// Copies > 1 splits the data into that many slices (contiguous bit ranges, the last one the
// shortest) and gives each slice its own copies of the two full flags (a tma_dup_reg of the
// flags' next state): the data enables of A and B and the output select of a slice read its
// copies. A wide register's bits spread over the die next to their consumers; with one select
// flop every slice's multiplexer waits on a net that crosses that spread, with a copy per
// slice each copy sits by its slice.

`default_nettype none

`include "tma_assert.svh"

module tma_spill_reg #(
  parameter int unsigned Width  = 32,
  parameter int unsigned Bypass = 0,     // 0: register slice, 1: wires
  parameter int unsigned Copies = 1      // data slices, each with its own flag copies
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
    // Output-side copies of the full flags, stored inverted (empty flags)
    logic             a_empty_out_d, a_empty_out_q, b_empty_out_d, b_empty_out_q;
    logic             out_a_fill, out_a_drain, out_b_fill, out_b_drain;

    // ---- Control ----
    assign a_fill  = in_valid_i && in_ready_o;
    assign a_drain = a_full_q && !b_full_q;           // to the output, or into B if stalled
    assign b_fill  = a_drain && !out_ready_i;
    assign b_drain = b_full_q && out_ready_i;

    assign a_full_d = a_fill || (a_full_q && !a_drain);
    assign b_full_d = b_fill || (b_full_q && !b_drain);

    assign in_ready_o  = !a_full_q || !b_full_q;

    // The output side's copies have their own next-state logic: the same transitions written
    // on the copies (!a_empty_out_q is a_full_q, !b_empty_out_q is b_full_q), so the output
    // side's flops depend on the output side's flops, in_valid_i and out_ready_i only, not on
    // the input side's pair.
    assign out_a_fill    = in_valid_i && (a_empty_out_q || b_empty_out_q);
    assign out_a_drain   = !a_empty_out_q && b_empty_out_q;
    assign out_b_fill    = out_a_drain && !out_ready_i;
    assign out_b_drain   = !b_empty_out_q && out_ready_i;
    assign a_empty_out_d = !(out_a_fill || (!a_empty_out_q && !out_a_drain));
    assign b_empty_out_d = !(out_b_fill || (!b_empty_out_q && !out_b_drain));

    assign out_valid_o = !a_empty_out_q || !b_empty_out_q;

    // ---- Flops ----
    // (kept: with Copies > 1 the slices' copies would otherwise absorb these, and the
    // handshake's flags would sit by one slice's data instead of by the handshake logic)
    (* keep *)
    always_ff @(posedge clk_i or negedge rst_ni) begin : proc_full
      if (!rst_ni) begin
        a_full_q      <= 1'b0;
        b_full_q      <= 1'b0;
        a_empty_out_q <= 1'b1;
        b_empty_out_q <= 1'b1;
      end else begin
        a_full_q      <= a_full_d;
        b_full_q      <= b_full_d;
        a_empty_out_q <= a_empty_out_d;
        b_empty_out_q <= b_empty_out_d;
      end
    end

    // Data flops without reset. Their enables are functions of the full flags only, so neither
    // in_valid_i nor out_ready_i fans out to the Width data enables: A loads whenever it may
    // take an item (in_ready_o; without one, A is empty or its item leaves this cycle, so the
    // load overwrites nothing), B loads whenever it is empty (when B is empty its data is
    // unused; a b_fill cycle loads A's item, as b_fill requires B to be empty).
    if (Copies <= 1) begin : gen_one
      always_ff @(posedge clk_i) begin : proc_data
        if (in_ready_o) begin
          a_data_q <= in_data_i;
        end
        if (!b_full_q) begin
          b_data_q <= a_data_q;
        end
      end
      assign out_data_o = b_empty_out_q ? a_data_q : b_data_q;   // B always holds the older item
    end else begin : gen_copies
      // Slice k holds bits [k SliceW, (k + 1) SliceW) clipped to Width (NumS slices) and reads
      // its own copies of a_full_q and b_full_q (bits 1 and 0 of copy k).
      localparam int unsigned SliceW = (Width + Copies - 1) / Copies;
      localparam int unsigned NumS   = (Width + SliceW - 1) / SliceW;
      logic [2*NumS-1:0] slice_full_q;

      tma_dup_reg #(
        .Width  (2),
        .Copies (NumS)
      ) u_slice_full (
        .clk_i,
        .rst_ni,
        .d_i    ({a_full_d, b_full_d}),
        .q_o    (slice_full_q)
      );
      `TMA_ASSERT_COPY(SliceFullCopy_A, slice_full_q[1:0], {a_full_q, b_full_q})

      for (genvar k = 0; k < NumS; k++) begin : gen_slice
        localparam int unsigned Lo = k * SliceW;
        localparam int unsigned Hi = ((k + 1) * SliceW < Width) ? (k + 1) * SliceW : Width;
        logic slice_a_full, slice_b_full;   // this slice's copies of a_full_q, b_full_q
        assign slice_a_full = slice_full_q[2*k+1];
        assign slice_b_full = slice_full_q[2*k];
        always_ff @(posedge clk_i) begin : proc_data
          if (!slice_a_full || !slice_b_full) begin
            a_data_q[Hi-1:Lo] <= in_data_i[Hi-1:Lo];
          end
          if (!slice_b_full) begin
            b_data_q[Hi-1:Lo] <= a_data_q[Hi-1:Lo];
          end
        end
        assign out_data_o[Hi-1:Lo] = slice_b_full ? b_data_q[Hi-1:Lo] : a_data_q[Hi-1:Lo];
      end
    end

    // ---- Assertions ----
    // An item in A or B is never overwritten before it has left.
    `TMA_ASSERT_NEVER(NoOverwriteA_A, a_fill && a_full_q && !a_drain)
    `TMA_ASSERT_NEVER(NoOverwriteB_A, b_fill && b_full_q && !b_drain)
    // The output side's empty flags are the inverted full flags.
    `TMA_ASSERT_COPY(OutEmptyCopyA_A, a_empty_out_q, !a_full_q)
    `TMA_ASSERT_COPY(OutEmptyCopyB_A, b_empty_out_q, !b_full_q)
    // Ready is low only when both registers are full.
    `TMA_ASSERT_IMPLY(ReadyLowOnlyFull_A, !in_ready_o, (a_full_q && b_full_q))
    `TMA_COVER(BothFull_C, a_full_q && b_full_q)
  end

  // ---- Assertions ----
  `TMA_ASSERT_INIT(WidthPositive_A, Width >= 1)
  `TMA_ASSERT_INIT(BypassBool_A, Bypass <= 1)
  `TMA_ASSERT_INIT(CopiesRange_A, Copies >= 1 && Copies <= Width)
  `TMA_ASSERT_STABLE(OutStable_A, out_valid_o, out_ready_i, out_data_o)
  // Input stream contract, required of the upstream.
  `TMA_ASSERT_STABLE(InStable_A, in_valid_i, in_ready_o, in_data_i)

endmodule

`default_nettype wire
