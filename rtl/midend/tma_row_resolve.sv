// SPDX-License-Identifier: Apache-2.0
//
// tma_row_resolve: the output stage of the gather and W128 walkers. A row arrives with its
// global address as a carry-save pair (sum, carry) from a register stage; the pair is resolved
// by a carry-select add (two 32-bit halves: both upper sums while the lower half's carry
// ripples); a row without a read gets address, head and dend 0 (the walker's S stage carries
// the job's head and dend and the registered read flag, so no bound compare selects them), and
// the row goes out through a spill register, so the walker's ready is a flop's output.

`default_nettype none

`include "tma_assert.svh"

module tma_row_resolve (
  input  logic           clk_i,
  input  logic           rst_ni,
  // Row with its address as a carry-save pair (row_i.gaddr is ignored)
  input  logic           in_valid_i,
  output logic           in_ready_o,
  input  tma_pkg::row_t  row_i,
  input  logic [63:0]    sum_i,
  input  logic [63:0]    carry_i,
  input  logic           read_i,     // the row reads (else its address is 0)
  // Resolved row
  output logic           out_valid_o,
  input  logic           out_ready_i,
  output tma_pkg::row_t  out_o
);

  logic [32:0]   lo;
  logic [31:0]   hi0, hi1;
  tma_pkg::row_t row;

  always_comb begin : proc_resolve
    lo        = 33'(sum_i[31:0]) + 33'(carry_i[31:0]);
    hi0       = sum_i[63:32] + carry_i[63:32];
    hi1       = sum_i[63:32] + carry_i[63:32] + 32'd1;
    row       = row_i;
    row.gaddr = {(lo[32] ? hi1 : hi0), lo[31:0]} & {64{read_i}};
    row.head  = row_i.head & {tma_pkg::RowBytesW{read_i}};
    row.dend  = row_i.dend & {tma_pkg::RowBytesW{read_i}};
  end

  tma_spill_reg #(
    .Width (tma_pkg::RowWidth)
  ) u_out (
    .clk_i,
    .rst_ni,
    .in_valid_i,
    .in_ready_o,
    .in_data_i   (row),
    .out_valid_o,
    .out_ready_i,
    .out_data_o  (out_o)
  );

  // ---- Assertions ----
  `TMA_ASSERT_INIT(RowWidth_A, tma_pkg::RowWidth == $bits(tma_pkg::row_t))
  `TMA_ASSERT_STABLE(RowHeld_A, out_valid_o, out_ready_i, out_o)
  `TMA_ASSERT_IMPLY(HeadBeforeEnd_A, out_valid_o, out_o.head <= out_o.dend)
  `TMA_ASSERT_IMPLY(RowFits_A, out_valid_o, out_o.dend <= out_o.row_bytes)

endmodule

`default_nettype wire
