// SPDX-License-Identifier: Apache-2.0
//
// tma_cmd_reg: the engine's command register and where its command goes: a spill register
// (cmd_ready_o is a flop) with the command's class computed as it enters, so the steering
// starts at flops: a bulk command (cmd_t.mode == BulkMode) to tma_bulk_rows (bk_*), a tensor
// command to the frontend (fe_*) and its group into the engine's group queue (bgq_*),
// commit_group (a bulk command with coords[2][6] set) to tma_bulk_group (bg_req_*). A
// bulk-group operation (a store or reduction, not a bulk one to .shared::cluster with
// coords[2][5] set, which is an mbarrier operation) also waits for bg_op_ready_i (one flop)
// and joins its issuer's open group as it leaves (bg_req_*). While hold_i (a shared::cta ->
// shared::cluster copy is held) no command leaves. Only issuers below NumIssuers (the engine's
// NumCtas: the CTAs the hardware has) have bulk async-groups: a commit_group of another issuer
// goes to tma_bulk_rows like a bulk command, which refuses it (invalid_instruction), and that
// issuer's stores and reductions, which the frontend or tma_bulk_rows refuse, join no group.
// pre_valid_o: the command taken now is the register's output in the next cycle (the register
// is empty, or its one command leaves now): the frontend compares its map address with the
// descriptor cache's tags from here, so a hit is known when the command leaves the register.

`default_nettype none

`include "tma_assert.svh"

module tma_cmd_reg #(
  parameter int unsigned NumIssuers = 16   // issuers with bulk async-groups (0 .. NumIssuers-1)
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  // Commands in
  input  logic          cmd_valid_i,
  output logic          cmd_ready_o,
  input  tma_pkg::cmd_t cmd_i,
  output logic          pre_valid_o,
  // The register's command and its class
  output logic          out_valid_o,
  output tma_pkg::cmd_t out_o,
  output logic          out_commit_o,   // commit_group
  output logic          out_bg_op_o,    // joins its issuer's open bulk async-group
  output tma_pkg::cmd_t out_bk_o,       // out_o again, from a register copy for tma_bulk_rows
  // Where it goes
  input  logic          hold_i,
  output logic          fe_valid_o,
  input  logic          fe_ready_i,
  output logic          bk_valid_o,
  input  logic          bk_ready_i,
  output logic          bg_req_valid_o,
  input  logic          bg_req_ready_i,
  input  logic          bg_op_ready_i,
  output logic          bgq_valid_o,    // the group queue takes a tensor command's group
  input  logic          bgq_ready_i
);

  localparam int unsigned RegW = tma_pkg::CmdWidth + 3;

  logic        in_bulk, in_commit, in_bg_op, in_grp;
  logic        out_bulk, out_ready, go, op_ok;
  logic [31:0] cmd_coord2;   // the command's coords[2] (commit_group flag, bit 6)

  // coords[2] as a plain vector: Yosys 0.23 crashes on a bit select of an element of a struct
  // member's array (cmd_i.coords.v[2][6]).
  assign cmd_coord2 = cmd_i.coords.v[2];
  assign in_bulk    = cmd_i.mode == tma_pkg::BulkMode;
  assign in_grp     = 32'(cmd_i.issuer) < NumIssuers;
  assign in_commit  = in_bulk && cmd_coord2[6] && in_grp;
  assign in_bg_op   = !(in_bulk && cmd_coord2[6]) && !(in_bulk && cmd_coord2[5]) && in_grp &&
                      (cmd_i.op == tma_pkg::OpStore || cmd_i.op == tma_pkg::OpReduce);
  logic unused_coord2;  // its other bits are bulk_rows' (tma_bulk_rows reads the command)
  assign unused_coord2 = ^{cmd_coord2[31:7], cmd_coord2[4:0]};

  // Six slices, each with its own copies of the output select: the command's fields fan out
  // to the frontend's intake, sequencer and descriptor cache.
  tma_spill_reg #(
    .Width  (RegW),
    .Copies (6)
  ) u_reg (
    .clk_i,
    .rst_ni,
    .in_valid_i  (cmd_valid_i),
    .in_ready_o  (cmd_ready_o),
    .in_data_i   ({in_bulk, in_commit, in_bg_op, cmd_i}),
    .out_valid_o,
    .out_ready_i (out_ready),
    .out_data_o  ({out_bulk, out_commit_o, out_bg_op_o, out_o})
  );

  // The same register once more for tma_bulk_rows (out_bk_o): its checks (window-end adds,
  // CTA compares) read the command from flops placed beside them, not across the die from the
  // frontend. Same input, same handshake, so the two hold the same commands (BkCopy_A); its
  // full-flag copies are kept cells, so synthesis does not merge the two, and the bits
  // tma_bulk_rows does not read are removed.
  logic bk_in_ready, bk_out_valid;
  tma_spill_reg #(
    .Width  (tma_pkg::CmdWidth),
    .Copies (2)
  ) u_reg_bk (
    .clk_i,
    .rst_ni,
    .in_valid_i  (cmd_valid_i),
    .in_ready_o  (bk_in_ready),
    .in_data_i   (cmd_i),
    .out_valid_o (bk_out_valid),
    .out_ready_i (out_ready),
    .out_data_o  (out_bk_o)
  );
  logic unused_bk;
  assign unused_bk = bk_in_ready ^ bk_out_valid;
  `TMA_ASSERT_NEVER(BkCopy_A, bk_in_ready != cmd_ready_o || bk_out_valid != out_valid_o ||
                              (out_valid_o && out_bk_o != out_o))

  assign go             = out_valid_o && !hold_i;
  assign op_ok          = !out_bg_op_o || bg_op_ready_i;
  assign fe_valid_o     = go && !out_bulk && bgq_ready_i && op_ok;
  assign bk_valid_o     = go && out_bulk && !out_commit_o && op_ok;
  assign out_ready      = !hold_i && (out_commit_o ? bg_req_ready_i :
                                      out_bulk     ? bk_ready_i && op_ok :
                                                     fe_ready_i && bgq_ready_i && op_ok);
  assign bg_req_valid_o = go && (out_commit_o || (out_bg_op_o &&
                          (out_bulk ? bk_ready_i : fe_ready_i && bgq_ready_i)));
  assign bgq_valid_o    = fe_valid_o && fe_ready_i;
  assign pre_valid_o    = cmd_valid_i && cmd_ready_o && (!out_valid_o || out_ready);

  // ---- Assertions ----
  `TMA_ASSERT_INIT(NumIssuersLegal_A, NumIssuers >= 1 && NumIssuers <= 16)
  `TMA_ASSERT_INIT(CmdWidth_A, tma_pkg::CmdWidth == $bits(tma_pkg::cmd_t))
  `TMA_ASSERT_NEVER(PreIsNextOut_A, $past(pre_valid_o) &&
                                   !(out_valid_o && out_o == $past(cmd_i)))

endmodule

`default_nettype wire
