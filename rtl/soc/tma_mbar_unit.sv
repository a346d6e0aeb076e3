// SPDX-License-Identifier: Apache-2.0
//
// tma_mbar_unit: the mbarrier objects of one CTA in the cluster shell (docs/soc.md), Slots of
// them, each bound by an init to a shared-memory address. State per slot as PTX defines the
// mbarrier (shared/spec/tensor-semantics.md 11.1): phase, expected and pending arrivals, and a
// signed tx-count. expect-tx adds to tx, complete-tx subtracts, arrive subtracts from pending;
// after an operation, pending == 0 and tx == 0 completes the phase: the phase flips, pending
// reloads from expected, and done_o pulses for the slot. The engine's complete-tx names its
// barrier by address (the first valid slot bound to it); one naming no slot pulses miss_o.
// Host operations (MBAR_OP) wait for a cycle without a complete-tx. A slot with tx != 0 while
// the engine is idle (idle_i) is stuck.

`default_nettype none

`include "tma_assert.svh"

module tma_mbar_unit #(
  parameter  int unsigned Slots = 4,
  localparam int unsigned SlotW = (Slots > 1) ? $clog2(Slots) : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Complete-tx from the engine (always taken)
  input  logic                  tx_valid_i,
  input  logic [31:0]           tx_addr_i,
  input  logic [20:0]           tx_bytes_i,   // complete-tx bytes (< 2^20)
  // Host operation (MBAR_OP codes)
  input  logic                  op_valid_i,
  output logic                  op_ready_o,
  input  logic [2:0]            op_i,
  input  logic [SlotW-1:0]      op_slot_i,
  input  logic [31:0]           op_addr_i,
  input  logic [19:0]           op_arg_i,
  // The engine holds no work
  input  logic                  idle_i,
  // State of every slot (slot s at [s*W +: W])
  output logic [Slots-1:0]      valid_o,
  output logic [Slots-1:0]      phase_o,
  output logic [Slots-1:0]      stuck_o,
  output logic [Slots*20-1:0]   pending_o,
  output logic [Slots*21-1:0]   tx_o,
  // Events
  output logic [Slots-1:0]      done_o,
  output logic                  miss_o
);

  // ---- MBAR_OP codes (tma_regs.rdl) ----
  localparam logic [2:0] OpInit      = 3'd1;
  localparam logic [2:0] OpExpectTx  = 3'd2;
  localparam logic [2:0] OpArrive    = 3'd3;
  localparam logic [2:0] OpArriveExp = 3'd4;
  localparam logic [2:0] OpCompTx    = 3'd5;
  localparam logic [2:0] OpInval     = 3'd6;

  logic [Slots-1:0] valid_d, valid_q, phase_d, phase_q, done_d;
  logic [31:0]      addr_d [Slots];
  logic [31:0]      addr_q [Slots];
  logic [19:0]      expect_d [Slots];
  logic [19:0]      expect_q [Slots];
  logic [19:0]      pend_d [Slots];
  logic [19:0]      pend_q [Slots];
  logic [20:0]      tx_d [Slots];
  logic [20:0]      tx_q [Slots];
  logic [Slots-1:0] hit, first;
  logic             op_fire;

  assign op_ready_o = !tx_valid_i;
  assign op_fire    = op_valid_i && op_ready_o;

  // The slot a complete-tx names: the lowest valid slot bound to its address.
  always_comb begin : proc_hit
    for (int s = 0; s < Slots; s++) hit[s] = valid_q[s] && addr_q[s] == tx_addr_i;
    first = hit & ~(hit - 1'b1);
  end

  always_comb begin : proc_next
    logic touched;
    for (int s = 0; s < Slots; s++) begin
      valid_d[s]  = valid_q[s];
      phase_d[s]  = phase_q[s];
      addr_d[s]   = addr_q[s];
      expect_d[s] = expect_q[s];
      pend_d[s]   = pend_q[s];
      tx_d[s]     = tx_q[s];
      touched     = 1'b0;
      if (tx_valid_i && first[s]) begin
        tx_d[s] = tx_q[s] - tx_bytes_i;
        touched = 1'b1;
      end
      if (op_fire && op_slot_i == SlotW'(s)) begin
        touched = 1'b1;
        unique case (op_i)
          OpInit: begin
            valid_d[s]  = 1'b1;
            phase_d[s]  = 1'b0;
            addr_d[s]   = op_addr_i;
            expect_d[s] = op_arg_i;
            pend_d[s]   = op_arg_i;
            tx_d[s]     = '0;
          end
          OpExpectTx:  tx_d[s] = tx_q[s] + 21'(op_arg_i);
          OpArrive:    pend_d[s] = pend_q[s] - op_arg_i;
          OpArriveExp: begin
            tx_d[s]   = tx_q[s] + 21'(op_arg_i);
            pend_d[s] = pend_q[s] - 20'd1;
          end
          OpCompTx:    tx_d[s] = tx_q[s] - 21'(op_arg_i);
          OpInval:     valid_d[s] = 1'b0;
          default:     touched = 1'b0;
        endcase
      end
      // Phase completion: pending and tx both zero after an operation on the slot.
      done_d[s] = touched && valid_d[s] && pend_d[s] == '0 && tx_d[s] == '0;
      if (done_d[s]) begin
        phase_d[s] = !phase_d[s];
        pend_d[s]  = expect_d[s];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_state
    if (!rst_ni) begin
      valid_q <= '0;
      phase_q <= '0;
      for (int s = 0; s < Slots; s++) begin
        addr_q[s]   <= '0;
        expect_q[s] <= '0;
        pend_q[s]   <= '0;
        tx_q[s]     <= '0;
      end
    end else begin
      valid_q <= valid_d;
      phase_q <= phase_d;
      for (int s = 0; s < Slots; s++) begin
        addr_q[s]   <= addr_d[s];
        expect_q[s] <= expect_d[s];
        pend_q[s]   <= pend_d[s];
        tx_q[s]     <= tx_d[s];
      end
    end
  end

  always_comb begin : proc_out
    for (int s = 0; s < Slots; s++) begin
      stuck_o[s]           = valid_q[s] && tx_q[s] != '0 && idle_i;
      pending_o[s*20 +: 20] = pend_q[s];
      tx_o[s*21 +: 21]      = tx_q[s];
    end
  end
  assign valid_o = valid_q;
  assign phase_o = phase_q;
  assign done_o  = done_d;
  assign miss_o  = tx_valid_i && hit == '0;

  `TMA_ASSERT_INIT(SlotsLegal_A, Slots >= 1 && Slots <= 4)
  `TMA_ASSERT_NEVER(OpDuringTx_A, op_fire && tx_valid_i)

endmodule

`default_nettype wire
