// SPDX-License-Identifier: Apache-2.0
//
// tma_bulk_group: the bulk async-groups of cp.async.bulk.commit_group / wait_group{.read}
// (PTX data-movement chapter; the C++ model's BulkGroupTracker, cmodel/src/bulk_group.cc), for
// NumIssuers issuers, and an in-order completion stream per issuer that firmware and bench wait
// on instead of polling.
//
// Contract (docs/interfaces.md, "Bulk async-group unit"):
//   req: the issuers' bulk-group operations in program order per issuer. req_commit_i = 0: an
//     operation enters its issuer's open group; req_rd_i = 1 if it will report a read event
//     (its tensor map and source reads: stores, reductions, loads tracked for their map read),
//     req_wr_i = 1 if it will report a write event (all its write responses back: stores and
//     reductions). A prefetch has nothing to wait for (both 0; it may also not be sent).
//     req_seq_o is the sequence number of the group it joins (valid with req_valid_i): the
//     engine keeps it with the operation and names it in the operation's events.
//     req_commit_i = 1: commit_group closes the issuer's open group (an empty group is legal);
//     the next group's sequence number is one more (mod 2^SeqW).
//     req_ready_o is low while the request cannot be taken: a commit when MaxGroups - 1 groups
//     of the issuer are committed and not done, an operation when a group of any issuer held
//     2^CntW - 2 or more operations without their read or write event in the cycle before (a
//     bound the engine's commands in flight never reach; one operation joins per cycle, so a
//     counter reaches at most 2^CntW - 1 and never wraps). The commit condition is registered
//     from the next state, the operations' from the present counters (no path from a request
//     through the counters' adders into the flag), so req_ready_o is a multiplexer of flops
//     by req_issuer_i and req_commit_i; op_ready_o is the operations' condition alone, one
//     flop.
//   rd / wr: one event per handshake (always ready; registered on entry, so an event counts from
//     the next cycle): the operation of group rd_seq_i of issuer
//     rd_issuer_i has read its sources (rd) / has all its writes complete (wr); *_err_i marks a
//     failed operation (bus error, fault). A failing operation still reports every event it
//     announced, each in a cycle after its request was taken, the write event not before the
//     read event (the same cycle is fine; a write implies its reads, as in the model).
//   cpl: per issuer in group order, first the group's read-done (cpl_done_o = 0: wait_group.read
//     may pass it) when the group is committed and every operation of it and of every earlier
//     group has read its sources, then its done (cpl_done_o = 1: wait_group may pass it) when
//     also every write event has come. cpl_err_o: read-done carries the OR of its operations'
//     read-event errors, done the OR of all their events' errors. One completion per cycle;
//     issuers are served round-robin.
// Storage: per issuer a ring of MaxGroups groups (two pending counters and two error flags
// each) and three SeqW-bit pointers: the open group, the next group to report read-done, the
// next to report done. The ring slot of a done group is cleared when its completion is taken.
// Completion pipeline (every stage starts at flops, so no path crosses the counters, the
// round-robin search and the completion multiplexers in one cycle):
//   1. cand_q: the candidates (read-done / done ready to report) from the counters;
//   2. pick_q: the round-robin choice among cand_q, loaded while no choice waits or as the
//      waiting one is taken (then the search leaves the taken one out);
//   3. the chosen completion's fields are multiplexed into a spill register (tma_spill_reg).
// A candidate stays one until its completion is taken, so a choice waiting in pick_q stays
// valid; the cand_q loaded as a choice is taken leaves that choice out (its heads advance at
// the same edge). One completion per cycle; the same issuer's same kind every other cycle.

`default_nettype none

`include "tma_assert.svh"

