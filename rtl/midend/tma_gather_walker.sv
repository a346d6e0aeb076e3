// SPDX-License-Identifier: Apache-2.0
//
// tma_gather_walker: expands one tile::gather4 or tile::scatter4 job into its four box rows, one
// row per cycle (the midend walker beside tma_nd_walker). The job (tma_job_setup, job_t.gather)
// holds the four row coordinates of the 2-D map as walker dims 1..4: row k (k = 0..3) sits at
// tensor row coord[k + 1] with address contribution astart[k + 1] (its row coordinate x the
// stride of dim 1, from the address MAC) and bound dim_m1[k + 1] (dims[1] - 1). Like the N-D
// walker's rows: the row's global address is gaddr + astart + head, a row whose coordinate is
// outside [0, dims[1] - 1] carries no data (head == dend == 0: a gather4 row the aligner
// fills, a scatter4 row the store fork drops or, as the command's last, turns into its
// 0-beat end), row k's shared address is smem_addr + k x pitch (the four rows form one 4-row
// tile: swizzle and padding as a tile box), and the last row carries the completion with
// complete-tx bytes = 4 x the row's complete-tx bytes (job_t.tx_row; a scatter4 store ends
// in a done completion instead). The direction is the job's: a scatter4 job's rows
// carry its done completion and issuer, so the engine sends them to the store direction
// (shared reads from the four rows' addresses, global writes of [0, dend): the job setup
// rounded dend up to the 16-byte granule, D7, unless StoreClipElem).
//
// Pipeline: S (row k's fields, its address as a carry-save pair of gaddr + astart + head and
// its read flag, registered; the four bound compares run side by side and only the flag
// depends on them) -> tma_row_resolve (the pair resolved by a carry-select add, head / dend
// zeroed for a row without a read, the output spill register). The job is accepted when its
// first row enters S, and a copy of it (job_q) feeds S for rows 1-3; so the frontend forms the
// next job while this one's rows 1-3 are formed (a job every four cycles when the rows flow,
// the command's last three rows no longer hold the job register). Marker jobs
// (errors, check-only prefetch) never come here (tma_walkers sends them to the N-D walker); a
// gather4 prefetch that reads is walked as its load, with no destination CTA.

`default_nettype none

`include "tma_assert.svh"

