// SPDX-License-Identifier: Apache-2.0
//
// tma_fifo: a synchronous valid/ready FIFO of Depth entries (any Depth >= 1), with an optional
// fall-through mode and a synchronous flush.
//
// FallThrough = 0: the output is registered; an item written in cycle t is visible at t+1. With
//   Depth 1 the FIFO moves at most one item every two cycles; Depth >= 2 gives full throughput.
// FallThrough = 1: an item entering an empty FIFO appears on the output in the same cycle
//   (out_valid_o and out_data_o then depend combinationally on the input). Full throughput
//   from Depth 1 on.
// in_ready_o never depends on out_ready_i (a full FIFO takes nothing, even while it is popped).
// clr_i empties the FIFO at the next clock edge; while clr_i is high no handshake happens on
// either side (in_ready_o and out_valid_o are low), so no item is lost or duplicated.
// FlopWrEn = 1 (FallThrough 0 only): the entry at the write pointer loads in_data_i in every
// cycle the FIFO is not full, whether an item is pushed or not. That entry holds no item then
// (it is free until the push moves the write pointer past it), so a load without a push is
// never seen; the entries' enables depend only on the FIFO's own flops, and in_valid_i (a late
// signal from the producer) reaches only the pointer and count flops. Same cycles, same items.

`default_nettype none

`include "tma_assert.svh"

module tma_fifo #(
  parameter  int unsigned Width       = 32,
  parameter  int unsigned Depth       = 2,
  parameter  int unsigned FallThrough = 0,     // 0 or 1
  parameter  bit          FlopWrEn    = 1'b0,  // entry enables from flops only (FallThrough 0)
  localparam int unsigned PtrWidth    = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int unsigned UsageWidth  = $clog2(Depth + 1)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  clr_i,       // synchronous flush
  // Input stream
  input  logic                  in_valid_i,
  output logic                  in_ready_o,
  input  logic [Width-1:0]      in_data_i,
  // Output stream
  output logic                  out_valid_o,
  input  logic                  out_ready_i,
  output logic [Width-1:0]      out_data_o,
  // Number of items stored
  output logic [UsageWidth-1:0] usage_o
);

  // ---- Signals ----
  logic [Width-1:0]      mem_q [Depth];
  logic [PtrWidth-1:0]   rd_ptr_d, rd_ptr_q;
  logic [PtrWidth-1:0]   wr_ptr_d, wr_ptr_q;
  logic [UsageWidth-1:0] usage_d, usage_q;
  logic                  empty, full;
  logic                  bypass;          // fall-through: the input goes straight to the output
  logic                  push, pop;       // handshakes on the input and output side
  logic                  write;           // the input item is stored

  // ---- Status and handshakes ----
  assign empty  = (usage_q == '0);
  assign full   = (usage_q == UsageWidth'(Depth));
  assign bypass = (FallThrough != 0) && empty;

  assign in_ready_o  = !full && !clr_i;
  assign out_valid_o = !clr_i && (!empty || (bypass && in_valid_i));
  assign out_data_o  = bypass ? in_data_i : mem_q[rd_ptr_q];
  assign usage_o     = usage_q;

  assign push  = in_valid_i && in_ready_o;
  assign pop   = out_valid_o && out_ready_i;
  // A fall-through item that leaves in the cycle it arrives is never stored.
  assign write = push && !(bypass && pop);

  // ---- Next state ----
  always_comb begin : proc_next
    rd_ptr_d = rd_ptr_q;
    wr_ptr_d = wr_ptr_q;
    usage_d  = usage_q;
    if (clr_i) begin
      rd_ptr_d = '0;
      wr_ptr_d = '0;
      usage_d  = '0;
    end else begin
      if (write) begin
        wr_ptr_d = (wr_ptr_q == PtrWidth'(Depth - 1)) ? '0 : wr_ptr_q + PtrWidth'(1);
      end
      if (pop && !bypass) begin
        rd_ptr_d = (rd_ptr_q == PtrWidth'(Depth - 1)) ? '0 : rd_ptr_q + PtrWidth'(1);
      end
      if (write && !(pop && !bypass)) begin
        usage_d = usage_q + UsageWidth'(1);
      end else if (!write && pop && !bypass) begin
        usage_d = usage_q - UsageWidth'(1);
      end
    end
  end

  // ---- Flops ----
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_ctrl
    if (!rst_ni) begin
      rd_ptr_q <= '0;
      wr_ptr_q <= '0;
      usage_q  <= '0;
    end else begin
      rd_ptr_q <= rd_ptr_d;
      wr_ptr_q <= wr_ptr_d;
      usage_q  <= usage_d;
    end
  end

  // Storage: data flops without reset, written element by element (FlopWrEn: the free entry
  // at the write pointer loads whenever the FIFO is not full).
  logic load;
  assign load = FlopWrEn ? !full : write;

  always_ff @(posedge clk_i) begin : proc_mem
    for (int unsigned i = 0; i < Depth; i++) begin
      if (load && (wr_ptr_q == PtrWidth'(i))) begin
        mem_q[i] <= in_data_i;
      end
    end
  end

  // ---- Assertions ----
  `TMA_ASSERT_INIT(WidthPositive_A, Width >= 1)
  `TMA_ASSERT_INIT(DepthPositive_A, Depth >= 1)
  `TMA_ASSERT_INIT(FallThroughBool_A, FallThrough <= 1)
  `TMA_ASSERT_INIT(FlopWrEnNoFallThrough_A, !FlopWrEn || FallThrough == 0)
  // A write always lands in the entry the free load writes (FlopWrEn).
  `TMA_ASSERT_IMPLY(FlopWrEnCoversWrite_A, write, load)
  // Output stream contract (a flush may withdraw the output).
  `TMA_ASSERT_STABLE_FLUSH(OutStable_A, out_valid_o, out_ready_i, out_data_o, clr_i)
  // Input stream contract, required of the upstream (a flush may withdraw the input).
  `TMA_ASSERT_STABLE_FLUSH(InStable_A, in_valid_i, in_ready_o, in_data_i, clr_i)
  // No overflow, no underflow, and the pointers agree with the count.
  `TMA_ASSERT(UsageInRange_A, 32'(usage_q) <= Depth)
  `TMA_ASSERT_NEVER(Overflow_A, write && full)
  `TMA_ASSERT_NEVER(Underflow_A, pop && empty && !bypass)
  `TMA_ASSERT(PtrsInRange_A, (32'(rd_ptr_q) < Depth) && (32'(wr_ptr_q) < Depth))
  `TMA_ASSERT(PtrsMatchUsage_A, (32'(wr_ptr_q) + Depth - 32'(rd_ptr_q)) % Depth ==
              32'(usage_q) % Depth)
  `TMA_COVER(Full_C, full)
  `TMA_COVER(FullPushPop_C, full && pop && in_valid_i)

endmodule

`default_nettype wire
