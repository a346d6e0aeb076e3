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

  // ~(x + es + ~hi) = hi - x - es, for x = coord and x = lo of W
  always_comb begin : proc_wrap
    logic [34:0] xc, xl, e, h, s;
    logic [33:0] m;
    xc = {job_i.coord.v[1][33], job_i.coord.v[1]};
    xl = {job_i.lo.v[1][33], job_i.lo.v[1]};
    e  = 35'(job_i.es.v[1]);
    h  = ~{job_i.hi.v[1][33], job_i.hi.v[1]};
    s  = xc ^ e ^ h;
    m  = 34'((xc & e) | (xc & h) | (e & h));
    wm_d = ~(s + {m, 1'b0});
    s  = xl ^ e ^ h;
    m  = 34'((xl & e) | (xl & h) | (e & h));
    hlm_d = ~(s + {m, 1'b0});
    for (int i = 0; i < 3; i++) begin
      nsel_d[i] = job_i.hi.v[i + 2] == {1'b0, {33{1'b1}}};
    end
  end

  always_ff @(posedge clk_i) begin : proc_wrap_q
    wm_q_o   <= wm_d;
    hlm_q_o  <= hlm_d;
    nsel_q_o <= nsel_d;
  end

  always_comb begin : proc_n
    n_o      = '0;
    es_n_o   = '0;
    dim_n_o  = '0;
    step_n_o = '0;
    for (int i = 0; i < 3; i++) begin
      if (nsel_q_o[i]) begin
        n_o      = job_i.coord.v[i + 2];
        es_n_o   = 34'(job_i.es.v[i + 2]);
        dim_n_o  = job_i.dim_m1.v[i + 2];
        step_n_o = job_i.step.v[i + 2];
      end
      fix_oob_o[i] = !nsel_q_o[i] && (job_i.coord.v[i + 2][33:32] != 2'b00 ||
                                      job_i.coord.v[i + 2][31:0] > job_i.dim_m1.v[i + 2]);
    end
  end

  // 5:2 compressor: (gaddr, head, astart[2]) -> (s1, c1); (s1, c1, astart[3]) -> (s2, c2);
  // (s2, c2, astart[4]) -> the pair. Carries move up one bit (modulo 2^64).
  always_comb begin : proc_base
    logic [63:0] a, b, c, s;
    logic [62:0] m;
    a = job_i.gaddr;
    b = 64'(job_i.head);
    c = job_i.astart.v[2];
    s = a ^ b ^ c;
    m = 63'((a & b) | (a & c) | (b & c));
    a = s;
    b = {m, 1'b0};
    c = job_i.astart.v[3];
    s = a ^ b ^ c;
    m = 63'((a & b) | (a & c) | (b & c));
    a = s;
    b = {m, 1'b0};
    c = job_i.astart.v[4];
    base_s_o = a ^ b ^ c;
    m = 63'((a & b) | (a & c) | (b & c));
    base_c_o = {m, 1'b0};
  end

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
