// SPDX-License-Identifier: Apache-2.0
//
// tma_soc_cpl_merge: the SoC top's one completion queue input (docs/soc.md "Completions"). The
// engine's completions (cpl_t: complete-tx, error, done) and its bulk async-group completions
// (bg_cpl_t, tma_bulk_group) are merged round-robin into one stream of completion records: a
// group completion becomes kind CplGroup with cta = the issuer, tag = the group's sequence
// number, mbar_addr = bytes = err = 0, and its flags on grp_done_o (0 read-done, 1 done) and
// grp_err_o (an operation of the group failed). A record of the other kinds has both flags 0.
// The output obeys the stream contract (tma_stream_arb, LockIn = 1).

`default_nettype none

`include "tma_assert.svh"

module tma_soc_cpl_merge (
  input  logic             clk_i,
  input  logic             rst_ni,
  // Engine completions
  input  logic             cpl_valid_i,
  output logic             cpl_ready_o,
  input  tma_pkg::cpl_t    cpl_i,
  // Bulk async-group completions
  input  logic             bg_valid_i,
  output logic             bg_ready_o,
  input  tma_pkg::bg_cpl_t bg_i,
  // Completion records
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output tma_pkg::cpl_t    out_o,
  output logic             grp_done_o,
  output logic             grp_err_o
);

  localparam int unsigned W = tma_pkg::CplWidth + 2;   // {grp_done, grp_err, cpl_t}

  tma_pkg::cpl_t bg_rec;
  logic [1:0]    in_ready;
  logic          out_idx;
  logic [W-1:0]  out_bits;

  always_comb begin : proc_bg_rec
    bg_rec      = '0;
    bg_rec.kind = tma_pkg::CplGroup;
    bg_rec.cta  = bg_i.issuer;
    bg_rec.tag  = bg_i.seq;
    bg_rec.err  = tma_pkg::ErrNone;
  end

  tma_stream_arb #(
    .NumIn  (2),
    .Width  (W),
    .LockIn (1)
  ) u_arb (
    .clk_i,
    .rst_ni,
    .in_valid_i  ({bg_valid_i, cpl_valid_i}),
    .in_ready_o  (in_ready),
    .in_data_i   ({bg_i.done, bg_i.err, bg_rec, 2'b00, cpl_i}),
    .out_valid_o (out_valid_o),
    .out_ready_i (out_ready_i),
    .out_data_o  (out_bits),
    .out_idx_o   (out_idx)
  );
  assign {bg_ready_o, cpl_ready_o} = in_ready;
  assign {grp_done_o, grp_err_o}   = out_bits[W-1 -: 2];
  assign out_o                     = out_bits[tma_pkg::CplWidth-1:0];

  logic unused_idx;
  assign unused_idx = out_idx;

  `TMA_ASSERT_INIT(CplWidth_A, tma_pkg::CplWidth == $bits(tma_pkg::cpl_t))
  // The engine never emits the SoC's group kind itself.
  `TMA_ASSERT_NEVER(EngineKindGroup_A, cpl_valid_i && cpl_i.kind == tma_pkg::CplGroup)
  `TMA_ASSERT_IMPLY(GroupFlags_A, out_valid_o && out_o.kind != tma_pkg::CplGroup,
                    !grp_done_o && !grp_err_o)

endmodule

`default_nettype wire
