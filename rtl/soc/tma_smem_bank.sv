// SPDX-License-Identifier: Apache-2.0
//
// tma_smem_bank: the shared memory of one CTA in the cluster shell: a single-port block RAM of
// SmemBytes, DataBytes wide, byte-enabled writes, registered read data (the read port of an
// inferred BRAM: the data of the address of a read cycle arrives the next cycle).

`default_nettype none

`include "tma_assert.svh"

module tma_smem_bank #(
  parameter  int unsigned DataBytes = 16,
  parameter  int unsigned SmemBytes = 16384,
  localparam int unsigned Depth     = SmemBytes / DataBytes,
  localparam int unsigned AW        = $clog2(Depth),
  localparam int unsigned DW        = DataBytes * 8
) (
  input  logic                 clk_i,
  // One access per cycle: write (we_i) or read (rdata_o the next cycle)
  input  logic                 en_i,
  input  logic                 we_i,
  input  logic [AW-1:0]        addr_i,
  input  logic [DW-1:0]        wdata_i,
  input  logic [DataBytes-1:0] wstrb_i,
  output logic [DW-1:0]        rdata_o
);

  logic [DW-1:0] mem_q [Depth];

  always_ff @(posedge clk_i) begin : proc_ram
    if (en_i) begin
      if (we_i) begin
        for (int b = 0; b < DataBytes; b++) begin
          if (wstrb_i[b]) mem_q[addr_i][b*8 +: 8] <= wdata_i[b*8 +: 8];
        end
      end
      rdata_o <= mem_q[addr_i];
    end
  end

  `TMA_ASSERT_INIT(SmemBytesLegal_A, SmemBytes >= 2 * DataBytes &&
                                     (SmemBytes & (SmemBytes - 1)) == 0)

endmodule

`default_nettype wire
