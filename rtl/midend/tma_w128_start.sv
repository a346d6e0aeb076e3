// SPDX-License-Identifier: Apache-2.0
//
// tma_w128_start: row 0 of the im2col::w::128 job on the walker's job input (tma_w128_walker
// loads its walk state from it when it takes the job: when idle, or with the previous job's
// last row, so the next job's start costs no cycle of the walk).
//
// Registered every cycle, from the job fields that the walker's job timing rule holds stable
// in the cycle before job_valid_i rises (docs/interfaces.md, "Walker job timing": coord, lo,
// hi, es), so their carry chains end in these flops instead of in the walker's load selects:
//   wm   hi - coord - es of W (walker dim 1): W wraps after row 0 when it is negative;
//   hlm  hi - lo - es of W: that difference after a restart;
//   nsel N, the walker dim among 2..4 that never wraps (hi = 2^33 - 1).
// Each difference is ~(x + es + ~hi), one 3:2 level and one 35-bit add.
// Combinational (a select by nsel, a compare, adders without a carry chain):
//   N's position, step and bound, selected by nsel;
//   the fixed dims' out-of-bounds flags (dims 2..4 other than N: tile dims of box 1);
//   the address of row 0 without W's contribution, gaddr + head + astart[2] + astart[3] +
//   astart[4], as a carry-save pair (a 5:2 compressor: three 3:2 levels). It includes N's
//   contribution at the start, so the walker's a[N] starts from the pair's sum and steps.

`default_nettype none

`include "tma_assert.svh"

module tma_w128_start (
  input  logic          clk_i,
  input  logic          rst_ni,
  // The job on the walker's input (job_valid_i only for the timing check)
  input  logic          job_valid_i,
  input  tma_pkg::job_t job_i,
  // Row 0, registered (of the job fields one cycle earlier)
  output logic [34:0]   wm_q_o,      // hi - coord - es of W
  output logic [34:0]   hlm_q_o,     // hi - lo - es of W
  output logic [2:0]    nsel_q_o,    // walker dim 2 + i is N
  // Row 0, this cycle's job fields
  output logic [33:0]   n_o,         // N's position
  output logic [33:0]   es_n_o,      // N's position step
  output logic [31:0]   dim_n_o,     // N's bound
  output logic [63:0]   step_n_o,    // N's address step
  output logic [2:0]    fix_oob_o,   // fixed dim 2 + i is out of bounds
  output logic [63:0]   base_s_o,    // gaddr + head + astart[2..4]: sum ...
  output logic [63:0]   base_c_o     // ... and carry
);

  logic [34:0] wm_d, hlm_d;
  logic [2:0]  nsel_d;

  // ~(x + es + ~hi) = hi - x - es, for x = coord and x = lo of W: one 3:2 level, one add
  logic [33:0] cw, lw, hw;
  logic [34:0] xc, xl, xe, xh, sc, sl;
  logic [33:0] mc, ml;
  assign cw = job_i.coord.v[1];
  assign lw = job_i.lo.v[1];
  assign hw = job_i.hi.v[1];
  assign xc = {cw[33], cw};
  assign xl = {lw[33], lw};
  assign xe = 35'(job_i.es.v[1]);
  assign xh = ~{hw[33], hw};
  assign sc = xc ^ xe ^ xh;
  assign mc = 34'((xc & xe) | (xc & xh) | (xe & xh));
  assign sl = xl ^ xe ^ xh;
  assign ml = 34'((xl & xe) | (xl & xh) | (xe & xh));
  assign wm_d  = ~(sc + {mc, 1'b0});
  assign hlm_d = ~(sl + {ml, 1'b0});
  for (genvar i = 0; i < 3; i++) begin : gen_nsel
    assign nsel_d[i] = job_i.hi.v[i + 2] == {1'b0, {33{1'b1}}};
  end

  always_ff @(posedge clk_i) begin : proc_wrap_q
    wm_q_o   <= wm_d;
    hlm_q_o  <= hlm_d;
    nsel_q_o <= nsel_d;
  end

  // N's fields, selected by the registered flag (one-hot); the fixed dims' bound checks
  logic [33:0] fc [3];
  logic [33:0] fes [3];
  logic [31:0] fdim [3];
  logic [63:0] fstep [3];
  for (genvar i = 0; i < 3; i++) begin : gen_dim
    assign fc[i]        = job_i.coord.v[i + 2];
    assign fes[i]       = 34'(job_i.es.v[i + 2]);
    assign fdim[i]      = job_i.dim_m1.v[i + 2];
    assign fstep[i]     = job_i.step.v[i + 2];
    assign fix_oob_o[i] = !nsel_q_o[i] && (fc[i][33:32] != 2'b00 || fc[i][31:0] > fdim[i]);
  end
  assign n_o      = ({34{nsel_q_o[0]}} & fc[0]) | ({34{nsel_q_o[1]}} & fc[1]) |
                    ({34{nsel_q_o[2]}} & fc[2]);
  assign es_n_o   = ({34{nsel_q_o[0]}} & fes[0]) | ({34{nsel_q_o[1]}} & fes[1]) |
                    ({34{nsel_q_o[2]}} & fes[2]);
  assign dim_n_o  = ({32{nsel_q_o[0]}} & fdim[0]) | ({32{nsel_q_o[1]}} & fdim[1]) |
                    ({32{nsel_q_o[2]}} & fdim[2]);
  assign step_n_o = ({64{nsel_q_o[0]}} & fstep[0]) | ({64{nsel_q_o[1]}} & fstep[1]) |
                    ({64{nsel_q_o[2]}} & fstep[2]);

  // 5:2 compressor: (gaddr, head, astart[2]) -> (s1, c1); (s1, c1, astart[3]) -> (s2, c2);
  // (s2, c2, astart[4]) -> the pair. Carries move up one bit (modulo 2^64).
  logic [63:0] ba, bb, bc, bd, be, s1, c1, s2, c2;
  assign ba = job_i.gaddr;
  assign bb = 64'(job_i.head);
  assign bc = job_i.astart.v[2];
  assign bd = job_i.astart.v[3];
  assign be = job_i.astart.v[4];
  assign s1 = ba ^ bb ^ bc;
  assign c1 = {63'((ba & bb) | (ba & bc) | (bb & bc)), 1'b0};
  assign s2 = s1 ^ c1 ^ bd;
  assign c2 = {63'((s1 & c1) | (s1 & bd) | (c1 & bd)), 1'b0};
  assign base_s_o = s2 ^ c2 ^ be;
  assign base_c_o = {63'((s2 & c2) | (s2 & be) | (c2 & be)), 1'b0};

  // (most of the job's fields are the walker's, read there)
  logic unused_job;
  assign unused_job = ^job_i;

  // ---- Assertions ----
  // The registered values are those of the job on the input whenever it is valid; the
  // 35-bit difference equals the 34-bit one sign-extended (W's hi - coord fits 34 bits).
  logic [33:0] wd_chk;
  assign wd_chk = job_i.hi.v[1] - job_i.coord.v[1];
  `TMA_ASSERT_IMPLY(W128StartFresh_A, job_valid_i,
                    wm_q_o == wm_d && hlm_q_o == hlm_d && nsel_q_o == nsel_d)
  `TMA_ASSERT_IMPLY(W128StartDiff_A, job_valid_i,
                    wm_d == {wd_chk[33], wd_chk} - 35'(job_i.es.v[1]))

endmodule

`default_nettype wire
