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
// Row k of the command: global address gaddr + a[W] + a[fixed dims] + a[N] + head (the
// constant part summed at the job's start), out of bounds (no read, filled by the aligner)
// when W, N or a fixed dim is outside [0, dim_m1], shared address smem_addr + k x pitch; the
// last row carries the completion with (128 + 4 wHalo) x tx_row bytes. The job holds wHalo in
// nrows_m1 (job_t.w128). The job is accepted with its last row, so job_i (held by
// valid/ready) is read for the whole walk.
//
// Pipeline: the walk state (registered) -> the row, its address as one 3-input add -> the
// output spill register.

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

  // ---- Walk state ----
  logic         act_q;                  // a job is being walked (its start state is loaded)
  logic [1:0]   g_q;                    // group 0..3
  logic [5:0]   k_q;                    // row of the group: 0..31 main, 32.. halo
  logic [33:0]  w_q, ws_q;              // W position (ws: kept for the next group)
  logic [63:0]  aw_q, aws_q;            // W's address contribution
  logic [33:0]  n_q, ns_q;              // N position
  logic [63:0]  an_q, ans_q;            // N's address contribution
  logic [63:0]  base_q;                 // gaddr + head + the fixed dims' contributions
  logic         fix_oob_q;              // a fixed dim (H, D) is out of bounds
  logic [2:0]   nsel_q;                 // walker dim 2 + i is N
  logic [31:0]  smem_q, tx_q;           // the next row's shared address, bytes so far
  logic         last_row;               // the current row is the command's last
  logic         o_ready;                // the output register takes a row
  logic         emit;                   // a row leaves the walk state this cycle

  // ---- The job's constants (read from job_i: held until the last row) ----
  logic [4:0]   halo;
  logic [33:0]  es_w, es_n, hi_w, lo_w;
  logic [31:0]  dim_w, dim_n;
  logic [63:0]  step_w, step_n, alo_w;

  always_comb begin : proc_consts
    halo   = job_i.nrows_m1[4:0];
    es_w   = 34'(job_i.es.v[1]);
    hi_w   = job_i.hi.v[1];
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

  // ---- The start state (from job_i, loaded when a job arrives and no walk is active) ----
  logic [63:0]  base_d;
  logic         fix_oob_d;
  logic [2:0]   nsel_d;
  logic [33:0]  n0_d;
  logic [63:0]  an0_d;

  always_comb begin : proc_start
    logic [33:0] p;
    base_d    = job_i.gaddr + 64'(job_i.head);
    fix_oob_d = 1'b0;
    nsel_d    = '0;
    n0_d      = '0;
    an0_d     = '0;
    for (int i = 0; i < 3; i++) begin
      p = job_i.coord.v[i + 2];
      if (job_i.hi.v[i + 2] == {1'b0, {33{1'b1}}}) begin
        nsel_d[i] = 1'b1;             // N: never wraps
        n0_d      = p;
        an0_d     = job_i.astart.v[i + 2];
      end else begin
        base_d = base_d + job_i.astart.v[i + 2];
        if (p[33] || p[32] || p[31:0] > job_i.dim_m1.v[i + 2]) fix_oob_d = 1'b1;
      end
    end
  end

  // ---- The current row ----
  logic          rd;                    // the row reads
  tma_pkg::row_t r_d;

  always_comb begin : proc_row
    logic w_oob, n_oob;
    w_oob = w_q[33] || w_q[32] || w_q[31:0] > dim_w;
    n_oob = n_q[33] || n_q[32] || n_q[31:0] > dim_n;
    rd    = !w_oob && !n_oob && !fix_oob_q && job_i.dend > job_i.head;
    last_row      = g_q == 2'd3 && k_q == 6'd31 + 6'(halo);
    r_d           = '0;
    r_d.has_data  = 1'b1;
    r_d.last      = last_row;
    r_d.gaddr     = rd ? base_q + aw_q + an_q : 64'd0;
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

  assign emit        = act_q && o_ready;
  assign job_ready_o = emit && last_row;

  // ---- Next state: one step of the walk, the kept state, the group change ----
  logic         wrap;                   // W passes its upper corner: restart, N steps
  logic [33:0]  w_nx, n_nx;
  logic [63:0]  aw_nx, an_nx;

  always_comb begin : proc_step
    wrap  = signed'(w_q + es_w) > signed'(hi_w);
    w_nx  = wrap ? lo_w : w_q + es_w;
    aw_nx = wrap ? alo_w : aw_q + step_w;
    n_nx  = wrap ? n_q + es_n : n_q;
    an_nx = wrap ? an_q + step_n : an_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_walk
    if (!rst_ni) begin
      act_q     <= 1'b0;
      g_q       <= '0;
      k_q       <= '0;
      w_q       <= '0;
      ws_q      <= '0;
      aw_q      <= '0;
      aws_q     <= '0;
      n_q       <= '0;
      ns_q      <= '0;
      an_q      <= '0;
      ans_q     <= '0;
      base_q    <= '0;
      fix_oob_q <= 1'b0;
      nsel_q    <= '0;
      smem_q    <= '0;
      tx_q      <= '0;
    end else if (!act_q) begin
      if (job_valid_i) begin
        act_q     <= 1'b1;
        g_q       <= '0;
        k_q       <= '0;
        w_q       <= job_i.coord.v[1];
        aw_q      <= job_i.astart.v[1];
        n_q       <= n0_d;
        an_q      <= an0_d;
        base_q    <= base_d;
        fix_oob_q <= fix_oob_d;
        nsel_q    <= nsel_d;
        smem_q    <= job_i.smem_addr;
        tx_q      <= '0;
      end
    end else if (emit) begin
      smem_q <= smem_q + 32'(job_i.pitch);
      tx_q   <= tx_q + 32'(job_i.tx_row);
      // keep seq[32 (g + 1)]: the state after this group's 32nd step
      if (k_q == 6'd31) begin
        ws_q  <= w_nx;
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
        aw_q <= (halo != 5'd0) ? aws_q : aw_nx;
        n_q  <= (halo != 5'd0) ? ns_q : n_nx;
        an_q <= (halo != 5'd0) ? ans_q : an_nx;
      end else begin
        k_q  <= k_q + 6'd1;
        w_q  <= w_nx;
        aw_q <= aw_nx;
        n_q  <= n_nx;
        an_q <= an_nx;
      end
    end
  end

  logic out_valid;
  tma_spill_reg #(
    .Width (tma_pkg::RowWidth)
  ) u_out (
    .clk_i,
    .rst_ni,
    .in_valid_i  (act_q),
    .in_ready_o  (o_ready),
    .in_data_i   (r_d),
    .out_valid_o (out_valid),
    .out_ready_i (row_ready_i),
    .out_data_o  (row_o)
  );
  assign row_valid_o = out_valid;
  assign busy_o      = act_q || out_valid;

  logic unused_job;
  assign unused_job = ^{job_i.marker, job_i.i2c, job_i.gather, job_i.w128, job_i.nrows_m1[10:5],
                        job_i.step.v[0], job_i.step.v[1], job_i.alo, job_i.lo, job_i.hi,
                        job_i.es.v[0], job_i.coord.v[0], job_i.dim_m1.v[0], job_i.astart.v[0]};

  // ---- Assertions ----
  `TMA_ASSERT_INIT(RowWidth_A, tma_pkg::RowWidth == $bits(tma_pkg::row_t))
  `TMA_ASSERT_IMPLY(W128Job_A, job_valid_i, job_i.w128 && !job_i.marker)
  `TMA_ASSERT_IMPLY(OneN_A, act_q, $onehot(nsel_q))
  `TMA_ASSERT_STABLE(JobHeld_A, job_valid_i, job_ready_o, job_i)
  `TMA_ASSERT_STABLE(RowHeld_A, row_valid_o, row_ready_i, row_o)
  `TMA_ASSERT_IMPLY(HeadBeforeEnd_A, row_valid_o, row_o.head <= row_o.dend)

endmodule

`default_nettype wire
