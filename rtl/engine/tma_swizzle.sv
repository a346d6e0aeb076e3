// SPDX-License-Identifier: Apache-2.0
//
// tma_swizzle: maps one logical (unswizzled) shared-memory beat to its physical beat.
// Every swizzle mode XORs address bits [6:3] with a function of the 128-byte line bits [9:7]
// of the absolute shared address (silicon D6; cmodel SwizzleAddress). Within one beat of
// DataBytes <= 128 bytes the line bits are constant, so the XOR moves the whole beat (bits at
// or above log2(DataBytes)) and permutes 8-byte granules inside it (bits below): a logical beat
// maps to exactly one physical beat. Purely combinational.

`include "tma_assert.svh"

module tma_swizzle #(
  parameter  int unsigned DataBytes = 16,
  localparam int unsigned NumGran   = DataBytes / 8
) (
  input  logic [2:0]             mode_i,   // tma_pkg::Swz*
  input  logic [31:0]            addr_i,   // logical beat address, DataBytes aligned
  input  logic [DataBytes*8-1:0] data_i,
  input  logic [DataBytes-1:0]   strb_i,
  output logic [31:0]            addr_o,   // physical beat address
  output logic [DataBytes*8-1:0] data_o,
  output logic [DataBytes-1:0]   strb_o
);

  logic [2:0]  line;   // 128-byte line index bits [9:7]
  logic [6:0]  xmask;  // address bits XORed (only bits [6:3] are ever set)
  logic [31:0] beat_xor;
  logic [6:3]  lane_xor;

  assign line = addr_i[9:7];

  always_comb begin : proc_mask
    xmask = '0;
    unique case (mode_i)
      tma_pkg::Swz32B, tma_pkg::Swz96B: xmask[4]   = line[0];
      tma_pkg::Swz64B:                  xmask[5:4] = line[1:0];
`ifdef TMA_BROKEN_DUT
      // Deliberate bug for the bench's self-check: bit 6 also takes line bit 1 (still lint
      // clean: every line bit stays in use).
      tma_pkg::Swz128B:                 xmask[6:4] = {line[2] ^ line[1], line[1:0]};
`else
      tma_pkg::Swz128B:                 xmask[6:4] = line;
`endif
      tma_pkg::Swz128BA32:              xmask[6:5] = line[1:0];
      tma_pkg::Swz128BA32F8: begin
        xmask[6:5] = line[1:0];
        xmask[3]   = line[0];
      end
      tma_pkg::Swz128BA64:              xmask[6]   = line[0];
      default:                          xmask = '0;
    endcase
  end

  // Bits at or above log2(DataBytes) move the beat; bits below permute granules.
  assign beat_xor = {25'd0, xmask} & ~32'(DataBytes - 1);
  assign lane_xor = xmask[6:3] & 4'((DataBytes - 1) >> 3);
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

endmodule
