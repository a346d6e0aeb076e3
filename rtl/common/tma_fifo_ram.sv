// SPDX-License-Identifier: Apache-2.0
//
// tma_fifo_ram: a deep valid/ready FIFO whose storage is a RAM: an unpacked array without
// reset, written at the write pointer and read through a registered read port into the output
// register, so Yosys infers LUTRAM (xc7 RAM32M/RAM64M/RAM256X1S) or DPR16X4 / EBR (ECP5)
// instead of flops and wide multiplexers.
//
// The RAM holds up to Depth items; the output register holds one more (the head). An item
// written in cycle t is read at t+1 and is on the output at t+2 (two cycles of latency); with
// items waiting the FIFO moves one item per cycle (Depth >= 2; with Depth 1 one item every
// three cycles). The read never addresses the entry being written (an entry is read only when
// it was written in an earlier cycle), so the RAM needs no read-during-write behaviour.
// in_ready_o depends only on flops. The output register is reloaded whenever it is empty or
// popped, so out_valid_o/out_data_o come straight from flops and are held until taken.
//
// Two counts, so that no flop's next state depends on both the push (the producer's valid,
// late and from elsewhere) and the read (the consumer's ready, late and beside the RAM): the
// write side counts a read one cycle late (wcnt_q, full_q: the RAM may look full for a cycle
// after a read), the read side counts a write one cycle late (rcnt_q, plus wr_q1 for the
// item written in the previous cycle, so the latency is unchanged).
//
// OutReg = 1 puts a fabric register after the RAM's read register (one more item of capacity,
// one more cycle of latency, still one item per cycle): an ECP5 EBR or xc7 block RAM read port
// has a long clock-to-out (as long as several LUT levels), so its data must not go through
// logic before a flop (docs/rtl.md, fpga.md 4.4). The RAM read register then feeds only that
// register.
//
// InReg = 1 puts a staging register in front of the RAM: an accepted item is written in the
// next cycle, so in_valid_i (a late signal from the producer) reaches only the staging valid
// flop, not the write pointer, the RAM's write enable or the count (one more cycle of
// latency, still one item per cycle). The write side then counts the write, a cycle after
// the push, and keeps one entry for the item in the staging register: in_ready_o is low with
// Depth - 1 counted items (Depth >= 2).

`default_nettype none

`include "tma_assert.svh"

