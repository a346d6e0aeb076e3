// SPDX-License-Identifier: Apache-2.0
//
// tma_cmd_ctrl: command intake, descriptor cache and fetch, decode, validation and the issue-
// time arithmetic of one command at a time; hands the walker one job per command (a tile job,
// or a completion-only marker for errors and prefetch). The descriptor is read over the AXI4
// read channel with ID AxiIdDesc, one single-beat burst per beat (never across 4 KiB), into a
// 1024-bit register; a small fully associative cache keyed by the map address holds recent
// maps (round-robin replacement, desc_inval_i clears it). The start address
// sum(c[d] x stride[d-1]) is computed by four parallel shift-add multipliers over 32 cycles;
// the walker then needs adds only.

`include "tma_assert.svh"

module tma_cmd_ctrl #(
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

  typedef enum logic [3:0] {
    StIdle, StLookup, StFetch, StCheck, StSize, StMul, StEmit
  } state_e;

  state_e          state_d, state_q;
  tma_pkg::cmd_t   cmd_d, cmd_q;
  logic [1023:0]   raw_d, raw_q;            // the 128-byte map
  logic [3:0]      err_d, err_q;            // error found so far (ErrNone: none)
  logic [3:0]      ar_cnt_d, ar_cnt_q;      // descriptor beats requested
  logic [3:0]      r_cnt_d, r_cnt_q;        // descriptor beats received
  logic            stale_d, stale_q;        // invalidated while fetching: do not cache
  logic [2:0]      dim_d, dim_q;            // Size step: dimension
  logic [47:0]     prod_d, prod_q;          // E x prod floor(box/es)
  logic [5:0]      mbit_d, mbit_q;          // Mul step: bit
  tma_pkg::dim64_t macc_d, macc_q;          // per-dimension products c[d] x stride[d-1]
  tma_pkg::dim64_t mstr_d, mstr_q;          // stride shifted left by mbit
  tma_pkg::dim32_t mcrd_d, mcrd_q;          // coordinate shifted right by mbit

  // ---- Descriptor cache ----
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
      if (c_valid_q[e] && c_addr_q[e] == cmd_q.desc_addr) begin
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
  logic [7:0]   f_box_m1 [MaxDims];
  logic [31:0]  f_boxbytes, f_swzrep;

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
      tma_pkg::Swz128B: begin span = 8'd128; swz_repeat = 32'd1024; end
      tma_pkg::Swz128BA32, tma_pkg::Swz128BA32F8: begin span = 8'd128; swz_repeat = 32'd512; end
      tma_pkg::Swz128BA64: begin span = 8'd128; swz_repeat = 32'd256; end
      default:          begin span = 8'd96;  swz_repeat = 32'd256;  end   // 96B
    endcase
  end

  // ---- Checks ----
  logic [3:0]  rank;            // 1 .. 8 (8 > 5 is invalid)
  logic [11:0] row_bytes;       // box[0] x E
  logic [1023:0] reserved;      // bits that belong to no field of this map kind
  logic [3:0]  desc_err;        // decode and encoder rules
  logic [3:0]  instr_err;       // instruction against map, run-time faults
  logic [15:0] dst_mask;
  logic signed [34:0] c0;
  logic signed [36:0] c0_bytes;

  assign rank      = {1'b0, f_rank_m1} + 4'd1;
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
    // Strides, dims, element strides and boxes beyond the rank are written as given by the
    // encoder (docs/descriptor.md) and are not reserved.
  end

  always_comb begin : proc_desc_err
    desc_err = tma_pkg::ErrNone;
    if (rank > 4'd5 || (f_wide && !f_im2col) || (f_im2col && rank < 4'd3) || f_type >= 4'd14 ||
        (f_tf32 && f_type != 4'd7 && f_type != 4'd8) || f_il == 2'd3 ||
        (f_b96 && (f_span != 2'd0 || f_atom != 2'd0)) || (f_span != 2'd3 && f_atom != 2'd0) ||
        (raw_q & reserved) != '0 || f_swzrep != swz_repeat) begin
      desc_err = tma_pkg::ErrInvalidDescriptor;
    end else if (f_addr[3:0] != 4'd0 || (f_il == 2'd2 && f_addr[4]) ||
                 (f_il != 2'd0 && rank < 4'd3) || (f_fill && !is_float)) begin
      desc_err = tma_pkg::ErrInvalidDescriptor;
    end else if (!f_im2col && (row_bytes[3:0] != 4'd0 ||
                 (f_il == 2'd0 && swz != tma_pkg::SwzNone && row_bytes > 12'(span)))) begin
      desc_err = tma_pkg::ErrInvalidDescriptor;
    end else begin
      for (int i = 0; i < MaxDims - 1; i++) begin
        if (f_il == 2'd2 && f_stride[i][4]) desc_err = tma_pkg::ErrInvalidDescriptor;
      end
    end
  end

  // Same order as the model's CheckInstruction (cmodel tensor_copy.cc): qualifier and operand
  // combinations (invalid_instruction / unsupported), then F2 (misaligned), then F1.
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
    end else if (cmd_q.mode != tma_pkg::ModeTile || f_il != 2'd0 || f_type >= 4'd11) begin
      instr_err = tma_pkg::ErrUnsupported;    // im2col, interleave, sub-byte: not yet
    end else if (is_load && (cmd_q.smem_addr[6:0] != 7'd0 || cmd_q.mbar_addr[2:0] != 3'd0)) begin
      instr_err = tma_pkg::ErrMisaligned;
    end else if (c0_bytes[3:0] != 4'd0) begin
      instr_err = tma_pkg::ErrMisalignedCoord;
    end
  end

  // ---- Size check: E x prod floor(box[i]/es[i]) <= 228 KiB; must equal the box-bytes field ----
  logic [8:0] size_factor;
  assign size_factor = ({1'b0, f_box_m1[dim_q]} + 9'd1) / ({6'd0, f_es_m1[dim_q]} + 9'd1);

  // ---- Job ----
  tma_pkg::job_t job;
  logic signed [35:0] dim0;          // dims[0]
  logic signed [35:0] lo_el, hi_el;  // in-bounds elements of a row: [lo_el, hi_el)
  logic [8:0]         box0;
  logic [63:0]        offs;
  logic [3:0]         es_t;          // element stride of dim d (loop temporary)
  logic [31:0]        crd_t;         // shifted coordinate of dim d (loop temporary)

  always_comb begin : proc_job
    job  = '0;
    es_t = '0;
    box0 = {1'b0, f_box_m1[0]} + 9'd1;
    dim0 = 36'({4'd0, f_dim_m1[0]}) + 36'sd1;
    lo_el = 36'sd0 - 36'(c0);
    if (lo_el < 0) lo_el = '0;
    if (lo_el > 36'(box0)) lo_el = 36'(box0);
    hi_el = dim0 - 36'(c0);
    if (hi_el < 0) hi_el = '0;
    if (hi_el > 36'(box0)) hi_el = 36'(box0);
    offs = 64'(c0_bytes);
    for (int d = 1; d < MaxDims; d++) offs = offs + macc_q.v[d];

    job.gaddr     = f_addr + offs;
    job.row_bytes = row_bytes;
    job.head      = 12'(lo_el) << esz;
    job.dend      = (hi_el > lo_el) ? 12'(hi_el) << esz : job.head;
    job.pitch     = (swz == tma_pkg::SwzNone) ? row_bytes : 12'(span);
    job.smem_addr = cmd_q.smem_addr;
    job.fill_nan  = f_fill;
    job.tf32      = f_tf32;
    job.swz       = swz;
    for (int d = 0; d < MaxDims; d++) begin
      job.box.v[d] = 9'd1;
      job.es.v[d]  = 4'd1;
    end
    for (int d = 1; d < MaxDims; d++) begin
      if (4'(d) < rank) begin
        job.coord.v[d]  = 34'(signed'(cmd_q.coords.v[d]));
        job.dim_m1.v[d] = f_dim_m1[d];
        job.box.v[d]    = {1'b0, f_box_m1[d]} + 9'd1;
        job.es.v[d]     = {1'b0, f_es_m1[d]} + 4'd1;
        // es (1 .. 8) x stride by shift-add
        es_t            = {1'b0, f_es_m1[d]} + 4'd1;
        job.step.v[d]   = (es_t[0] ? 64'(f_stride[d-1])      : 64'd0) +
                          (es_t[1] ? 64'(f_stride[d-1]) << 1 : 64'd0) +
                          (es_t[2] ? 64'(f_stride[d-1]) << 2 : 64'd0) +
                          (es_t[3] ? 64'(f_stride[d-1]) << 3 : 64'd0);
      end
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
    macc_d   = macc_q;
    mstr_d   = mstr_q;
    mcrd_d   = mcrd_q;
    c_fill   = 1'b0;
    idx      = '0;
    crd_t    = '0;
    cmd_ready_o = 1'b0;
    job_valid_o = 1'b0;

    unique case (state_q)
      StIdle: begin
        cmd_ready_o = 1'b1;
        if (cmd_valid_i) begin
          cmd_d = cmd_i;
          err_d = tma_pkg::ErrNone;
          if (cmd_i.op == tma_pkg::OpStore || cmd_i.op == tma_pkg::OpReduce) begin
            err_d   = tma_pkg::ErrUnsupported;
            state_d = StEmit;
          end else if (cmd_i.desc_addr[3:0] != 4'd0) begin
            err_d   = tma_pkg::ErrInvalidInstr;
            state_d = StEmit;
          end else begin
            state_d = StLookup;
          end
        end
      end
      StLookup: begin
        if (c_hit && !desc_inval_i) begin
          raw_d   = c_hit_raw;
          state_d = StCheck;
        end else begin
          ar_cnt_d = '0;
          r_cnt_d  = '0;
          stale_d  = 1'b0;
          state_d  = StFetch;
        end
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
        dim_d  = '0;
        prod_d = 48'(1) << esz;
        if (desc_err != tma_pkg::ErrNone) begin
          err_d   = desc_err;
          state_d = StEmit;
        end else begin
          state_d = StSize;
        end
      end
      StSize: begin
        if (f_im2col) begin
          // im2col maps: the size rule differs and the mode is not implemented yet; the
          // instruction check reports the mismatch or `unsupported`.
          err_d   = (instr_err != tma_pkg::ErrNone) ? instr_err : tma_pkg::ErrUnsupported;
          state_d = StEmit;
        end else if (4'(dim_q) < rank) begin
          prod_d = 48'(prod_q * 48'(size_factor));
          dim_d  = dim_q + 1'b1;
        end else if (prod_q > 48'd233472 || prod_q[31:0] != f_boxbytes) begin
          err_d   = tma_pkg::ErrInvalidDescriptor;
          state_d = StEmit;
        end else if (instr_err != tma_pkg::ErrNone) begin
          err_d   = instr_err;
          state_d = StEmit;
        end else begin
          mbit_d = '0;
          for (int d = 1; d < MaxDims; d++) begin
            macc_d.v[d] = '0;
            mstr_d.v[d] = (4'(d) < rank) ? 64'(f_stride[d-1]) : '0;
            mcrd_d.v[d] = cmd_q.coords.v[d];
          end
          state_d = (cmd_q.op == tma_pkg::OpPrefetch) ? StEmit : StMul;
        end
      end
      StMul: begin
        // Signed coordinate x unsigned stride, one coordinate bit per cycle (bit 31 weighs
        // -2^31).
        for (int d = 1; d < MaxDims; d++) begin
          crd_t = mcrd_q.v[d];
          if (crd_t[0]) begin
            macc_d.v[d] = (mbit_q == 6'd31) ? macc_q.v[d] - mstr_q.v[d]
                                             : macc_q.v[d] + mstr_q.v[d];
          end
          mstr_d.v[d] = mstr_q.v[d] << 1;
          mcrd_d.v[d] = mcrd_q.v[d] >> 1;
        end
        mbit_d = mbit_q + 1'b1;
        if (mbit_q == 6'd31) state_d = StEmit;
      end
      StEmit: begin
        job_valid_o = 1'b1;
        if (job_ready_i) state_d = StIdle;
      end
      default: state_d = StIdle;
    endcase
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
      macc_q   <= '0;
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
      macc_q   <= macc_d;
      mstr_q   <= mstr_d;
      mcrd_q   <= mcrd_d;
    end
  end

  assign busy_o = (state_q != StIdle);

  logic unused_bits;
  assign unused_bits = ^{f_dim_m1[0], f_es_m1[0], crd_t[31:1], macc_q.v[0], mstr_q.v[0],
                         mcrd_q.v[0], cmd_q.redop, cmd_q.im2col};

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_INIT(CacheEntriesLegal_A, CacheEntries >= 1 && CacheEntries <= 16)
  `TMA_ASSERT_INIT(NumCtasLegal_A, NumCtas >= 1 && NumCtas <= 16)
  `TMA_ASSERT_STABLE(JobHeld_A, job_valid_o, job_ready_i, job_o)
  `TMA_ASSERT_STABLE(ArHeld_A, ar_valid_o, ar_ready_i, ar_o)
  `TMA_ASSERT_NEVER(UnexpectedDescBeat_A, r_valid_i && state_q != StFetch)

endmodule
