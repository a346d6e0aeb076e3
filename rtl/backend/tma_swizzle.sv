// SPDX-License-Identifier: Apache-2.0
//
// tma_swizzle: maps one logical (unswizzled) shared-memory beat to its physical beat.
// Every swizzle mode XORs address bits [6:3] with a function of the 128-byte line bits [9:7]
// of the absolute shared address (silicon D6; cmodel SwizzleAddress). Within one beat of
// DataBytes <= 128 bytes the line bits are constant, so the XOR moves the whole beat (bits at
// or above log2(DataBytes)) and permutes 8-byte granules inside it (bits below): a logical beat
// maps to exactly one physical beat. Purely combinational.
//
// LaneIn = 1: the granule permutation comes from lane_i, computed by the producer a register
// stage earlier from the same mode and address (the row aligner does), so the select of the
// DataBytes-wide permutation is a flop's output rather than logic of the mode and address
// (mode/address -> mask -> 8 x DataBytes multiplexers spread over the die would otherwise be
// one path). LaneIn = 0: computed here from mode_i and addr_i.

`default_nettype none

`include "tma_assert.svh"

module tma_swizzle #(
  parameter  int unsigned DataBytes = 16,
  parameter  int unsigned LaneIn    = 0,   // 1: the granule permutation from lane_i
  localparam int unsigned NumGran   = DataBytes / 8
) (
  input  logic [2:0]             mode_i,   // tma_pkg::Swz*
  input  logic [31:0]            addr_i,   // logical beat address, DataBytes aligned
  input  logic [6:3]             lane_i,   // LaneIn: address bits [6:3] XORed below the beat
  input  logic [DataBytes*8-1:0] data_i,
  input  logic [DataBytes-1:0]   strb_i,
  output logic [31:0]            addr_o,   // physical beat address
  output logic [DataBytes*8-1:0] data_o,
  output logic [DataBytes-1:0]   strb_o
);

  logic [2:0]  line;   // 128-byte line index bits [9:7]
  logic [6:0]  xmask;  // address bits XORed (tma_pkg::swz_xmask: only bits [6:3] are ever set)
  logic [31:0] beat_xor;
  logic [6:3]  lane_xor, lane_c;
  localparam logic [6:3] LaneMask = 4'((DataBytes - 1) >> 3);   // the bits below the beat

  assign line = addr_i[9:7];

  assign xmask = tma_pkg::swz_xmask(mode_i, line);

  // Bits at or above log2(DataBytes) move the beat; bits below permute granules.
  assign beat_xor = {25'd0, xmask} & ~32'(DataBytes - 1);
  assign lane_c   = tma_pkg::swz_lanes(mode_i, line, DataBytes);
  if (LaneIn != 0) begin : gen_lane_in
    // (masked: the bits at or above log2(DataBytes) are constant zero, so at DataBytes 16 the
    // permutation's select is lane_i[3] itself, not a compare of four bits)
    assign lane_xor = lane_i & LaneMask;
    logic unused_lane;
    assign unused_lane = ^lane_c;
  end else begin : gen_lane_here
    assign lane_xor = lane_c;
    logic unused_lane;
    assign unused_lane = ^lane_i;
  end
  assign addr_o   = addr_i ^ beat_xor;

  always_comb begin : proc_permute
    data_o = '0;
    strb_o = '0;
    // physical granule g takes logical granule g ^ lane_xor[6:3]
    for (int g = 0; g < NumGran; g++) begin
      for (int s = 0; s < NumGran; s++) begin
        if ((4'(g) ^ 4'(s)) == lane_xor) begin
          data_o[g * 64 +: 64] = data_i[s * 64 +: 64];
          strb_o[g * 8 +: 8]   = strb_i[s * 8 +: 8];
        end
      end
    end
  end

  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_INIT(LaneInBool_A, LaneIn <= 1)

endmodule

`default_nettype wire
