// SPDX-License-Identifier: Apache-2.0
//
// tma_w128_walker: expands one im2col::w::128 job into its 128 + 4 wHalo rows, one row per
// cycle (the midend walker beside tma_nd_walker and tma_gather_walker).
//
// The pixels form one linear im2col::w walk seq[0], seq[1], ... (tensor-semantics 6, the
// model's traversal): W (walker dim 1) from its start stepping es[W], restarting at the lower
// corner past the upper one (both shifted by wOffset, in the job's coord / lo / hi); each
// restart steps N (the walker dim among 2..4 that never wraps, hi = 2^33 - 1) by es[N]; H and
// D stay at their coordinates (tile dims of box 1). The rows come in four groups: group g is
// seq[32 g .. 32 g + 31] followed by its wHalo halo pixels seq[32 (g + 1) .. 32 (g + 1) +
// wHalo - 1], i.e. 32 + wHalo consecutive positions of the walk from seq[32 g]. The walker
// walks each group in turn; the state at seq[32 (g + 1)] (after 32 steps of group g) is kept
// and restored when the group's halo ends, so group g + 1 starts there.
//
// Row k of the command: global address gaddr + head + a[fixed dims] + a[W] + a[N], out of
// bounds (no read, filled by the aligner) when W, N or a fixed dim is outside [0, dim_m1],
// shared address smem_addr + k x pitch; the last row carries the completion with
// (128 + 4 wHalo) x tx_row bytes. The job holds wHalo in nrows_m1 (job_t.w128). The job is
// accepted with its last row, so job_i (held by valid/ready) is read for the whole walk.
//
// Timing structure (one carry chain per register stage):
//   I  four set-up cycles when a job arrives: the constant part of the address, gaddr + head
//      plus one fixed dim's contribution per cycle; the W distance to the upper corner
//      (hi - pos) and its restart value (hi - lo); the N dim; the fixed dims' bounds.
//   W  the walk state: W's position and distance to its upper corner (a wrap is es > the
//      distance: one compare of flops), a[W] and a[N] (one 64-bit add each), the kept state.
//   S  the row: fields, in-bounds flag, the address as a carry-save pair (base, a[W], a[N]).
//   O  tma_row_resolve: the pair resolved by a carry-select add, the output spill register.

`default_nettype none

`include "tma_assert.svh"

