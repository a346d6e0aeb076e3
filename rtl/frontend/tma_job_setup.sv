// SPDX-License-Identifier: Apache-2.0
//
// tma_job_setup: turns a command and its decoded map into the walker's job (tma_pkg::job_t):
// the walker dimensions, bounds, clamps and global address in three registered steps, the
// address products from the MAC, and the completion-only marker of a command that fails.
//
// The command and map registers are stable from the cycle after the take (W1 on a cache hit)
// to the end of Mac; most operands are registered every cycle from them (valid from the cycle
// after, W1B at the earliest; the walker dims' positions in tma_job_pos). W1 (w1_go_i: the map
// is good and the job register is free) loads the walker view (dims, es, steps) and the
// command's fields; W1B (w1b_i) the row count, the row's element range and the low half of
// the global address. The MAC's slot list (mac_req_o; each slot's partial products from the
// coordinate flags and the stride pieces) is registered from the same registers and taken by
// the MAC from the cycle after W1's first (the sequencer's request); a gather4 / scatter4
// command's rows 3 and 4 (walker dims 3 and 4) go to a second MAC (mac2_req_o) that runs
// beside the first and writes them back as the first does (mac2_wb_*). W2 (w2_i) writes the
// positions (coord, lo, hi), the row geometry and the high half of the global address; Mac
// (mac_i) the row's in-bounds bytes, or a marker for an instruction error or a check-only
// prefetch (the job is valid at once). From Mac until the job is valid the job register is
// the MACs' (own_q); it is valid when both MACs are idle, also after the sequencer has moved
// on to the next command. Their astart / alo write-backs land from W1B on (wb_next_o: W1 has
// cleared those fields and copied the spatial flags), the gaddr slot's from Mac (own_next_o:
// it starts from the gaddr that W1B and W2 write); products formed before wait frozen.
// err_i with err_code_i: a marker for an error found before W1 (the job register is written
// only when it is free: a registered condition, not job_ready_i, which would fan out to every
// job bit's enable).
// tile::gather4 and tile::scatter4 (job_t.gather, for tma_gather_walker): walker dims 1..4 are
// the four rows of the 2-D map, each the view of tensor dim 1 (its stride, bound) at the
// coordinates coords[1..4]; the MAC forms each row's contribution as for a tile dim.
// im2col::w (a wide map, tma_desc_check's view: W spatial, H / D tile dims of box 1, N): wOffset
// shifts W's start, lower and upper corner alike; the walk ends after ppc + wHalo rows.
// im2col::w::128 (job_t.w128, for tma_w128_walker): the same walker view and offsets,
// nrows_m1 = wHalo (the walker forms the four groups of 32 + wHalo pixels).
// A tensor prefetch (PrefetchReads = 1) is the load job of its mode with no destination: a
// done completion naming the issuer with no CTA in cpl.cta_mask (its rows are read and dropped
// on the load path, as a bulk prefetch's) and shared address 0.
// Wide-bus packing (tile loads): when consecutive box rows along walker dim 1 are adjacent in
// global memory (dim 1's step == the row bytes L: a packed tensor, box[0] == dims[0] with
// element stride 1) and in shared memory (pitch == L: no swizzle, or L == the swizzle span),
// the whole box row range is in bounds along dims 0 and 1, and box[1] is a multiple of p, the
// job walks groups of p = 2, 4 or 8 rows as one row of p x L <= DataBytes bytes (es[1] = p,
// step[1], row bytes, complete-tx bytes, pitch and dend x p). The bytes read and written are
// the same; every swizzle is a function of the shared byte address that is constant over an
// aligned beat of <= 128 bytes (tma_swizzle), so a packed row is swizzled as its rows are; the
// complete-tx sum (rows x tx_row) is unchanged. A row out of bounds along dims 2..4 is a whole
// group out of bounds (its rows share those positions) and is filled as one row.

`default_nettype none

`include "tma_assert.svh"

