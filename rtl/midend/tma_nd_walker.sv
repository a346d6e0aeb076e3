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
// aligner. The last row of a job carries the completion, with complete-tx bytes = rows x
// job_t.tx_row (the row bytes, silicon D1; the packed payload of b4x16_p64 / b6x16_p32, B1).
// A marker job (error, check-only prefetch) becomes one completion-only entry.
//
// Timing structure (one carry chain per stage, no compare of a sum in the row loop):
//   P  the walk state of the current row. Per dim: pos; the wrap flag w (pos + es > hi) and
//      the wrap distance one step ahead, zz = pos + 2 es - hi - 1 (after a step the dim
//      wraps when zz >= 0: a sign bit, a flop); chg, the registered AND of the wrap flags
//      below the dim (it steps or restarts); and a[d] as two 32-bit halves with a pending
//      carry (lo + step_lo -> carry; hi + step_hi + previous carry). gaddr is folded into
//      a[4] at load (dim 4 is the outermost: it never restarts). Every select and enable of
//      the walk is a small LUT of flops; the adders' outputs meet one mux each.
//   R  the row address as a carry-save pair (a 3-level 3:2 compressor tree over a[1..4],
//      head and the pending carries); the OOB test as registered per-dim compares.
//   O  the output register: the pair resolved by a carry-select add (two 32-bit halves;
//      zeroed for a row without a read), plus the job's row fields. O is a spill register
//      (two entries), so its ready is a function of flops: row_ready_i reaches only O's own
//      flops and room_q, a one-flop copy of O's room on which every other stage advances
//      (adv). The last-row flags exist twice (the walk's selects, the control's p_valid/
//      p_pend and enables), so neither logic cone waits on the other's fan-out.
// P is loaded from job_i as soon as it is free, before the job is accepted (valid/ready
// holds job_i stable until the handshake): the job is accepted when its first row moves on
// to R, i.e. once the previous job's rows no longer need its output fields (register K).
// Jobs of three or more rows follow each other without a bubble (with the interface rule
// below, the next job's valid comes a cycle after its fields, so a job of one or two rows
// leaves P idle for a cycle; the frontend delivers a job every 5 or more cycles). The data
// registers of P and K follow job_i whenever they are free (don't-care until the job is
// valid), so job_valid_i drives only p_valid_q and p_pend_q.
// Interface rule beyond valid/ready (docs/interfaces.md, "Walker job timing"): job_i's coord,
// lo, hi and es must already hold their values in the cycle before job_valid_i rises (row 0's
// wrap distances and flags are computed from them into flops every cycle by tma_walk_start;
// its JobZFresh_A checks it). tma_cmd_ctrl writes them at least two cycles before it raises
// the valid.
//
// About 600 lines in one module: P, R and K share the walk's control signals (adv, p_next,
// the load and accept terms) cycle by cycle, with no stream between them; row 0's set-up
// (tma_walk_start) is the part that stands alone.

