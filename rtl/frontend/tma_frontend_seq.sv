// SPDX-License-Identifier: Apache-2.0
//
// tma_frontend_seq: the frontend's sequencer, one command at a time through intake, map
// (cache read or fetch and check), job setup (W1, W1B, W2), address MAC, or an error marker.
//
// States (one-hot; each state flop drives its own fan-out):
//   Idle   waits for the intake to take a command: a map hit goes to Read, a miss to Fetch,
//          a command that needs no map (its class is an error) to Err
//   Read   the cache entry enters the map register
//   Fetch  the map is read over AXI; a bus error on any beat ends in Err
//   Chk    the descriptor check (nine cycles)
//   W1     waits until the job register is empty (w1_go_q: registered, it selects every job
//          bit); a map that breaks a descriptor rule ends in Err
//   W1B, W2  the job setup's next two steps
//   Mac    until the MAC is idle, or at once for a marker (instruction error, check-only
//          prefetch)
//   Err    an error marker, once the job register is empty
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
  input  logic       abort_i,
  output logic       w1_go_o,
  output logic       w1b_o,
  output logic       w2_o,
  output logic       mac_o,
  output logic       err_o,
  output logic [3:0] err_code_o,
  output logic       busy_o
);

  localparam int unsigned IIdle = 0, IRead = 1, IFetch = 2, IChk = 3, IW1 = 4, IW1B = 5,
                          IW2 = 6, IMac = 7, IErr = 8;
  typedef enum logic [8:0] {
    StIdle  = 9'(1) << IIdle,
    StRead  = 9'(1) << IRead,
    StFetch = 9'(1) << IFetch,
    StChk   = 9'(1) << IChk,
    StW1    = 9'(1) << IW1,
    StW1B   = 9'(1) << IW1B,
    StW2    = 9'(1) << IW2,
    StMac   = 9'(1) << IMac,
    StErr   = 9'(1) << IErr
  } state_e;

  state_e     state_d, state_q;
  logic [3:0] err_d, err_q;
  logic       w1_go_d, w1_go_q;
  logic       take_bad;
  logic       mac_end;

  assign take_bad      = take_err_i != tma_pkg::ErrNone;
  assign lookup_o      = take_i && !take_bad;
  assign fetch_start_o = lookup_o && !hit_i;
  assign mac_end       = abort_i || mac_idle_i;

  // Next state, one equation per state flop.
  always_comb begin : proc_next
    logic r_end;
    r_end   = state_q[IFetch] && fetch_end_i;
    state_d = StIdle;   // (every bit is assigned below)
    state_d[IIdle]  = (state_q[IIdle] && !take_i) || (state_q[IMac] && mac_end) ||
                      (state_q[IErr] && job_free_i);
    state_d[IRead]  = lookup_o && hit_i;
    state_d[IFetch] = fetch_start_o || (state_q[IFetch] && !fetch_end_i);
    state_d[IChk]   = (r_end && !fetch_bad_i) || (state_q[IChk] && !chk_last_i);
    state_d[IW1]    = state_q[IRead] || (state_q[IChk] && chk_last_i) ||
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
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_regs
    if (!rst_ni) begin
      state_q <= StIdle;
      err_q   <= '0;
      w1_go_q <= 1'b0;
    end else begin
      state_q <= state_d;
      err_q   <= err_d;
      w1_go_q <= w1_go_d;
    end
  end

  assign idle_o     = state_q[IIdle];
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
  `TMA_ASSERT_NEVER(MapLoadOutsideReadChk_A, map_load_i && !state_q[IRead] &&
                                             !(state_q[IChk] && chk_last_i))
  `TMA_ASSERT_NEVER(TakeWhileBusy_A, take_i && !state_q[IIdle])

endmodule

`default_nettype wire
