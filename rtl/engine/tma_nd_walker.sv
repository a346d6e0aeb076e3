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
//
// Timing structure (one carry chain per stage, no compare of a sum in the row loop):
//   P  the walk state of the current row. Per dim: pos, the running wrap distance
//      z = pos + es - hi - 1 (the dim wraps when z >= 0: a sign bit), and a[d] as two 32-bit
//      halves with a pending carry (lo + step_lo -> carry; hi + step_hi + previous carry).
//      gaddr is folded into a[4] at load (dim 4 is the outermost: it never restarts).
//   R  the row address as a carry-save pair (a 3-level 3:2 compressor tree over a[1..4],
//      head and the pending carries); the OOB flag.
//   O  the output register: the pair resolved by one 64-bit add (zeroed for a row without a
//      read), plus the job's row fields. O is a spill register (two entries), so its ready
//      is a function of flops: row_ready_i reaches only O's own flops, and every other stage
//      advances on O's registered room (adv).
// P is loaded from job_i as soon as it is free, before the job is accepted (valid/ready
// holds job_i stable until the handshake): the job is accepted when its first row moves on
// to R, i.e. once the previous job's rows no longer need its output fields (register K).
// Jobs of two or more rows follow each other without a bubble. The data registers of P and K
// follow job_i whenever they are free (don't-care until the job is valid), so job_valid_i
// drives only p_valid_q and p_pend_q.

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

  // ---- P: job fields of the walk (taken from job_i when P loads) ----
  tma_pkg::dim64_t p_step_q;               // address step of dim d
  tma_pkg::dim64_t p_alo_q;                // a[d] at the restart position (dims 1..3)
  tma_pkg::dim34_t p_lo_q;                 // restart position
  tma_pkg::dim32_t p_dim_m1_q;             // in bounds iff 0 <= pos <= dim_m1
  tma_pkg::dim4_t  p_es_q;                 // position step
  logic [tma_pkg::RowBytesW-1:0] p_head_q; // first in-bounds byte of a row
  tma_pkg::dim36_t zlo_q;                  // z at the restart position lo
  logic            p_mark_q;               // marker job: one completion-only entry
  logic            p_i2c_q;                // the walk ends after nrows_m1 + 1 rows
  logic            p_hasrd_q;              // dend > head: in-bounds rows read
  // ---- P: walk state of the current row ----
  logic            p_valid_d, p_valid_q;   // P holds a row
  logic            p_pend_d, p_pend_q;     // P's row is row 0 of a job not yet accepted
  tma_pkg::dim34_t pos_q;                  // positions pos[d], index 1..4
  tma_pkg::dim36_t z_q;                    // pos + es - hi - 1 (>= 0: dim d wraps)
  tma_pkg::dim64_t acc_q;                  // a[d] = acc + (accp << 32)
  logic [MaxDims-1:0] accp_q;              // pending carry of acc's low half into its high
  logic [9:0]      rleft_q;                // im2col: rows after this one
  logic            p_lastw_q;              // P's row is the last of its tile job (all wrap)
  logic            p_lasto_q;              // ... of its marker or im2col job
  logic            p_tile_q;               // a tile job: its last row is where all dims wrap
  logic            p_first_q;              // P's row is row 0 of its job
  // ---- R: the row address as a carry-save pair ----
  logic            r_valid_q, r_last_q, r_mark_q, r_read_q, r_first_q;
  logic [63:0]     r_s_d, r_s_q, r_c_d, r_c_q;
  // ---- K: row fields of the job whose rows are in R (taken when the job is accepted) ----
  logic [tma_pkg::RowBytesW-1:0] k_row_bytes_q, k_head_q, k_dend_q, k_pitch_q;
  logic            k_fill_nan_q, k_tf32_q;
  logic [2:0]      k_swz_q;
  logic [1:0]      k_pk_q;
  tma_pkg::cpl_info_t k_cpl_q;
  logic [31:0]     k_smem0_q;              // shared address of the job's row 0
  logic [31:0]     smem_q;                 // shared address of the row after O's last (R's
                                           // row, unless it is row 0 of its job)
  logic [31:0]     tx_q;                   // bytes of the job's rows already in O (ditto)
  logic [31:0]     smem_r, tx_r;           // R's row: its shared address, bytes before it
  // ---- O: the output register (a spill register: row_ready_i reaches only its flops) ----
  logic            o_ready;                // O takes a row (flops only)
  tma_pkg::row_t   o_d;

  // ---- Control ----
  // The late inputs reach only a few flops: row_ready_i the output spill register's, and
  // job_valid_i p_valid_q and p_pend_q. Every other enable and data mux selects on flops.
  logic               adv;        // the pipeline advances (O can take a row)
  logic [MaxDims-1:0] wrap;       // dim d has no further position
  logic               p_last;     // P's row is the last of its job
  logic               p_next;     // (flops only) if P's walk state changes, it steps
  logic               acc_pend;   // the job whose row 0 is in P is accepted (row 0 -> R)
  logic               k_free;     // no row that needs K stays in P or R: accept at load
  logic               load;       // P takes job_i
  logic               acc_load;   // ... and accepts it in the same cycle
  logic               nf_ce;      // (flops only) P's job fields for later rows may change
  logic               p_ce;       // P's walk state may change (steps, or follows job_i)
  logic               p_free;     // P's row, if any, is its job's last and leaves

  // (Yosys 0.23 crashes on a bit select of an element of a struct's packed array, x.v[d][b]:
  // the per-dim values are read through temporaries.)
  logic [35:0] zw;

  always_comb begin : proc_ctrl
    wrap = '0;
    zw   = '0;
    for (int d = 1; d < MaxDims; d++) begin
      zw      = z_q.v[d];
      wrap[d] = !zw[35];
    end
    // Two flops, so the late wrap test of job_i (a carry chain) meets one short mux.
    p_last   = p_lastw_q || p_lasto_q;
    p_next   = p_valid_q && !p_last;
    adv      = o_ready;
    acc_pend = p_valid_q && p_pend_q && adv;
    k_free   = !p_valid_q && (!r_valid_q || adv);
    // P is free when empty or when its last row leaves; while P's job waits for acceptance
    // job_i is that job, so a pending last row (a one-row job) frees P without a load.
    load     = job_valid_i && (!p_valid_q || (!p_next && !p_pend_q && adv));
    acc_load = job_valid_i && k_free;
    job_ready_o = acc_pend || k_free;
    // Data enables without job_valid_i: P's registers follow job_i whenever P is free (they
    // are don't-care while P is empty), so job_valid_i reaches p_valid_q and p_pend_q only.
    p_free   = !p_valid_q || (!p_next && adv);
    p_ce     = !p_valid_q || adv;
    // step, alo, lo, zlo and es serve only the rows after P's row: they follow job_i while P
    // is empty, holds a last row, or holds row 0 of the pending job (then job_i is that job).
    nf_ce    = !p_next || p_pend_q;
  end

  // ---- P: next walk state (the job's next row, or row 0 of job_i) ----
  tma_pkg::dim34_t pos_s, pos_i;
  tma_pkg::dim36_t z_s, z_i, zlo_i;
  tma_pkg::dim64_t acc_s, acc_i;
  logic [MaxDims-1:0] accp_s, accp_i;
  logic [35:0] za, zb, zc, zs;       // 3-operand add pos + es + ~hi: one 3:2 level, one add
  logic [34:0] zm;
  logic        found;                 // the stepping dim was found (loop temporary)
  logic [63:0] sa, sb;                // a[d] and step[d] (loop temporaries)
  logic [32:0] slo;                   // low half sum with its carry
  logic [31:0] shi;                   // high half sum
  logic [35:0] sz, szl;               // next z, restart z
  logic [33:0] ic, ih, il;            // coord, hi, lo of job_i (loop temporaries)
  logic [35:0] izt;                   // z of row 0
  logic [63:0] ia;                    // astart[4] of job_i
  logic [32:0] ilo;                   // its low half plus gaddr's, with the carry
  logic        wrap_s;                // every dim wraps in the next row (tile: it is the last)
  logic        wrap_i;                // every dim wraps in row 0 of job_i

  always_comb begin : proc_p_step
    pos_s  = pos_q;
    z_s    = z_q;
    acc_s  = acc_q;
    accp_s = accp_q;
    found  = 1'b0;
    wrap_s = 1'b1;
    sa     = '0;
    sb     = '0;
    slo    = '0;
    shi    = '0;
    sz     = '0;
    szl    = '0;
    // The lowest dim that does not wrap steps; every dim below it restarts (all restart only
    // in the im2col case that Im2colSteps_A excludes).
    for (int d = 1; d < MaxDims; d++) begin
      if (!found) begin
        if (!wrap[d]) begin
          found      = 1'b1;
          pos_s.v[d] = pos_q.v[d] + 34'(p_es_q.v[d]);
          z_s.v[d]   = z_q.v[d] + 36'(p_es_q.v[d]);
          sa         = acc_q.v[d];
          sb         = p_step_q.v[d];
          slo        = 33'(sa[31:0]) + 33'(sb[31:0]);
          shi        = sa[63:32] + sb[63:32] + 32'(accp_q[d]);
          acc_s.v[d] = {shi, slo[31:0]};
          accp_s[d]  = slo[32];
          // the stepping dim wraps next when its new z >= 0 (the end of its carry chain)
          sz         = z_s.v[d];
          wrap_s     = wrap_s && !sz[35];
        end else begin
          pos_s.v[d] = p_lo_q.v[d];
          z_s.v[d]   = zlo_q.v[d];
          szl        = zlo_q.v[d];
          wrap_s     = wrap_s && !szl[35];           // a restarting dim: z = zlo
          // a[4] holds gaddr and is never restarted: dim 4 restarts only in the im2col walk
          // that Im2colSteps_A excludes.
          if (d < MaxDims - 1) begin
            acc_s.v[d] = p_alo_q.v[d];
            accp_s[d]  = 1'b0;
          end
        end
      end else begin
        wrap_s = wrap_s && wrap[d];                  // a dim above the stepping one holds
      end
    end
  end

  always_comb begin : proc_p_init
    pos_i  = '0;
    z_i    = '0;
    zlo_i  = '0;
    acc_i  = '0;
    accp_i = '0;
    za = '0;
    zb = '0;
    zc = '0;
    zs = '0;
    zm = '0;
    wrap_i = 1'b1;
    ic = '0;
    ih = '0;
    il = '0;
    izt = '0;
    for (int d = 1; d < MaxDims; d++) begin
      ic = job_i.coord.v[d];
      ih = job_i.hi.v[d];
      il = job_i.lo.v[d];
      pos_i.v[d] = job_i.coord.v[d];
      // z = coord + es + ~hi and zlo = lo + es + ~hi, each as one 3:2 level and one add
      za = {{2{ic[33]}}, ic};
      zb = 36'(job_i.es.v[d]);
      zc = ~{{2{ih[33]}}, ih};
      zs = za ^ zb ^ zc;
      zm = 35'((za & zb) | (za & zc) | (zb & zc));
      izt = zs + {zm, 1'b0};
      z_i.v[d] = izt;
      wrap_i   = wrap_i && !izt[35];
      za = {{2{il[33]}}, il};
      zs = za ^ zb ^ zc;
      zm = 35'((za & zb) | (za & zc) | (zb & zc));
      zlo_i.v[d] = zs + {zm, 1'b0};
      acc_i.v[d] = job_i.astart.v[d];
    end
    // gaddr joins a[4]: two 32-bit adds, the low half's carry pending
    ia  = job_i.astart.v[MaxDims-1];
    ilo = 33'(ia[31:0]) + 33'(job_i.gaddr[31:0]);
    acc_i.v[MaxDims-1] = {ia[63:32] + job_i.gaddr[63:32], ilo[31:0]};
    accp_i[MaxDims-1]  = ilo[32];
  end

  always_comb begin : proc_p_valid
    p_valid_d = p_valid_q;
    p_pend_d  = p_pend_q;
    if (acc_pend) p_pend_d = 1'b0;
    if (p_valid_q && p_last && adv) p_valid_d = 1'b0;
    if (load) begin
      p_valid_d = 1'b1;
      p_pend_d  = !acc_load;
    end
  end

  // ---- P -> R: OOB test and the row address as a carry-save pair ----
  logic        p_oob;
  logic [33:0] pv;                            // pos[d] (loop temporary)
  logic [2:0]  pcnt;                          // pending carries, weight 2^32
  logic [63:0] xv, s1, s2, s3;
  logic [62:0] m1, m2, m3;         // majority bits (carries into the next column)

  always_comb begin : proc_r_next
    p_oob = 1'b0;
    pv    = '0;
    for (int d = 1; d < MaxDims; d++) begin
      // pos < 0 or pos > dim_m1 (dim_m1 < 2^32)
      pv = pos_q.v[d];
      if (pv[33] || pv[32] || (pv[31:0] > p_dim_m1_q.v[d])) begin
        p_oob = 1'b1;
      end
    end
    pcnt = 3'(accp_q[1]) + 3'(accp_q[2]) + 3'(accp_q[3]) + 3'(accp_q[4]);
    xv   = {29'd0, pcnt, 20'd0, p_head_q};
    s1   = acc_q.v[1] ^ acc_q.v[2] ^ acc_q.v[3];
    m1   = 63'((acc_q.v[1] & acc_q.v[2]) | (acc_q.v[1] & acc_q.v[3]) |
               (acc_q.v[2] & acc_q.v[3]));
    s2   = s1 ^ {m1, 1'b0} ^ acc_q.v[4];
    m2   = 63'((s1 & {m1, 1'b0}) | (s1 & acc_q.v[4]) | ({m1, 1'b0} & acc_q.v[4]));
    s3   = s2 ^ {m2, 1'b0} ^ xv;
    m3   = 63'((s2 & {m2, 1'b0}) | (s2 & xv) | ({m2, 1'b0} & xv));
    r_s_d = s3;
    r_c_d = {m3, 1'b0};
  end

  // ---- R -> O: the output row ----
  always_comb begin : proc_o_next
    // Row 0 of a job restarts the running address and byte count: a flop-selected mux in
    // front of the adders, so job acceptance (which depends on adv) never reaches them.
    smem_r = r_first_q ? k_smem0_q : smem_q;
    tx_r   = r_first_q ? 32'd0 : tx_q;
    o_d    = '0;
    if (r_mark_q) begin
      o_d.last = 1'b1;
      o_d.cpl  = k_cpl_q;
    end else begin
      o_d.has_data  = 1'b1;
      o_d.last      = r_last_q;
      o_d.smem_addr = smem_r;
      o_d.row_bytes = k_row_bytes_q;
      o_d.fill_nan  = k_fill_nan_q;
      o_d.tf32      = k_tf32_q;
      o_d.swz       = k_swz_q;
      o_d.pk        = k_pk_q;
      o_d.cpl       = k_cpl_q;
      o_d.cpl.bytes = tx_r + 32'(k_row_bytes_q);
      if (r_read_q) begin
        o_d.head = k_head_q;
        o_d.dend = k_dend_q;
      end
      // The OOB test ends in a compare (a carry chain): its result gates the address here,
      // after the add, rather than the carry-save pair before it.
      o_d.gaddr = (r_s_q + r_c_q) & {64{r_read_q}};
    end
  end

  // ---- Flops ----
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_p_q
    if (!rst_ni) begin
      p_step_q   <= '0;
      p_alo_q    <= '0;
      p_lo_q     <= '0;
      p_es_q     <= '0;
      zlo_q      <= '0;
      p_dim_m1_q <= '0;
      p_head_q   <= '0;
      p_mark_q   <= 1'b0;
      p_i2c_q    <= 1'b0;
      p_hasrd_q  <= 1'b0;
      p_valid_q  <= 1'b0;
      p_pend_q   <= 1'b0;
      pos_q      <= '0;
      z_q        <= '0;
      acc_q      <= '0;
      accp_q     <= '0;
      rleft_q    <= '0;
      p_lastw_q  <= 1'b0;
      p_lasto_q  <= 1'b0;
      p_tile_q   <= 1'b0;
      p_first_q  <= 1'b0;
    end else begin
      if (nf_ce) begin
        p_step_q <= job_i.step;
        p_alo_q  <= job_i.alo;
        p_lo_q   <= job_i.lo;
        p_es_q   <= job_i.es;
        zlo_q    <= zlo_i;
      end
      if (p_free) begin
        p_dim_m1_q <= job_i.dim_m1;
        p_head_q   <= job_i.head;
        p_mark_q   <= job_i.marker;
        p_i2c_q    <= job_i.i2c;
        p_hasrd_q  <= job_i.dend > job_i.head;
      end
      p_valid_q <= p_valid_d;
      p_pend_q  <= p_pend_d;
      if (p_ce) begin
        if (p_next) begin
          pos_q   <= pos_s;
          z_q     <= z_s;
          acc_q   <= acc_s;
          accp_q  <= accp_s;
          rleft_q  <= rleft_q - 1'b1;
          p_lastw_q <= p_tile_q && wrap_s;
          p_lasto_q <= p_i2c_q && rleft_q == 10'd1;
          p_first_q <= 1'b0;
        end else begin
          pos_q   <= pos_i;
          z_q     <= z_i;
          acc_q   <= acc_i;
          accp_q  <= accp_i;
          rleft_q   <= job_i.nrows_m1;
          p_lastw_q <= !job_i.marker && !job_i.i2c && wrap_i;
          p_lasto_q <= job_i.marker || (job_i.i2c && job_i.nrows_m1 == 10'd0);
          p_tile_q  <= !job_i.marker && !job_i.i2c;
          p_first_q <= 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_r_q
    if (!rst_ni) begin
      r_valid_q <= 1'b0;
      r_last_q  <= 1'b0;
      r_mark_q  <= 1'b0;
      r_first_q <= 1'b0;
      r_read_q  <= 1'b0;
      r_s_q     <= '0;
      r_c_q     <= '0;
    end else if (adv) begin
      r_valid_q <= p_valid_q;
      r_last_q  <= p_last;
      r_mark_q  <= p_mark_q;
      r_first_q <= p_first_q;
      r_read_q  <= !p_mark_q && p_hasrd_q && !p_oob;
      r_s_q     <= r_s_d;
      r_c_q     <= r_c_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_k_q
    if (!rst_ni) begin
      k_row_bytes_q <= '0;
      k_head_q      <= '0;
      k_dend_q      <= '0;
      k_pitch_q     <= '0;
      k_fill_nan_q  <= 1'b0;
      k_tf32_q      <= 1'b0;
      k_swz_q       <= '0;
      k_pk_q        <= '0;
      k_cpl_q       <= '0;
      k_smem0_q     <= '0;
      smem_q        <= '0;
      tx_q          <= '0;
    end else begin
      // K follows job_i whenever the walker can accept a job: then no row needs K.
      if (job_ready_o) begin
        k_row_bytes_q <= job_i.row_bytes;
        k_head_q      <= job_i.head;
        k_dend_q      <= job_i.dend;
        k_pitch_q     <= job_i.pitch;
        k_fill_nan_q  <= job_i.fill_nan;
        k_tf32_q      <= job_i.tf32;
        k_swz_q       <= job_i.swz;
        k_pk_q        <= job_i.pk;
        k_cpl_q       <= job_i.cpl;
        k_smem0_q     <= job_i.smem_addr;
      end
      if (adv && r_valid_q) begin
        smem_q <= smem_r + 32'(k_pitch_q);
        tx_q   <= tx_r + 32'(k_row_bytes_q);
      end
    end
  end

  // O: R's row enters whenever O has room; O holds up to two rows, so its ready is a flop
  // function one cycle ahead of row_ready_i.
  tma_spill_reg #(
    .Width (tma_pkg::RowWidth)
  ) u_out (
    .clk_i,
    .rst_ni,
    .in_valid_i  (r_valid_q),
    .in_ready_o  (o_ready),
    .in_data_i   (o_d),
    .out_valid_o (row_valid_o),
    .out_ready_i (row_ready_i),
    .out_data_o  (row_o)
  );

  assign busy_o = p_valid_q || r_valid_q || row_valid_o;

  // Dim 0 of the per-dim fields is not a walker dim; a[4] never restarts.
  logic unused_bits;
  assign unused_bits = ^{p_step_q.v[0], p_alo_q.v[0], p_alo_q.v[MaxDims-1], p_lo_q.v[0],
                         p_dim_m1_q.v[0], p_es_q.v[0], pos_q.v[0], z_q.v[0], zlo_q.v[0],
                         acc_q.v[0], accp_q[0], zw[34:0], sz[34:0], szl[34:0]};

  // ---- Assertions ----
  `TMA_ASSERT_INIT(RowWidth_A, tma_pkg::RowWidth == $bits(tma_pkg::row_t))
  `TMA_ASSERT_STABLE(RowHeld_A, row_valid_o, row_ready_i, row_o)
  `TMA_ASSERT(HeadBeforeEnd_A, row_valid_o && row_o.has_data |-> row_o.head <= row_o.dend)
  `TMA_ASSERT(RowFits_A, row_valid_o && row_o.has_data |-> row_o.dend <= row_o.row_bytes)
  // P was loaded from job_i before the handshake: the job must still be offered.
  `TMA_ASSERT(PendOffered_A, p_pend_q |-> job_valid_i)
  `TMA_ASSERT_NEVER(PendWithoutRow_A, p_pend_q && !p_valid_q)
  // The N dim of an im2col job never wraps, so some dim always steps before the last row.
  // (Assertions name narrow signals only: Verilator 5.006 emits uncompilable code when it
  // samples a vector as wide as a job.)
  `TMA_ASSERT(Im2colSteps_A, p_valid_q && p_i2c_q && !p_last |-> !(&wrap[MaxDims-1:1]))
  // The last-row flag, computed a cycle ahead, matches its definition on P's row.
  `TMA_ASSERT(LastFlag_A, p_valid_q |-> p_last == (p_mark_q ||
      (p_i2c_q ? (rleft_q == 10'd0) : (&wrap[MaxDims-1:1]))))

endmodule
