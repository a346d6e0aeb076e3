// SPDX-License-Identifier: Apache-2.0
//
// tma_nd_walker: expands one job into its box rows, one row per cycle, with adds only.
// Dimension 0 is the row (its in-bounds byte range [head, dend) is fixed per job); walker
// dims 1..4 each hold a running position pos[d] and an address contribution a[d]. Per row the
// lowest dim whose next position pos[d] + es[d] stays <= hi[d] steps (pos += es,
// a += step); every dim below it restarts (pos = lo, a = alo). Tile: lo = the start
// coordinate, hi = start + box - 1, so this is the box odometer (element strides included).
// im2col: the spatial dims restart at the lower corner of the bounding box after passing its
// upper corner and N steps by one (silicon D8); the walk ends after a fixed number of rows.
// The row address is gaddr + sum a[d]. A row is out of bounds when any pos[d] is outside
// [0, dim_m1[d]]; such a row carries no read (head == dend == 0) and is filled by the
// aligner. The last row of a job carries the completion, with complete-tx bytes = rows x row
// bytes (silicon D1). A marker job (error, prefetch) becomes one completion-only entry.

`include "tma_assert.svh"

module tma_nd_walker (
  input  logic           clk_i,
  input  logic           rst_ni,
  // Job (from the command controller)
  input  logic           job_valid_i,
  output logic           job_ready_o,
  input  tma_pkg::job_t  job_i,
  // Rows (to the row fork: burst splitter and aligner)
  output logic           row_valid_o,
  input  logic           row_ready_i,
  output tma_pkg::row_t  row_o,
  // Status
  output logic           busy_o
);

  localparam int unsigned MaxDims = tma_pkg::MaxDims;

  // ---- State ----
  logic            active_d, active_q;    // a job is being walked
  tma_pkg::job_t   job_d, job_q;
  tma_pkg::dim64_t acc_d, acc_q;         // address contributions a[d], index 1..4
  tma_pkg::dim34_t pos_d, pos_q;         // positions pos[d], index 1..4
  logic [9:0]      rcnt_d, rcnt_q;       // rows emitted (im2col end condition)
  logic [31:0]     smem_d, smem_q;       // shared address of the current row
  logic [31:0]     tx_d, tx_q;           // bytes of the rows emitted so far
  logic            out_valid_d, out_valid_q;
  tma_pkg::row_t   out_d, out_q;

  // ---- Current row ----
  logic [MaxDims-1:0] wrap;      // dim d has no further position
  logic               row_oob;
  logic               last_row;
  logic [63:0]        row_addr;
  tma_pkg::row_t      cur_row;
  logic signed [34:0] npos;      // next position of dim d (loop temporary)
  logic               found;     // the stepping dimension was found (loop temporary)

  always_comb begin : proc_row
    row_oob  = 1'b0;
    wrap     = '0;
    npos     = '0;
    row_addr = job_q.gaddr;
    for (int d = 1; d < MaxDims; d++) begin
      if (signed'(pos_q.v[d]) < 0 ||
          35'(signed'(pos_q.v[d])) > signed'({3'b0, job_q.dim_m1.v[d]})) begin
        row_oob = 1'b1;
      end
      npos    = 35'(signed'(pos_q.v[d])) + signed'({31'd0, job_q.es.v[d]});
      wrap[d] = npos > 35'(signed'(job_q.hi.v[d]));
      row_addr = row_addr + acc_q.v[d];
    end
    last_row = job_q.i2c ? (rcnt_q == job_q.nrows_m1) : (&wrap[MaxDims-1:1]);

    cur_row           = '0;
    cur_row.has_data  = 1'b1;
    cur_row.last      = last_row;
    cur_row.smem_addr = smem_q;
    cur_row.row_bytes = job_q.row_bytes;
    cur_row.fill_nan  = job_q.fill_nan;
    cur_row.tf32      = job_q.tf32;
    cur_row.swz       = job_q.swz;
    cur_row.cpl       = job_q.cpl;
    cur_row.cpl.bytes = tx_q + 32'(job_q.row_bytes);
    if (!row_oob && job_q.dend > job_q.head) begin
      cur_row.head  = job_q.head;
      cur_row.dend  = job_q.dend;
      cur_row.gaddr = row_addr + 64'(job_q.head);
    end
  end

  // ---- Next state ----
  always_comb begin : proc_next
    active_d    = active_q;
    job_d       = job_q;
    acc_d       = acc_q;
    pos_d       = pos_q;
    rcnt_d      = rcnt_q;
    smem_d      = smem_q;
    tx_d        = tx_q;
    out_valid_d = out_valid_q;
    out_d       = out_q;
    job_ready_o = 1'b0;
    found       = 1'b0;

    if (out_valid_q && row_ready_i) out_valid_d = 1'b0;

    if (!out_valid_q || row_ready_i) begin
      if (active_q) begin
        // Emit the current row and step to the next one.
        out_valid_d = 1'b1;
        out_d       = cur_row;
        smem_d      = smem_q + 32'(job_q.pitch);
        tx_d        = tx_q + 32'(job_q.row_bytes);
        rcnt_d      = rcnt_q + 1'b1;
        if (last_row) begin
          active_d = 1'b0;
        end else begin
          // Lowest dimension that does not wrap steps; every dimension below it restarts.
          for (int d = 1; d < MaxDims; d++) begin
            if (!found) begin
              if (!wrap[d]) begin
                found      = 1'b1;
                pos_d.v[d] = pos_q.v[d] + 34'(job_q.es.v[d]);
                acc_d.v[d] = acc_q.v[d] + job_q.step.v[d];
              end else begin
                pos_d.v[d] = job_q.lo.v[d];
                acc_d.v[d] = job_q.alo.v[d];
              end
            end
          end
        end
      end
      // The next job: when idle, or (a data job) in the cycle the last row leaves, so that
      // jobs follow each other without a bubble.
      if (!active_q || (last_row && !job_i.marker)) begin
        job_ready_o = 1'b1;
        if (job_valid_i) begin
          if (job_i.marker) begin
            out_valid_d = 1'b1;
            out_d       = '0;
            out_d.last  = 1'b1;
            out_d.cpl   = job_i.cpl;
          end else begin
            active_d = 1'b1;
            job_d    = job_i;
            acc_d    = job_i.astart;
            pos_d    = job_i.coord;
            rcnt_d   = '0;
            smem_d   = job_i.smem_addr;
            tx_d     = '0;
          end
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_state
    if (!rst_ni) begin
      active_q    <= 1'b0;
      job_q       <= '0;
      acc_q       <= '0;
      pos_q       <= '0;
      rcnt_q      <= '0;
      smem_q      <= '0;
      tx_q        <= '0;
      out_valid_q <= 1'b0;
      out_q       <= '0;
    end else begin
      active_q    <= active_d;
      job_q       <= job_d;
      acc_q       <= acc_d;
      pos_q       <= pos_d;
      rcnt_q      <= rcnt_d;
      smem_q      <= smem_d;
      tx_q        <= tx_d;
      out_valid_q <= out_valid_d;
      out_q       <= out_d;
    end
  end

  assign row_valid_o = out_valid_q;
  assign row_o       = out_q;
  assign busy_o      = active_q || out_valid_q;

  // ---- Assertions ----
  `TMA_ASSERT_STABLE(RowHeld_A, row_valid_o, row_ready_i, row_o)
  `TMA_ASSERT(HeadBeforeEnd_A, row_valid_o && row_o.has_data |-> row_o.head <= row_o.dend)
  `TMA_ASSERT(RowFits_A, row_valid_o && row_o.has_data |-> row_o.dend <= row_o.row_bytes)
  // The N dim of an im2col job never wraps, so some dim always steps before the last row.
  // (Assertions name narrow signals only: Verilator 5.006 emits uncompilable code when it
  // samples a vector as wide as job_q.)
`ifndef SYNTHESIS
  logic i2c_q;   // job_q.i2c, a separate flop for the assertion
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_i2c_q
    if (!rst_ni) i2c_q <= 1'b0;
    else i2c_q <= job_d.i2c;
  end
  `TMA_ASSERT(Im2colSteps_A, active_q && i2c_q && !last_row |-> !(&wrap[MaxDims-1:1]))
`endif

endmodule
