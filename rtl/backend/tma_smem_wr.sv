// SPDX-License-Identifier: Apache-2.0
//
// tma_smem_wr: the shared-memory write port. Takes the aligner's logical beats, swizzles them
// (tma_swizzle, on the absolute shared address), registers them in the port register and
// drives the engine's write port. A beat that ends a command (last) also ends the command: its
// read-error flag goes to the done FIFO, which is joined with the command's completion
// information (from the row fork's command FIFO, in the same command order) into the stream of
// finished commands for the completion unit; a failed read turns a complete-tx into a
// bus_error. Completion-only items (wr = 0) pass through the port register without a write.
//
// Streams: beat in (smem_beat_t + data + strobes), command information in (cpl_info_t),
// shared-memory write out (smem_wr_t + data + strobes), finished commands out (cpl_info_t).

`default_nettype none

`include "tma_assert.svh"

module tma_smem_wr #(
  parameter  int unsigned DataBytes = 16,
  parameter  int unsigned NumCtas   = 16,
  localparam int unsigned DW        = DataBytes * 8
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  // Logical shared-memory beats (from the aligner)
  input  logic                       beat_valid_i,
  output logic                       beat_ready_o,
  input  tma_pkg::smem_beat_t        beat_i,
  input  logic [DW-1:0]              beat_data_i,
  input  logic [DataBytes-1:0]       beat_strb_i,
  // Completion information of each command, in command order (from the command FIFO)
  input  logic                       info_valid_i,
  output logic                       info_ready_o,
  input  tma_pkg::cpl_info_t         info_i,
  // Shared-memory write port
  output logic                       smem_valid_o,
  input  logic                       smem_ready_i,
  output tma_pkg::smem_wr_t          smem_o,
  output logic [DW-1:0]              smem_data_o,
  output logic [DataBytes-1:0]       smem_strb_o,
  // Finished commands (to the completion unit)
  output logic                       done_valid_o,
  input  logic                       done_ready_i,
  output tma_pkg::cpl_info_t         done_o,
  // Status
  output logic                       busy_o
);

  // Port register entry: write flag, swizzled address, data, strobes, last, read error and the
  // NumCtas destination bits (the mask's upper bits are zero). Packed and unpacked below in the
  // same field order.
  localparam int unsigned PortW = 1 + 32 + DW + DataBytes + 1 + 1 + NumCtas;

  // ---- Swizzle (on the absolute shared address) ----
  logic [31:0]          swz_addr;
  logic [DW-1:0]        swz_data;
  logic [DataBytes-1:0] swz_strb;

  tma_swizzle #(
    .DataBytes (DataBytes),
    .LaneIn    (1)          // the aligner computed the granule permutation a stage earlier
  ) u_swizzle (
    .mode_i (beat_i.swz),
    .addr_i (beat_i.addr),
    .lane_i (beat_i.lane),
    .data_i (beat_data_i),
    .strb_i (beat_strb_i),
    .addr_o (swz_addr),
    .data_o (swz_data),
    .strb_o (swz_strb)
  );

  // ---- Port register ----
  logic                 port_valid, port_ready;
  logic                 port_wr, port_put, port_last, port_err;
  logic [31:0]          port_addr;
  logic [DW-1:0]        port_data;
  logic [DataBytes-1:0] port_strb;
  logic [NumCtas-1:0]   port_cta;

  tma_spill_reg #(
    .Width  (PortW),
    .Bypass (0),
    .Copies (4)   // per-slice flag copies (the swizzle spreads the beat's bytes)
  ) u_port_reg (
    .clk_i,
    .rst_ni,
    .in_valid_i  (beat_valid_i),
    .in_ready_o  (beat_ready_o),
    .in_data_i   ({beat_i.wr, swz_addr, swz_data, swz_strb, beat_i.last, beat_i.err,
                   beat_i.cta_mask[NumCtas-1:0]}),
    .out_valid_o (port_valid),
    .out_ready_i (port_ready),
    .out_data_o  ({port_wr, port_addr, port_data, port_strb, port_last, port_err, port_cta})
  );

  // ---- Write port and command end ----
  // A beat that ends a command leaves only when its end can be queued in the done FIFO.
  logic       done_in_valid, done_in_ready, done_out_valid, done_out_ready, done_err;
  logic [1:0] done_usage;

  // A beat with no destination CTA (a bulk prefetch's data) is dropped.
  assign port_put        = port_wr && (port_cta != '0);
  assign smem_valid_o    = port_valid && port_put && (!port_last || done_in_ready);
  assign smem_o.addr     = port_addr;
  assign smem_o.cta_mask = 16'(port_cta);
  assign smem_data_o     = port_data;
  assign smem_strb_o     = port_strb;
  assign port_ready      = (!port_last || done_in_ready) && (!port_put || smem_ready_i);
  // (valid only when it is taken: the shared-memory ready may drop again, a valid must not)
  assign done_in_valid   = port_valid && port_last && done_in_ready &&
                           (!port_put || smem_ready_i);

  tma_fifo #(
    .Width       (1),
    .Depth       (2),
    .FallThrough (0)
  ) u_done_fifo (
    .clk_i,
    .rst_ni,
    .clr_i       (1'b0),
    .in_valid_i  (done_in_valid),
    .in_ready_o  (done_in_ready),
    .in_data_i   (port_err),
    .out_valid_o (done_out_valid),
    .out_ready_i (done_out_ready),
    .out_data_o  (done_err),
    .usage_o     (done_usage)
  );

  // A finished command: its completion information, a bus_error if one of its reads failed.
  always_comb begin : proc_done
    done_o = info_i;
    if (done_err && info_i.kind == tma_pkg::CplTx) begin
      done_o.kind = tma_pkg::CplError;
      done_o.err  = tma_pkg::ErrBusError;
    end
  end
  assign done_valid_o   = done_out_valid && info_valid_i;
  assign done_out_ready = done_ready_i && info_valid_i;
  assign info_ready_o   = done_ready_i && done_out_valid;

  assign busy_o = port_valid || (done_usage != '0);

  // ---- Assertions ----
  `TMA_ASSERT_INIT(SmemBeatWidth_A, tma_pkg::SmemBeatWidth == $bits(tma_pkg::smem_beat_t))
  `TMA_ASSERT_INIT(SmemWrWidth_A, tma_pkg::SmemWrWidth == $bits(tma_pkg::smem_wr_t))
  `TMA_ASSERT_INIT(NumCtasLegal_A, NumCtas >= 1 && NumCtas <= 16)
  // The aligner's granule permutation is the swizzle's own of the beat it goes with.
  `TMA_ASSERT_IMPLY(SwizzleLane_A, beat_valid_i,
                    beat_i.lane == tma_pkg::swz_lanes(beat_i.swz, beat_i.addr[9:7], DataBytes))
  `TMA_ASSERT_STABLE(SmemHeld_A, smem_valid_o, smem_ready_i, {smem_o, smem_data_o, smem_strb_o})
  `TMA_ASSERT_STABLE(DoneHeld_A, done_valid_o, done_ready_i, done_o)
  // The command FIFO holds every command whose end the done FIFO holds.
  `TMA_ASSERT_IMPLY(CmdBeforeEnd_A, done_out_valid, info_valid_i)

endmodule

`default_nettype wire