`default_nettype none

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
  tma_pkg::dim36_t zzlo_q;                 // zz at the restart position lo
  logic [MaxDims-1:0] wlo_q;               // dim d wraps at its restart position lo
  logic            p_mark_q;               // marker job: one completion-only entry
  logic            p_i2c_q;                // the walk ends after nrows_m1 + 1 rows
  logic            p_hasrd_q;              // dend > head: in-bounds rows read
  // ---- P: walk state of the current row ----
  logic            p_valid_d, p_valid_q;   // P holds a row
  logic            p_pend_d, p_pend_q;     // P's row is row 0 of a job not yet accepted
  tma_pkg::dim34_t pos_q;                  // positions pos[d], index 1..4
  tma_pkg::dim36_t zz_q;                   // pos + 2 es - hi - 1 (>= 0: wraps after a step)
  logic [MaxDims-1:0] w_q;                 // dim d wraps: pos + es > hi
  logic [MaxDims-1:0] chg_q;               // every dim below d wraps (d >= 2)
  tma_pkg::dim64_t acc_q;                  // a[d] = acc + (accp << 32)
  logic [MaxDims-1:0] accp_q;              // pending carry of acc's low half into its high
  logic [10:0]     rleft_q;                // im2col: rows after this one
  logic            p_lastx_q;              // P's row is the last of its job (a marker or
                                           // im2col job, or a tile row after row 0)
  logic            p_l0a_q, p_l0b_q;       // row 0 of a tile job is its last (all dims wrap;
                                           // two halves, each one LUT after its adders)
  logic            c_nlastx_q, c_nl0a_q, c_nl0b_q; // inverted copies of the three for the
                                           // control (p_valid, p_pend, enables): not merged
                                           // with the walk's selects, so neither waits on
                                           // the other's fan-out
  logic            p_tile_q;               // a tile job: its last row is where all dims wrap
  logic            p_first_q;              // P's row is row 0 of its job
  // ---- R: the row address as a carry-save pair ----
  logic            r_valid_q, r_last_q, r_mark_q, r_first_q;
  logic            r_rd_d, r_rd_q;         // the row reads, unless a dim is beyond its end ...
  logic [MaxDims-1:1] r_big_q;             // ... (per dim; r_read combines them)
  logic            r_read;
  logic [63:0]     r_s_d, r_s_q, r_c_d, r_c_q;
  // ---- K: row fields of the job whose rows are in R (taken when the job is accepted) ----
  logic [tma_pkg::RowBytesW-1:0] k_row_bytes_q, k_head_q, k_dend_q, k_pitch_q;
  logic [tma_pkg::RowBytesW-1:0] k_tx_row_q;   // complete-tx bytes of a row
  logic            k_fill_nan_q, k_tf32_q;
  logic [2:0]      k_swz_q;
  logic [1:0]      k_pk_q;
  tma_pkg::cpl_info_t k_cpl_q;
  logic [31:0]     k_smem0_q;              // shared address of the job's row 0
  logic [31:0]     smem_q;                 // shared address of the row after O's last (R's
                                           // row, unless it is row 0 of its job)
  logic [31:0]     tx_q;                   // bytes of the job's rows already in O (ditto)
  logic [31:0]     smem_r, tx_r;           // R's row: its shared address, bytes before it
  logic [31:0]     smem_d, tx_d;           // ... and of the row after it
  // ---- O: the output register (a spill register: row_ready_i reaches only its flops) ----
  logic            o_ready;                // O takes a row (flops only)
  logic            room_d, room_q;         // a copy of o_ready as one flop (O's room)
  logic            o_full_n;               // O holds two rows in the next cycle
  tma_pkg::row_t   o_d;

  // ---- Control ----
  // The late inputs reach only a few flops: row_ready_i the output spill register's, and
  // job_valid_i p_valid_q and p_pend_q. Every other enable and data mux selects on flops.
  logic               adv;        // the pipeline advances (O can take a row)
  logic [MaxDims-1:0] chg;        // (flops) every dim below d wraps: d steps or restarts
  logic               p_last;     // P's row is the last of its job
  logic               p_next;     // (flops only) if P's walk state changes, it steps
  logic               c_last, c_next; // the same from the control's copies
  logic               acc_pend;   // the job whose row 0 is in P is accepted (row 0 -> R)
  logic               k_free;     // no row that needs K stays in P or R: accept at load
  logic               load;       // P takes job_i
  logic               acc_load;   // ... and accepts it in the same cycle
  logic               nf_ce;      // (flops only) P's job fields for later rows may change
  logic               p_ce;       // P's walk state may change (steps, or follows job_i)
  logic               p_free;     // P's row, if any, is its job's last and leaves
  logic [MaxDims-1:0] dce;        // dim d's walk state changes (it steps, restarts or loads)

  always_comb begin : proc_ctrl
    chg      = chg_q;
    chg[1]   = 1'b1;
    // Three flops, so the late wrap tests of job_i (carry chains) meet one small LUT each.
    p_last   = p_lastx_q || (p_l0a_q && p_l0b_q);
    p_next   = p_valid_q && !p_last;
    c_last   = !c_nlastx_q || (!c_nl0a_q && !c_nl0b_q);
    c_next   = p_valid_q && !c_last;
    adv      = room_q;
    acc_pend = p_valid_q && p_pend_q && adv;
    k_free   = !p_valid_q && (!r_valid_q || adv);
    // P is free when empty or when its last row leaves; while P's job waits for acceptance
    // job_i is that job, so a pending last row (a one-row job) frees P without a load.
    load     = job_valid_i && (!p_valid_q || (!c_next && !p_pend_q && adv));
    acc_load = job_valid_i && k_free;
    job_ready_o = acc_pend || k_free;
    // Data enables without job_valid_i: P's registers follow job_i whenever P is free (they
    // are don't-care while P is empty), so job_valid_i reaches p_valid_q and p_pend_q only.
    p_free   = !p_valid_q || (!c_next && adv);
    p_ce     = !p_valid_q || adv;
    // step, alo, lo, zzlo, wlo and es serve only the rows after P's row: they follow job_i
    // while P is empty, holds a last row, or holds row 0 of the pending job (then job_i is
    // that job).
    nf_ce    = !c_next || p_pend_q;
    // A dim's state changes when it steps or restarts (every dim below it wraps), or when P
    // takes row 0 of job_i: one LUT of flops per dim.
    dce      = '0;
    for (int d = 1; d < MaxDims; d++) begin
      dce[d] = p_ce && (!p_next || chg[d]);
    end
  end

  // ---- P: next walk state (the job's next row, or row 0 of job_i) ----
  // The lowest dim that does not wrap steps; every dim below it restarts, every dim above it
  // holds (all restart only in the im2col case that Im2colSteps_A excludes). Every control
  // of the step is a flop: w (the dim wraps), chg (every dim below wraps: the dim steps or
  // restarts, else its enable dce is off). zz is the wrap distance one step ahead, so the
  // wrap flag after a step is zz's sign, a flop, and the next cycle's w and chg are LUTs of
  // flops (row 0 of job_i excepted). Each state bit is one small mux after its adder.
  tma_pkg::dim34_t pos_n, pos_i;                // (*_i: row 0 of job_i, this cycle's; izz_q,
  tma_pkg::dim36_t zz_n, izz_q, izzlo_q;        // izzlo_q, iw_q, iwlo_q: its wrap values,
  tma_pkg::dim64_t acc_n, acc_i;                // registered, used at a load: tma_walk_start)
  logic [MaxDims-1:0] accp_n, accp_i;
  logic [MaxDims-1:0] w_s, w_n;               // wrap flags: next row, next state
  logic [MaxDims-1:0] iw_q, iwlo_q;
  logic [MaxDims:0]   chg_n;                  // every dim below d wraps in the next state
  logic [63:0] sa, sb;                // a[d] and step[d] (loop temporaries)
  logic [32:0] slo;                   // low half sum with its carry
  logic [31:0] shi;                   // high half sum
  logic [35:0] sz;                    // zz (loop temporary)
  logic        wrap_s;                // every dim wraps in the next row (tile: it is the last)

  // Row 0 of job_i (its wrap values registered every cycle: the job timing rule)
  tma_walk_start u_start (
    .clk_i,
    .rst_ni,
    .job_valid_i,
    .coord_i     (job_i.coord),
    .lo_i        (job_i.lo),
    .hi_i        (job_i.hi),
    .es_i        (job_i.es),
    .astart_i    (job_i.astart),
    .gaddr_i     (job_i.gaddr),
    .pos_o       (pos_i),
    .acc_o       (acc_i),
    .accp_o      (accp_i),
    .zz_q_o      (izz_q),
    .zzlo_q_o    (izzlo_q),
    .w_q_o       (iw_q),
    .wlo_q_o     (iwlo_q)
  );

  always_comb begin : proc_p_step
    pos_n  = pos_q;
    zz_n   = zz_q;
    acc_n  = acc_q;
    accp_n = accp_q;
    w_s    = '0;
    sa     = '0;
    sb     = '0;
    slo    = '0;
    shi    = '0;
    sz     = '0;
    for (int d = 1; d < MaxDims; d++) begin
      sa  = acc_q.v[d];
      sb  = p_step_q.v[d];
      slo = 33'(sa[31:0]) + 33'(sb[31:0]);
      shi = sa[63:32] + sb[63:32] + 32'(accp_q[d]);
      sz  = zz_q.v[d];
      // The next row: the stepping dim (chg, !w) steps and wraps next when zz >= 0; a
      // restarting dim (chg, w) takes lo; a dim above the stepping one holds (dce is off).
      w_s[d] = !chg[d] ? w_q[d] : (w_q[d] ? wlo_q[d] : !sz[35]);
      if (!p_next) begin
        pos_n.v[d] = pos_i.v[d];
        zz_n.v[d]  = izz_q.v[d];
        acc_n.v[d] = acc_i.v[d];
        accp_n[d]  = accp_i[d];
      end else if (!w_q[d]) begin
        pos_n.v[d] = pos_q.v[d] + 34'(p_es_q.v[d]);
        zz_n.v[d]  = sz + 36'(p_es_q.v[d]);
        acc_n.v[d] = {shi, slo[31:0]};
        accp_n[d]  = slo[32];
      end else begin
        pos_n.v[d] = p_lo_q.v[d];
        zz_n.v[d]  = zzlo_q.v[d];
        // a[4] holds gaddr and is never restarted: dim 4 restarts only in the im2col walk
        // that Im2colSteps_A excludes, so its value there is don't-care (the step's sum,
        // which keeps the dim's enable a pure function of chg).
        if (d < MaxDims - 1) begin
          acc_n.v[d] = p_alo_q.v[d];
          accp_n[d]  = 1'b0;
        end else begin
          acc_n.v[d] = {shi, slo[31:0]};
          accp_n[d]  = slo[32];
        end
      end
    end
    wrap_s = &w_s[MaxDims-1:1];
  end

  // The next cycle's wrap flags and their prefix ANDs (registered, with the state). The
  // flags of job_i (registered in tma_walk_start) each meet one mux.
  logic [MaxDims:0] chg_s, chg_i;

  always_comb begin : proc_p_flags
    w_n      = p_next ? w_s : iw_q;
    chg_s    = '0;
    chg_i    = '0;
    chg_s[1] = 1'b1;
    chg_i[1] = 1'b1;
    for (int d = 2; d <= MaxDims; d++) begin
      chg_s[d] = chg_s[d-1] && w_s[d-1];
      chg_i[d] = chg_i[d-1] && iw_q[d-1];
    end
    chg_n    = p_next ? chg_s : chg_i;
  end

  always_comb begin : proc_p_valid
    p_valid_d = p_valid_q;
    p_pend_d  = p_pend_q;
    if (acc_pend) p_pend_d = 1'b0;
    if (p_valid_q && c_last && adv) p_valid_d = 1'b0;
    if (load) begin
      p_valid_d = 1'b1;
      p_pend_d  = !acc_load;
    end
  end

  // ---- P -> R: OOB test and the row address as a carry-save pair ----
  logic        p_neg;                         // some pos[d] < 0 or >= 2^32
  logic [MaxDims-1:1] p_big;                  // pos[d][31:0] > dim_m1[d] (a compare each)
  logic [33:0] pv;                            // pos[d] (loop temporary)
  logic [2:0]  pcnt;                          // pending carries, weight 2^32
  logic [63:0] xv, s1, s2, s3;
  logic [62:0] m1, m2, m3;         // majority bits (carries into the next column)

  always_comb begin : proc_r_next
    // The row is out of bounds when some pos < 0 or pos > dim_m1 (dim_m1 < 2^32); each
    // dim's compare is registered on its own and R combines them (r_read).
    p_neg = 1'b0;
    p_big = '0;
    pv    = '0;
    for (int d = 1; d < MaxDims; d++) begin
      pv = pos_q.v[d];
      if (pv[33] || pv[32]) p_neg = 1'b1;
      p_big[d] = pv[31:0] > p_dim_m1_q.v[d];
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
    r_rd_d = !p_mark_q && p_hasrd_q && !p_neg;
  end

  // ---- R -> O: the output row ----
  logic [32:0] o_lo;                          // R's pair resolved: lower half and carry
  logic [31:0] o_hi0, o_hi1;                  // upper half without / with that carry

  // (a LUT of flops: it meets the address only in the gate after the carry-select add)
  assign r_read = r_rd_q && r_big_q == '0;

  always_comb begin : proc_o_next
    o_lo   = 33'(r_s_q[31:0]) + 33'(r_c_q[31:0]);
    o_hi0  = r_s_q[63:32] + r_c_q[63:32];
    o_hi1  = r_s_q[63:32] + r_c_q[63:32] + 32'd1;
    // Row 0 of a job restarts the running address and byte count: a flop-selected mux in
    // front of the adders, so job acceptance (which depends on adv) never reaches them.
    smem_r = r_first_q ? k_smem0_q : smem_q;
    tx_r   = r_first_q ? 32'd0 : tx_q;
    smem_d = smem_r + 32'(k_pitch_q);
    tx_d   = tx_r + 32'(k_tx_row_q);
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
      o_d.cpl.bytes = tx_d;
      if (r_read) begin
        o_d.head = k_head_q;
        o_d.dend = k_dend_q;
      end
      // The OOB test (per-dim compares registered in R) gates the address here, after the
      // add, rather than the carry-save pair before it.
      // Carry select: both upper halves are added while the lower half's carry ripples.
      o_d.gaddr = {(o_lo[32] ? o_hi1 : o_hi0), o_lo[31:0]} & {64{r_read}};
    end
  end

  // ---- P: next row flags (loaded with p_ce) ----
  logic       p_hasrd_d, p_l0a_d, p_l0b_d, p_lastx_d, p_tile_d, p_first_d;
  logic       c_nl0a_d, c_nl0b_d, c_nlastx_d;
  logic [10:0] rleft_d;

  always_comb begin : proc_p_row_flags
    p_hasrd_d = job_i.dend > job_i.head;
    p_l0a_d   = !p_next && !job_i.marker && !job_i.i2c && iw_q[1] && iw_q[2];
    p_l0b_d   = iw_q[3] && iw_q[4];
    if (p_next) begin
      rleft_d   = rleft_q - 1'b1;
      p_lastx_d = (p_tile_q && wrap_s) || (p_i2c_q && rleft_q == 11'd1);
      p_tile_d  = p_tile_q;
      p_first_d = 1'b0;
    end else begin
      rleft_d   = job_i.nrows_m1;
      p_lastx_d = job_i.marker || (job_i.i2c && job_i.nrows_m1 == 11'd0);
      p_tile_d  = !job_i.marker && !job_i.i2c;
      p_first_d = 1'b1;
    end
    c_nl0a_d   = !p_l0a_d;
    c_nl0b_d   = !p_l0b_d;
    c_nlastx_d = !p_lastx_d;
  end

  // ---- Flops ----
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_p_q
    if (!rst_ni) begin
      p_step_q   <= '0;
      p_alo_q    <= '0;
      p_lo_q     <= '0;
      p_es_q     <= '0;
      zzlo_q     <= '0;
      wlo_q      <= '0;
      p_dim_m1_q <= '0;
      p_head_q   <= '0;
      p_mark_q   <= 1'b0;
      p_i2c_q    <= 1'b0;
      p_hasrd_q  <= 1'b0;
      p_valid_q  <= 1'b0;
      p_pend_q   <= 1'b0;
      pos_q      <= '0;
      zz_q       <= '0;
      w_q        <= '0;
      chg_q      <= '0;
      acc_q      <= '0;
      accp_q     <= '0;
      rleft_q    <= '0;
      p_lastx_q  <= 1'b0;
      p_l0a_q    <= 1'b0;
      p_l0b_q    <= 1'b0;
      c_nlastx_q <= 1'b1;
      c_nl0a_q   <= 1'b1;
      c_nl0b_q   <= 1'b1;
      p_tile_q   <= 1'b0;
      p_first_q  <= 1'b0;
    end else begin
      if (nf_ce) begin
        p_step_q <= job_i.step;
        p_alo_q  <= job_i.alo;
        p_lo_q   <= job_i.lo;
        p_es_q   <= job_i.es;
        zzlo_q   <= izzlo_q;
        wlo_q    <= iwlo_q;
      end
      if (p_free) begin
        p_dim_m1_q <= job_i.dim_m1;
        p_head_q   <= job_i.head;
        p_mark_q   <= job_i.marker;
        p_i2c_q    <= job_i.i2c;
        p_hasrd_q  <= p_hasrd_d;
      end
      p_valid_q <= p_valid_d;
      p_pend_q  <= p_pend_d;
      // Per dim: its state changes only when it steps or restarts (or P loads).
      for (int d = 1; d < MaxDims; d++) begin
        if (dce[d]) begin
          pos_q.v[d] <= pos_n.v[d];
          zz_q.v[d]  <= zz_n.v[d];
          acc_q.v[d] <= acc_n.v[d];
          accp_q[d]  <= accp_n[d];
        end
      end
      if (p_ce) begin
        w_q      <= w_n;
        chg_q    <= chg_n[MaxDims-1:0];
        p_l0a_q    <= p_l0a_d;
        p_l0b_q    <= p_l0b_d;
        c_nl0a_q   <= c_nl0a_d;
        c_nl0b_q   <= c_nl0b_d;
        rleft_q    <= rleft_d;
        p_lastx_q  <= p_lastx_d;
        c_nlastx_q <= c_nlastx_d;
        p_tile_q   <= p_tile_d;
        p_first_q  <= p_first_d;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_r_q
    if (!rst_ni) begin
      r_valid_q <= 1'b0;
      r_last_q  <= 1'b0;
      r_mark_q  <= 1'b0;
      r_first_q <= 1'b0;
      r_rd_q    <= 1'b0;
      r_big_q   <= '0;
      r_s_q     <= '0;
      r_c_q     <= '0;
    end else if (adv) begin
      r_valid_q <= p_valid_q;
      r_last_q  <= p_last;
      r_mark_q  <= p_mark_q;
      r_first_q <= p_first_q;
      r_rd_q    <= r_rd_d;
      r_big_q   <= p_big[MaxDims-1:1];
      r_s_q     <= r_s_d;
      r_c_q     <= r_c_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_k_q
    if (!rst_ni) begin
      k_row_bytes_q <= '0;
      k_tx_row_q    <= '0;
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
        k_tx_row_q    <= job_i.tx_row;
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
        smem_q <= smem_d;
        tx_q   <= tx_d;
      end
    end
  end

  // O: R's row enters whenever O has room; O holds up to two rows, so its ready is a flop
  // function one cycle ahead of row_ready_i.
  tma_spill_reg #(
    .Width  (tma_pkg::RowWidth),
    .Copies (4)   // flag copies per quarter of the row: the fork's input arithmetic spreads
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

  // O's room as one flop: O holds two rows next cycle when no row leaves and either it is
  // full now or it holds one row and takes R's. adv fans out to P, R and K from this flop,
  // one LUT of O's flops and row_ready_i ahead of them.
  assign o_full_n = !row_ready_i && (!o_ready || (row_valid_o && r_valid_q));
  assign room_d   = !o_full_n;

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_room_q
    if (!rst_ni) begin
      room_q <= 1'b1;
    end else begin
      room_q <= room_d;
    end
  end

  assign busy_o = p_valid_q || r_valid_q || row_valid_o;

  // Dim 0 of the per-dim fields is not a walker dim; a[4] never restarts.
  logic unused_bits;
  assign unused_bits = ^{p_step_q.v[0], p_alo_q.v[0], p_alo_q.v[MaxDims-1], p_lo_q.v[0],
                         p_dim_m1_q.v[0], p_es_q.v[0], pos_q.v[0], zz_q.v[0], zzlo_q.v[0],
                         acc_q.v[0], accp_q[0], w_q[0], chg_q[0], wlo_q[0], sz[34:0],
                         pos_n.v[0], zz_n.v[0], acc_n.v[0], accp_n[0], dce[0],
                         chg[0], w_n[0], chg_n[0], chg_n[MaxDims], w_s[0], iw_q[0],
                         chg_s[0], chg_i[0], chg_s[MaxDims], chg_i[MaxDims],
                         job_i.gather, job_i.w128};   // (tma_gather_walker, tma_w128_walker)

  // ---- Assertions ----
  `TMA_ASSERT_INIT(RowWidth_A, tma_pkg::RowWidth == $bits(tma_pkg::row_t))
  // The wrap flag halves p_l0a/p_l0b and ChgFlags_A name the walker dims 1..4.
  `TMA_ASSERT_INIT(MaxDims_A, MaxDims == 5)
  `TMA_ASSERT_STABLE(RowHeld_A, row_valid_o, row_ready_i, row_o)
  `TMA_ASSERT_IMPLY(HeadBeforeEnd_A, row_valid_o && row_o.has_data, row_o.head <= row_o.dend)
  `TMA_ASSERT_IMPLY(RowFits_A, row_valid_o && row_o.has_data, row_o.dend <= row_o.row_bytes)
  // P was loaded from job_i before the handshake: the job must still be offered.
  `TMA_ASSERT_IMPLY(PendOffered_A, p_pend_q, job_valid_i)
  `TMA_ASSERT_NEVER(PendWithoutRow_A, p_pend_q && !p_valid_q)
  // Kept copies with their own next-state logic, so not a tma_dup_reg (one shared input, no
  // enable): room_q is O's room computed a cycle ahead from O's flops and row_ready_i; the
  // control's inverted last-row flags c_n* load with P's enable and hold their own value.
  `TMA_ASSERT_COPY(RoomCopy_A, room_q, o_ready)
  `TMA_ASSERT_COPY(LastxCopy_A, c_nlastx_q, !p_lastx_q)
  `TMA_ASSERT_COPY(L0aCopy_A, c_nl0a_q, !p_l0a_q)
  `TMA_ASSERT_COPY(L0bCopy_A, c_nl0b_q, !p_l0b_q)
  // The registered prefix ANDs of the wrap flags match their definition.
  `TMA_ASSERT_IMPLY(ChgFlags_A, p_valid_q,
                    chg_q[MaxDims-1:2] ==
                      {&w_q[MaxDims-2:1], &w_q[2:1], w_q[1]})
  // The N dim of an im2col job never wraps, so some dim always steps before the last row.
  // (Assertions name narrow signals only: Verilator 5.006 emits uncompilable code when it
  // samples a vector as wide as a job.)
  `TMA_ASSERT_IMPLY(Im2colSteps_A, p_valid_q && p_i2c_q && !p_last, !(&w_q[MaxDims-1:1]))
  // The last-row flag, computed a cycle ahead, matches its definition on P's row.
  `TMA_ASSERT_IMPLY(LastFlag_A, p_valid_q,
                    p_last == (p_mark_q ||
                      (p_i2c_q ? (rleft_q == 11'd0) : (&w_q[MaxDims-1:1]))))

endmodule

`default_nettype wire
