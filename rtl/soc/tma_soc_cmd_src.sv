// SPDX-License-Identifier: Apache-2.0
//
// tma_soc_cmd_src: the SoC top's two command sources, arbitrated into one command stream for
// the engine (docs/soc.md "Commands"):
//   * the register window (tma_cmd_window): the command of CMD_W0 .. CMD_W12 (win_i), offered
//     on a doorbell until the engine takes it;
//   * the command ring (tma_cmd_ring): 64-byte records fetched from global memory over the
//     AXI4 read channels the top gives it (one burst per record), while enable_i is set and
//     hold_i (the soft reset's drain) is not;
// and the round-robin arbiter (tma_stream_arb, LockIn: a command stays offered until taken)
// that merges them; the arbiter restarts with the engine (core_rst_ni). clr_i (soft reset)
// withdraws the window's command and empties the ring.
// Stream in: the ring's read beats (r_*); stream out: commands (cmd_*).

`default_nettype none

`include "tma_assert.svh"

module tma_soc_cmd_src #(
  parameter  int unsigned DataBytes = 16,
  localparam int unsigned DW        = DataBytes * 8
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          core_rst_ni,
  input  logic          clr_i,
  input  logic          hold_i,
  // Register window
  input  tma_pkg::cmd_t win_i,
  input  logic          doorbell_i,
  output logic          win_pending_o,
  output logic          win_drop_o,
  // Command ring registers
  input  logic          enable_i,
  input  logic [63:6]   ring_base_i,
  input  logic [3:0]    ring_log2_i,
  input  logic [16:0]   ring_tail_i,
  output logic [16:0]   ring_head_o,
  output logic [16:0]   ring_count_o,
  output logic          ring_busy_o,
  output logic          ring_bus_err_o,
  // The ring fetcher's AXI4 reads (ID chosen by the top)
  output logic          ar_valid_o,
  input  logic          ar_ready_i,
  output logic [63:0]   ar_addr_o,
  output logic [7:0]    ar_len_o,
  input  logic          r_valid_i,
  input  logic [DW-1:0] r_data_i,
  input  logic [1:0]    r_resp_i,
  input  logic          r_last_i,
  // Commands to the engine
  output logic          cmd_valid_o,
  input  logic          cmd_ready_i,
  output tma_pkg::cmd_t cmd_o
);

  tma_pkg::cmd_t win_cmd, ring_cmd;
  logic          win_valid, win_ready, ring_valid, ring_ready, arb_idx;
  logic [1:0]    arb_ready;

  tma_cmd_window u_win (
    .clk_i,
    .rst_ni,
    .clr_i,
    .win_i,
    .doorbell_i,
    .pending_o   (win_pending_o),
    .drop_o      (win_drop_o),
    .cmd_valid_o (win_valid),
    .cmd_ready_i (win_ready),
    .cmd_o       (win_cmd)
  );

  tma_cmd_ring #(
    .DataBytes (DataBytes)
  ) u_cmd_ring (
    .clk_i,
    .rst_ni,
    .clr_i,
    .enable_i    (enable_i && !hold_i),
    .base_i      (ring_base_i),
    .log2_i      (ring_log2_i),
    .tail_i      (ring_tail_i),
    .head_o      (ring_head_o),
    .count_o     (ring_count_o),
    .busy_o      (ring_busy_o),
    .bus_err_o   (ring_bus_err_o),
    .ar_valid_o,
    .ar_ready_i,
    .ar_addr_o,
    .ar_len_o,
    .r_valid_i,
    .r_data_i,
    .r_resp_i,
    .r_last_i,
    .cmd_valid_o (ring_valid),
    .cmd_ready_i (ring_ready),
    .cmd_o       (ring_cmd)
  );

  tma_stream_arb #(
    .NumIn  (2),
    .Width  (tma_pkg::CmdWidth),
    .LockIn (1)
  ) u_cmd_arb (
    .clk_i,
    .rst_ni      (core_rst_ni),
    .in_valid_i  ({ring_valid, win_valid}),
    .in_ready_o  (arb_ready),
    .in_data_i   ({ring_cmd, win_cmd}),
    .out_valid_o (cmd_valid_o),
    .out_ready_i (cmd_ready_i),
    .out_data_o  (cmd_o),
    .out_idx_o   (arb_idx)
  );
  assign {ring_ready, win_ready} = arb_ready;

  logic unused_arb;
  assign unused_arb = arb_idx;

  `TMA_ASSERT_INIT(CmdWidth_A, tma_pkg::CmdWidth == $bits(tma_pkg::cmd_t))

endmodule

`default_nettype wire
