// SPDX-License-Identifier: Apache-2.0
//
// tma_frontend_seq: the frontend's sequencer, one command at a time through intake, map
// (cache hit or fetch and check), job setup (W1, W1B, W2), address MAC, or an error marker.
//
// States (one-hot; each state flop drives its own fan-out):
//   Idle   waits for the intake to take a command: a map hit goes to W1 (the cache entry
//          enters the map register in the cycle of the take), a miss to Fetch, a command
//          that needs no map (its class is an error) to Err
//   Fetch  the map is read over AXI; a bus error on any beat ends in Err
//   Chk    the descriptor check (nine cycles)
//   W1     waits until the job register is free (w1_go_q: registered, it selects every job
//          bit; the job register is free when it holds no job and no earlier command's MAC
//          products are still to land in it); a map that breaks a descriptor rule ends in Err
//   W1B, W2  the job setup's next two steps
//   Mac    the job setup's last step (the row's byte range, or a marker for an instruction
//          error or a check-only prefetch), until the MAC has loaded the operands of every
//          slot (they come from the command and map registers), or at once for a marker
//   Err    an error marker, once the job register is free
// The MAC request runs beside W1: from the cycle after the map is good (the MAC's operands are
// registered from the command and map registers: valid a cycle later), as soon as the MAC is
// idle, so the products of a command can be formed while the job register still holds the
// previous job (the MAC freezes before a write-back until the job setup has done W2 of its
// command). With the job register free in the first cycle of W1 the request comes with W1B;
// it has always come by W1B (the previous command's products end before its job is valid).
// After Mac the products still in the MAC's pipeline land in the job register while the
// next command is taken (the job setup makes the job valid when the MAC is idle).
// The error class of Err (err_code_o): the command's own class, a bus error, or an invalid
// descriptor; the instruction errors are the instruction check's (they end in Mac).

`default_nettype none

`include "tma_assert.svh"

