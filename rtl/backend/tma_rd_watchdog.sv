// SPDX-License-Identifier: Apache-2.0
//
// tma_rd_watchdog: the read watchdog of one AXI4 read ID (tma_rd_engine has one per ID:
// descriptor fetches, data reads, reductions' old-data reads). It counts the beats the slave
// owes on the ID (each AR handshake adds its burst's beats, each beat of the ID passed on
// takes one) and times the silence: while beats are owed, a cycle in which the R channel
// holds no beat at all counts, a beat of another ID holds the count (the channel is busy, or
// blocked by that beat's consumer: not the slave's silence), a beat of the ID clears it.
// After Watchdog counted cycles the owed beats of the oldest burst (PerBurst 1) or every owed
// beat (PerBurst 0) fail:
//   * the consumer receives that many error beats in their place (inj_o: the read engine
//     offers one, flagged as a bus error, in place of the port's beat), so every burst still
//     delivers all its beats in AR order and the command that read them ends with bus_error;
//   * the slave's answers to them, should they still come, are late: the next that many beats
//     of the ID on the port are taken and dropped (drop_o), never passed on. One ID returns
//     its bursts in AR order, so the late beats are exactly the next ones of the ID.
// PerBurst 1 (the data reads, where several commands' bursts are in flight) keeps each
// burst's length in a queue (Depth bursts): a timeout fails the oldest burst only and starts
// the next one's wait, so a slave that answers late fails only the command whose burst timed
// out. PerBurst 0 (descriptor fetches and reductions' old data: one command's reads at a time)
// needs no queue. A slave that keeps answering, however slowly, never times out: each beat of
// the ID clears the count.
// With Watchdog 0 the outputs are constant 0 (no logic): the read engine behaves exactly as
// without a watchdog.
//
// Streams: AR handshakes of the ID (burst length), the R channel's state (a beat, of this ID,
// its last flag), the consumer's take; out: inject an error beat, drop the port's beat,
// timeout (a pulse), busy.

`default_nettype none

`include "tma_assert.svh"

