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
// (128 + 4 wHalo) x tx_row bytes. The job holds wHalo in nrows_m1 (job_t.w128).
//
// Job start: the walk state loads row 0 of the job on job_i (tma_w128_start: its wrap
// differences and N registered from the fields the walker's job timing rule holds stable a
// cycle ahead, the fixed part of the address as a carry-save pair) whenever the walker is
// idle, and with the current job's last row; the job is accepted when it loads, and its
// fields that the walk reads are kept in registers (job_i moves on). So a job's first row
// follows the previous job's last row without a bubble, and a job that finds the walker idle
// moves its first row to S in the cycle after its valid, as tma_nd_walker's P does.
// Interface rule beyond valid/ready (docs/interfaces.md, "Walker job timing"): job_i's coord,
// lo, hi and es hold their values in the cycle before job_valid_i rises (W128StartFresh_A).
//
// Timing structure (one carry chain per register stage; every walk-step decision is a flop):
//   W  the walk state: W's position and hi - W - es (the wrap is its sign bit, a flop), a[W]
//      and a[N] (one 64-bit add each; a[N] starts from the sum half of the fixed address pair,
//      so it carries gaddr + head + the fixed dims too), the kept state, the job's fields.
//      The group-end, 32nd-step and last-row flags are registered a step ahead; the step
//      enable is the AND of two flops, "the walk runs" and "S or the output register has
//      room" (an occupancy count of S and the output spill register), and the load of the
//      next job "the walk does not run, or it steps with the last row", both from one kept
//      copy per register group.
//   S  the row: fields, in-bounds flag, the address as a carry-save pair (the fixed pair's
//      carry half, a[W], a[N]).
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

  // ---- Row 0 of the job on job_i ----
  logic [34:0]  st_wm, st_hlm;
  logic [2:0]   st_nsel, st_fix_oob;
  logic [33:0]  st_n, st_es_n;
  logic [31:0]  st_dim_n;
  logic [63:0]  st_step_n, st_base_s, st_base_c;

  tma_w128_start u_start (
    .clk_i,
    .rst_ni,
    .job_valid_i,
    .job_i,
    .wm_q_o     (st_wm),
    .hlm_q_o    (st_hlm),
    .nsel_q_o   (st_nsel),
    .n_o        (st_n),
    .es_n_o     (st_es_n),
    .dim_n_o    (st_dim_n),
    .step_n_o   (st_step_n),
    .fix_oob_o  (st_fix_oob),
    .base_s_o   (st_base_s),
    .base_c_o   (st_base_c)
  );

  // ---- W: the job's fields (loaded with its row 0) ----
  logic [3:0]    es_w_q;                // W's position step
  logic [33:0]   lo_w_q;                // W's restart position
  logic [31:0]   dim_w_q;               // W's bound
  logic [63:0]   step_w_q, alo_w_q;     // W's address step, a[W] at the restart
  logic [2:0]    nsel_q;                // walker dim 2 + i is N
  logic [33:0]   es_n_q;                // N's position step
  logic [31:0]   dim_n_q;               // N's bound
  logic [63:0]   step_n_q;              // N's address step
  logic [2:0]    fix_oob_q;             // fixed dim 2 + i is out of bounds
  logic          hnz_q;                 // wHalo != 0
  logic          rdok_q;                // dend > head: the in-bounds rows read
  logic [63:0]   base_q;                // carry half of gaddr + head + a[fixed dims]
  logic [34:0]   hlm_q;                 // hi - lo - es of W: the difference after a restart
  logic [5:0]    kt_q;                  // 30 + wHalo: k_q before the group's last row
  logic [tma_pkg::RowBytesW-1:0] pitch_q, tx_row_q;
  tma_pkg::row_t rt_q;                  // the row fields of every row of the job

  // ---- W: walk state ----
  logic [1:0]   g_q;                    // group 0..3
  logic [5:0]   k_q;                    // row of the group: 0..31 main, 32.. halo
  logic         kend_q;                 // k_q is the group's last row (31 + wHalo)
  logic         rs_q;                   // ... and the group has halo: restore the kept state
  logic         k31_q;                  // k_q == 31: the group's 32nd step
  logic         last_q;                 // the current row is the command's last
  logic         act_q;                  // the walk runs (the walk state holds a row)
  logic [33:0]  w_q, ws_q;              // W position (ws: kept for the next group)
  logic [34:0]  wm_q, wms_q;            // hi - W - es (signed): W wraps after this row when < 0
  logic [63:0]  aw_q, aws_q;            // W's address contribution
  logic [33:0]  n_q, ns_q;              // N position
  logic [63:0]  an_q, ans_q;            // N's address contribution (plus the fixed sum half)
  logic [31:0]  smem_q, tx_q;           // the next row's shared address, bytes before it
  logic [1:0]   occ_q;                  // rows in S and the output spill register (0..3)
  logic [NumEn-1:0] emit_c;             // the step enable, one copy per register group
  logic [NumEn-1:0] ld_c;               // the load of row 0 of job_i, one copy per group
  logic         emit;                   // a row leaves the walk state this cycle
  logic         wrap;                   // W passes its upper corner: restart, N steps
  logic         kend_nx;                // the row after this one ends its group
  logic [33:0]  w_nx, n_nx;
  logic [34:0]  wm_nx;
  logic [63:0]  aw_nx, an_nx;

  always_comb begin : proc_step
    wrap    = wm_q[34];
    w_nx    = wrap ? lo_w_q : w_q + 34'(es_w_q);
    wm_nx   = wrap ? hlm_q : wm_q - 35'(es_w_q);
    aw_nx   = wrap ? alo_w_q : aw_q + step_w_q;
    n_nx    = wrap ? n_q + es_n_q : n_q;
    an_nx   = wrap ? an_q + step_n_q : an_q;
    kend_nx = k_q == kt_q;
  end

  // The job is taken when row 0 loads: the walk is idle, or its last row steps.
  assign job_ready_o = !act_q || (emit && last_q);

  // The job's fields and the walk's control: loaded with row 0 (whatever job_i holds while
  // the walker is idle, so only act_q depends on job_valid_i), then the row and group count.
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_ctrl
    if (!rst_ni) begin
      es_w_q    <= '0;
      lo_w_q    <= '0;
      dim_w_q   <= '0;
      step_w_q  <= '0;
      alo_w_q   <= '0;
      nsel_q    <= '0;
      es_n_q    <= '0;
      dim_n_q   <= '0;
      step_n_q  <= '0;
      fix_oob_q <= '0;
      hnz_q     <= 1'b0;
      rdok_q    <= 1'b0;
      hlm_q     <= '0;
      kt_q      <= '0;
      pitch_q   <= '0;
      tx_row_q  <= '0;
      g_q       <= '0;
      k_q       <= '0;
      kend_q    <= 1'b0;
      rs_q      <= 1'b0;
      k31_q     <= 1'b0;
      last_q    <= 1'b0;
      smem_q    <= '0;
      tx_q      <= '0;
    end else if (ld_c[EnW]) begin
      es_w_q    <= job_i.es.v[1];
      lo_w_q    <= job_i.lo.v[1];
      dim_w_q   <= job_i.dim_m1.v[1];
      step_w_q  <= job_i.step.v[1];
      alo_w_q   <= job_i.alo.v[1];
      nsel_q    <= st_nsel;
      es_n_q    <= st_es_n;
      dim_n_q   <= st_dim_n;
      step_n_q  <= st_step_n;
      fix_oob_q <= st_fix_oob;
      hnz_q     <= job_i.nrows_m1[4:0] != 5'd0;
      rdok_q    <= job_i.dend > job_i.head;
      hlm_q     <= st_hlm;
      kt_q      <= 6'd30 + 6'(job_i.nrows_m1[4:0]);
      pitch_q   <= job_i.pitch;
      tx_row_q  <= job_i.tx_row;
      g_q       <= '0;
      k_q       <= '0;
      kend_q    <= 1'b0;
      rs_q      <= 1'b0;
      k31_q     <= 1'b0;
      last_q    <= 1'b0;
      smem_q    <= job_i.smem_addr;
      tx_q      <= '0;
    end else if (emit_c[EnW]) begin
      smem_q <= smem_q + 32'(pitch_q);
      tx_q   <= tx_q + 32'(tx_row_q);
      if (kend_q) begin
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

  // W's position and wrap difference, N's position (row 0, then every step; a group that
  // ends restarts from the kept state, without halo from the next step). The kept state has
  // blocks of its own, so their enables are a kept copy and one flag.
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_walk_pos
    if (!rst_ni) begin
      w_q  <= '0;
      wm_q <= '0;
      n_q  <= '0;
    end else if (ld_c[EnW]) begin
      w_q  <= job_i.coord.v[1];
      wm_q <= st_wm;
      n_q  <= st_n;
    end else if (emit_c[EnW]) begin
      w_q  <= rs_q ? ws_q : w_nx;
      wm_q <= rs_q ? wms_q : wm_nx;
      n_q  <= rs_q ? ns_q : n_nx;
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
    end else if (ld_c[EnAw]) begin
      aw_q <= job_i.astart.v[1];
    end else if (emit_c[EnAw]) begin
      aw_q <= rs_q ? aws_q : aw_nx;
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
    end else if (ld_c[EnAn]) begin
      an_q <= st_base_s;
    end else if (emit_c[EnAn]) begin
      an_q <= rs_q ? ans_q : an_nx;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_keep_an
    if (!rst_ni) begin
      ans_q <= '0;
    end else if (emit_c[EnAn] && k31_q) begin
      ans_q <= an_nx;
    end
  end

  // The row fields that every row of the job carries (the S stage's group).
  tma_pkg::row_t rt_d;
  always_comb begin : proc_row_fields_d
    rt_d           = '0;
    rt_d.has_data  = 1'b1;
    rt_d.row_bytes = job_i.row_bytes;
    rt_d.fill_nan  = job_i.fill_nan;
    rt_d.tf32      = job_i.tf32;
    rt_d.swz       = job_i.swz;
    rt_d.pk        = job_i.pk;
    rt_d.cpl       = job_i.cpl;
    rt_d.head      = job_i.head;        // (zeroed by tma_row_resolve without a read)
    rt_d.dend      = job_i.dend;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_row_fields
    if (!rst_ni) begin
      base_q <= '0;
      rt_q   <= '0;
    end else if (ld_c[EnS]) begin
      base_q <= st_base_c;
      rt_q   <= rt_d;
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
  // The walk runs on after its last row only when the next job is taken with it.
  assign out_take = out_valid && row_ready_i;
  assign emit     = act_q && occ_q != 2'd3;
  assign occ_d    = occ_q + 2'(emit) - 2'(out_take);
  assign act_d    = (job_valid_i && job_ready_o) || (act_q && !(emit && last_q));

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_occ
    if (!rst_ni) begin
      occ_q <= '0;
      act_q <= 1'b0;
    end else begin
      occ_q <= occ_d;
      act_q <= act_d;
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
    assign ld_c[k]   = !en_q[2*k+1] || (en_q[2*k] && last_q);
  end

  always_comb begin : proc_row
    logic w_oob, n_oob;
    w_oob = w_q[33:32] != 2'b00 || w_q[31:0] > dim_w_q;
    n_oob = n_q[33:32] != 2'b00 || n_q[31:0] > dim_n_q;
    rd    = !w_oob && !n_oob && fix_oob_q == '0 && rdok_q;
    s3    = base_q ^ aw_q ^ an_q;
    c3    = {(base_q[62:0] & aw_q[62:0]) | (base_q[62:0] & an_q[62:0]) |
             (aw_q[62:0] & an_q[62:0]), 1'b0};
    r_d           = rt_q;
    r_d.last      = last_q;
    r_d.smem_addr = smem_q;
    r_d.cpl.bytes = tx_q + 32'(tx_row_q);
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
  assign busy_o      = act_q || s_valid_q || out_valid;

  // (tma_w128_start reads the job's other fields)
  logic unused_job;
  assign unused_job = ^{job_i.marker, job_i.i2c, job_i.gather, job_i.w128, job_i.nrows_m1[10:5],
                        job_i.step.v[0], job_i.step.v[4:2], job_i.alo.v[0], job_i.alo.v[4:2],
                        job_i.lo.v[0], job_i.lo.v[4:2], job_i.hi, job_i.es.v[0],
                        job_i.es.v[4:2], job_i.coord.v[0], job_i.coord.v[4:2], job_i.dim_m1.v[0],
                        job_i.dim_m1.v[4:2], job_i.astart.v[0], job_i.astart.v[4:2],
                        job_i.gaddr};

  // ---- Assertions ----
  logic [34:0] wm_chk;                  // hi - W - es = (hi - lo - es) + lo - W
  assign wm_chk = hlm_q + {lo_w_q[33], lo_w_q} - {w_q[33], w_q};
  `TMA_ASSERT_IMPLY(W128Job_A, job_valid_i, job_i.w128 && !job_i.marker)
  `TMA_ASSERT_IMPLY(OneN_A, act_q, $onehot(nsel_q))
  `TMA_ASSERT_IMPLY(WrapDistance_A, act_q, wm_q == wm_chk)
  `TMA_ASSERT_IMPLY(GroupEndFlag_A, act_q, kend_q == (k_q == kt_q + 6'd1))
  `TMA_ASSERT_IMPLY(RestoreFlag_A, act_q, rs_q == (kend_q && hnz_q))
  `TMA_ASSERT_IMPLY(Step32Flag_A, act_q, k31_q == (k_q == 6'd31))
  `TMA_ASSERT_IMPLY(LastFlag_A, act_q, last_q == (g_q == 2'd3 && k_q == kt_q + 6'd1))
  // The occupancy count stands for S's valid and the output register's two entries.
  `TMA_ASSERT_COPY(RoomCount_A, occ_q != 2'd3, !s_valid_q || o_ready)
  `TMA_ASSERT_COPY(EmptyCount_A, occ_q == 2'd0, !s_valid_q && !out_valid)
  `TMA_ASSERT_COPY(EnCopy_A, en_q[1:0], {act_q, occ_q != 2'd3})
  `TMA_ASSERT_STABLE(JobHeld_A, job_valid_i, job_ready_o, job_i)

endmodule

`default_nettype wire