module tma_frontend_seq (
  input  logic       clk_i,
  input  logic       rst_ni,
  // Intake and lookup
  input  logic       take_i,
  input  logic [3:0] take_err_i,
  input  logic       hit_i,
  output logic       idle_o,
  output logic       idle_next_o,     // the next cycle is Idle
  output logic       lookup_o,        // the command taken needs its map
  output logic       fetch_start_o,   // ... and it missed
  // Fetch and check
  output logic       fetching_o,
  input  logic       fetch_end_i,
  input  logic       fetch_bad_i,
  input  logic       chk_last_i,
  // Map register
  input  logic       map_load_i,      // the map register takes a map now ...
  input  logic       map_load_bad_i,  // ... a bad one
  input  logic       map_bad_i,       // the map register's map is bad
  // Job setup and MAC
  input  logic       job_free_i,
  input  logic       job_stall_i,
  input  logic       mac_idle_i,
  input  logic       mac_opnd_done_i, // the MAC has loaded every slot's operands
  input  logic       abort_i,
  output logic       mac_req_o,       // the MAC takes this command's slot list now
  output logic       w1_go_o,
  output logic       w1b_o,
  output logic       w2_o,
  output logic       mac_o,
  output logic       err_o,
  output logic [3:0] err_code_o,
  output logic       busy_o
);

  localparam int unsigned IIdle = 0, IFetch = 1, IChk = 2, IW1 = 3, IW1B = 4, IW2 = 5,
                          IMac = 6, IErr = 7;
  typedef enum logic [7:0] {
    StIdle  = 8'(1) << IIdle,
    StFetch = 8'(1) << IFetch,
    StChk   = 8'(1) << IChk,
    StW1    = 8'(1) << IW1,
    StW1B   = 8'(1) << IW1B,
    StW2    = 8'(1) << IW2,
    StMac   = 8'(1) << IMac,
    StErr   = 8'(1) << IErr
  } state_e;

  state_e     state_d, state_q;
  logic [3:0] err_d, err_q;
  logic       w1_go_d, w1_go_q;
  logic       take_bad;
  logic       mac_end;
  logic       w1_first_d, w1_first_q;   // the first cycle of W1 (the map register's map)
  logic       mreq_d, mreq_q;           // the MAC request is due (from the cycle after W1's
                                        // first), until the MAC takes it

  assign take_bad      = take_err_i != tma_pkg::ErrNone;
  assign lookup_o      = take_i && !take_bad;
  assign fetch_start_o = lookup_o && !hit_i;
  assign mac_end       = abort_i || (mac_opnd_done_i && !mreq_q);
  assign mac_req_o     = mreq_q && mac_idle_i;

  // Next state, one equation per state flop.
  always_comb begin : proc_next
    logic r_end;
    r_end   = state_q[IFetch] && fetch_end_i;
    state_d = StIdle;   // (every bit is assigned below)
    state_d[IIdle]  = (state_q[IIdle] && !take_i) || (state_q[IMac] && mac_end) ||
                      (state_q[IErr] && job_free_i);
    state_d[IFetch] = fetch_start_o || (state_q[IFetch] && !fetch_end_i);
    state_d[IChk]   = (r_end && !fetch_bad_i) || (state_q[IChk] && !chk_last_i);
    state_d[IW1]    = (lookup_o && hit_i) || (state_q[IChk] && chk_last_i) ||
                      (state_q[IW1] && !map_bad_i && !w1_go_q);
    state_d[IW1B]   = state_q[IW1] && w1_go_q;   // (w1_go_q: the map is good)
    state_d[IW2]    = state_q[IW1B];
    state_d[IMac]   = state_q[IW2] || (state_q[IMac] && !mac_end);
    state_d[IErr]   = (take_i && take_bad) || (r_end && fetch_bad_i) ||
                      (state_q[IW1] && map_bad_i) || (state_q[IErr] && !job_free_i);
    err_d = err_q;
    if (take_i) err_d = take_err_i;
    if (r_end && fetch_bad_i) err_d = tma_pkg::ErrBusError;
    if (state_q[IW1] && map_bad_i) err_d = tma_pkg::ErrInvalidDescriptor;
    // W1 loads the job register: the map is good and the register is empty (written out from
    // the next state so that the cone stays small)
    w1_go_d = !job_stall_i && ((map_load_i && !map_load_bad_i) ||
                               (state_q[IW1] && !w1_go_q && !map_bad_i));
    w1_first_d = (lookup_o && hit_i) || (state_q[IChk] && chk_last_i);
    mreq_d     = (w1_first_q && !map_bad_i) || (mreq_q && !mac_idle_i);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_regs
    if (!rst_ni) begin
      state_q <= StIdle;
      err_q   <= '0;
      w1_go_q <= 1'b0;
      w1_first_q <= 1'b0;
      mreq_q     <= 1'b0;
    end else begin
      state_q <= state_d;
      err_q   <= err_d;
      w1_go_q <= w1_go_d;
      w1_first_q <= w1_first_d;
      mreq_q     <= mreq_d;
    end
  end

  assign idle_o     = state_q[IIdle];
  assign idle_next_o = state_d[IIdle];
  assign fetching_o = state_q[IFetch];
  assign w1_go_o    = w1_go_q;
  assign w1b_o      = state_q[IW1B];
  assign w2_o       = state_q[IW2];
  assign mac_o      = state_q[IMac];
  assign err_o      = state_q[IErr];
  assign err_code_o = err_q;
  assign busy_o     = !state_q[IIdle];

  // ---- Assertions ----
  `TMA_ASSERT_NEVER(StateOneHot_A, !$onehot(state_q))
  `TMA_ASSERT_COPY(W1GoRegistered_A, w1_go_q, state_q[IW1] && !map_bad_i && job_free_i)
  `TMA_ASSERT_NEVER(MapLoadOutsideHitChk_A, map_load_i && !(lookup_o && hit_i) &&
                                            !(state_q[IChk] && chk_last_i))
  `TMA_ASSERT_NEVER(TakeWhileBusy_A, take_i && !state_q[IIdle])
  `TMA_ASSERT_NEVER(W1First_A, w1_first_q && !state_q[IW1])
  // the MAC request has come by W1B (the job setup's W2 needs it for the MAC's write-backs)
  `TMA_ASSERT_NEVER(MacReqByW1b_A, state_q[IW1B] && mreq_q && !mac_idle_i)
  `TMA_ASSERT_NEVER(MacReqOutsideW1_A, mreq_q && !state_q[IW1] && !state_q[IW1B])

endmodule

`default_nettype wire
