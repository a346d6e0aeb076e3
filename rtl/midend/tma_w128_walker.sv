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
// Timing structure (one carry chain per register stage; every walk-step decision is a flop):
//   I  four set-up cycles when a job arrives: the constant part of the address, gaddr + head
//      plus one fixed dim's contribution per cycle; W's distance to its upper corner minus es
//      (hi - pos - es: W wraps after this row when it is negative) and its restart value
//      (hi - lo - es); the fixed dims' bounds; N (the dim with hi = 2^33 - 1) found in the
//      first cycle, its position, step, address and bound taken by that flag in the second.
//   W  the walk state: W's position and that difference (the wrap is its sign bit, a flop),
//      a[W] and a[N] (one 64-bit add each), the kept state. The group-end, 32nd-step and
//      last-row flags are registered a step ahead; the step enable is the AND of two flops,
//      "the walk runs" and "S or the output register has room" (an occupancy count of S and
//      the output spill register), held in one kept copy per register group.
//   S  the row: fields, in-bounds flag, the address as a carry-save pair (base, a[W], a[N]).
//   O  tma_row_resolve: the pair resolved by a carry-select add, head / dend zeroed for a row
//      without a read, the output spill register.

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

  // Kept copies of the step enable's two flops: the walk state, a[W], a[N], the S stage.
  localparam int unsigned NumEn = 4;
  localparam int unsigned EnW   = 0;
  localparam int unsigned EnAw  = 1;
  localparam int unsigned EnAn  = 2;
  localparam int unsigned EnS   = 3;

  // ---- The job's constants (read from job_i: held until the last row) ----
  logic [4:0]   halo;
  logic [33:0]  es_w, lo_w;
  logic [31:0]  dim_w;
  logic [63:0]  step_w, alo_w;

  always_comb begin : proc_consts
    halo   = job_i.nrows_m1[4:0];
    es_w   = 34'(job_i.es.v[1]);
    lo_w   = job_i.lo.v[1];
    dim_w  = job_i.dim_m1.v[1];
    step_w = job_i.step.v[1];
    alo_w  = job_i.alo.v[1];
  end

  // ---- I: set-up ----
  logic [2:0]   ph_q;                   // set-up cycle 1..4 (0: none)
  logic         act_q;                  // the walk runs (set-up done)
  logic [2:0]   nsel_q;                 // walker dim 2 + i is N
  logic [33:0]  es_n_q;                 // N's position step
  logic [31:0]  dim_n_q;                // N's bound
  logic [63:0]  step_n_q;               // N's address step
  logic         hnz_q;                  // wHalo != 0
  logic         rdok_q;                 // dend > head: the in-bounds rows read
  logic [63:0]  base_q;                 // gaddr + head + the fixed dims' contributions
  logic [2:0]   fix_oob_q;              // fixed dim 2 + i is out of bounds
  logic [34:0]  hlm_q;                  // hi - lo - es of W: the difference after a restart
  logic         start;                  // a job waits and the walker is idle
  logic [63:0]  op_q;                   // the next set-up cycle's fixed contribution
  logic [63:0]  op_d;
  logic         nsel0_d;                // walker dim 2 is N (the job's first cycle)
  logic [5:0]   kt_q;                   // 30 + wHalo: k_q before the group's last row
  logic [33:0]  wd0, hl0;               // hi - coord, hi - lo of W (the job's start)

  assign start = job_valid_i && !act_q && ph_q == 3'd0;
  assign wd0   = job_i.hi.v[1] - job_i.coord.v[1];
  assign hl0   = job_i.hi.v[1] - lo_w;

  // The fixed dims' contributions enter base_q one per set-up cycle from op_q, which loads
  // in every cycle the next one's (dim 2 outside the set-up, so at the start; dim 3 in cycle
  // 2, dim 4 in cycle 3; 0 for N), so each add is flop to flop.
  assign nsel0_d = job_i.hi.v[2] == {1'b0, {33{1'b1}}};
  always_comb begin : proc_setup_op
    op_d = '0;
    if (ph_q == 3'd0) begin
      if (!nsel0_d) op_d = job_i.astart.v[2];
    end else if (ph_q == 3'd1) begin
      if (!nsel_q[1]) op_d = job_i.astart.v[3];
    end else if (!nsel_q[2]) begin
      op_d = job_i.astart.v[4];
    end
  end

  // ---- W: walk state ----
  logic [1:0]   g_q;                    // group 0..3
  logic [5:0]   k_q;                    // row of the group: 0..31 main, 32.. halo
  logic         kend_q;                 // k_q is the group's last row (31 + wHalo)
  logic         rs_q;                   // ... and the group has halo: restore the kept state
  logic         k31_q;                  // k_q == 31: the group's 32nd step
  logic         last_q;                 // the current row is the command's last
  logic [33:0]  w_q, ws_q;              // W position (ws: kept for the next group)
  logic [34:0]  wm_q, wms_q;            // hi - W - es (signed): W wraps after this row when < 0
  logic [63:0]  aw_q, aws_q;            // W's address contribution
  logic [33:0]  n_q, ns_q;              // N position
  logic [63:0]  an_q, ans_q;            // N's address contribution
  logic [31:0]  smem_q, tx_q;           // the next row's shared address, bytes before it
  logic [1:0]   occ_q;                  // rows in S and the output spill register (0..3)
  logic [NumEn-1:0] emit_c;             // the step enable, one copy per register group
  logic         emit;                   // a row leaves the walk state this cycle
  logic         wrap;                   // W passes its upper corner: restart, N steps
  logic         kend_nx;                // the row after this one ends its group
  logic [33:0]  w_nx, n_nx;
  logic [34:0]  wm_nx;
  logic [63:0]  aw_nx, an_nx;

  always_comb begin : proc_step
    wrap    = wm_q[34];
    w_nx    = wrap ? lo_w : w_q + es_w;
    wm_nx   = wrap ? hlm_q : wm_q - 35'(es_w);
    aw_nx   = wrap ? alo_w : aw_q + step_w;
    n_nx    = wrap ? n_q + es_n_q : n_q;
    an_nx   = wrap ? an_q + step_n_q : an_q;
    kend_nx = k_q == kt_q;
  end

  assign job_ready_o = emit && last_q;

  // Set-up registers and the walk's control: job start, set-up cycles, row and group count.
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_ctrl
    if (!rst_ni) begin
      ph_q      <= '0;
      act_q     <= 1'b0;
      nsel_q    <= '0;
      es_n_q    <= '0;
      dim_n_q   <= '0;
      step_n_q  <= '0;
      hnz_q     <= 1'b0;
      kt_q      <= '0;
      rs_q      <= 1'b0;
      rdok_q    <= 1'b0;
      base_q    <= '0;
      fix_oob_q <= '0;
      hlm_q     <= '0;
      g_q       <= '0;
      k_q       <= '0;
      kend_q    <= 1'b0;
      k31_q     <= 1'b0;
      last_q    <= 1'b0;
      smem_q    <= '0;
      tx_q      <= '0;
    end else if (start) begin
      // set-up cycle 1: the walk's start, N, the bounds of the other dims
      ph_q   <= 3'd1;
      base_q <= job_i.gaddr + 64'(job_i.head);
      kt_q   <= 6'd30 + 6'(halo);
      rs_q   <= 1'b0;
      hlm_q  <= {hl0[33], hl0};
      hnz_q  <= halo != 5'd0;
      rdok_q <= job_i.dend > job_i.head;
      g_q    <= '0;
      k_q    <= '0;
      kend_q <= 1'b0;
      k31_q  <= 1'b0;
      last_q <= 1'b0;
      smem_q <= job_i.smem_addr;
      tx_q   <= '0;
      for (int i = 0; i < 3; i++) begin
        nsel_q[i]    <= job_i.hi.v[i + 2] == {1'b0, {33{1'b1}}};   // N: never wraps
        fix_oob_q[i] <= job_i.coord.v[i + 2][33:32] != 2'b00 ||
                        job_i.coord.v[i + 2][31:0] > job_i.dim_m1.v[i + 2];
      end
    end else if (ph_q != 3'd0) begin
      // set-up cycles 2..4: one fixed dim's contribution each (N's position is not fixed);
      // cycle 2 also takes N's step and bound, selected by the registered nsel_q
      base_q <= base_q + op_q;
      if (ph_q == 3'd1) hlm_q <= hlm_q - 35'(es_w);
      for (int i = 0; i < 3; i++) begin
        if (ph_q == 3'(i + 1) && nsel_q[i]) fix_oob_q[i] <= 1'b0;
        if (ph_q == 3'd1 && nsel_q[i]) begin
          es_n_q   <= 34'(job_i.es.v[i + 2]);
          dim_n_q  <= job_i.dim_m1.v[i + 2];
          step_n_q <= job_i.step.v[i + 2];
        end
      end
      ph_q  <= (ph_q == 3'd3) ? 3'd0 : ph_q + 3'd1;
      act_q <= ph_q == 3'd3;
    end else if (emit_c[EnW]) begin
      smem_q <= smem_q + 32'(job_i.pitch);
      tx_q   <= tx_q + 32'(job_i.tx_row);
      if (last_q) begin
        act_q <= 1'b0;
      end else if (kend_q) begin
        g_q    <= g_q + 2'd1;
        k_q    <= '0;
        kend_q <= 1'b0;
        rs_q   <= 1'b0;
        k31_q  <= 1'b0;
        last_q <= 1'b0;
      end else begin
        k_q    <= k_q + 6'd1;
        kend_q <= kend_nx;
        rs_q   <= kend_nx && hnz_q;
        k31_q  <= k_q == 6'd30;
        last_q <= g_q == 2'd3 && kend_nx;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_op
    if (!rst_ni) begin
      op_q <= '0;
    end else begin
      op_q <= op_d;
    end
  end

  // W's position and wrap difference, N's position (start, then every step; a group that
  // ends restarts from the kept state, without halo from the next step). The step comes
  // first in each block (it never meets the start or the set-up, which need act_q low), and
  // the kept state has blocks of its own, so their enables are a kept copy and one flag.
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_walk_pos
    if (!rst_ni) begin
      w_q  <= '0;
      wm_q <= '0;
      n_q  <= '0;
    end else if (emit_c[EnW]) begin
      // (after the last row these are unused: the next job loads them before its walk)
      w_q  <= rs_q ? ws_q : w_nx;
      wm_q <= rs_q ? wms_q : wm_nx;
      n_q  <= rs_q ? ns_q : n_nx;
    end else if (start) begin
      w_q  <= job_i.coord.v[1];
      wm_q <= {wd0[33], wd0};
    end else if (ph_q == 3'd1) begin
      wm_q <= wm_q - 35'(es_w);
      for (int i = 0; i < 3; i++) begin
        if (nsel_q[i]) n_q <= job_i.coord.v[i + 2];
      end
    end
  end

  // keep seq[32 (g + 1)]: the state after each group's 32nd step
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_keep_pos
    if (!rst_ni) begin
      ws_q  <= '0;
      wms_q <= '0;
      ns_q  <= '0;
    end else if (emit_c[EnW] && k31_q) begin
      ws_q  <= w_nx;
      wms_q <= wm_nx;
      ns_q  <= n_nx;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_walk_aw
    if (!rst_ni) begin
      aw_q <= '0;
    end else if (emit_c[EnAw]) begin
      aw_q <= rs_q ? aws_q : aw_nx;
    end else if (start) begin
      aw_q <= job_i.astart.v[1];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_keep_aw
    if (!rst_ni) begin
      aws_q <= '0;
    end else if (emit_c[EnAw] && k31_q) begin
      aws_q <= aw_nx;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_walk_an
    if (!rst_ni) begin
      an_q <= '0;
    end else if (emit_c[EnAn]) begin
      an_q <= rs_q ? ans_q : an_nx;
    end else if (ph_q == 3'd1) begin
      for (int i = 0; i < 3; i++) begin
        if (nsel_q[i]) an_q <= job_i.astart.v[i + 2];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_keep_an
    if (!rst_ni) begin
      ans_q <= '0;
    end else if (emit_c[EnAn] && k31_q) begin
      ans_q <= an_nx;
    end
  end

  // ---- S: the row, its address as a carry-save pair ----
  logic          s_valid_q, s_rd_q;
  tma_pkg::row_t s_row_q;
  logic [63:0]   s_s_q, s_c_q;
  logic          o_ready;               // the output register takes S's row
  logic          out_valid;
  logic          out_take;              // a row leaves the output register
  logic          act_d;                 // act_q's next value
  logic [1:0]    occ_d;
  tma_pkg::row_t r_d;
  logic          rd;
  logic [63:0]   s3, c3;

  // The step enable a cycle ahead: the walk runs and S or the output register has room
  // (occupancy below 3: S empty, or S full and the output register able to take its row).
  assign out_take = out_valid && row_ready_i;
  assign emit     = act_q && occ_q != 2'd3;
  assign occ_d    = occ_q + 2'(emit) - 2'(out_take);
  always_comb begin : proc_act_d
    act_d = act_q;
    if (!start && ph_q != 3'd0) act_d = ph_q == 3'd3;
    else if (!start && emit && last_q) act_d = 1'b0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_occ
    if (!rst_ni) begin
      occ_q <= '0;
    end else begin
      occ_q <= occ_d;
    end
  end

  logic [2*NumEn-1:0] en_q;             // copy k: {act_q, occ_q != 3}
  tma_dup_reg #(
    .Width    (2),
    .Copies   (NumEn),
    .ResetVal (1)                       // {act, room}: idle, room
  ) u_en (
    .clk_i,
    .rst_ni,
    .d_i    ({act_d, occ_d != 2'd3}),
    .q_o    (en_q)
  );
  for (genvar k = 0; k < NumEn; k++) begin : gen_en
    assign emit_c[k] = en_q[2*k+1] && en_q[2*k];
  end

  always_comb begin : proc_row
    logic w_oob, n_oob;
    w_oob = w_q[33:32] != 2'b00 || w_q[31:0] > dim_w;
    n_oob = n_q[33:32] != 2'b00 || n_q[31:0] > dim_n_q;
    rd    = !w_oob && !n_oob && fix_oob_q == '0 && rdok_q;
    s3    = base_q ^ aw_q ^ an_q;
    c3    = {(base_q[62:0] & aw_q[62:0]) | (base_q[62:0] & an_q[62:0]) |
             (aw_q[62:0] & an_q[62:0]), 1'b0};
    r_d           = '0;
    r_d.has_data  = 1'b1;
    r_d.last      = last_q;
    r_d.smem_addr = smem_q;
    r_d.row_bytes = job_i.row_bytes;
    r_d.fill_nan  = job_i.fill_nan;
    r_d.tf32      = job_i.tf32;
    r_d.swz       = job_i.swz;
    r_d.pk        = job_i.pk;
    r_d.cpl       = job_i.cpl;
    r_d.cpl.bytes = tx_q + 32'(job_i.tx_row);
    r_d.head      = job_i.head;          // (zeroed by tma_row_resolve without a read)
    r_d.dend      = job_i.dend;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_s
    if (!rst_ni) begin
      s_valid_q <= 1'b0;
      s_rd_q    <= 1'b0;
      s_row_q   <= '0;
      s_s_q     <= '0;
      s_c_q     <= '0;
    end else if (emit_c[EnS]) begin
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
  logic [33:0] wd_chk;                  // hi - W
  assign wd_chk = job_i.hi.v[1] - w_q;
  `TMA_ASSERT_IMPLY(W128Job_A, job_valid_i, job_i.w128 && !job_i.marker)
  `TMA_ASSERT_IMPLY(OneN_A, act_q, $onehot(nsel_q))
  `TMA_ASSERT_IMPLY(WrapDistance_A, act_q, wm_q == {wd_chk[33], wd_chk} - 35'(es_w))
  `TMA_ASSERT_IMPLY(GroupEndFlag_A, act_q, kend_q == (k_q == 6'd31 + 6'(halo)))
  `TMA_ASSERT_IMPLY(RestoreFlag_A, act_q, rs_q == (kend_q && hnz_q))
  `TMA_ASSERT_IMPLY(Step32Flag_A, act_q, k31_q == (k_q == 6'd31))
  `TMA_ASSERT_IMPLY(LastFlag_A, act_q, last_q == (g_q == 2'd3 && k_q == 6'd31 + 6'(halo)))
  // The occupancy count stands for S's valid and the output register's two entries.
  `TMA_ASSERT_COPY(RoomCount_A, occ_q != 2'd3, !s_valid_q || o_ready)
  `TMA_ASSERT_COPY(EmptyCount_A, occ_q == 2'd0, !s_valid_q && !out_valid)
  `TMA_ASSERT_COPY(EnCopy_A, en_q[1:0], {act_q, occ_q != 2'd3})
  `TMA_ASSERT_STABLE(JobHeld_A, job_valid_i, job_ready_o, job_i)

endmodule

`default_nettype wire