module tma_gather_walker (
  input  logic           clk_i,
  input  logic           rst_ni,
  // Job (a gather4 load or a scatter4 store, from the frontend)
  input  logic           job_valid_i,
  output logic           job_ready_o,
  input  tma_pkg::job_t  job_i,
  // Rows (to the row fork, or a scatter4 job's to the store fork)
  output logic           row_valid_o,
  input  logic           row_ready_i,
  output tma_pkg::row_t  row_o,
  // Status
  output logic           busy_o
);

  // ---- S: the row being formed ----
  logic          s_valid_q;
  logic [1:0]    k_q;                   // index of the next row of the job
  tma_pkg::row_t s_row_q;               // the row, gaddr aside
  logic          s_read_q;              // the row reads (in bounds, dend > head)
  logic [63:0]   s_s_q, s_c_q;          // gaddr + astart + head as a carry-save pair
  logic [31:0]   smem_q, tx_q;          // the last row's shared address and bytes so far
  logic          s_ce;                  // S takes the next row of the job
  logic          o_ready;               // the output register takes S's row

  // ---- The job: job_i for row 0 (taken with it), its copy job_q for rows 1-3 ----
  tma_pkg::job_t job_q, job;
  assign job = (k_q == 2'd0) ? job_i : job_q;

  // ---- The next row from the job: bound compare, carry-save address ----
  logic [3:0]    inb_k;                 // row k's coordinate is in bounds
  logic [63:0]   astart, head64, s3, c3;
  logic          inb;
  tma_pkg::row_t r_d;

  // The four rows' bound compares side by side, the row's flag selected after them.
  always_comb begin : proc_inb
    for (int k = 0; k < 4; k++) begin
      inb_k[k] = job.coord.v[k + 1][33:32] == 2'b00 &&
                 job.coord.v[k + 1][31:0] <= job.dim_m1.v[k + 1];
    end
  end

  always_comb begin : proc_next
    astart = '0;
    for (int k = 0; k < 4; k++) begin
      if (k_q == 2'(k)) astart = job.astart.v[k + 1];
    end
    inb    = inb_k[k_q];
    head64 = 64'(job.head);
    s3     = job.gaddr ^ astart ^ head64;
    c3     = {(job.gaddr[62:0] & astart[62:0]) | (job.gaddr[62:0] & head64[62:0]) |
              (astart[62:0] & head64[62:0]), 1'b0};
    r_d           = '0;
    r_d.has_data  = 1'b1;
    r_d.last      = k_q == 2'd3;
    r_d.smem_addr = (k_q == 2'd0) ? job.smem_addr : smem_q + 32'(job.pitch);
    r_d.row_bytes = job.row_bytes;
    r_d.fill_nan  = job.fill_nan;
    r_d.tf32      = job.tf32;
    r_d.swz       = job.swz;
    r_d.pk        = job.pk;
    r_d.cpl       = job.cpl;
    r_d.cpl.bytes = ((k_q == 2'd0) ? 32'd0 : tx_q) + 32'(job.tx_row);
    r_d.head      = job.head;          // (zeroed by tma_row_resolve without a read)
    r_d.dend      = job.dend;
  end

  // Row 0 waits for a job; rows 1-3 come from job_q.
  assign s_ce        = (job_valid_i || k_q != 2'd0) && (!s_valid_q || o_ready);
  assign job_ready_o = s_ce && k_q == 2'd0;

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_s
    if (!rst_ni) begin
      s_valid_q <= 1'b0;
      k_q       <= '0;
      s_row_q   <= '0;
      s_read_q  <= 1'b0;
      s_s_q     <= '0;
      s_c_q     <= '0;
      smem_q    <= '0;
      tx_q      <= '0;
    end else begin
      if (s_ce) begin
        s_valid_q <= 1'b1;
        k_q       <= k_q + 2'd1;
        s_row_q   <= r_d;
        s_read_q  <= inb && job.dend > job.head;
        s_s_q     <= s3;
        s_c_q     <= c3;
        smem_q    <= r_d.smem_addr;
        tx_q      <= r_d.cpl.bytes;
      end else if (o_ready) begin
        s_valid_q <= 1'b0;
      end
    end
  end

  // The job's copy (no reset: read only for rows 1-3, after a job was taken)
  always_ff @(posedge clk_i) begin : proc_job
    if (job_ready_o) job_q <= job_i;
  end

  // ---- S -> output: the address resolved, the output spill register ----
  logic out_valid;
  tma_row_resolve u_out (
    .clk_i,
    .rst_ni,
    .in_valid_i  (s_valid_q),
    .in_ready_o  (o_ready),
    .row_i       (s_row_q),
    .sum_i       (s_s_q),
    .carry_i     (s_c_q),
    .read_i      (s_read_q),
    .out_valid_o (out_valid),
    .out_ready_i (row_ready_i),
    .out_o       (row_o)
  );
  assign row_valid_o = out_valid;
  assign busy_o      = s_valid_q || out_valid || k_q != 2'd0;

  logic unused_job;
  assign unused_job = ^{job.marker, job.i2c, job.nrows_m1, job.step, job.alo,
                        job.lo, job.hi, job.es, job.coord.v[0], job.dim_m1.v[0],
                        job.astart.v[0], job.gather, job.w128};

  // ---- Assertions ----
  `TMA_ASSERT_IMPLY(GatherJob_A, job_valid_i, job_i.gather && !job_i.marker)
  `TMA_ASSERT_STABLE(JobHeld_A, job_valid_i, job_ready_o, job_i)

endmodule

`default_nettype wire
