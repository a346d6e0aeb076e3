// SPDX-License-Identifier: Apache-2.0
//
// tma_walkers: the midend's job walkers, instances and wires only: a job goes to exactly one
//   tma_nd_walker      tile / im2col / im2col::w job -> box rows
//   tma_gather_walker  tile::gather4 / tile::scatter4 job -> its four rows
//   tma_w128_walker    im2col::w::128 job -> its four groups of 32 + wHalo rows
// and their rows leave on one stream, in job order. Blackwell = 0 (an engine built for sm_90
// only, tma_engine's Arch) builds the N-D walker alone: the frontend's checks refuse every
// gather4 / scatter4 / im2col::w::128 command at sm_90, so no such job reaches this block
// (asserted).

`default_nettype none

`include "tma_assert.svh"

module tma_walkers #(
  parameter int unsigned Blackwell = 1  // 1: the gather4 and im2col::w::128 walkers
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          job_valid_i,
  output logic          job_ready_o,
  input  tma_pkg::job_t job_i,
  output logic          row_valid_o,
  input  logic          row_ready_i,
  output tma_pkg::row_t row_o,
  output logic          busy_o
);

  logic          is_gather, nd_job_valid, nd_job_ready, g_job_valid, g_job_ready;
  logic          is_w128, w_job_valid, w_job_ready;
  logic          nd_row_valid, g_row_valid, w_row_valid;
  tma_pkg::row_t nd_row, g_row, w_row;
  logic          nd_busy, g_busy, w_busy;

  // A gather4 or scatter4 job (not a marker) goes to the gather walker, an im2col::w::128 job
  // to the W128 walker, every other job to the N-D walker; a job waits until the other walkers
  // are idle (their last row has left), so rows leave in job order and one walker drives the
  // row stream at a time.
  assign is_gather    = job_i.gather && !job_i.marker;
  assign is_w128      = job_i.w128 && !job_i.marker;
  assign nd_job_valid = job_valid_i && !is_gather && !is_w128 && !g_busy && !w_busy;
  assign g_job_valid  = job_valid_i && is_gather && !nd_busy && !w_busy;
  assign w_job_valid  = job_valid_i && is_w128 && !nd_busy && !g_busy;
  assign job_ready_o  = is_gather ? g_job_ready && g_job_valid :
                        is_w128   ? w_job_ready && w_job_valid : nd_job_ready && nd_job_valid;

  tma_nd_walker u_walker (
    .clk_i,
    .rst_ni,
    .job_valid_i (nd_job_valid),
    .job_ready_o (nd_job_ready),
    .job_i       (job_i),
    .row_valid_o (nd_row_valid),
    .row_ready_i (row_ready_i),
    .row_o       (nd_row),
    .busy_o      (nd_busy)
  );

  if (Blackwell != 0) begin : gen_blackwell
    tma_gather_walker u_gather (
      .clk_i,
      .rst_ni,
      .job_valid_i (g_job_valid),
      .job_ready_o (g_job_ready),
      .job_i       (job_i),
      .row_valid_o (g_row_valid),
      .row_ready_i (row_ready_i),
      .row_o       (g_row),
      .busy_o      (g_busy)
    );

    tma_w128_walker u_w128 (
      .clk_i,
      .rst_ni,
      .job_valid_i (w_job_valid),
      .job_ready_o (w_job_ready),
      .job_i       (job_i),
      .row_valid_o (w_row_valid),
      .row_ready_i (row_ready_i),
      .row_o       (w_row),
      .busy_o      (w_busy)
    );

    // One walker drives the row stream at a time.
    `TMA_ASSERT_NEVER(OneWalker_A, 2'(nd_row_valid) + 2'(g_row_valid) + 2'(w_row_valid) > 2'd1)
  end else begin : gen_no_blackwell
    logic unused_blackwell;
    assign g_job_ready = 1'b0;
    assign g_row_valid = 1'b0;
    assign g_row       = '0;
    assign g_busy      = 1'b0;
    assign w_job_ready = 1'b0;
    assign w_row_valid = 1'b0;
    assign w_row       = '0;
    assign w_busy      = 1'b0;
    assign unused_blackwell = ^{g_job_valid, w_job_valid};
    // The frontend refuses gather4 / scatter4 / im2col::w::128 at sm_90: no such job comes.
    `TMA_ASSERT_NEVER(NoBlackwellJob_A, job_valid_i && (is_gather || is_w128))
  end

  assign row_valid_o  = nd_row_valid || g_row_valid || w_row_valid;
  assign row_o        = g_row_valid ? g_row : w_row_valid ? w_row : nd_row;
  assign busy_o       = nd_busy || g_busy || w_busy;

  `TMA_ASSERT_INIT(BlackwellLegal_A, Blackwell <= 1)

endmodule

`default_nettype wire