module tma_rd_watchdog #(
  parameter  int unsigned Watchdog = 0,    // cycles of silence before owed beats fail (0: none)
  parameter  bit          PerBurst = 1'b0, // 1: a timeout fails the oldest burst only
  parameter  int unsigned Depth    = 4,    // PerBurst: bursts in flight on the ID, at most
  parameter  int unsigned OwedW    = 18,   // width of the owed-beat counters, >= 9
  parameter  int unsigned DropW    = 32    // width of the late-beat counter
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       ar_fire_i,    // an AR of this ID is accepted ...
  input  logic [7:0] ar_len_i,     // ... for a burst of this AXI length (beats - 1)
  input  logic       r_valid_i,    // the R channel holds a beat (any ID)
  input  logic       r_mine_i,     // ... of this ID
  input  logic       r_last_i,     // ... the last of its burst
  input  logic       take_i,       // the consumer takes the beat offered to it
  output logic       inj_o,        // the beat offered is an error beat in place of the port's
  output logic       drop_o,       // a port beat of this ID is late: take it, pass nothing on
  output logic       timeout_o,    // owed beats fail now (PerBurst: one burst)
  output logic       busy_o        // error beats are still to be offered
);

  if (Watchdog == 0) begin : gen_none
    assign inj_o     = 1'b0;
    assign drop_o    = 1'b0;
    assign timeout_o = 1'b0;
    assign busy_o    = 1'b0;

    logic unused_in;
    assign unused_in = ^{clk_i, rst_ni, ar_fire_i, ar_len_i, r_valid_i, r_mine_i, r_last_i,
                         take_i};
  end else begin : gen_wd
    localparam int unsigned WdW = $clog2(Watchdog + 1);

    logic [OwedW-1:0] owed_d, owed_q;   // beats the slave owes for bursts not timed out
    logic [OwedW-1:0] inj_d, inj_q;     // error beats still to offer
    logic [DropW-1:0] drop_d, drop_q;   // late beats still to drop
    logic [WdW-1:0]   wd_q;             // silent cycles counted
    logic [OwedW-1:0] fail_beats;       // beats that fail at a timeout
    logic             head_ok;          // fail_beats is known (PerBurst: the head burst's)
    logic             mine;             // a beat of this ID is on the port
    logic             real_take;        // the consumer takes a port beat
    logic             late_take;        // a late port beat is dropped
    logic             timeout;
    logic [8:0]       ar_beats;         // beats of the burst whose AR is accepted

    assign ar_beats  = {1'b0, ar_len_i} + 9'd1;
    assign mine      = r_valid_i && r_mine_i;
    assign inj_o     = inj_q != '0;
    assign drop_o    = drop_q != '0;
    assign real_take = take_i && !inj_o;
    assign late_take = mine && drop_o;
    assign timeout   = owed_q != '0 && !inj_o && !r_valid_i && head_ok &&
                       32'(wd_q) >= Watchdog - 1;

    if (PerBurst) begin : gen_per_burst
      // Burst lengths in AR order. A burst leaves the queue when its last beat has passed
      // (done_q counts those not yet popped: the queue's head appears two cycles after its
      // push) or when it times out. head_got_q counts the beats passed of the oldest burst
      // still owed, which at a timeout is the queue's head (done_q == 0).
      localparam int unsigned DoneW = $clog2(Depth + 4);
      logic             lq_valid, lq_in_ready, lq_pop, lq_nonempty;
      logic [7:0]       lq_len;
      logic [8:0]       head_got_q;
      logic [DoneW-1:0] done_q;

      tma_fifo_ram #(
        .Width  (8),
        .Depth  (Depth + 3),
        .OutReg (1'b0)
      ) u_len (
        .clk_i,
        .rst_ni,
        .in_valid_i  (ar_fire_i),
        .in_ready_o  (lq_in_ready),
        .in_data_i   (ar_len_i),
        .out_valid_o (lq_valid),
        .out_ready_i (lq_pop),
        .out_data_o  (lq_len),
        .nonempty_o  (lq_nonempty)
      );

      assign head_ok    = lq_valid && done_q == '0;
      logic [8:0] head_left;   // beats of the head burst still owed
      assign head_left  = {1'b0, lq_len} + 9'd1 - head_got_q;
      assign fail_beats = OwedW'(head_left);
      assign lq_pop     = (lq_valid && done_q != '0) || timeout;

      always_ff @(posedge clk_i or negedge rst_ni) begin : proc_head
        if (!rst_ni) begin
          head_got_q <= '0;
          done_q     <= '0;
        end else begin
          if (timeout || (real_take && r_last_i)) begin
            head_got_q <= '0;
          end else if (real_take) begin
            head_got_q <= head_got_q + 1'b1;
          end
          done_q <= done_q + DoneW'(real_take && r_last_i) -
                    DoneW'(lq_valid && done_q != '0);
        end
      end

      logic unused_nonempty;
      assign unused_nonempty = lq_nonempty;

      // Every AR's length finds room (the read engine's credits bound the bursts in flight).
      `TMA_ASSERT_NEVER(LenQueueFull_A, ar_fire_i && !lq_in_ready)
      // The head burst's beats passed never reach its length.
      `TMA_ASSERT_IMPLY(HeadGot_A, head_ok, head_got_q <= {1'b0, lq_len})
    end else begin : gen_all
      assign head_ok    = 1'b1;
      assign fail_beats = owed_q;

      logic unused_last;
      assign unused_last = r_last_i;
    end

    always_comb begin : proc_cnt
      owed_d = owed_q;
      inj_d  = inj_q;
      drop_d = drop_q;
      if (timeout) begin
        owed_d = owed_q - fail_beats;
        inj_d  = fail_beats;
        drop_d = drop_q + DropW'(fail_beats);
      end else begin
        if (real_take)       owed_d = owed_q - 1'b1;
        if (take_i && inj_o) inj_d  = inj_q - 1'b1;
        if (late_take)       drop_d = drop_q - 1'b1;
      end
      if (ar_fire_i) owed_d = owed_d + OwedW'(ar_beats);
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin : proc_regs
      if (!rst_ni) begin
        owed_q <= '0;
        inj_q  <= '0;
        drop_q <= '0;
        wd_q   <= '0;
      end else begin
        owed_q <= owed_d;
        inj_q  <= inj_d;
        drop_q <= drop_d;
        if (owed_q == '0 || inj_o || mine || timeout) begin
          wd_q <= '0;
        end else if (!r_valid_i && 32'(wd_q) < Watchdog - 1) begin
          wd_q <= wd_q + 1'b1;
        end
      end
    end

    assign timeout_o = timeout;
    assign busy_o    = inj_o;

    // ---- Assertions ----
    `TMA_ASSERT_INIT(WatchdogLegal_A, Watchdog >= 2)
    `TMA_ASSERT_INIT(OwedWLegal_A, OwedW >= 9)
    // A port beat reaches the consumer only when it is of this ID, not late and owed, and
    // never while error beats are offered (they stand for older bursts).
    `TMA_ASSERT_IMPLY(TakeMine_A, real_take, mine && !drop_o && owed_q != '0)
    // A timeout fails at least one owed beat, never more than are owed.
    `TMA_ASSERT_IMPLY(FailOwed_A, timeout, fail_beats != '0 && fail_beats <= owed_q)
    // The counters never wrap.
    `TMA_ASSERT_NEVER(OwedOverflow_A, ar_fire_i && owed_d <= OwedW'(ar_len_i))
    `TMA_ASSERT_NEVER(DropOverflow_A, timeout && drop_d < drop_q)
  end

endmodule

`default_nettype wire
