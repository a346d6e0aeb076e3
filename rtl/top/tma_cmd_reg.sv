// SPDX-License-Identifier: Apache-2.0
//
// tma_cmd_reg: the engine's command register: a spill register (cmd_ready_o is a flop) with
// the command's class computed as it enters, so the engine's steering starts at flops: a
// bulk command (cmd_t.mode == BulkMode), commit_group (a bulk command with coords[2][6] set)
// and a bulk-group operation (a store or reduction, not a bulk one to .shared::cluster with
// coords[2][5] set, which is an mbarrier operation).
// pre_valid_o: the command taken now is the register's output in the next cycle (the register
// is empty, or its one command leaves now): the frontend compares its map address with the
// descriptor cache's tags from here, so a hit is known when the command leaves the register.

`default_nettype none

`include "tma_assert.svh"

module tma_cmd_reg (
  input  logic          clk_i,
  input  logic          rst_ni,
  // Commands in
  input  logic          cmd_valid_i,
  output logic          cmd_ready_o,
  input  tma_pkg::cmd_t cmd_i,
  output logic          pre_valid_o,
  // The register's command and its class
  output logic          out_valid_o,
  input  logic          out_ready_i,
  output tma_pkg::cmd_t out_o,
  output logic          out_bulk_o,     // a bulk (non-tensor) command
  output logic          out_commit_o,   // commit_group
  output logic          out_bg_op_o     // joins its issuer's open bulk async-group
);

  localparam int unsigned RegW = tma_pkg::CmdWidth + 3;

  logic        in_bulk, in_commit, in_bg_op;
  logic [31:0] cmd_coord2;   // the command's coords[2] (commit_group flag, bit 6)

  // coords[2] as a plain vector: Yosys 0.23 crashes on a bit select of an element of a struct
  // member's array (cmd_i.coords.v[2][6]).
  assign cmd_coord2 = cmd_i.coords.v[2];
  assign in_bulk    = cmd_i.mode == tma_pkg::BulkMode;
  assign in_commit  = in_bulk && cmd_coord2[6];
  assign in_bg_op   = !in_commit && !(in_bulk && cmd_coord2[5]) &&
                      (cmd_i.op == tma_pkg::OpStore || cmd_i.op == tma_pkg::OpReduce);
  logic unused_coord2;  // its other bits are bulk_rows' (tma_bulk_rows reads the command)
  assign unused_coord2 = ^{cmd_coord2[31:7], cmd_coord2[4:0]};

  tma_spill_reg #(
    .Width  (RegW),
    .Copies (2)
  ) u_reg (
    .clk_i,
    .rst_ni,
    .in_valid_i  (cmd_valid_i),
    .in_ready_o  (cmd_ready_o),
    .in_data_i   ({in_bulk, in_commit, in_bg_op, cmd_i}),
    .out_valid_o,
    .out_ready_i,
    .out_data_o  ({out_bulk_o, out_commit_o, out_bg_op_o, out_o})
  );

  assign pre_valid_o = cmd_valid_i && cmd_ready_o && (!out_valid_o || out_ready_i);

  // ---- Assertions ----
  `TMA_ASSERT_INIT(CmdWidth_A, tma_pkg::CmdWidth == $bits(tma_pkg::cmd_t))
  `TMA_ASSERT_NEVER(PreIsNextOut_A, $past(pre_valid_o) &&
                                   !(out_valid_o && out_o == $past(cmd_i)))

endmodule

`default_nettype wire
