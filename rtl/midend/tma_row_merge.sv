// SPDX-License-Identifier: Apache-2.0
//
// tma_row_merge: merges two row streams (the N-D walker's and tma_bulk_rows') into the one row
// stream of the forks, a command at a time: once a command's first row is granted, its input
// keeps the grant until the row with `last` is taken, so the rows of a command stay together
// (the forks queue one completion per command at its last row, and a reduction's first row
// waits for an empty store direction). At a command boundary the other input goes first
// (round robin). A stalled merge keeps its grant. The merged stream leaves through a spill
// register (tma_spill_reg): the inputs' ready signals depend on its flops and the grant only,
// never on the consumer's ready, and the output comes from flops (one cycle of latency).
//
// Streams: rows in (row_t) x 2, rows out (row_t).

`default_nettype none

`include "tma_assert.svh"

module tma_row_merge (
  input  logic          clk_i,
  input  logic          rst_ni,
  // Input 0 (the walker)
  input  logic          a_valid_i,
  output logic          a_ready_o,
  input  tma_pkg::row_t a_i,
  // Input 1 (bulk commands)
  input  logic          b_valid_i,
  output logic          b_ready_o,
  input  tma_pkg::row_t b_i,
  // Output
  output logic          row_valid_o,
  input  logic          row_ready_i,
  output tma_pkg::row_t row_o
);

  logic sel;           // the granted input (1: b)
  logic sel_q;         // the grant of the previous cycle
  logic in_cmd_q;      // a command's rows have begun on sel_q
  logic stall_q;       // the merged row was valid and not taken
  logic pri_q;         // input that goes first when both start a command
  logic take;
  logic          m_valid, m_ready;   // the merged stream, into the spill register
  tma_pkg::row_t m_row;

  assign sel       = (in_cmd_q || stall_q) ? sel_q :
                     ((a_valid_i && b_valid_i) ? pri_q : b_valid_i);
  assign m_valid   = sel ? b_valid_i : a_valid_i;
  assign m_row     = sel ? b_i : a_i;
  assign a_ready_o = m_ready && !sel;
  assign b_ready_o = m_ready && sel;
  assign take      = m_valid && m_ready;

  tma_spill_reg #(
    .Width  (tma_pkg::RowWidth),
    .Copies (2)
  ) u_out (
    .clk_i,
    .rst_ni,
    .in_valid_i  (m_valid),
    .in_ready_o  (m_ready),
    .in_data_i   (m_row),
    .out_valid_o (row_valid_o),
    .out_ready_i (row_ready_i),
    .out_data_o  (row_o)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_grant
    if (!rst_ni) begin
      sel_q    <= 1'b0;
      in_cmd_q <= 1'b0;
      stall_q  <= 1'b0;
      pri_q    <= 1'b0;
    end else begin
      sel_q   <= sel;
      stall_q <= m_valid && !m_ready;
      if (take) begin
        in_cmd_q <= !m_row.last;
      end
      if (take && m_row.last) begin
        pri_q <= !sel;
      end
    end
  end

  // ---- Assertions ----
  `TMA_ASSERT_STABLE(RowHeld_A, m_valid, m_ready, m_row)
  `TMA_ASSERT(ReadyOnehot_A, $onehot0({a_ready_o, b_ready_o}))

endmodule

`default_nettype wire