module tma_job_setup #(
  // Stores along dim 0: 0 write whole 16-byte granules that hold an in-bounds element (silicon
  // D7, the model's default), 1 in-bounds elements only (the model's element_exact_store_clip)
  parameter int unsigned StoreClipElem = 0,
  // 1: a tensor prefetch is walked and read like a load, its data dropped; 0: check-only (a
  // done marker after the checks)
  parameter int unsigned PrefetchReads = 1,
  // Pack rows of tile loads into rows of up to DataBytes bytes (the data bus width)
  parameter int unsigned DataBytes     = 16
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  tma_pkg::cmd_t         cmd_i,
  input  tma_pkg::coord_flags_t coord_flags_i,
  // The command's mode decodes and 3 c0 / 4, registered beside the command register (valid
  // with it: W1 on a cache hit is the cycle after the take)
  input  logic                  gat_i,          // tile::gather4 / tile::scatter4
  input  logic                  wmode_i,        // im2col::w
  input  logic                  w128_i,         // im2col::w::128
  input  logic                  i2c_i,          // im2col (offsets on every spatial dim)
  input  logic [37:0]           c0_3q_i,
  input  tma_pkg::map_t         map_i,
  // Steps (from the sequencer)
  input  logic                  w1_go_i,
  input  logic                  w1b_i,
  input  logic                  w2_i,
  input  logic                  mac_i,
  input  logic                  err_i,
  input  logic [3:0]            err_code_i,
  input  logic [3:0]            instr_err_i,   // from the cycle after W2
  // Instruction check operands
  output tma_pkg::walk_bounds_t bounds_o,
  // Address MAC
  output tma_pkg::mac_req_t     mac_req_o,
  output tma_pkg::mac_opnd_t    mac_opnd_o,
  input  logic                  mac_wb_valid_i,
  input  tma_pkg::mac_wb_t      mac_wb_i,
  input  logic [2*tma_pkg::MacSlots-1:0] mac_wb_en_i,  // per slot: it writes back now (two
                                                        // copies: low, high 32 bits)
  // The second MAC: gather4 / scatter4 rows 3 and 4 (their astart slots), written back as the
  // first's
  output tma_pkg::mac_req_t     mac2_req_o,
  input  logic                  mac2_wb_valid_i,
  input  tma_pkg::mac_wb_t      mac2_wb_i,
  input  logic [2*tma_pkg::MacSlots-1:0] mac2_wb_en_i,
  input  logic                  mac_idle_i,
  // Jobs
  output logic                  job_valid_o,
  input  logic                  job_ready_i,
  output tma_pkg::job_t         job_o,
  output logic                  job_free_o,    // the job register is free (no job, not owned)
  output logic                  job_stall_o,   // ... and is not free in the next cycle: a job
                                               // is offered and not taken, or it is owned
  output logic                  own_next_o,    // the job register is the MACs' next cycle
  output logic                  wb_next_o      // the MACs may write back astart / alo next cycle
);

  localparam int unsigned MaxDims = tma_pkg::MaxDims;

  tma_pkg::desc_fields_t mf;
  tma_pkg::map_derived_t md;
  assign mf = map_i.fields;
  assign md = map_i.derived;

  // ---- Operands, registered every cycle from the command and map registers ----
  // The walker dims' positions, strides and start-pixel operands (tma_job_pos)
  tma_pkg::dim34_t       pos_coord, pos_lo, pos_hi;
  tma_pkg::dim36_t       stride;
  tma_pkg::walk_bounds_t bounds;
  logic [3:0]  walk_cflags [MaxDims];  // the flags of walker dim d's coordinate
  logic [31:0] fix_coord_d, fix_coord_q;   // interleave: coordinate of the fixed dim rank - 2
  logic [3:0]  fix_cflags;
  logic [33:0] fix_coord;
  tma_pkg::mac_req_t slots_d, slots_q;   // partial products of each MAC slot
  tma_pkg::mac_req_t slots2_d, slots2_q; // ... of the second MAC's (gather4 / scatter4: rows 3, 4)
  logic [MaxDims-1:0] spatial_w_q;  // the spatial flags of the job the MACs write back into
  logic [35:0] neg_c0_d, neg_c0_q;     // -c0
  logic [35:0] hi_diff_d, hi_diff_q;   // dim[0] - 1 - c0
  logic [8:0]  box0_q;                 // box[0]
  logic        lo_big, hi_big;         // W1B: -c0 > box[0] - 1, dim[0] - 1 - c0 >= box[0] - 1
  logic [8:0]  elem_lo, elem_end;
  logic [8:0]  elem_lo_q, elem_end_q;  // W1B: the row's in-bounds elements [lo, end)
  logic        row_full, row_full_q;   // W1B: they are the whole box row (lo 0, end box[0])
  logic        gaddr_carry_d, gaddr_carry_q;   // carry of the low half of gaddr
  logic        fix_oob_d, fix_oob_q;   // interleave: the fixed dim is out of bounds
  logic [31:0] fix_dim_m1_d, fix_dim_m1_q;   // dim - 1 of the fixed dim
  logic [15:0] dst_mask;
  logic signed [34:0] c0;
  logic [63:0] c0_bytes;               // c0 in global bytes (interleave: chunks x C)
  logic [37:0] c0_bytes_q;             // its low 38 bits (the rest is sign), from W1B
  logic [37:0] c0_3q_d;                // 3 c0 / 4 (b6x16_p32; c0_3q_i, assertion only)
  logic        il;
  logic [1:0]  esz;
  logic [11:0] row_bytes_d, row_bytes_q;
  logic [11:0] tx_row_d, tx_row_q;     // complete-tx bytes of a row (packed payload, B1)
  logic [11:0] pitch_d, pitch_q;
  logic [35:0] chunk16;                // interleave chunk in units of 16 bytes
  logic [1:0]  job_pk;
  // The mode decodes (the intake's flops; _d: of the command register, assertion only)
  logic        gat_d, gat;             // tile::gather4 / tile::scatter4
  logic        wmode_d, wmode;         // im2col::w
  logic        w128_d, w128;           // im2col::w::128
  logic        i2c_d, i2c;             // im2col (offsets on every spatial dim)
  logic [11:0] rb, rb_q;               // the row bytes of the map (valid from W1B)
  logic [11:0] head_d, head_q, dend_d, dend_q;   // the row's in-bounds bytes (valid from Mac)
  logic [10:0] nrows_d, nrows_q;       // im2col: rows - 1 (ppc - 1, im2col::w plus wHalo)
  logic        to_global;              // a store or reduction
  // Wide-bus packing (registered every cycle; the W1B and W2 inputs are stable by W2)
  logic [1:0]  pack_lp_d, pack_lp_q;   // log2 p allowed by the map and command (0: none)
  logic [33:0] pack_lim_d, pack_lim_q; // dim_m1 - box_m1 of walker dim 1 (signed)
  logic        pack_in_d, pack_in_q;   // walker dim 1's start and end are in bounds
  logic [2:0]  pack_box1_m1;           // box - 1 of walker dim 1, low bits (a plain vector:
                                       // Yosys 0.23 cannot select bits of a struct element)
  logic [33:0] pack_coord1;            // walker dim 1's coordinate (a plain vector, as above)
  logic [1:0]  pack_lp;                // W2: log2 p of the job

  assign il       = md.is_il;
  assign to_global = cmd_i.op == tma_pkg::OpStore || cmd_i.op == tma_pkg::OpReduce;
  assign esz      = md.elem_log2;
  assign dst_mask = cmd_i.multicast ? cmd_i.cta_mask : (16'd1 << cmd_i.dst_cta);
  assign c0       = 35'(signed'(cmd_i.coords.v[0]));
  assign chunk16  = md.is_il32 ? 36'd2 : 36'd1;
  assign job_pk   = il ? tma_pkg::PkNone : md.is_b4x16p64 ? tma_pkg::PkG8 :
                    md.is_b6x16p32 ? tma_pkg::PkG12 : tma_pkg::PkNone;
  assign gat_d    = cmd_i.mode == tma_pkg::ModeTileGather4 ||
                    cmd_i.mode == tma_pkg::ModeTileScatter4;
  assign wmode_d  = cmd_i.mode == tma_pkg::ModeIm2colW;
  assign w128_d   = cmd_i.mode == tma_pkg::ModeIm2colW128;
  assign i2c_d    = cmd_i.mode == tma_pkg::ModeIm2col;
  assign nrows_d  = w128 ? 11'(cmd_i.im2col.v[0][4:0]) :
                    11'(mf.ppc_m1) + (wmode ? 11'(cmd_i.im2col.v[0][8:0]) : 11'd0);

  // Partial products of a MAC slot: a (pieces anz) times a stride (pieces snz). (gather4's
  // selects of dim 1's view are muxes between two constant indices, see tma_job_pos.)
  function automatic logic [5:0] pieces(input logic [1:0] anz, input logic [2:0] snz);
    pieces = {anz[1] ? snz : 3'd0, anz[0] ? snz : 3'd0};
  endfunction

  always_comb begin : proc_operands
    logic [2:0]  kd, td;
    walk_cflags[0]  = '0;
    for (int d = 1; d < MaxDims; d++) begin
      td              = gat ? 3'(d) : md.walk_tdim[d-1];
      walk_cflags[d]  = coord_flags_i.v[td];
    end
    fix_coord_d = '0;
    fix_cflags  = '0;
    fix_dim_m1_d = '0;
    for (int i = 0; i < MaxDims; i++) begin
      if (md.fix_dim[i]) begin
        fix_coord_d = fix_coord_d | cmd_i.coords.v[i];
        fix_cflags  = fix_cflags | coord_flags_i.v[i];
        fix_dim_m1_d = fix_dim_m1_d | mf.dim_m1[i];
      end
    end
    slots_d     = '0;
    for (int d = 1; d < MaxDims; d++) begin
      kd   = gat ? tma_pkg::WalkTile : md.walk_kind[d-1];
      // astart: position x stride. A spatial position is the coordinate plus an offset
      // < 2^16: one piece when the coordinate is in [-2^16, 2^16); it may be zero only after
      // the offset: both pieces then.
      if (kd == tma_pkg::WalkSpatial) begin
        slots_d.one_piece[tma_pkg::MacSlotAstart + 4'(d - 1)] = walk_cflags[d][3];
        slots_d.pieces[tma_pkg::MacSlotAstart + 4'(d - 1)] =
            pieces({!walk_cflags[d][3], 1'b1}, md.walk_stride_nz[d-1]);
      end else if (kd == tma_pkg::WalkTile || kd == tma_pkg::WalkN) begin
        slots_d.one_piece[tma_pkg::MacSlotAstart + 4'(d - 1)] = walk_cflags[d][2];
        slots_d.pieces[tma_pkg::MacSlotAstart + 4'(d - 1)] =
            pieces(walk_cflags[d][1:0],
                   gat ? md.walk_stride_nz[0] : md.walk_stride_nz[d-1]);
      end
      // alo: lower corner x stride (spatial dims): lower (16-bit signed) + offset is small
      if (kd == tma_pkg::WalkSpatial) begin
        slots_d.one_piece[tma_pkg::MacSlotAlo + 4'(d - 1)] = 1'b1;
        slots_d.pieces[tma_pkg::MacSlotAlo + 4'(d - 1)]    = pieces(2'b01, md.walk_stride_nz[d-1]);
      end
    end
    slots_d.one_piece[tma_pkg::MacSlotGaddr] = fix_cflags[2];
    if (il) slots_d.pieces[tma_pkg::MacSlotGaddr] = pieces(fix_cflags[1:0], md.fix_stride_nz);
    // gather4 / scatter4: rows 3 and 4 to the second MAC
    slots2_d = '0;
    if (gat) begin
      for (int r = 2; r < 4; r++) begin
        slots2_d.pieces[tma_pkg::MacSlotAstart + 4'(r)]    =
            slots_d.pieces[tma_pkg::MacSlotAstart + 4'(r)];
        slots2_d.one_piece[tma_pkg::MacSlotAstart + 4'(r)] =
            slots_d.one_piece[tma_pkg::MacSlotAstart + 4'(r)];
        slots_d.pieces[tma_pkg::MacSlotAstart + 4'(r)]     = '0;
        slots_d.one_piece[tma_pkg::MacSlotAstart + 4'(r)]  = 1'b0;
      end
    end
    neg_c0_d  = 36'sd0 - 36'(c0);
    hi_diff_d = 36'(mf.dim_m1[0]) - 36'(c0);
    // W1B: the interleave fixed dim out of bounds
    fix_oob_d = il && (fix_coord[33] || fix_coord[31:0] > fix_dim_m1_q);
    // W1B: in-bounds elements [lo_el, hi_el) of a row: lo_el = clamp(-c0, 0, box[0]),
    // hi_el = clamp(dim[0] - c0, 0, box[0]); hi_el > lo_el unless both clamp to 0 or both to
    // box[0] (one compare each, then the clamps; elem_end: hi_el or lo_el)
    lo_big   = !neg_c0_q[35] && (neg_c0_q[34:8] != '0 || neg_c0_q[7:0] > mf.box0_m1);
    hi_big   = !hi_diff_q[35] && (hi_diff_q[34:8] != '0 || hi_diff_q[7:0] >= mf.box0_m1);
    elem_lo  = neg_c0_q[35] ? 9'd0 : lo_big ? box0_q : neg_c0_q[8:0];
    elem_end = (hi_diff_q[35] || lo_big) ? elem_lo : hi_big ? box0_q : hi_diff_q[8:0] + 9'd1;
    // lo is 0 when c0 >= 0 (box0_q is never 0); end is box[0] then exactly when hi_big (else
    // end = dim[0] - c0 < box[0]): no compare of the clamped values, so the packing select
    // of W2 and Mac (pack_lp) starts at three flops (RowFull_A ties it to its definition)
    row_full = (neg_c0_q[35] || neg_c0_q == '0) && hi_big;
    // the job's row bytes and pitch (from rb_q: valid from W2)
    rb          = (12'({4'd0, mf.box0_m1} + 12'd1) << esz) >> md.is_b4x16;
    row_bytes_d = il ? 12'(chunk16) << 4 : rb_q;
    tx_row_d    = (job_pk == tma_pkg::PkG8)  ? rb_q >> 1 :
                  (job_pk == tma_pkg::PkG12) ? (rb_q >> 1) + (rb_q >> 2) : row_bytes_d;
    pitch_d     = (il || mf.swz == tma_pkg::SwzNone) ? row_bytes_d :
                  12'(tma_pkg::swz_span_bytes(mf.swz));
    // c0 in global bytes (one-hot scale, see map_derived_t.c0_scale)
    c0_bytes = '0;
    for (int k = 0; k < 6; k++) if (md.c0_scale[k]) c0_bytes = c0_bytes | (64'(c0) << k);
    if (md.c0_scale[6]) c0_bytes = c0_bytes | 64'(signed'(64'(c0)) >>> 1);
    if (md.c0_scale[7]) c0_bytes = c0_bytes | 64'(signed'(c0_3q_i));
    c0_3q_d = 38'((signed'(64'(c0)) >>> 1) + (signed'(64'(c0)) >>> 2));
    // the row's in-bounds byte range [head, dend), from the element range of W1B (valid from
    // W2, written in Mac)
    if (!il) begin
      head_d = (12'(elem_lo_q) << esz) >> md.is_b4x16;
      dend_d = (12'(elem_end_q) << esz) >> md.is_b4x16;
      // D7: a store or reduction writes the whole 16-byte granule of its last in-bounds
      // element (row bytes are a multiple of 16, so the rounded end stays inside the row)
      if (StoreClipElem == 0 && to_global) dend_d = (dend_d + 12'd15) & 12'hFF0;
    end else begin
      head_d = '0;
      dend_d = fix_oob_q ? 12'd0 : 12'(chunk16) << 4;
    end
    // Packing: a tile load whose dim-1 neighbours are adjacent in global and shared memory
    // (no sub-byte packing, element stride 1 on dim 1); p x L <= DataBytes and box[1] % p == 0
    pack_lp_d = 2'd0;
    if (cmd_i.op == tma_pkg::OpLoad && cmd_i.mode == tma_pkg::ModeTile && !il &&
        job_pk == tma_pkg::PkNone && md.walk_kind[0] == tma_pkg::WalkTile &&
        md.walk_es_m1[0] == 3'd0 && {md.walk_step[0], 4'd0} == 43'(row_bytes_d) &&
        pitch_d == row_bytes_d) begin
      if ((row_bytes_d << 1) <= 12'(DataBytes) && pack_box1_m1[0]) pack_lp_d = 2'd1;
      if ((row_bytes_d << 2) <= 12'(DataBytes) && pack_box1_m1[1:0] == 2'b11) begin
        pack_lp_d = 2'd2;
      end
      if ((row_bytes_d << 3) <= 12'(DataBytes) && pack_box1_m1[2:0] == 3'b111) begin
        pack_lp_d = 2'd3;
      end
    end
    // dim 1 in bounds from its start to its end: 0 <= coord <= dim_m1 - box_m1
    pack_lim_d = 34'(md.walk_dim_m1[0]) - 34'(md.walk_box_m1[0]);
    pack_in_d  = !pack_coord1[33] && !pack_lim_q[33] && pack_coord1[32:0] <= pack_lim_q[32:0];
  end
  assign fix_coord = 34'(signed'(fix_coord_q));
  assign pack_box1_m1 = 3'(md.walk_box_m1[0]);
  assign pack_coord1  = bounds.coord.v[1];

  // ---- Job register ----
  tma_pkg::job_t job_d, job_q;
  logic          job_valid_d, job_valid_q;
  logic          own_d, own_q;         // the MAC's write-backs of this job are still to come
  logic          marker;               // Mac: the job ends in a marker (the MAC is cleared)
  logic [32:0]   gaddr_lo, gaddr_hi;   // W1B: {0, low sum}; W2: {high sum, 1}
  assign job_free_o  = !job_valid_q && !own_q;
  assign pack_lp     = (pack_in_q && row_full_q) ? pack_lp_q : 2'd0;
  assign job_stall_o = (job_valid_q && !job_ready_i) || own_q;
  assign marker      = mac_i && (instr_err_i != tma_pkg::ErrNone ||
                                 (PrefetchReads == 0 && cmd_i.op == tma_pkg::OpPrefetch));
  // owned from Mac (after W2) until the cycle of the last write-back (MAC idle), not by a marker
  assign own_d       = !marker && (w2_i || (own_q && !mac_idle_i));
  assign own_next_o  = own_d;
  assign wb_next_o   = w1_go_i || w1b_i || own_d;

  always_comb begin : proc_job
    job_d         = job_q;
    job_valid_d   = job_valid_q && !job_ready_i;
    gaddr_carry_d = gaddr_carry_q;
    gaddr_lo      = '0;
    gaddr_hi      = '0;
    if (w1_go_i) begin
      // (coord, lo, hi, gaddr, row bytes, pitch, head, dend: W1B and W2 write them all)
      job_d           = '0;
      job_d.coord     = job_q.coord;
      job_d.lo        = job_q.lo;
      job_d.hi        = job_q.hi;
      job_d.gaddr     = job_q.gaddr;
      job_d.row_bytes = job_q.row_bytes;
      job_d.tx_row    = job_q.tx_row;
      job_d.pitch     = job_q.pitch;
      job_d.head      = job_q.head;
      job_d.dend      = job_q.dend;
      job_d.i2c       = mf.im2col;
      job_d.gather    = gat;
      job_d.w128      = w128;
      job_d.smem_addr = cmd_i.smem_addr;
      job_d.fill_nan  = mf.fill_nan;
      job_d.tf32      = mf.tf32;
      job_d.swz       = mf.swz;
      job_d.pk        = job_pk;
      // a store or reduction ends in a done completion (bulk group), after its writes are
      // answered; a reduction's rows carry its operation and element type
      job_d.cpl.kind      = to_global ? tma_pkg::CplDone : tma_pkg::CplTx;
      job_d.cpl.red       = cmd_i.op == tma_pkg::OpReduce;
      job_d.cpl.redop     = cmd_i.redop;
      job_d.cpl.elem      = tma_pkg::dt_elem(mf.dtype, mf.tf32);
      job_d.cpl.cta_mask  = dst_mask;
      job_d.cpl.cta       = cmd_i.issuer;
      job_d.cpl.mbar_addr = cmd_i.mbar_addr;
      job_d.cpl.peer      = cmd_i.cta_group == 2'd2 && cmd_i.mbar_remote;
      job_d.cpl.mbar_par  = cmd_i.mbar_cta[0];
      job_d.cpl.tag       = cmd_i.tag;
      if (cmd_i.op == tma_pkg::OpPrefetch) begin
        job_d.smem_addr    = '0;
        job_d.cpl.kind     = tma_pkg::CplDone;
        job_d.cpl.cta_mask = '0;
        job_d.cpl.elem     = '0;
      end
      job_d.es.v[0] = 4'd1;
      for (int d = 1; d < MaxDims; d++) begin   // the walker view (zero / es 1 when none)
        job_d.step.v[d]   = {21'd0, md.walk_step[d-1], 4'd0};
        job_d.dim_m1.v[d] = gat ? md.walk_dim_m1[0] : md.walk_dim_m1[d-1];
        job_d.es.v[d]     = {1'b0, md.walk_es_m1[d-1]} + 4'd1;
      end
    end
    if (w1b_i) begin
      job_d.nrows_m1    = nrows_q;
      gaddr_lo          = {1'b0, mf.addr[31:0]} + {1'b0, c0_bytes_q[31:0]};
      gaddr_carry_d     = gaddr_lo[32];
      job_d.gaddr[31:0] = gaddr_lo[31:0];
    end
    if (w2_i) begin
      // the positions and row geometry, from their registers (no logic in front)
      job_d.row_bytes = row_bytes_q;
      job_d.tx_row    = tx_row_q;
      job_d.pitch     = pitch_q;
      for (int d = 0; d < MaxDims; d++) begin
        job_d.coord.v[d] = pos_coord.v[d];
        job_d.lo.v[d]    = pos_lo.v[d];
        job_d.hi.v[d]    = pos_hi.v[d];
      end
      // addr_hi + c0_bytes_hi + carry as one chain: {a, 1} + {b, c} = 2 (a + b) + 1 + c
      gaddr_hi = {mf.addr[63:32], 1'b1} + {{26{c0_bytes_q[37]}}, c0_bytes_q[37:32], gaddr_carry_q};
      job_d.gaddr[63:32] = gaddr_hi[32:1];
      // Packing (flops only): es, step, row bytes, complete-tx bytes and pitch of walker dim 1
      // times p (dend: in Mac, below)
      if (pack_lp != 2'd0) begin
        job_d.es.v[1]    = 4'd1 << pack_lp;
        job_d.step.v[1]  = 64'(row_bytes_q) << pack_lp;
        job_d.row_bytes  = row_bytes_q << pack_lp;
        job_d.tx_row     = tx_row_q << pack_lp;
        job_d.pitch      = pitch_q << pack_lp;
      end
    end
    if (mac_i) begin
      // the row's in-bounds byte range, from its registers (the job is valid a cycle later at
      // the earliest)
      job_d.head = head_q;
      job_d.dend = dend_q;
      // a packed row: dims 0 and 1 in bounds, so head = 0 and dend = p x L
      if (pack_lp != 2'd0) job_d.dend = row_bytes_q << pack_lp;
      if (instr_err_i != tma_pkg::ErrNone) begin
        job_d.marker    = 1'b1;
        job_d.cpl.kind  = tma_pkg::CplError;
        job_d.cpl.err   = instr_err_i;
        job_d.cpl.red   = 1'b0;
        job_d.cpl.redop = '0;
        job_d.cpl.elem  = '0;
        job_valid_d     = 1'b1;
      end else if (PrefetchReads == 0 && cmd_i.op == tma_pkg::OpPrefetch) begin
        job_d.marker    = 1'b1;
        job_d.cpl.kind  = tma_pkg::CplDone;
        job_d.cpl.red   = 1'b0;
        job_d.cpl.redop = '0;
        job_d.cpl.elem  = '0;
        job_valid_d     = 1'b1;
      end
    end
    // the last write-back (if any) happens in this cycle
    if (own_q && !marker && mac_idle_i) job_valid_d = 1'b1;
    if (err_i && job_free_o) begin
      job_d.marker        = 1'b1;
      job_d.cpl.kind      = tma_pkg::CplError;
      job_d.cpl.err       = err_code_i;
      job_d.cpl.cta_mask  = dst_mask;
      job_d.cpl.cta       = cmd_i.issuer;
      job_d.cpl.mbar_addr = cmd_i.mbar_addr;
      job_d.cpl.bytes     = '0;
      job_d.cpl.tag       = cmd_i.tag;
      job_d.cpl.red       = 1'b0;   // (a marker: no reduction to describe)
      job_d.cpl.redop     = '0;
      job_d.cpl.elem      = '0;
      job_valid_d         = 1'b1;
    end
    // MAC write-back (the astart slots also give alo of a dim that does not restart at a
    // corner)
    for (int h = 0; h < 2; h++) begin
      for (int d = 1; d < MaxDims; d++) begin
        if (mac_wb_en_i[h * tma_pkg::MacSlots + 32'(tma_pkg::MacSlotAstart) + d - 1]) begin
          job_d.astart.v[d][32 * h +: 32] = mac_wb_i.value[32 * h +: 32];
          if (!spatial_w_q[d] && d < MaxDims - 1) begin
            job_d.alo.v[d][32 * h +: 32] = mac_wb_i.value[32 * h +: 32];
          end
        end
        if (d < MaxDims - 1 &&
            mac_wb_en_i[h * tma_pkg::MacSlots + 32'(tma_pkg::MacSlotAlo) + d - 1]) begin
          job_d.alo.v[d][32 * h +: 32] = mac_wb_i.value[32 * h +: 32];
        end
      end
      if (mac_wb_en_i[h * tma_pkg::MacSlots + 32'(tma_pkg::MacSlotGaddr)]) begin
        job_d.gaddr[32 * h +: 32] = mac_wb_i.value[32 * h +: 32];
      end
      // the second MAC: gather4 / scatter4 rows 3 and 4 (walker dims 3 and 4, never spatial)
      for (int d = 3; d < 5; d++) begin
        if (mac2_wb_en_i[h * tma_pkg::MacSlots + 32'(tma_pkg::MacSlotAstart) + d - 1]) begin
          job_d.astart.v[d][32 * h +: 32] = mac2_wb_i.value[32 * h +: 32];
          if (d < MaxDims - 1) job_d.alo.v[d][32 * h +: 32] = mac2_wb_i.value[32 * h +: 32];
        end
      end
    end
  end

  // The last walker dim is never spatial: its alo is its astart (no flops of its own).
  always_comb begin : proc_job_o
    job_o = job_q;
    job_o.alo.v[MaxDims-1] = job_q.astart.v[MaxDims-1];
  end
  assign job_valid_o = job_valid_q;

  // ---- To the MAC and the instruction checks ----
  assign mac_req_o  = slots_q;
  assign mac2_req_o = slots2_q;
  tma_job_pos u_pos (
    .clk_i, .rst_ni,
    .cmd_i, .map_i,
    .gat_i    (gat),
    .wmode_i  (wmode),
    .w128_i   (w128),
    .i2c_i    (i2c),
    .w1_go_i, .w1b_i, .w2_i, .mac_i,
    .coord_o  (pos_coord),
    .lo_o     (pos_lo),
    .hi_o     (pos_hi),
    .stride_o (stride),
    .bounds_o (bounds),
    .spatial_w_o (spatial_w_q)
  );
  assign bounds_o = bounds;
  always_comb begin : proc_mac_opnd
    mac_opnd_o.coord      = pos_coord;
    mac_opnd_o.lo         = pos_lo;
    mac_opnd_o.stride     = stride;
    mac_opnd_o.fix_coord  = fix_coord;
    mac_opnd_o.fix_stride = md.fix_stride;
    mac_opnd_o.gaddr      = job_q.gaddr;
  end

  assign {gat, wmode, w128, i2c} = {gat_i, wmode_i, w128_i, i2c_i};

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_regs
    if (!rst_ni) begin
      rb_q          <= '0;
      head_q        <= '0;
      dend_q        <= '0;
      fix_coord_q   <= '0;
      slots_q       <= '0;
      slots2_q      <= '0;
      neg_c0_q      <= '0;
      hi_diff_q     <= '0;
      box0_q        <= '0;
      elem_lo_q     <= '0;
      elem_end_q    <= '0;
      row_full_q    <= 1'b0;
      gaddr_carry_q <= 1'b0;
      fix_oob_q     <= 1'b0;
      fix_dim_m1_q  <= '0;
      c0_bytes_q    <= '0;
      row_bytes_q   <= '0;
      tx_row_q      <= '0;
      nrows_q       <= '0;
      pitch_q       <= '0;
      pack_lp_q     <= '0;
      pack_lim_q    <= '0;
      pack_in_q     <= 1'b0;
      job_q         <= '0;
      job_valid_q   <= 1'b0;
      own_q         <= 1'b0;
    end else begin
      rb_q          <= rb;
      head_q        <= head_d;
      dend_q        <= dend_d;
      fix_coord_q   <= fix_coord_d;
      slots_q       <= slots_d;
      slots2_q      <= slots2_d;
      neg_c0_q      <= neg_c0_d;
      hi_diff_q     <= hi_diff_d;
      box0_q        <= {1'b0, mf.box0_m1} + 9'd1;
      fix_dim_m1_q  <= fix_dim_m1_d;
      c0_bytes_q    <= c0_bytes[37:0];
      row_bytes_q   <= row_bytes_d;
      tx_row_q      <= tx_row_d;
      nrows_q       <= nrows_d;
      pitch_q       <= pitch_d;
      pack_lp_q     <= pack_lp_d;
      pack_lim_q    <= pack_lim_d;
      pack_in_q     <= pack_in_d;
      if (w1b_i) begin
        fix_oob_q     <= fix_oob_d;
        elem_lo_q     <= elem_lo;
        elem_end_q    <= elem_end;
        row_full_q    <= row_full;
        gaddr_carry_q <= gaddr_carry_d;
      end
      job_q       <= job_d;
      job_valid_q <= job_valid_d;
      own_q       <= own_d;
    end
  end

  logic unused_bits;
  assign unused_bits = ^{cmd_i, coord_flags_i, map_i, mf, md, walk_cflags[0], fix_cflags[3],
                         c0_bytes[63:38], chunk16[35:12], gaddr_hi[0],
                         spatial_w_q[0], spatial_w_q[MaxDims-1]};

  // ---- Assertions ----
  `TMA_ASSERT_INIT(StoreClipElemBool_A, StoreClipElem <= 1)
  `TMA_ASSERT_INIT(MacOpndWidth_A, tma_pkg::MacOpndWidth == $bits(tma_pkg::mac_opnd_t))
  `TMA_ASSERT_NEVER(C0ThreeQuarters_A, w1_go_i && c0_3q_i != c0_3q_d)
  // the stage registers hold their inputs' values from the step that first reads them
  `TMA_ASSERT_NEVER(ModeRegs_A, (w1_go_i || w1b_i || w2_i || mac_i) &&
                                {gat, wmode, w128, i2c} != {gat_d, wmode_d, w128_d, i2c_d})
  `TMA_ASSERT_NEVER(W1bRegs_A, (w1b_i || w2_i || mac_i) && rb_q != rb)
  `TMA_ASSERT_NEVER(MacRegs_A, mac_i && (head_q != head_d || dend_q != dend_d))
  `TMA_ASSERT_NEVER(RowFull_A, (w2_i || mac_i) &&
                               row_full_q != (elem_lo_q == 9'd0 && elem_end_q == box0_q))
  // The packing flags hold their command's values from W2 to the end of Mac.
  `TMA_ASSERT_NEVER(PackRegs_A, (w2_i || mac_i) && (pack_lp_q != pack_lp_d ||
                                                   pack_lim_q != pack_lim_d ||
                                                   pack_in_q != pack_in_d))
  `TMA_ASSERT_NEVER(StepsOverlap_A, (w1_go_i && (w1b_i || w2_i || mac_i || err_i)) ||
                                    (w1b_i && (w2_i || mac_i || err_i)))
  `TMA_ASSERT_NEVER(WbOutsideOwn_A, (mac_wb_valid_i || mac2_wb_valid_i) &&
                                    !(own_q || w1b_i || w2_i))
  `TMA_ASSERT_NEVER(WbGaddrOwn_A, mac_wb_valid_i && !own_q &&
                                  mac_wb_i.slot == tma_pkg::MacSlotGaddr)
  // the second MAC writes back gather4 / scatter4 rows 3 and 4 only; the MACs never write one
  // slot at once
  `TMA_ASSERT_NEVER(Wb2Slot_A, mac2_wb_valid_i &&
                               (mac2_wb_i.slot < tma_pkg::MacSlotAstart + 4'd2 ||
                                mac2_wb_i.slot > tma_pkg::MacSlotAstart + 4'd3))
  `TMA_ASSERT_NEVER(Wb2En_A, mac2_wb_en_i != {2{mac2_wb_valid_i ?
                                                tma_pkg::MacSlots'(1) << mac2_wb_i.slot :
                                                tma_pkg::MacSlots'(0)}})
  `TMA_ASSERT_NEVER(Wb2SameSlot_A, mac_wb_valid_i && mac2_wb_valid_i &&
                                   mac_wb_i.slot == mac2_wb_i.slot)
  `TMA_ASSERT_NEVER(OwnAndValid_A, own_q && job_valid_q)
  `TMA_ASSERT_IMPLY(OwnInMac_A, mac_i, own_q)
  `TMA_ASSERT_NEVER(WbEn_A, mac_wb_en_i != {2{mac_wb_valid_i ?
                                              tma_pkg::MacSlots'(1) << mac_wb_i.slot :
                                              tma_pkg::MacSlots'(0)}})
  `TMA_ASSERT_STABLE(JobHeld_A, job_valid_o, job_ready_i, job_q)

endmodule

`default_nettype wire