module tma_bulk_group #(
  parameter  int unsigned NumIssuers = 16,
  parameter  int unsigned MaxGroups  = 4,     // groups in flight per issuer (open one included)
  parameter  int unsigned CntW       = 8,     // pending operations per group < 2^CntW
  parameter  int unsigned SeqW       = 8,     // group sequence numbers (mod 2^SeqW)
  localparam int unsigned IssW       = (NumIssuers > 1) ? $clog2(NumIssuers) : 1,
  localparam int unsigned SlotW      = (MaxGroups > 1) ? $clog2(MaxGroups) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // Operations and commits, in program order per issuer
  input  logic            req_valid_i,
  output logic            req_ready_o,
  input  logic [IssW-1:0] req_issuer_i,
  input  logic            req_commit_i,   // 1: commit_group; 0: an operation
  input  logic            req_rd_i,       // the operation will report a read event
  input  logic            req_wr_i,       // the operation will report a write event
  output logic [SeqW-1:0] req_seq_o,      // the group an operation joins
  output logic            op_ready_o,     // an operation (req_commit_i = 0) would be taken
  // Read events: an operation's sources are read
  input  logic            rd_valid_i,
  output logic            rd_ready_o,
  input  logic [IssW-1:0] rd_issuer_i,
  input  logic [SeqW-1:0] rd_seq_i,
  input  logic            rd_err_i,
  // Write events: an operation's writes are complete
  input  logic            wr_valid_i,
  output logic            wr_ready_o,
  input  logic [IssW-1:0] wr_issuer_i,
  input  logic [SeqW-1:0] wr_seq_i,
  input  logic            wr_err_i,
  // Group completions, in group order per issuer
  output logic            cpl_valid_o,
  input  logic            cpl_ready_i,
  output logic [IssW-1:0] cpl_issuer_o,
  output logic [SeqW-1:0] cpl_seq_o,
  output logic            cpl_done_o,     // 0: read-done (wait_group.read), 1: done (wait_group)
  output logic            cpl_err_o,
  // Status: a group is open with operations, committed and not done, or being reported
  output logic            busy_o
);

  // ---- Types and localparams ----
  localparam int unsigned NumSlots = NumIssuers * MaxGroups;
  localparam int unsigned NumCand  = 2 * NumIssuers;           // read-done, done per issuer
  localparam int unsigned CandW    = $clog2(NumCand);
  localparam int unsigned CplW     = IssW + SeqW + 2;

  // ---- Signals ----
  logic [SeqW-1:0] open_q    [NumIssuers];   // the open group
  logic [SeqW-1:0] rhead_q   [NumIssuers];   // next group to report read-done
  logic [SeqW-1:0] dhead_q   [NumIssuers];   // next group to report done
  logic [CntW-1:0] rcnt_q    [NumSlots];     // operations of the group without read event
  logic [CntW-1:0] wcnt_q    [NumSlots];     // ... without write event
  logic            rerr_q    [NumSlots];
  logic            werr_q    [NumSlots];
  logic [CntW-1:0] rcnt_d    [NumSlots];
  logic [CntW-1:0] wcnt_d    [NumSlots];
  logic [NumSlots-1:0] rerr_d, werr_d;
  logic [NumSlots-1:0] join_op, rd_ev, wr_ev, clr;   // per slot: a request / event / clear

  logic            req_hs, req_op, req_cm;
  logic [SeqW-1:0] req_open;
  logic [NumCand-1:0] cand, cand_q, pick_src;
  logic [CandW-1:0]   rr_q, pick, pick_q;
  logic               any, pick_v_q;
  logic [CplW-1:0]    sel_cpl;
  logic               sp_ready, push;
  logic [IssW-1:0]    pick_iss;
  logic               pick_done;
  logic               found_hi;
  logic [SeqW-1:0]    sel_seq;
  logic               sel_err;
  logic [SeqW-1:0]    open_d  [NumIssuers];
  logic [SeqW-1:0]    dhead_d [NumIssuers];
  logic                  any_full_d, any_full_q;  // a group held >= 2^CntW - 2 operations
  // the events, registered
  logic            rd_v_q, rd_err_q, wr_v_q, wr_err_q;
  logic [IssW-1:0] rd_iss_q, wr_iss_q;
  logic [SeqW-1:0] rd_seq_q, wr_seq_q;
  logic [NumIssuers-1:0] cm_full_d, cm_full_q;  // MaxGroups - 1 groups committed, not done

  // ---- Requests ----
  assign req_open  = open_q[req_issuer_i];
  assign req_seq_o = req_open;
  assign op_ready_o  = !any_full_q;
  assign req_ready_o = req_commit_i ? !cm_full_q[req_issuer_i] : op_ready_o;
  assign req_hs = req_valid_i && req_ready_o;
  assign req_op = req_hs && !req_commit_i;
  assign req_cm = req_hs && req_commit_i;

  assign rd_ready_o = 1'b1;
  assign wr_ready_o = 1'b1;

  // ---- Completion candidates: read-done at rhead, done at dhead, per issuer ----
  always_comb begin : proc_cand
    for (int i = 0; i < NumIssuers; i++) begin
      // Committed (not the open group) and all reads in.
      cand[2*i]     = (rhead_q[i] != open_q[i]) &&
                      rcnt_q[i * MaxGroups + 32'(rhead_q[i][SlotW-1:0])] == '0;
      // Read-done reported, all writes in.
      cand[2*i + 1] = (dhead_q[i] != rhead_q[i]) &&
                      wcnt_q[i * MaxGroups + 32'(dhead_q[i][SlotW-1:0])] == '0;
    end
  end

  // Round-robin among the registered candidates but the waiting choice: the first at or after
  // rr_q, else the first.
  assign pick_src = cand_q & ~(pick_v_q ? (NumCand'(1) << pick_q) : '0);
  always_comb begin : proc_pick
    pick     = '0;
    any      = 1'b0;
    found_hi = 1'b0;
    for (int c = NumCand - 1; c >= 0; c--) begin
      if (pick_src[c]) begin
        any = 1'b1;
        if (CandW'(c) >= rr_q) begin
          pick     = CandW'(c);
          found_hi = 1'b1;
        end else if (!found_hi) begin
          pick = CandW'(c);
        end
      end
    end
  end

  // Stage 2: a choice waits in pick_q until the spill register takes its completion.
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_pick_q
    if (!rst_ni) begin
      cand_q   <= '0;
      pick_q   <= '0;
      pick_v_q <= 1'b0;
    end else begin
      // The choice taken now is a candidate no more from the next cycle (its head advances).
      cand_q <= cand & ~(push ? (NumCand'(1) << pick_q) : '0);
      if (push || !pick_v_q) begin
        pick_v_q <= any;
        pick_q   <= pick;
      end
    end
  end

  assign pick_iss  = IssW'(pick_q >> 1);
  assign pick_done = pick_q[0];

  assign sel_seq = pick_done ? dhead_q[pick_iss] : rhead_q[pick_iss];
  assign sel_err = rerr_q[32'(pick_iss) * MaxGroups + 32'(sel_seq[SlotW-1:0])] ||
                   (pick_done && werr_q[32'(pick_iss) * MaxGroups + 32'(sel_seq[SlotW-1:0])]);
  assign sel_cpl = {pick_iss, sel_seq, pick_done, sel_err};

  // Stage 3: the waiting choice's completion enters the spill register when it has room.
  assign push = pick_v_q && sp_ready;

  tma_spill_reg #(
    .Width (CplW)
  ) u_cpl (
    .clk_i,
    .rst_ni,
    .in_valid_i  (push),
    .in_ready_o  (sp_ready),
    .in_data_i   (sel_cpl),
    .out_valid_o (cpl_valid_o),
    .out_ready_i (cpl_ready_i),
    .out_data_o  ({cpl_issuer_o, cpl_seq_o, cpl_done_o, cpl_err_o})
  );

  // ---- State ----
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_ptr
    if (!rst_ni) begin
      for (int i = 0; i < NumIssuers; i++) begin
        open_q[i]  <= '0;
        rhead_q[i] <= '0;
        dhead_q[i] <= '0;
      end
      rr_q <= '0;
    end else begin
      if (req_cm) begin
        open_q[req_issuer_i] <= req_open + SeqW'(1);
      end
      if (push) begin
        if (pick_done) begin
          dhead_q[pick_iss] <= dhead_q[pick_iss] + SeqW'(1);
        end else begin
          rhead_q[pick_iss] <= rhead_q[pick_iss] + SeqW'(1);
        end
        rr_q <= (pick_q == CandW'(NumCand - 1)) ? '0 : pick_q + CandW'(1);
      end
    end
  end

  // Counters: + an operation joining the slot, - its events; a done group's slot is cleared
  // when its completion is taken (its counters are zero then, its error flags reset).
  always_comb begin : proc_cnt_next
    for (int i = 0; i < NumIssuers; i++) begin
      for (int g = 0; g < MaxGroups; g++) begin
        join_op[i * MaxGroups + g] = req_op && 32'(req_issuer_i) == i &&
                                     32'(req_open[SlotW-1:0]) == g;
        rd_ev[i * MaxGroups + g]   = rd_v_q && 32'(rd_iss_q) == i &&
                                     32'(rd_seq_q[SlotW-1:0]) == g;
        wr_ev[i * MaxGroups + g]   = wr_v_q && 32'(wr_iss_q) == i &&
                                     32'(wr_seq_q[SlotW-1:0]) == g;
        clr[i * MaxGroups + g]     = push && pick_done && 32'(pick_iss) == i &&
                                     32'(dhead_q[i][SlotW-1:0]) == g;
      end
    end
    for (int s = 0; s < NumSlots; s++) begin
      rcnt_d[s] = rcnt_q[s] + CntW'(join_op[s] && req_rd_i) - CntW'(rd_ev[s]);
      wcnt_d[s] = wcnt_q[s] + CntW'(join_op[s] && req_wr_i) - CntW'(wr_ev[s]);
      rerr_d[s] = !clr[s] && (rerr_q[s] || (rd_ev[s] && rd_err_q));
      werr_d[s] = !clr[s] && (werr_q[s] || (wr_ev[s] && wr_err_q));
    end
  end

  // A counter at 2^CntW - 2 or more (its bits above bit 0 all set).
  function automatic logic near_full(logic [CntW-1:0] c);
    near_full = c >= CntW'((1 << CntW) - 2);
  endfunction

  // Request readiness of the next cycle: commits per issuer, operations for all issuers.
  always_comb begin : proc_ready_next
    for (int i = 0; i < NumIssuers; i++) begin
      open_d[i]  = open_q[i] + SeqW'(req_cm && 32'(req_issuer_i) == i);
      dhead_d[i] = dhead_q[i] + SeqW'(push && pick_done && 32'(pick_iss) == i);
      cm_full_d[i] = SeqW'(open_d[i] - dhead_d[i]) >= SeqW'(MaxGroups - 1);
    end
    any_full_d = 1'b0;
    for (int s = 0; s < NumSlots; s++) begin
      if (near_full(rcnt_q[s]) || near_full(wcnt_q[s])) any_full_d = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_ready
    if (!rst_ni) begin
      any_full_q <= 1'b0;
      cm_full_q  <= '0;
    end else begin
      any_full_q <= any_full_d;
      cm_full_q  <= cm_full_d;
    end
  end

  // The events enter registers (no back-pressure: one of each kind per cycle).
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_ev
    if (!rst_ni) begin
      rd_v_q <= 1'b0;
      wr_v_q <= 1'b0;
    end else begin
      rd_v_q <= rd_valid_i;
      wr_v_q <= wr_valid_i;
    end
  end
  always_ff @(posedge clk_i) begin : proc_ev_data
    rd_iss_q <= rd_issuer_i;
    rd_seq_q <= rd_seq_i;
    rd_err_q <= rd_err_i;
    wr_iss_q <= wr_issuer_i;
    wr_seq_q <= wr_seq_i;
    wr_err_q <= wr_err_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_cnt
    if (!rst_ni) begin
      for (int s = 0; s < NumSlots; s++) begin
        rcnt_q[s] <= '0;
        wcnt_q[s] <= '0;
        rerr_q[s] <= 1'b0;
        werr_q[s] <= 1'b0;
      end
    end else begin
      for (int s = 0; s < NumSlots; s++) begin
        rcnt_q[s] <= rcnt_d[s];
        wcnt_q[s] <= wcnt_d[s];
        rerr_q[s] <= rerr_d[s];
        werr_q[s] <= werr_d[s];
      end
    end
  end

  always_comb begin : proc_busy
    busy_o = cpl_valid_o;
    for (int i = 0; i < NumIssuers; i++) begin
      if (dhead_q[i] != open_q[i]) busy_o = 1'b1;
    end
    for (int s = 0; s < NumSlots; s++) begin
      if (rcnt_q[s] != '0 || wcnt_q[s] != '0) busy_o = 1'b1;
    end
  end

  // ---- Assertions ----
  `TMA_ASSERT_INIT(NumIssuersValid_A, NumIssuers >= 1)
  `TMA_ASSERT_INIT(MaxGroupsPow2_A, MaxGroups >= 2 && (MaxGroups & (MaxGroups - 1)) == 0)
  `TMA_ASSERT_INIT(SeqWideEnough_A, SeqW > SlotW)
  `TMA_ASSERT_INIT(CntWValid_A, CntW >= 2 && CntW <= 16)
  `TMA_ASSERT_STABLE(CplStable_A, cpl_valid_o, cpl_ready_i,
                     {cpl_issuer_o, cpl_seq_o, cpl_done_o, cpl_err_o})
  // Required of the sources: issuers in range; an event names a group in flight (committed and
  // not done, or the open one) that still waits for such an event.
  `TMA_ASSERT_IMPLY(ReqIssuerInRange_A, req_valid_i, 32'(req_issuer_i) < NumIssuers)
  `TMA_ASSERT_IMPLY(RdEventExpected_A, rd_v_q,
                    32'(rd_iss_q) < NumIssuers &&
                    SeqW'(rd_seq_q - rhead_q[rd_iss_q]) <=
                        SeqW'(open_q[rd_iss_q] - rhead_q[rd_iss_q]) &&
                    rcnt_q[rd_iss_q * MaxGroups + 32'(rd_seq_q[SlotW-1:0])] != '0)
  `TMA_ASSERT_IMPLY(WrEventExpected_A, wr_v_q,
                    32'(wr_iss_q) < NumIssuers &&
                    SeqW'(wr_seq_q - dhead_q[wr_iss_q]) <=
                        SeqW'(open_q[wr_iss_q] - dhead_q[wr_iss_q]) &&
                    wcnt_q[wr_iss_q * MaxGroups + 32'(wr_seq_q[SlotW-1:0])] != '0)
  // Pointer order: dhead <= rhead <= open, at most MaxGroups - 1 groups committed.
  for (genvar i = 0; i < NumIssuers; i++) begin : gen_ptr_sva
    `TMA_ASSERT(PtrOrder_A, SeqW'(rhead_q[i] - dhead_q[i]) <= SeqW'(open_q[i] - dhead_q[i]) &&
                            SeqW'(open_q[i] - dhead_q[i]) < SeqW'(MaxGroups))
  end
  // The registered readiness equals its definition on the present state; a waiting choice
  // is still a candidate.
  logic full_prev_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_full_prev
    if (!rst_ni) begin
      full_prev_q <= 1'b0;
    end else begin
      full_prev_q <= 1'b0;
      for (int s = 0; s < NumSlots; s++) begin
        if (rcnt_q[s] >= CntW'((1 << CntW) - 2) || wcnt_q[s] >= CntW'((1 << CntW) - 2)) begin
          full_prev_q <= 1'b1;
        end
      end
    end
  end
  `TMA_ASSERT_COPY(AnyFullReg_A, any_full_q, full_prev_q)
  // No counter wraps: a slot at 2^CntW - 1 takes no operation without an event.
  for (genvar s = 0; s < NumSlots; s++) begin : gen_cnt_sva
    `TMA_ASSERT_NEVER(RdCntWrap_A, rcnt_q[s] == '1 && join_op[s] && req_rd_i && !rd_ev[s])
    `TMA_ASSERT_NEVER(WrCntWrap_A, wcnt_q[s] == '1 && join_op[s] && req_wr_i && !wr_ev[s])
  end
  for (genvar i = 0; i < NumIssuers; i++) begin : gen_ready_sva
    `TMA_ASSERT_COPY(CommitFullReg_A, cm_full_q[i],
                     SeqW'(open_q[i] - dhead_q[i]) >= SeqW'(MaxGroups - 1))
  end
  `TMA_ASSERT_IMPLY(PickStillCand_A, pick_v_q, cand[pick_q])
  `TMA_COVER(CplBackpressure_C, cpl_valid_o && !cpl_ready_i)
  `TMA_COVER(CommitBlocked_C, req_valid_i && req_commit_i && !req_ready_o)

endmodule

`default_nettype wire
