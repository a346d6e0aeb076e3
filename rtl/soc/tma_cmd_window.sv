// SPDX-License-Identifier: Apache-2.0
//
// tma_cmd_window: the register command window (bring-up path, docs/soc.md). The doorbell
// copies the command of the window registers CMD_W0 .. CMD_W12 (the fields of a command-ring
// record, read by name into a cmd_t) and offers it until the engine takes it (pending_o).
// A doorbell while a command is pending is ignored and pulses drop_o. clr_i (soft reset)
// withdraws the pending command.

`default_nettype none

`include "tma_assert.svh"

module tma_cmd_window (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          clr_i,
  input  tma_pkg::cmd_t win_i,        // the window registers
  input  logic          doorbell_i,
  output logic          pending_o,
  output logic          drop_o,
  output logic          cmd_valid_o,
  input  logic          cmd_ready_i,
  output tma_pkg::cmd_t cmd_o
);

  logic          pending_q;
  tma_pkg::cmd_t cmd_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_state
    if (!rst_ni) begin
      pending_q <= 1'b0;
      cmd_q     <= '0;
    end else if (clr_i) begin
      pending_q <= 1'b0;
    end else if (!pending_q && doorbell_i) begin
      pending_q <= 1'b1;
      cmd_q     <= win_i;
    end else if (cmd_ready_i) begin
      pending_q <= 1'b0;
    end
  end

  assign cmd_o       = cmd_q;
  assign pending_o   = pending_q;
  assign cmd_valid_o = pending_q;
  assign drop_o      = pending_q && doorbell_i && !clr_i;

  `TMA_ASSERT_STABLE_FLUSH(CmdHeld_A, cmd_valid_o, cmd_ready_i, cmd_o, clr_i)

endmodule

`default_nettype wire