module tma_w128_walker (
  input  logic           clk_i,
  input  logic           rst_ni,
  // Job (an im2col::w::128 load, from the frontend)
  input  logic           job_valid_i,
  output logic           job_ready_o,
  input  tma_pkg::job_t  job_i,
  // Rows (to the row fork)
  output logic           row_valid_o,
  input  logic           row_ready_i,
  output tma_pkg::row_t  row_o,
  // Status
  output logic           busy_o
);

  // ---- The job's constants (read from job_i: held until the last row) ----
  logic [4:0]   halo;
  logic [33:0]  es_w, es_n, lo_w;
  logic [31:0]  dim_w, dim_n;
  logic [63:0]  step_w, step_n, alo_w;
  logic [2:0]   nsel_q;                 // walker dim 2 + i is N

  always_comb begin : proc_consts
    halo   = job_i.nrows_m1[4:0];
    es_w   = 34'(job_i.es.v[1]);
    lo_w   = job_i.lo.v[1];
    dim_w  = job_i.dim_m1.v[1];
    step_w = job_i.step.v[1];
    alo_w  = job_i.alo.v[1];
    es_n   = '0;
    dim_n  = '0;
    step_n = '0;
    for (int i = 0; i < 3; i++) begin
      if (nsel_q[i]) begin
        es_n   = 34'(job_i.es.v[i + 2]);
        dim_n  = job_i.dim_m1.v[i + 2];
        step_n = job_i.step.v[i + 2];
      end
    end
  end

  // ---- I: set-up ----
  logic [2:0]   ph_q;                   // set-up cycle 1..4 (0: none)
  logic         act_q;                  // the walk runs (set-up done)
  logic [63:0]  base_q;                 // gaddr + head + the fixed dims' contributions
  logic [2:0]   fix_oob_q;              // fixed dim 2 + i is out of bounds
  logic [33:0]  hl_q;                   // hi - lo of W: the distance after a restart
  logic         start;                  // a job waits and the walker is idle
  logic [63:0]  add_d;                  // this set-up cycle's fixed contribution

  assign start = job_valid_i && !act_q && ph_q == 3'd0;

  always_comb begin : proc_setup_add
    add_d = '0;
    for (int i = 0; i < 3; i++) begin
      if (ph_q == 3'(i + 1) && !nsel_q[i]) add_d = job_i.astart.v[i + 2];
    end
  end

  // ---- W: walk state ----
  logic [1:0]   g_q;                    // group 0..3
  logic [5:0]   k_q;                    // row of the group: 0..31 main, 32.. halo
  logic [33:0]  w_q, ws_q;              // W position (ws: kept for the next group)
  logic [33:0]  wd_q, wds_q;            // hi - W: W wraps after this row when es > wd
  logic [63:0]  aw_q, aws_q;            // W's address contribution
  logic [33:0]  n_q, ns_q;              // N position
  logic [63:0]  an_q, ans_q;            // N's address contribution
  logic [31:0]  smem_q, tx_q;           // the next row's shared address, bytes before it
  logic         last_row;               // the current row is the command's last
  logic         s_free;                 // S takes a row this cycle
  logic         emit;                   // a row leaves the walk state this cycle
  logic         wrap;                   // W passes its upper corner: restart, N steps
  logic [33:0]  w_nx, wd_nx, n_nx;
  logic [63:0]  aw_nx, an_nx;

  always_comb begin : proc_step
    wrap  = signed'(es_w) > signed'(wd_q);
    w_nx  = wrap ? lo_w : w_q + es_w;
    wd_nx = wrap ? hl_q : wd_q - es_w;
    aw_nx = wrap ? alo_w : aw_q + step_w;
    n_nx  = wrap ? n_q + es_n : n_q;
    an_nx = wrap ? an_q + step_n : an_q;
  end

  assign last_row    = g_q == 2'd3 && k_q == 6'd31 + 6'(halo);
  assign emit        = act_q && s_free;
  assign job_ready_o = emit && last_row;

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_walk
    if (!rst_ni) begin
      ph_q      <= '0;
      act_q     <= 1'b0;
      base_q    <= '0;
      fix_oob_q <= '0;
      hl_q      <= '0;
      nsel_q    <= '0;
      g_q       <= '0;
      k_q       <= '0;
      w_q       <= '0;
      ws_q      <= '0;
      wd_q      <= '0;
      wds_q     <= '0;
      aw_q      <= '0;
      aws_q     <= '0;
      n_q       <= '0;
      ns_q      <= '0;
      an_q      <= '0;
      ans_q     <= '0;
      smem_q    <= '0;
      tx_q      <= '0;
    end else if (start) begin
      // set-up cycle 1: the walk's start, the distances, N, the bounds of the other dims
      ph_q   <= 3'd1;
      base_q <= job_i.gaddr + 64'(job_i.head);
      hl_q   <= job_i.hi.v[1] - lo_w;
      w_q    <= job_i.coord.v[1];
      wd_q   <= job_i.hi.v[1] - job_i.coord.v[1];
      aw_q   <= job_i.astart.v[1];
      g_q    <= '0;
      k_q    <= '0;
      smem_q <= job_i.smem_addr;
      tx_q   <= '0;
      for (int i = 0; i < 3; i++) begin
        nsel_q[i]    <= job_i.hi.v[i + 2] == {1'b0, {33{1'b1}}};   // N: never wraps
        fix_oob_q[i] <= job_i.coord.v[i + 2][33:32] != 2'b00 ||
                        job_i.coord.v[i + 2][31:0] > job_i.dim_m1.v[i + 2];
        if (job_i.hi.v[i + 2] == {1'b0, {33{1'b1}}}) begin
          n_q  <= job_i.coord.v[i + 2];
          an_q <= job_i.astart.v[i + 2];
        end
      end
    end else if (ph_q != 3'd0) begin
      // set-up cycles 2..4: one fixed dim's contribution each (N's position is not fixed)
      base_q <= base_q + add_d;
      for (int i = 0; i < 3; i++) begin
        if (ph_q == 3'(i + 1) && nsel_q[i]) fix_oob_q[i] <= 1'b0;
      end
      ph_q  <= (ph_q == 3'd3) ? 3'd0 : ph_q + 3'd1;
      act_q <= ph_q == 3'd3;
    end else if (emit) begin
      smem_q <= smem_q + 32'(job_i.pitch);
      tx_q   <= tx_q + 32'(job_i.tx_row);
      // keep seq[32 (g + 1)]: the state after this group's 32nd step
      if (k_q == 6'd31) begin
        ws_q  <= w_nx;
        wds_q <= wd_nx;
        aws_q <= aw_nx;
        ns_q  <= n_nx;
        ans_q <= an_nx;
      end
      if (last_row) begin
        act_q <= 1'b0;
      end else if (k_q == 6'd31 + 6'(halo)) begin
        // the group ends: the next one starts at the kept state (without halo: the next step)
        g_q  <= g_q + 2'd1;
        k_q  <= '0;
        w_q  <= (halo != 5'd0) ? ws_q : w_nx;
        wd_q <= (halo != 5'd0) ? wds_q : wd_nx;
        aw_q <= (halo != 5'd0) ? aws_q : aw_nx;
        n_q  <= (halo != 5'd0) ? ns_q : n_nx;
        an_q <= (halo != 5'd0) ? ans_q : an_nx;
      end else begin
        k_q  <= k_q + 6'd1;
        w_q  <= w_nx;
        wd_q <= wd_nx;
        aw_q <= aw_nx;
        n_q  <= n_nx;
        an_q <= an_nx;
      end
    end
  end

  // ---- S: the row, its address as a carry-save pair ----
  logic          s_valid_q, s_rd_q;
  tma_pkg::row_t s_row_q;
  logic [63:0]   s_s_q, s_c_q;
  logic          o_ready;               // the output register takes S's row
  tma_pkg::row_t r_d;
  logic          rd;
  logic [63:0]   s3, c3;

  assign s_free = !s_valid_q || o_ready;

  always_comb begin : proc_row
    logic w_oob, n_oob;
    w_oob = w_q[33:32] != 2'b00 || w_q[31:0] > dim_w;
    n_oob = n_q[33:32] != 2'b00 || n_q[31:0] > dim_n;
    rd    = !w_oob && !n_oob && fix_oob_q == '0 && job_i.dend > job_i.head;
    s3    = base_q ^ aw_q ^ an_q;
    c3    = {(base_q[62:0] & aw_q[62:0]) | (base_q[62:0] & an_q[62:0]) |
             (aw_q[62:0] & an_q[62:0]), 1'b0};
    r_d           = '0;
    r_d.has_data  = 1'b1;
    r_d.last      = last_row;
    r_d.smem_addr = smem_q;
    r_d.row_bytes = job_i.row_bytes;
    r_d.fill_nan  = job_i.fill_nan;
    r_d.tf32      = job_i.tf32;
    r_d.swz       = job_i.swz;
    r_d.pk        = job_i.pk;
    r_d.cpl       = job_i.cpl;
    r_d.cpl.bytes = tx_q + 32'(job_i.tx_row);
    if (rd) begin
      r_d.head = job_i.head;
      r_d.dend = job_i.dend;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_s
    if (!rst_ni) begin
      s_valid_q <= 1'b0;
      s_rd_q    <= 1'b0;
      s_row_q   <= '0;
      s_s_q     <= '0;
      s_c_q     <= '0;
    end else if (emit) begin
      s_valid_q <= 1'b1;
      s_rd_q    <= rd;
      s_row_q   <= r_d;
      s_s_q     <= s3;
      s_c_q     <= c3;
    end else if (o_ready) begin
      s_valid_q <= 1'b0;
    end
  end

  // ---- S -> O: the address resolved, the output spill register ----
  logic out_valid;
  tma_row_resolve u_out (
    .clk_i,
    .rst_ni,
    .in_valid_i  (s_valid_q),
    .in_ready_o  (o_ready),
    .row_i       (s_row_q),
    .sum_i       (s_s_q),
    .carry_i     (s_c_q),
    .read_i      (s_rd_q),
    .out_valid_o (out_valid),
    .out_ready_i (row_ready_i),
    .out_o       (row_o)
  );
  assign row_valid_o = out_valid;
  assign busy_o      = act_q || ph_q != 3'd0 || s_valid_q || out_valid;

  logic unused_job;
  assign unused_job = ^{job_i.marker, job_i.i2c, job_i.gather, job_i.w128, job_i.nrows_m1[10:5],
                        job_i.step.v[0], job_i.alo, job_i.lo, job_i.hi, job_i.es.v[0],
                        job_i.coord.v[0], job_i.dim_m1.v[0], job_i.astart.v[0]};

  // ---- Assertions ----
  `TMA_ASSERT_IMPLY(W128Job_A, job_valid_i, job_i.w128 && !job_i.marker)
  `TMA_ASSERT_IMPLY(OneN_A, act_q, $onehot(nsel_q))
  `TMA_ASSERT_IMPLY(WrapDistance_A, act_q, wd_q == job_i.hi.v[1] - w_q)
  `TMA_ASSERT_STABLE(JobHeld_A, job_valid_i, job_ready_o, job_i)

endmodule

`default_nettype wire
