// SPDX-License-Identifier: Apache-2.0
//
// tma_cmd_ctrl_ref: the tma_cmd_ctrl of commit dc97092 (before the issue-6 timing rework), kept
// as the reference of tests/rtl/engine/cmd_ctrl_test.cc. Original description:
// command intake, descriptor cache and fetch, decode, validation and the issue-
// time arithmetic of one command at a time; hands the walker one job per command (a tile or
// im2col job, or a completion-only marker for errors and prefetch). The descriptor is read over
// the AXI4 read channel with ID AxiIdDesc, one single-beat burst per beat (never across 4 KiB),
// into a 1024-bit register; a small fully associative cache keyed by the map address holds
// recent maps (round-robin replacement, desc_inval_i clears it). The address contributions
// position x stride of the walker dims are computed by four parallel radix-16 shift-add
// multipliers (9 cycles; im2col runs a second pass for the lower corners); the walker then
// needs adds only. The box-size product runs during the first pass.

`include "tma_assert.svh"

module tma_cmd_ctrl_ref #(
  parameter  int unsigned DataBytes     = 16,
  parameter  int unsigned CacheEntries  = 4,
  parameter  int unsigned NumCtas       = 16,
  localparam int unsigned SizeLog2      = $clog2(DataBytes),
  localparam int unsigned NumChunks     = DataBytes / 16,
  localparam int unsigned CacheIdxW     = (CacheEntries > 1) ? $clog2(CacheEntries) : 1
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // Commands
  input  logic              cmd_valid_i,
  output logic              cmd_ready_o,
  input  tma_pkg::cmd_t     cmd_i,
  input  logic              desc_inval_i,
  // Descriptor reads (AXI4 AR with ID AxiIdDesc; R beats of that ID, always accepted)
  output logic              ar_valid_o,
  input  logic              ar_ready_i,
  output tma_pkg::ar_t      ar_o,
  input  logic              r_valid_i,
  input  logic [DataBytes*8-1:0] r_data_i,
  input  logic              r_err_i,
  // Jobs (to the walker)
  output logic              job_valid_o,
  input  logic              job_ready_i,
  output tma_pkg::job_t     job_o,
  // Status
  output logic              busy_o
);

  localparam int unsigned MaxDims = tma_pkg::MaxDims;

  typedef enum logic [2:0] {
    StIdle, StFetch, StCheck, StMul, StEmit
  } state_e;

  state_e          state_d, state_q;
  tma_pkg::cmd_t   cmd_d, cmd_q;
  logic [1023:0]   raw_d, raw_q;            // the 128-byte map
  logic [3:0]      err_d, err_q;            // error found so far (ErrNone: none)
  logic [3:0]      ar_cnt_d, ar_cnt_q;      // descriptor beats requested
  logic [3:0]      r_cnt_d, r_cnt_q;        // descriptor beats received
  logic            stale_d, stale_q;        // invalidated while fetching: do not cache
  logic [2:0]      dim_d, dim_q;            // size product: factors taken
  logic [47:0]     prod_d, prod_q;          // E x prod floor(box/es) (im2col: E x cpp x ppc)
  logic [3:0]      mbit_d, mbit_q;          // Mul step: digit (0 .. 8)
  logic            mpass_d, mpass_q;        // Mul pass: 0 start positions, 1 lower corners
  tma_pkg::dim64_t macc_d, macc_q;          // pass 0: position x stride per walker dim
  tma_pkg::dim64_t malo_d, malo_q;          // pass 1: restart position x stride
  tma_pkg::dim64_t mstr_d, mstr_q;          // stride shifted left by 4 x mbit
  tma_pkg::dim36_t mcrd_d, mcrd_q;          // operand shifted right by 4 x mbit (arithmetic)
  logic [35:0]     mop_sh;                  // operand being shifted (loop temporary)

  // ---- Descriptor cache (looked up with the incoming command's address) ----
  logic                 c_valid_d [CacheEntries];
  logic                 c_valid_q [CacheEntries];
  logic [63:0]          c_addr_q  [CacheEntries];
  logic [1023:0]        c_raw_q   [CacheEntries];
  logic [CacheIdxW-1:0] c_next_d, c_next_q;     // round-robin victim
  logic                 c_hit;
  logic [1023:0]        c_hit_raw;
  logic                 c_fill;                 // write the fetched map into c_next_q
  logic signed [7:0]    idx;                    // descriptor chunk of a fetched chunk

  always_comb begin : proc_lookup
    c_hit     = 1'b0;
    c_hit_raw = '0;
    for (int e = 0; e < CacheEntries; e++) begin
      if (c_valid_q[e] && c_addr_q[e] == cmd_i.desc_addr) begin
        c_hit     = 1'b1;
        c_hit_raw = c_raw_q[e];
      end
    end
  end

  // ---- Descriptor fields (docs/descriptor.md) ----
  logic [63:0]  f_addr;
  logic         f_im2col, f_wide, f_fill, f_tf32, f_b96;
  logic [2:0]   f_rank_m1;
  logic [3:0]   f_type;
  logic [1:0]   f_il, f_span, f_atom;
  logic [39:0]  f_stride [MaxDims-1];
  logic [31:0]  f_dim_m1 [MaxDims];
  logic [2:0]   f_es_m1  [MaxDims];
  logic [7:0]   f_box_m1 [MaxDims];   // im2col: entry 0 is channels per pixel - 1
  logic [31:0]  f_boxbytes, f_swzrep;
  logic [9:0]   f_ppc_m1;             // im2col: pixels per column - 1
  logic [33:0]  f_lower [MaxDims-2];  // im2col corners, sign-extended (16/8/5-bit fields)
  logic [33:0]  f_upper [MaxDims-2];

  assign f_addr    = raw_q[63:0];
  assign f_im2col  = raw_q[64];
  assign f_rank_m1 = raw_q[70:68];
  assign f_type    = raw_q[74:71];
  assign f_il      = raw_q[76:75];
  assign f_span    = raw_q[78:77];
  assign f_fill    = raw_q[79];
  assign f_tf32    = raw_q[80];
  assign f_atom    = raw_q[84:83];
  assign f_wide    = raw_q[86];
  assign f_b96     = raw_q[88];
  assign f_ppc_m1  = raw_q[489:480];
  assign f_boxbytes = raw_q[543:512];
  assign f_swzrep   = raw_q[607:576];
  always_comb begin : proc_fields
    for (int i = 0; i < MaxDims - 1; i++) begin
      f_stride[i] = {raw_q[224 + 4*i +: 4], raw_q[96 + 32*i +: 32], 4'b0000};
    end
    for (int i = 0; i < MaxDims; i++) begin
      f_dim_m1[i] = raw_q[256 + 32*i +: 32];
      f_es_m1[i]  = raw_q[416 + 3*i +: 3];
    end
    f_box_m1[0] = raw_q[447:440];
    for (int i = 1; i < MaxDims; i++) f_box_m1[i] = raw_q[448 + 8*(i-1) +: 8];
    for (int k = 0; k < MaxDims - 2; k++) begin
      f_lower[k] = '0;
      f_upper[k] = '0;
    end
    unique case (f_rank_m1)
      3'd2: begin
        f_lower[0] = {{18{raw_q[463]}}, raw_q[463:448]};
        f_upper[0] = {{18{raw_q[479]}}, raw_q[479:464]};
      end
      3'd3: begin
        for (int k = 0; k < 2; k++) begin
          f_lower[k] = {{26{raw_q[455 + 8*k]}}, raw_q[448 + 8*k +: 8]};
          f_upper[k] = {{26{raw_q[471 + 8*k]}}, raw_q[464 + 8*k +: 8]};
        end
      end
      default: begin
        for (int k = 0; k < 3; k++) begin
          f_lower[k] = {{29{raw_q[452 + 5*k]}}, raw_q[448 + 5*k +: 5]};
          f_upper[k] = {{29{raw_q[468 + 5*k]}}, raw_q[464 + 5*k +: 5]};
        end
      end
    endcase
  end

  // Element size (log2 bytes) and class of the hardware type code.
  logic [1:0] esz;       // log2 E
  logic       is_float;
  always_comb begin : proc_type
    unique case (f_type)
      4'd0:                      esz = 2'd0;
      4'd1, 4'd6, 4'd10:         esz = 2'd1;
      4'd2, 4'd3, 4'd7, 4'd8:    esz = 2'd2;
      default:                   esz = 2'd3;   // 4, 5, 9 (and unsupported codes)
    endcase
    is_float = (f_type >= 4'd6 && f_type <= 4'd10);
  end

  logic [2:0]  swz;           // internal swizzle code
  logic [7:0]  span;          // swizzle span in bytes (0: none)
  logic [31:0] swz_repeat;
  always_comb begin : proc_swz
    if (f_b96) swz = tma_pkg::Swz96B;
    else if (f_span == 2'd3) swz = 3'd3 + 3'(f_atom);
    else swz = {1'b0, f_span};
    unique case (swz)
      tma_pkg::SwzNone: begin span = 8'd0;   swz_repeat = 32'd16;   end
      tma_pkg::Swz32B:  begin span = 8'd32;  swz_repeat = 32'd256;  end
      tma_pkg::Swz64B:  begin span = 8'd64;  swz_repeat = 32'd512;  end
      // every 128B span, atomicity or not: 1024 (docs/descriptor.md section 3, the model's
      // SwizzleRepeatBytes)
      tma_pkg::Swz128B, tma_pkg::Swz128BA32, tma_pkg::Swz128BA32F8, tma_pkg::Swz128BA64: begin
        span = 8'd128; swz_repeat = 32'd1024;
      end
      default:          begin span = 8'd96;  swz_repeat = 32'd256;  end   // 96B
    endcase
  end

  // ---- Walker dimensions (tma_pkg job_t): positions, bounds, strides ----
  // Tile: walker dim d is tensor dim d, running over [c, c + box - 1]. im2col: walker dims
  // 1 .. rank-2 are the spatial dims, from c + off over the bounding box [lower + off,
  // dim - 1 + upper + off] (the offset shifts position and box alike, so the wrap compares the
  // position without offset, as silicon does); walker dim rank-1 is N, stepping es[N] and
  // never wrapping. Beyond the rank: neutral.
  logic [3:0]         rank;          // 1 .. 8 (8 > 5 is invalid)
  logic               i2c;           // im2col map and mode
  logic signed [33:0] w_coord [MaxDims];
  logic signed [33:0] w_lo    [MaxDims];
  logic signed [33:0] w_hi    [MaxDims];
  logic [31:0]        w_dim_m1 [MaxDims];
  logic [3:0]         w_es    [MaxDims];
  logic [39:0]        w_stride [MaxDims];
  logic signed [33:0] w_aop   [MaxDims];   // first-pass multiplier operand
  logic signed [33:0] w_bop   [MaxDims];   // second-pass operand (restart position / fixed)
  logic [39:0]        w_bstr  [MaxDims];   // second-pass stride
  logic               w_spat  [MaxDims];   // im2col spatial dim: restarts at its lower corner
  logic signed [33:0] w_crd, w_off;        // loop temporaries
  logic [2:0]         w_td;                // tensor dim of walker dim d (loop temporary)
  typedef enum logic [2:0] { KNone, KTile, KChunk, KSpatial, KN } wkind_e;
  wkind_e             w_kind;              // loop temporary
  logic               il;                  // interleave 16B / 32B (D5, D8)
  logic [39:0]        chunk;               // interleave chunk bytes C
  logic               two_pass;            // the multiplier runs a second pass
  logic               fixed_oob;           // interleave: the fixed dim rank-2 is out of bounds

  assign rank     = {1'b0, f_rank_m1} + 4'd1;
  assign i2c      = f_im2col;
  assign il       = (f_il != 2'd0);
  assign chunk    = (f_il == 2'd2) ? 40'd32 : 40'd16;
  assign two_pass = i2c || il;
  logic [2:0] rm2;   // rank - 2: the dim an interleaved map does not walk
  logic [1:0] rm3;   // rank - 3: index of its stride
  assign rm2 = f_rank_m1 - 3'd1;
  assign rm3 = 2'(f_rank_m1 - 3'd2);
  // (Yosys 0.23 crashes on a bit-select of a dynamically indexed packed-array element: every
  // such element goes through a plain temporary first.)
  logic [31:0] c_rm2;
  assign c_rm2     = cmd_q.coords.v[rm2];
  assign fixed_oob = il && (c_rm2[31] || c_rm2 > f_dim_m1[rm2]);

  always_comb begin : proc_wdims
    w_crd  = '0;
    w_off  = '0;
    w_td   = '0;
    w_kind = KNone;
    for (int d = 0; d < MaxDims; d++) begin
      w_coord[d]  = '0;
      w_lo[d]     = '0;
      w_hi[d]     = '0;
      w_dim_m1[d] = '0;
      w_es[d]     = 4'd1;
      w_stride[d] = '0;
      w_aop[d]    = '0;
      w_bop[d]    = '0;
      w_bstr[d]   = '0;
      w_spat[d]   = 1'b0;
    end
    for (int d = 1; d < MaxDims; d++) begin
      // Which tensor dim walker dim d walks, and how.
      w_kind = KNone;
      w_td   = 3'(d);
      if (!i2c) begin
        if (!il) begin
          w_td = 3'(d);
        end else if (d == 1) begin
          w_td = 3'd0;                              // D5: dim 0 in chunks, es[0] applies
        end else begin
          w_td = (4'(d) < rank - 4'd1) ? 3'(d - 1) : 3'(d);   // skips dim rank-2 (D5)
        end
        if ({1'b0, w_td} < rank) w_kind = (il && d == 1) ? KChunk : KTile;
      end else if (4'(d) + 4'd2 <= rank) begin
        w_kind = KSpatial;
        w_td   = il ? 3'(d - 1) : 3'(d);            // D8: spatial dims 0 .. r-3 with interleave
      end else if (4'(d) + 4'd1 == rank) begin
        w_kind = KN;
        w_td   = f_rank_m1;
      end
      w_crd = 34'(signed'(cmd_q.coords.v[w_td]));
      if (w_kind != KNone) begin
        w_dim_m1[d] = f_dim_m1[w_td];
        w_es[d]     = {1'b0, f_es_m1[w_td]} + 4'd1;
        w_stride[d] = (w_td == 3'd0) ? chunk : f_stride[2'(w_td - 3'd1)];
      end
      unique case (w_kind)
        KTile, KChunk: begin
          w_coord[d] = w_crd;
          w_lo[d]    = w_crd;
          w_hi[d]    = w_crd + 34'(f_box_m1[w_td]);
          w_aop[d]   = (w_kind == KChunk) ? 34'd0 : w_crd;   // chunk: c0 x C is in gaddr
        end
        KSpatial: begin
          w_off      = 34'(cmd_q.im2col.v[d-1]);
          w_coord[d] = w_crd + w_off;
          w_lo[d]    = f_lower[d-1] + w_off;
          w_hi[d]    = 34'(f_dim_m1[w_td]) + f_upper[d-1] + w_off;
          w_aop[d]   = w_coord[d];
          w_bop[d]   = w_lo[d];
          w_bstr[d]  = w_stride[d];
          w_spat[d]  = 1'b1;
        end
        KN: begin
          w_coord[d] = w_crd;                 // N: steps by es[N] (H200), never wraps
          w_lo[d]    = w_crd;
          w_hi[d]    = {1'b0, {33{1'b1}}};
          w_aop[d]   = w_crd;
        end
        default: ;
      endcase
      // Interleave: the fixed dim rank-2 (its coordinate x stride) is the second-pass
      // product of walker dim 1 (tile) or of N (im2col).
      if (il && (w_kind == KChunk || w_kind == KN)) begin
        w_bop[d]  = 34'(signed'(cmd_q.coords.v[rm2]));
        w_bstr[d] = f_stride[rm3];
      end
    end
  end

  // ---- Checks ----
  logic [11:0] row_bytes;       // box[0] x E (im2col: cpp x E)
  logic [1023:0] reserved;      // bits that belong to no field of this map kind
  logic [3:0]  desc_err;        // decode and encoder rules
  logic [3:0]  instr_err;       // instruction against map, run-time faults
  logic [15:0] dst_mask;
  logic signed [34:0] c0;
  logic signed [36:0] c0_bytes;
  logic [31:0] far32;           // rule 16 temporary

  assign row_bytes = 12'({4'd0, f_box_m1[0]} + 12'd1) << esz;
  assign dst_mask  = cmd_q.multicast ? cmd_q.cta_mask : (16'd1 << cmd_q.dst_cta);
  assign c0        = 35'(signed'(cmd_q.coords.v[0]));
  assign c0_bytes  = 37'(c0) <<< esz;

  always_comb begin : proc_reserved
    reserved = '0;
    reserved[67:65]   = '1;
    reserved[85]      = 1'b1;
    reserved[87]      = !f_wide;
    reserved[95:89]   = '1;
    reserved[255:240] = '1;
    reserved[439:431] = '1;
    reserved[511:490] = '1;
    reserved[575:544] = '1;
    reserved[1023:608] = '1;
    if (!f_im2col) reserved[489:480] = '1;
    if (f_im2col && f_rank_m1 == 3'd4) begin
      reserved[463] = 1'b1;   // 5-bit corners of a rank-5 map leave one bit of each half
      reserved[479] = 1'b1;
    end
    // Strides, dims, element strides and boxes beyond the rank are written as given by the
    // encoder (docs/descriptor.md) and are not reserved.
  end

  always_comb begin : proc_desc_err
    desc_err = tma_pkg::ErrNone;
    far32    = '0;
    if (rank > 4'd5 || f_wide || (f_im2col && rank < 4'd3) || f_type >= 4'd14 ||
        (f_tf32 && f_type != 4'd7 && f_type != 4'd8) || f_il == 2'd3 ||
        (f_b96 && (f_span != 2'd0 || f_atom != 2'd0)) || (f_span != 2'd3 && f_atom != 2'd0) ||
        (raw_q & reserved) != '0 || f_swzrep != swz_repeat) begin
      // im2col-wide maps (bit 86) need sm_100 (rule 21): invalid on this sm_90 engine.
      desc_err = tma_pkg::ErrInvalidDescriptor;
    end else if (f_addr[3:0] != 4'd0 || (f_il == 2'd2 && f_addr[4]) ||
                 (f_il != 2'd0 && rank < 4'd3) || (f_fill && !is_float) ||
                 (f_b96 && f_il != 2'd0)) begin   // (rule 4: 96B needs interleave none)
      desc_err = tma_pkg::ErrInvalidDescriptor;
    end else if (row_bytes[3:0] != 4'd0 ||
                 (f_il == 2'd0 && swz != tma_pkg::SwzNone && row_bytes > 12'(span))) begin
      desc_err = tma_pkg::ErrInvalidDescriptor;   // rules 12/13 (tile), 17/19 (im2col)
    end else begin
      for (int i = 0; i < MaxDims - 1; i++) begin
        if (f_il == 2'd2 && f_stride[i][4]) desc_err = tma_pkg::ErrInvalidDescriptor;
      end
      // Rule 16: the bounding box is not empty: dim + upper (32-bit, wrapping) > lower.
      // Spatial dim of corner k: k + 1, or k with interleave.
      for (int k = 0; k < MaxDims - 2; k++) begin
        far32 = (il ? f_dim_m1[k] : f_dim_m1[k+1]) + 32'd1 + f_upper[k][31:0];
        if (f_im2col && 4'(k) + 4'd2 < rank && signed'(far32) <= signed'(f_lower[k][31:0])) begin
          desc_err = tma_pkg::ErrInvalidDescriptor;
        end
      end
    end
  end

  // F4: im2col offsets in range and the start pixel inside the bounding box.
  logic f4_bad;
  always_comb begin : proc_f4
    f4_bad = 1'b0;
    for (int k = 0; k < MaxDims - 2; k++) begin
      if (4'(k) + 4'd2 < rank) begin
        if ((rank == 4'd4 && cmd_q.im2col.v[k] > 16'd255) ||
            (rank == 4'd5 && cmd_q.im2col.v[k] > 16'd31)) begin
          f4_bad = 1'b1;
        end
        if (34'(signed'(cmd_q.coords.v[il ? k : k+1])) < signed'(f_lower[k]) ||
            34'(signed'(cmd_q.coords.v[il ? k : k+1])) >
            signed'(34'(f_dim_m1[il ? k : k+1]) + f_upper[k])) begin
          f4_bad = 1'b1;
        end
      end
    end
  end

  // Same order as the model's CheckInstruction (cmodel tensor_copy.cc): qualifier and operand
  // combinations (invalid_instruction / unsupported), then F2 (misaligned), then F1, then F4.
  logic mode_ok, is_load;
  assign is_load = (cmd_q.op == tma_pkg::OpLoad);
  assign mode_ok = (cmd_q.mode == 3'd0 || cmd_q.mode == 3'd1 || cmd_q.mode == 3'd2 ||
                    cmd_q.mode == 3'd3 || cmd_q.mode == 3'd4);   // loads and prefetch

  always_comb begin : proc_instr_err
    instr_err = tma_pkg::ErrNone;
    if (!mode_ok) begin
      instr_err = tma_pkg::ErrInvalidInstr;
    end else if (cmd_q.mode >= 3'd2) begin
      instr_err = tma_pkg::ErrUnsupported;   // gather4, im2col::w*: sm_100 only
    end else if (cmd_q.cta_group == 2'd3 || (cmd_q.cta_group != 2'd0 && !is_load)) begin
      instr_err = tma_pkg::ErrInvalidInstr;
    end else if (cmd_q.cta_group == 2'd2) begin
      instr_err = tma_pkg::ErrUnsupported;
    end else if ({1'b0, cmd_q.dim} != rank || (cmd_q.mode == tma_pkg::ModeTile) == f_im2col) begin
      instr_err = tma_pkg::ErrInvalidInstr;
    end else if (cmd_q.multicast && (!is_load ||
                 (NumCtas < 16 && (cmd_q.cta_mask >> NumCtas) != 16'd0))) begin
      instr_err = tma_pkg::ErrInvalidInstr;   // F6
    end else if (32'(cmd_q.issuer) >= NumCtas ||
                 (is_load && !cmd_q.multicast && 32'(cmd_q.dst_cta) >= NumCtas)) begin
      instr_err = tma_pkg::ErrInvalidInstr;
    end else if (is_load && dst_mask == 16'd0) begin
      instr_err = tma_pkg::ErrInvalidInstr;   // multicast to nobody: nothing would complete
    end else if (f_type >= 4'd11) begin
      instr_err = tma_pkg::ErrUnsupported;    // sub-byte types: not yet
    end else if (is_load && (cmd_q.smem_addr[6:0] != 7'd0 || cmd_q.mbar_addr[2:0] != 3'd0)) begin
      instr_err = tma_pkg::ErrMisaligned;
    end else if (!il && c0_bytes[3:0] != 4'd0) begin
      instr_err = tma_pkg::ErrMisalignedCoord;   // F1 (interleave: dim 0 counts chunks)
    end else if (i2c && f4_bad) begin
      instr_err = tma_pkg::ErrInvalidCoord;
    end
  end

  // ---- Size check: E x prod floor(box[i]/es[i]) <= 228 KiB (im2col: E x cpp x ppc); must
  // equal the box-bytes field. One factor per Mul cycle (rank factors; im2col: cpp, ppc).
  logic [10:0] size_factor;
  logic        size_done;       // the size product is complete after this cycle
  assign size_done = (dim_q + 3'd1 >= size_steps);
  logic [8:0]  tile_factor;     // floor(box[d] / es[d])
  logic [2:0]  size_steps;
  assign tile_factor = ({1'b0, f_box_m1[dim_q]} + 9'd1) / ({6'd0, f_es_m1[dim_q]} + 9'd1);
  assign size_steps = i2c ? 3'd2 : f_rank_m1 + 3'd1;
  always_comb begin : proc_size_factor
    if (i2c) begin
      size_factor = (dim_q == 3'd0) ? 11'(f_box_m1[0]) + 11'd1 : 11'(f_ppc_m1) + 11'd1;
    end else begin
      size_factor = {2'b00, tile_factor};
    end
  end

  // ---- Job ----
  tma_pkg::job_t job;
  logic signed [35:0] dim0;          // dims[0]
  logic signed [35:0] lo_el, hi_el;  // in-bounds elements of a row: [lo_el, hi_el)
  logic [8:0]         box0;

  always_comb begin : proc_job
    job  = '0;
    box0 = {1'b0, f_box_m1[0]} + 9'd1;
    dim0 = 36'({4'd0, f_dim_m1[0]}) + 36'sd1;
    lo_el = 36'sd0 - 36'(c0);
    if (lo_el < 0) lo_el = '0;
    if (lo_el > 36'(box0)) lo_el = 36'(box0);
    hi_el = dim0 - 36'(c0);
    if (hi_el < 0) hi_el = '0;
    if (hi_el > 36'(box0)) hi_el = 36'(box0);

    job.i2c       = i2c;
    job.nrows_m1  = 11'(f_ppc_m1);
    if (!il) begin
      job.gaddr     = f_addr + 64'(c0_bytes);
      job.row_bytes = row_bytes;
      job.tx_row    = row_bytes;   // (the sub-byte types, whose payload differs, are refused)
      job.head      = 12'(lo_el) << esz;
      job.dend      = (hi_el > lo_el) ? 12'(hi_el) << esz : job.head;
      job.pitch     = (swz == tma_pkg::SwzNone) ? row_bytes : 12'(span);
    end else begin
      // Interleave: every row is one chunk (its bounds are those of walker dim 1 or of the
      // spatial dim 0); rows are not padded (D5, D8).
      job.gaddr     = f_addr + (i2c ? malo_q.v[f_rank_m1] :
                                      64'(c0) << ((f_il == 2'd2) ? 5 : 4)) +
                      (i2c ? 64'd0 : malo_q.v[1]);
      job.row_bytes = 12'(chunk);
      job.tx_row    = 12'(chunk);
      job.head      = '0;
      job.dend      = fixed_oob ? 12'd0 : 12'(chunk);
      job.pitch     = 12'(chunk);
    end
    job.smem_addr = cmd_q.smem_addr;
    job.fill_nan  = f_fill;
    job.tf32      = f_tf32;
    job.swz       = swz;
    for (int d = 0; d < MaxDims; d++) job.es.v[d] = 4'd1;
    for (int d = 1; d < MaxDims; d++) begin
      job.coord.v[d]  = w_coord[d];
      job.lo.v[d]     = w_lo[d];
      job.hi.v[d]     = w_hi[d];
      job.dim_m1.v[d] = w_dim_m1[d];
      job.es.v[d]     = w_es[d];
      job.astart.v[d] = macc_q.v[d];
      job.alo.v[d]    = w_spat[d] ? malo_q.v[d] : macc_q.v[d];
      // es (1 .. 8) x stride by shift-add
      job.step.v[d]   = (w_es[d][0] ? 64'(w_stride[d])      : 64'd0) +
                        (w_es[d][1] ? 64'(w_stride[d]) << 1 : 64'd0) +
                        (w_es[d][2] ? 64'(w_stride[d]) << 2 : 64'd0) +
                        (w_es[d][3] ? 64'(w_stride[d]) << 3 : 64'd0);
    end
    job.cpl.kind      = tma_pkg::CplTx;
    job.cpl.cta_mask  = dst_mask;
    job.cpl.cta       = cmd_q.issuer;
    job.cpl.mbar_addr = cmd_q.mbar_addr;
    job.cpl.tag       = cmd_q.tag;
    if (err_q != tma_pkg::ErrNone) begin
      job.marker   = 1'b1;
      job.cpl.kind = tma_pkg::CplError;
      job.cpl.err  = err_q;
    end else if (cmd_q.op == tma_pkg::OpPrefetch) begin
      job.marker   = 1'b1;
      job.cpl.kind = tma_pkg::CplDone;
    end
  end

  // ---- Multiplier step: acc += stride x digit, radix 16 (digit 8 of a 36-bit operand is
  // signed) ----
  tma_pkg::dim64_t mpp;             // this cycle's partial products
  logic            mrest_zero;      // no operand has a non-zero digit beyond this one
  logic [3:0]      mdig;            // digit (loop temporary)
  logic [35:0]     mop;             // operand (loop temporary)
  always_comb begin : proc_mpp
    mpp  = '0;
    mdig = '0;
    mop  = '0;
    mrest_zero = 1'b1;
    for (int d = 1; d < MaxDims; d++) begin
      mop  = mcrd_q.v[d];
      mdig = mop[3:0];
      if (mop[35:4] != '0) mrest_zero = 1'b0;
      mpp.v[d] = (mdig[0] ? mstr_q.v[d]      : 64'd0) +
                 (mdig[1] ? mstr_q.v[d] << 1 : 64'd0) +
                 (mdig[2] ? mstr_q.v[d] << 2 : 64'd0);
      if (mdig[3]) begin
        mpp.v[d] = (mbit_q == 4'd8) ? mpp.v[d] - (mstr_q.v[d] << 3)
                                    : mpp.v[d] + (mstr_q.v[d] << 3);
      end
    end
  end

  // ---- Descriptor fetch ----
  logic [63:0] fetch_base;      // first beat address
  logic [3:0]  fetch_beats;
  logic [2:0]  chunk_off;       // descriptor's first 16-byte chunk inside the first beat
  assign fetch_base  = {cmd_q.desc_addr[63:SizeLog2], SizeLog2'(0)};
  assign chunk_off   = 3'(cmd_q.desc_addr[6:4] & 3'(NumChunks - 1));
  assign fetch_beats = 4'((128 / DataBytes) + ((chunk_off != 3'd0) ? 1 : 0));

  assign ar_valid_o = (state_q == StFetch) && (ar_cnt_q < fetch_beats);
  assign ar_o.addr  = fetch_base + 64'({ar_cnt_q, SizeLog2'(0)});
  assign ar_o.len   = 8'd0;

  // ---- FSM ----
  always_comb begin : proc_fsm
    state_d  = state_q;
    cmd_d    = cmd_q;
    raw_d    = raw_q;
    err_d    = err_q;
    ar_cnt_d = ar_cnt_q;
    r_cnt_d  = r_cnt_q;
    stale_d  = stale_q || desc_inval_i;
    dim_d    = dim_q;
    prod_d   = prod_q;
    mbit_d   = mbit_q;
    mpass_d  = mpass_q;
    macc_d   = macc_q;
    malo_d   = malo_q;
    mstr_d   = mstr_q;
    mcrd_d   = mcrd_q;
    c_fill   = 1'b0;
    idx      = '0;
    mop_sh   = '0;
    cmd_ready_o = 1'b0;
    job_valid_o = 1'b0;

    unique case (state_q)
      StIdle: begin
        cmd_ready_o = 1'b1;
      end
      StFetch: begin
        if (ar_valid_o && ar_ready_i) ar_cnt_d = ar_cnt_q + 1'b1;
        if (r_valid_i) begin
          r_cnt_d = r_cnt_q + 1'b1;
          if (r_err_i) err_d = tma_pkg::ErrBusError;
          for (int c = 0; c < NumChunks; c++) begin
            // chunk c of beat r_cnt_q is descriptor chunk r_cnt_q x NumChunks + c - chunk_off
            idx = 8'(r_cnt_q) * 8'(NumChunks) + 8'(c) - 8'(chunk_off);
            if (idx >= 0 && idx < 8) raw_d[idx[2:0] * 128 +: 128] = r_data_i[c * 128 +: 128];
          end
          if (r_cnt_q + 1'b1 == fetch_beats) begin
            if (err_d != tma_pkg::ErrNone) begin
              state_d = StEmit;
            end else begin
              c_fill  = !stale_q && !desc_inval_i;
              state_d = StCheck;
            end
          end
        end
      end
      StCheck: begin
        dim_d   = '0;
        prod_d  = 48'(1) << esz;
        mbit_d  = '0;
        mpass_d = 1'b0;
        for (int d = 1; d < MaxDims; d++) begin
          macc_d.v[d] = '0;
          malo_d.v[d] = '0;
          mstr_d.v[d] = 64'(w_stride[d]);
          mcrd_d.v[d] = 36'(w_aop[d]);
        end
        if (desc_err != tma_pkg::ErrNone) begin
          err_d   = desc_err;
          state_d = StEmit;
        end else begin
          state_d = StMul;
        end
      end
      StMul: begin
        // Size product: one factor per cycle (at most 5, done before the first pass ends).
        if (dim_q < size_steps) begin
          prod_d = 48'(prod_q * 48'(size_factor));
          dim_d  = dim_q + 1'b1;
        end
        // Position x stride, one 4-bit digit per cycle.
        for (int d = 1; d < MaxDims; d++) begin
          if (mpass_q) malo_d.v[d] = malo_q.v[d] + mpp.v[d];
          else macc_d.v[d] = macc_q.v[d] + mpp.v[d];
          mstr_d.v[d] = mstr_q.v[d] << 4;
          mop_sh      = mcrd_q.v[d];
          mcrd_d.v[d] = {{4{mop_sh[35]}}, mop_sh[35:4]};
        end
        mbit_d = mbit_q + 1'b1;
        // A pass ends after digit 8, or early once every operand has no non-zero digit left
        // (the last pass also waits for the size product).
        if (mbit_q == 4'd8 || (mrest_zero && (!(mpass_q || !two_pass) || size_done))) begin
          if (two_pass && !mpass_q) begin
            // Second pass: the restart positions (lower corners) of the spatial dims, and
            // the fixed dim of an interleaved map.
            mpass_d = 1'b1;
            mbit_d  = '0;
            for (int d = 1; d < MaxDims; d++) begin
              mstr_d.v[d] = 64'(w_bstr[d]);
              mcrd_d.v[d] = 36'(w_bop[d]);
            end
          end else begin
            state_d = StEmit;
            if (prod_d > 48'd233472 || prod_d[31:0] != f_boxbytes) begin
              err_d = tma_pkg::ErrInvalidDescriptor;   // rules 14 / 20, derived field
            end else if (instr_err != tma_pkg::ErrNone) begin
              err_d = instr_err;
            end
          end
        end
      end
      StEmit: begin
        job_valid_o = 1'b1;
        if (job_ready_i) begin
          state_d     = StIdle;
          cmd_ready_o = 1'b1;     // the next command is taken in the cycle the job leaves
        end
      end
      default: state_d = StIdle;
    endcase

    // Intake, with the descriptor-cache lookup on the incoming address.
    if (cmd_valid_i && cmd_ready_o) begin
      cmd_d = cmd_i;
      err_d = tma_pkg::ErrNone;
      if (cmd_i.op == tma_pkg::OpStore || cmd_i.op == tma_pkg::OpReduce) begin
        err_d   = tma_pkg::ErrUnsupported;
        state_d = StEmit;
      end else if (cmd_i.desc_addr[3:0] != 4'd0) begin
        err_d   = tma_pkg::ErrInvalidInstr;
        state_d = StEmit;
      end else if (c_hit && !desc_inval_i) begin
        raw_d   = c_hit_raw;
        state_d = StCheck;
      end else begin
        ar_cnt_d = '0;
        r_cnt_d  = '0;
        stale_d  = 1'b0;
        state_d  = StFetch;
      end
    end
  end

  assign job_o = job;

  // ---- Cache update ----
  always_comb begin : proc_cache
    c_next_d = c_next_q;
    for (int e = 0; e < CacheEntries; e++) c_valid_d[e] = desc_inval_i ? 1'b0 : c_valid_q[e];
    if (c_fill) begin
      c_valid_d[c_next_q] = 1'b1;
      c_next_d = (32'(c_next_q) == CacheEntries - 1) ? '0 : c_next_q + 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_cache_q
    if (!rst_ni) begin
      for (int e = 0; e < CacheEntries; e++) begin
        c_valid_q[e] <= 1'b0;
        c_addr_q[e]  <= '0;
        c_raw_q[e]   <= '0;
      end
      c_next_q <= '0;
    end else begin
      for (int e = 0; e < CacheEntries; e++) c_valid_q[e] <= c_valid_d[e];
      if (c_fill) begin
        c_addr_q[c_next_q] <= cmd_q.desc_addr;
        c_raw_q[c_next_q]  <= raw_d;
      end
      c_next_q <= c_next_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_state
    if (!rst_ni) begin
      state_q  <= StIdle;
      cmd_q    <= '0;
      raw_q    <= '0;
      err_q    <= '0;
      ar_cnt_q <= '0;
      r_cnt_q  <= '0;
      stale_q  <= 1'b0;
      dim_q    <= '0;
      prod_q   <= '0;
      mbit_q   <= '0;
      mpass_q  <= 1'b0;
      macc_q   <= '0;
      malo_q   <= '0;
      mstr_q   <= '0;
      mcrd_q   <= '0;
    end else begin
      state_q  <= state_d;
      cmd_q    <= cmd_d;
      raw_q    <= raw_d;
      err_q    <= err_d;
      ar_cnt_q <= ar_cnt_d;
      r_cnt_q  <= r_cnt_d;
      stale_q  <= stale_d;
      dim_q    <= dim_d;
      prod_q   <= prod_d;
      mbit_q   <= mbit_d;
      mpass_q  <= mpass_d;
      macc_q   <= macc_d;
      malo_q   <= malo_d;
      mstr_q   <= mstr_d;
      mcrd_q   <= mcrd_d;
    end
  end

  assign busy_o = (state_q != StIdle);

  logic unused_bits;
  assign unused_bits = ^{f_dim_m1[0], f_es_m1[0], macc_q.v[0], malo_q.v[0], mstr_q.v[0],
                         mcrd_q.v[0], cmd_q.redop, mpp.v[0], mop_sh[3:0]};

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_INIT(CacheEntriesLegal_A, CacheEntries >= 1 && CacheEntries <= 16)
  `TMA_ASSERT_INIT(NumCtasLegal_A, NumCtas >= 1 && NumCtas <= 16)
`ifndef SYNTHESIS
  // The job is ~1900 bits: the stream check samples a 64-bit XOR fold of it (Verilator 5.006
  // emits uncompilable code for $past of a vector this wide).
  logic [63:0] job_sig;
  always_comb begin : proc_job_sig
    job_sig = '0;
    for (int i = 0; i < $bits(job); i += 64) job_sig = job_sig ^ 64'(job >> i);
  end
  `TMA_ASSERT_STABLE(JobHeld_A, job_valid_o, job_ready_i, job_sig)
`endif
  `TMA_ASSERT_STABLE(ArHeld_A, ar_valid_o, ar_ready_i, ar_o)
  `TMA_ASSERT_NEVER(UnexpectedDescBeat_A, r_valid_i && state_q != StFetch)

endmodule