module tma_fifo_ram #(
  parameter  int unsigned Width    = 32,
  parameter  int unsigned Depth    = 16,   // RAM entries, >= 1 (holds Depth+1+OutReg+InReg)
  parameter  bit          OutReg   = 1'b1, // fabric register after the RAM read register
  parameter  bit          InReg    = 1'b0, // staging register in front of the RAM
  localparam int unsigned PtrWidth = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int unsigned CntWidth = $clog2(Depth + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // Input stream
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [Width-1:0] in_data_i,
  // Output stream
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [Width-1:0] out_data_o,
  // Status: the FIFO holds at least one item
  output logic             nonempty_o
);

  // ---- Signals ----
  logic [Width-1:0]    mem_q [Depth];
  logic [Width-1:0]    rd_q;              // the RAM's read register
  logic                rv_d, rv_q;        // rd_q holds an item
  logic                ov_d, ov_q;        // the output holds an item
  logic                take;              // the read register's item moves to out_q
  logic                rd_leave;          // the read register's item leaves (taken or popped)
  logic [PtrWidth-1:0] rd_ptr_d, rd_ptr_q;
  logic [PtrWidth-1:0] wr_ptr_d, wr_ptr_q;
  localparam int unsigned FullAt = Depth - 32'(InReg);   // counted items that close the input
  logic [CntWidth-1:0] wcnt_d, wcnt_q;    // items in the RAM as the write side sees them
  logic                full_d, full_q;    // wcnt_q >= FullAt
  logic [CntWidth-1:0] rcnt_d, rcnt_q;    // items in the RAM written before the last cycle
  logic                rne_d, rne_q;      // rcnt_q != 0, registered
  logic                wr_q1, rd_q1;      // wr / rd of the previous cycle
  logic                push, wr, rd;      // an item is accepted / written / moves to the output
  logic                iv_q;              // the staging register holds an item (InReg)
  logic [Width-1:0]    wr_data;

  assign in_ready_o  = !full_q;
  assign push        = in_valid_i && !full_q;
  assign nonempty_o  = ov_q || rv_q || rne_q || wr_q1 || iv_q;

  if (InReg) begin : g_in_reg
    logic [Width-1:0] idata_q;
    // The staging data loads whenever the FIFO may accept (flops only); a staged item is
    // written in the next cycle, so the load never overwrites one.
    always_ff @(posedge clk_i) begin : proc_in
      if (in_ready_o) begin
        idata_q <= in_data_i;
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin : proc_iv
      if (!rst_ni) begin
        iv_q <= 1'b0;
      end else begin
        iv_q <= push;
      end
    end
    assign wr      = iv_q;
    assign wr_data = idata_q;
  end else begin : g_no_in_reg
    assign iv_q    = 1'b0;
    assign wr      = push;
    assign wr_data = in_data_i;
  end

  // The RAM is read when it holds an item written in an earlier cycle and its read register
  // rd_q is empty or its item leaves (rd_leave).
  assign rd = (rne_q || wr_q1) && (!rv_q || rd_leave);

  if (OutReg) begin : g_out_reg
    logic [Width-1:0] out_q;
    // rd_q -> out_q whenever out_q is free or popped.
    assign take        = rv_q && (!ov_q || out_ready_i);
    assign rd_leave    = take;
    assign out_valid_o = ov_q;
    assign out_data_o  = out_q;
    always_ff @(posedge clk_i) begin : proc_out
      if (take) begin
        out_q <= rd_q;
      end
    end
  end else begin : g_no_out_reg
    // rd_q is the output register (ov_q stays 0).
    assign take        = 1'b0;
    assign rd_leave    = out_ready_i;
    assign out_valid_o = rv_q;
    assign out_data_o  = rd_q;
  end

  // ---- Next state ----
  always_comb begin : proc_next
    wr_ptr_d = wr_ptr_q;
    rd_ptr_d = rd_ptr_q;
    wcnt_d   = wcnt_q;
    full_d   = full_q;
    rcnt_d   = rcnt_q;
    ov_d     = ov_q;
    if (wr) begin
      wr_ptr_d = (wr_ptr_q == PtrWidth'(Depth - 1)) ? '0 : wr_ptr_q + PtrWidth'(1);
    end
    if (rd) begin
      rd_ptr_d = (rd_ptr_q == PtrWidth'(Depth - 1)) ? '0 : rd_ptr_q + PtrWidth'(1);
    end
    if (wr && !rd_q1) begin
      wcnt_d = wcnt_q + CntWidth'(1);
      full_d = (32'(wcnt_q) + 1 >= FullAt);
    end else if (!wr && rd_q1) begin
      wcnt_d = wcnt_q - CntWidth'(1);
      full_d = (32'(wcnt_q) >= FullAt + 1);
    end
    rne_d    = rne_q;
    if (wr_q1 && !rd) begin
      rcnt_d = rcnt_q + CntWidth'(1);
      rne_d  = 1'b1;
    end else if (!wr_q1 && rd) begin
      rcnt_d = rcnt_q - CntWidth'(1);
      rne_d  = (rcnt_q != CntWidth'(1));
    end
    rv_d     = rv_q;
    if (take) begin
      ov_d = 1'b1;
    end else if (out_ready_i) begin
      ov_d = 1'b0;
    end
    if (rd) begin
      rv_d = 1'b1;
    end else if (rd_leave) begin
      rv_d = 1'b0;
    end
  end

  // ---- Flops ----
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_ctrl
    if (!rst_ni) begin
      wr_ptr_q <= '0;
      rd_ptr_q <= '0;
      wcnt_q   <= '0;
      full_q   <= 1'b0;
      rcnt_q   <= '0;
      rne_q    <= 1'b0;
      wr_q1    <= 1'b0;
      rd_q1    <= 1'b0;
      ov_q     <= 1'b0;
      rv_q     <= 1'b0;
    end else begin
      wr_ptr_q <= wr_ptr_d;
      rd_ptr_q <= rd_ptr_d;
      wcnt_q   <= wcnt_d;
      full_q   <= full_d;
      rcnt_q   <= rcnt_d;
      rne_q    <= rne_d;
      wr_q1    <= wr;
      rd_q1    <= rd;
      ov_q     <= ov_d;
      rv_q     <= rv_d;
    end
  end

  // Storage: no reset, one write port, one registered read port.
  always_ff @(posedge clk_i) begin : proc_mem_wr
    if (wr) begin
      mem_q[wr_ptr_q] <= wr_data;
    end
  end

  always_ff @(posedge clk_i) begin : proc_mem_rd
    if (rd) begin
      rd_q <= mem_q[rd_ptr_q];
    end
  end

  // ---- Assertions ----
  `TMA_ASSERT_INIT(WidthPositive_A, Width >= 1)
  `TMA_ASSERT_INIT(DepthPositive_A, Depth >= 1)
  `TMA_ASSERT_INIT(InRegDepth_A, !InReg || Depth >= 2)
  `TMA_ASSERT_STABLE(OutStable_A, out_valid_o, out_ready_i, out_data_o)
  // Input stream contract, required of the upstream.
  `TMA_ASSERT_STABLE(InStable_A, in_valid_i, in_ready_o, in_data_i)
  `TMA_ASSERT(CntInRange_A, 32'(wcnt_q) <= Depth)
  `TMA_ASSERT_COPY(FullCopy_A, full_q, 32'(wcnt_q) >= FullAt)
  `TMA_ASSERT_COPY(NonEmptyCopy_A, rne_q, rcnt_q != '0)
  // The write side's count is the read side's plus the two items each saw a cycle late.
  `TMA_ASSERT(CountsAgree_A, 32'(wcnt_q) == 32'(rcnt_q) + 32'(wr_q1) + 32'(rd_q1))
  // The RAM never holds more than Depth items (with InReg: counted ones plus the staged one).
  `TMA_ASSERT(RamNotOver_A, 32'(wcnt_q) + 32'(iv_q) <= Depth)
  `TMA_ASSERT(PtrsInRange_A, (32'(rd_ptr_q) < Depth) && (32'(wr_ptr_q) < Depth))
  `TMA_ASSERT(PtrsMatchCnt_A, (32'(wr_ptr_q) + Depth - 32'(rd_ptr_q)) % Depth ==
              (32'(rcnt_q) + 32'(wr_q1)) % Depth)
  // The read never addresses the entry written in the same cycle.
  `TMA_ASSERT_NEVER(ReadDuringWrite_A, wr && rd && (rd_ptr_q == wr_ptr_q))
  `TMA_ASSERT(OutputOnlyWithReg_A, OutReg || !ov_q)
  `TMA_COVER(Full_C, full_q)
  `TMA_COVER(FullPushPop_C, full_q && rd && in_valid_i)

endmodule

`default_nettype wire
