// SPDX-License-Identifier: Apache-2.0
//
// tma_burst_split: cuts one row read request {DataBytes-aligned address, beats} into AXI4 INCR
// bursts of at most MaxBurstLen beats that never cross a 4 KiB boundary. One burst per cycle;
// the burst is computed from registers (address, beats left), so the output is stable.

`include "tma_assert.svh"

module tma_burst_split #(
  parameter  int unsigned DataBytes   = 16,
  parameter  int unsigned MaxBurstLen = 16,   // beats, 1 .. 256
  localparam int unsigned SizeLog2    = $clog2(DataBytes),
  localparam int unsigned CntW        = tma_pkg::BeatCntW
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // Row read requests
  input  logic              req_valid_i,
  output logic              req_ready_o,
  input  tma_pkg::rd_req_t  req_i,
  // Bursts
  output logic              ar_valid_o,
  input  logic              ar_ready_i,
  output tma_pkg::ar_t      ar_o,
  // Status
  output logic              busy_o
);

  logic [63:0]     addr_d, addr_q;
  logic [CntW-1:0] left_d, left_q;    // beats still to request (0: idle)
  logic [12:0]     to_4k;             // beats up to the next 4 KiB boundary
  logic [CntW-1:0] beats;             // beats of the burst on the output
  logic            fire, done;

  assign to_4k = 13'((13'd4096 - {1'b0, addr_q[11:0]}) >> SizeLog2);

  always_comb begin : proc_len
    beats = left_q;
    if (beats > CntW'(MaxBurstLen)) beats = CntW'(MaxBurstLen);
    if (13'(beats) > to_4k) beats = CntW'(to_4k);
  end

  assign ar_valid_o = (left_q != '0);
  assign ar_o.addr  = addr_q;
  assign ar_o.len   = 8'(beats - 1'b1);
  assign fire       = ar_valid_o && ar_ready_i;
  assign done       = (left_q == '0) || (fire && beats == left_q);
  assign req_ready_o = done;

  always_comb begin : proc_next
    addr_d = addr_q;
    left_d = left_q;
    if (fire) begin
      addr_d = addr_q + 64'({beats, SizeLog2'(0)});
      left_d = left_q - beats;
    end
    if (req_valid_i && req_ready_o) begin
      addr_d = req_i.addr;
      left_d = req_i.nbeats;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_state
    if (!rst_ni) begin
      addr_q <= '0;
      left_q <= '0;
    end else begin
      addr_q <= addr_d;
      left_q <= left_d;
    end
  end

  assign busy_o = (left_q != '0);

  `TMA_ASSERT_INIT(MaxBurstLenLegal_A, MaxBurstLen >= 1 && MaxBurstLen <= 256)
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes >= 16 && DataBytes <= 128)
  `TMA_ASSERT_STABLE(ArHeld_A, ar_valid_o, ar_ready_i, ar_o)
  `TMA_ASSERT(ReqAligned_A, req_valid_i |-> req_i.addr[SizeLog2-1:0] == '0)
  `TMA_ASSERT(No4kCross_A, ar_valid_o |->
              ({1'b0, addr_q[11:0]} + 13'({beats, SizeLog2'(0)})) <= 13'd4096)

endmodule
