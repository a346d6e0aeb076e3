// SPDX-License-Identifier: Apache-2.0
//
// tma_stream_sva: valid/ready stream protocol checker, bound from outside (rtl/sva/tma_bind.sv)
// to a stream of any block; simulation only. Checks the stream contract of docs/interfaces.md:
// once valid is high it stays high, with a stable payload, until the handshake. The payload is
// the stream's struct, with its data and strobe vectors where it has them.

`default_nettype none

`include "tma_assert.svh"

module tma_stream_sva #(
  parameter int unsigned Width = 1
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             valid_i,
  input logic             ready_i,
  input logic [Width-1:0] data_i
);

  `TMA_ASSERT_INIT(WidthPositive_A, Width >= 1)
  `TMA_ASSERT_STABLE(StreamHeld_A, valid_i, ready_i, data_i)
  `TMA_COVER(Handshake_C, valid_i && ready_i)
  `TMA_COVER(Stall_C, valid_i && !ready_i)

endmodule

`default_nettype wire
