// SPDX-License-Identifier: Apache-2.0
//
// tma_finish: where commands end. The finished commands of the load direction, the store
// direction and the shared::cta -> shared::cluster copies meet in a round-robin arbiter and a
// register slice, then go to the completion unit (tma_cpl_unit: one completion per command)
// and, for a bulk async-group operation (cpl_info_t.bg), to the bulk-group unit
// (tma_bulk_group), which also takes the command register's group requests: a store or
// reduction joins its issuer's open group as it is taken, commit_group closes the group.
// A group operation's end is both its read and its write event (its sources are read before
// its last write is acknowledged).
// The register slice keeps the finished-command queues' output flags, the round-robin choice
// and the completion unit's state loads from forming one path (and its ready the way back to
// the queues' pops) across the whole engine.
// One issuer per CTA of the engine (NumCtas): tma_cmd_reg and tma_bulk_rows keep the others'
// requests out, so every request and event names one of them.

`default_nettype none

`include "tma_assert.svh"

module tma_finish #(
  parameter  int unsigned NumCtas = 16,   // 1 .. 16: the bulk-group unit's issuers
  localparam int unsigned IssW    = (NumCtas > 1) ? $clog2(NumCtas) : 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // Finished commands: load direction, store direction, shared::cta -> shared::cluster copies
  input  logic                 ld_valid_i,
  output logic                 ld_ready_o,
  input  tma_pkg::cpl_info_t   ld_i,
  input  logic                 st_valid_i,
  output logic                 st_ready_o,
  input  tma_pkg::cpl_info_t   st_i,
  input  logic                 s2s_valid_i,
  output logic                 s2s_ready_o,
  input  tma_pkg::cpl_info_t   s2s_i,
  // Group requests of the command register (a group operation joins, commit_group closes)
  input  logic                 bg_req_valid_i,
  output logic                 bg_req_ready_o,
  input  logic [3:0]           bg_req_issuer_i,
  input  logic                 bg_req_commit_i,
  output logic [7:0]           bg_req_seq_o,    // the group a joining operation belongs to
  output logic                 bg_op_ready_o,   // a group operation may join now
  // Completions
  output logic                 cpl_valid_o,
  input  logic                 cpl_ready_i,
  output tma_pkg::cpl_t        cpl_o,
  output logic                 bg_cpl_valid_o,
  input  logic                 bg_cpl_ready_i,
  output tma_pkg::bg_cpl_t     bg_cpl_o,
  output logic                 busy_o,          // a finished command in the register slice
  output logic [15:0]          err_count_o
);

  logic               arb_valid, arb_ready, fin_valid, fin_ready;
  tma_pkg::cpl_info_t arb, fin;
  logic [1:0]         unused_fin_idx;

  tma_stream_arb #(
    .NumIn  (3),
    .Width  (tma_pkg::CplInfoWidth),
    .LockIn (1)
  ) u_fin_arb (
    .clk_i,
    .rst_ni,
    .in_valid_i  ({s2s_valid_i, st_valid_i, ld_valid_i}),
    .in_ready_o  ({s2s_ready_o, st_ready_o, ld_ready_o}),
    .in_data_i   ({s2s_i, st_i, ld_i}),
    .out_valid_o (arb_valid),
    .out_ready_i (arb_ready),
    .out_data_o  (arb),
    .out_idx_o   (unused_fin_idx)
  );

  tma_spill_reg #(
    .Width (tma_pkg::CplInfoWidth)
  ) u_fin_reg (
    .clk_i,
    .rst_ni,
    .in_valid_i  (arb_valid),
    .in_ready_o  (arb_ready),
    .in_data_i   (arb),
    .out_valid_o (fin_valid),
    .out_ready_i (fin_ready),
    .out_data_o  (fin)
  );

  // ---- Bulk async-groups ----
  logic            ev_valid, ev_rd_ready, ev_wr_ready, bg_busy, ev_err;
  logic [IssW-1:0] cpl_issuer;
  assign ev_valid        = fin_valid && fin_ready && fin.bg;
  assign ev_err          = fin.kind == tma_pkg::CplError;
  assign bg_cpl_o.issuer = 4'(cpl_issuer);

  tma_bulk_group #(
    .NumIssuers (NumCtas),
    .MaxGroups  (4),
    .CntW       (8),
    .SeqW       (8)
  ) u_bulk_group (
    .clk_i,
    .rst_ni,
    .req_valid_i  (bg_req_valid_i),
    .req_ready_o  (bg_req_ready_o),
    .req_issuer_i (bg_req_issuer_i[IssW-1:0]),
    .req_commit_i (bg_req_commit_i),
    .req_rd_i     (1'b1),
    .req_wr_i     (1'b1),
    .req_seq_o    (bg_req_seq_o),
    .op_ready_o   (bg_op_ready_o),
    .rd_valid_i   (ev_valid),
    .rd_ready_o   (ev_rd_ready),
    .rd_issuer_i  (fin.cta[IssW-1:0]),
    .rd_seq_i     (fin.bg_seq),
    .rd_err_i     (ev_err),
    .wr_valid_i   (ev_valid),
    .wr_ready_o   (ev_wr_ready),
    .wr_issuer_i  (fin.cta[IssW-1:0]),
    .wr_seq_i     (fin.bg_seq),
    .wr_err_i     (ev_err),
    .cpl_valid_o  (bg_cpl_valid_o),
    .cpl_ready_i  (bg_cpl_ready_i),
    .cpl_issuer_o (cpl_issuer),
    .cpl_seq_o    (bg_cpl_o.seq),
    .cpl_done_o   (bg_cpl_o.done),
    .cpl_err_o    (bg_cpl_o.err),
    .busy_o       (bg_busy)
  );

  // (the group unit's busy: open groups never committed stay; the engine's busy leaves it)
  logic unused;
  assign unused = ^{bg_busy, unused_fin_idx, bg_req_issuer_i};

  tma_cpl_unit u_cpl (
    .clk_i,
    .rst_ni,
    .info_valid_i (fin_valid),
    .info_ready_o (fin_ready),
    .info_i       (fin),
    .cpl_valid_o,
    .cpl_ready_i,
    .cpl_o,
    .err_count_o
  );

  assign busy_o = fin_valid;

  // ---- Assertions ----
  `TMA_ASSERT_INIT(NumCtasLegal_A, NumCtas >= 1 && NumCtas <= 16)
  // Only the engine's CTAs have groups: their requests and events name one of them.
  `TMA_ASSERT_IMPLY(BgIssuer_A, bg_req_valid_i, 32'(bg_req_issuer_i) < NumCtas)
  `TMA_ASSERT_IMPLY(BgEventIssuer_A, ev_valid, 32'(fin.cta) < NumCtas)
  // The group unit takes every event at once (no event is lost at a command's end).
  `TMA_ASSERT_IMPLY(BgEventTaken_A, ev_valid, ev_rd_ready && ev_wr_ready)

endmodule

`default_nettype wire
