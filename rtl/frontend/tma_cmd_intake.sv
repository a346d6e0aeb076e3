// SPDX-License-Identifier: Apache-2.0
//
// tma_cmd_intake: takes one command at a time from the command stream into the command
// register and classifies it (a store, a reduction or a misaligned map address needs no map:
// it ends in an error completion).
//
// The intake is ready while the sequencer is idle and the cache's registered tag compares
// hold for the command on the stream (tag_fresh_i: from its first cycle on the stream when it
// was announced by the command register in front, pre_valid_i of tma_desc_cache, else from
// its second). The command register and the coordinate flags load in every idle
// cycle (a cycle without a command leaves them unused), so they are stable from the cycle
// after the intake until the command ends; the flags (tma_pkg::coord_flags_t) tell the job
// setup how many MAC pieces each coordinate needs. The job setup's mode decodes and 3 c0 / 4
// (b6x16_p32's c0 in bytes) are registered here beside the command (the job setup reads them
// in the cycle after the take, W1 on a cache hit).

`default_nettype none

`include "tma_assert.svh"

module tma_cmd_intake (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Commands
  input  logic                  cmd_valid_i,
  output logic                  cmd_ready_o,
  input  tma_pkg::cmd_t         cmd_i,
  input  logic                  idle_i,         // the sequencer waits for a command
  input  logic                  tag_fresh_i,
  // The command taken
  output logic                  take_o,         // a command is taken now ...
  output logic [3:0]            take_err_o,     // ... and its error class (ErrNone: needs a map)
  output tma_pkg::cmd_t         cmd_o,          // the command register (from the next cycle)
  output tma_pkg::coord_flags_t coord_flags_o,
  // The command's mode: tile::gather4 / scatter4, im2col::w, im2col::w::128, im2col
  output logic                  gat_o,
  output logic                  wmode_o,
  output logic                  w128_o,
  output logic                  i2c_o,
  output logic [37:0]           c0_3q_o         // 3 coords[0] / 4 (two arithmetic shifts)
);

  localparam int unsigned MaxDims = tma_pkg::MaxDims;

  function automatic logic [3:0] coord_flags(input logic [31:0] c);
    logic sm16, sm17;
    sm16 = c[31:16] == 16'd0 || c[31:16] == '1;
    sm17 = c[31:17] == 15'd0 || c[31:17] == '1;
    coord_flags = {sm16, sm17,
                   sm17 ? {1'b0, c[17:0] != 18'd0} : {c[31:17] != 15'd0, c[16:0] != 17'd0}};
  endfunction

  tma_pkg::cmd_t         cmd_q;
  tma_pkg::coord_flags_t flags_d, flags_q;
  logic [3:0]            mode_d, mode_q;      // {gat, wmode, w128, i2c}
  logic [37:0]           c0_3q_d, c0_3q_q;
  logic signed [34:0]    c0;

  assign cmd_ready_o = idle_i && tag_fresh_i;
  assign take_o      = cmd_valid_i && cmd_ready_o;
  always_comb begin : proc_class
    take_err_o = tma_pkg::ErrNone;
    if (cmd_i.desc_addr[3:0] != 4'd0) begin
      take_err_o = tma_pkg::ErrInvalidInstr;
    end
    for (int i = 0; i < MaxDims; i++) flags_d.v[i] = coord_flags(cmd_i.coords.v[i]);
    mode_d = {cmd_i.mode == tma_pkg::ModeTileGather4 || cmd_i.mode == tma_pkg::ModeTileScatter4,
              cmd_i.mode == tma_pkg::ModeIm2colW, cmd_i.mode == tma_pkg::ModeIm2colW128,
              cmd_i.mode == tma_pkg::ModeIm2col};
    c0      = 35'(signed'(cmd_i.coords.v[0]));
    c0_3q_d = 38'((signed'(64'(c0)) >>> 1) + (signed'(64'(c0)) >>> 2));
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_regs
    if (!rst_ni) begin
      cmd_q   <= '0;
      flags_q <= '0;
      mode_q  <= '0;
      c0_3q_q <= '0;
    end else if (idle_i) begin
      cmd_q   <= cmd_i;
      flags_q <= flags_d;
      mode_q  <= mode_d;
      c0_3q_q <= c0_3q_d;
    end
  end
  assign cmd_o         = cmd_q;
  assign coord_flags_o = flags_q;
  assign {gat_o, wmode_o, w128_o, i2c_o} = mode_q;
  assign c0_3q_o       = c0_3q_q;

  // ---- Assertions ----
  `TMA_ASSERT_INIT(CmdWidth_A, tma_pkg::CmdWidth == $bits(tma_pkg::cmd_t))
  `TMA_ASSERT_INIT(CoordFlagsWidth_A, tma_pkg::CoordFlagsWidth == $bits(tma_pkg::coord_flags_t))

endmodule

`default_nettype wire
