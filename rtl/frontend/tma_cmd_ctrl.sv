// SPDX-License-Identifier: Apache-2.0
//
// tma_cmd_ctrl: command intake, descriptor cache and fetch, decode, validation and the issue-
// time arithmetic of one command at a time; hands the walker one job per command (a tile or
// im2col job, or a completion-only marker for errors and prefetch).
//
// Pipeline (every stage registered; timing rules of issue 6: one carry chain per stage; the
// state is one-hot, each state flop drives its own fan-out):
//   Idle   takes the command into cmd_q (stores / reduces / a misaligned map address: StErr)
//          once the cache tags have been compared with its map address (registered compares
//          of the previous cycle, so a command arriving at an idle controller waits a cycle;
//          hit index registered; a map invalidated in that cycle misses); per coordinate,
//          flags for the Mac slot list.
//   Read   hit: reads the cache entry (LUT RAM, registered) into the decoded map d_q.
//   Fetch  miss: reads the map over AXI (ID AxiIdDesc, one single-beat burst per beat, never
//          across 4 KiB) and decodes each 16-byte chunk into d_q as it arrives (chunk 0 first).
//   Chk    miss: nine cycles (0..8) of descriptor checks (decode and encoder rules, each
//          check registered before it sets `bad`; the box-size product E x prod floor(box/es)
//          by registered 18x18 multiplies and reciprocals, its compares registered in cycle 7),
//          decoded flags of the map (cycle 0), the walker dims of the map (cycle 0) and their
//          view (cycles 1, 2: dim, es, box, stride of each walker dim) and address steps
//          es x stride (one shift-add per cycle, cycles 2..7), then the decoded map and its
//          verdict `bad` enter the cache (round robin; not when desc_inval_i came since the
//          fetch started).
//   W1, W1B, W2 the walker dimensions, bounds, clamps, global address and the instruction
//          checks into the job register (W1 waits until the job register is empty): W1 copies
//          the walker view (dims, es, steps) and the command fields, and computes the check
//          conditions and each Mac slot's partial products; W1B the coordinates, lo and hi of
//          each walker dim (from the walker dims' coordinates, registered every cycle), the
//          checks' priority, the F4 compares (one compare per flag), the row's element range
//          and the Mac slot list; W2 the F4 verdict, the row's byte range. Most W1 / W1B
//          operands are registered every cycle from d_q and cmd_q (stable from W1 on).
//   Mac    the address products (position x stride, lower corner x stride, the interleave
//          fixed dim x stride) as a list of 17x18-bit partial products through one registered
//          multiplier and a split 64-bit accumulator, started from W1B; zero partial products
//          are skipped and an operand in [-2^17, 2^17) is one signed piece. The job is complete
//          when the list is done.
// Latency, command accepted to job valid (cmd_ctrl_test, DataBytes 16, walker ready): 9 cycles
// on a hit, 32 on a miss (8 descriptor beats, 9 Chk cycles).
// Sub-byte types (SubByte = 1; codes 11 b4x16, 12 b4x16_p64, 13 b6x16_p32, tile mode only):
// 1-byte elements in shared memory (b4x16: the byte sizes halved), the global offset of c0
// scaled (c0 / 2, 3 c0 / 4), the job's pk tells the unpacker the packed layout. SubByte = 0:
// the packed types (12, 13) give `unsupported`.
// Error priority: bus error, then invalid descriptor (descriptor-only, cached with the map),
// then the instruction checks in the order of the model's CheckInstruction.

`include "tma_assert.svh"

module tma_cmd_ctrl #(
  parameter  int unsigned DataBytes     = 16,
  parameter  int unsigned CacheEntries  = 4,
  parameter  int unsigned NumCtas       = 16,
  parameter  int unsigned SubByte       = 1,   // 0: b4x16_p64 / b6x16_p32 give `unsupported`
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
  localparam int unsigned NumSlots = 9;   // Mac slots (see proc_mac)

  // Walker dim kinds (see proc_wmap).
  localparam logic [2:0] KNone    = 3'd0;
  localparam logic [2:0] KTile    = 3'd1;
  localparam logic [2:0] KChunk   = 3'd2;
  localparam logic [2:0] KSpatial = 3'd3;
  localparam logic [2:0] KN       = 3'd4;

  // One-hot state (state_q[I*] is the state's flop: no decode in front of its fan-out)
  localparam int unsigned IIdle = 0, IRead = 1, IFetch = 2, IChk = 3, IW1 = 4, IW1B = 5,
                          IW2 = 6, IMac = 7, IErr = 8;
  typedef enum logic [8:0] {
    StIdle  = 9'(1) << IIdle,
    StRead  = 9'(1) << IRead,
    StFetch = 9'(1) << IFetch,
    StChk   = 9'(1) << IChk,
    StW1    = 9'(1) << IW1,
    StW1B   = 9'(1) << IW1B,
    StW2    = 9'(1) << IW2,
    StMac   = 9'(1) << IMac,
    StErr   = 9'(1) << IErr
  } state_e;

  // ---- Decoded map (one cache entry; docs/descriptor.md) ----
  typedef struct packed {
    logic             bad;       // breaks a descriptor rule (decode, encoder, size, derived)
    logic [63:0]      addr;
    logic             im2col;
    logic [2:0]       rank_m1;
    logic [3:0]       ftype;
    logic [1:0]       il;
    logic [2:0]       swz;       // internal swizzle code (Swz*)
    logic             fill;
    logic             tf32;
    logic [3:0][35:0] stride;    // globalStrides[i] >> 4
    logic [4:0][31:0] dim_m1;
    logic [4:0][2:0]  es_m1;
    logic [7:0]       box0_m1;   // im2col: channels per pixel - 1
    logic [31:0]      boxr;      // bits 448..479: boxes 1..4 (tiled) or the corners (im2col)
    logic [9:0]       ppc_m1;
    logic [3:0][2:0]  wkind;     // walker dims 1..4 (entry d-1): kind ...
    logic [3:0][2:0]  wtd;       // ... and the tensor dim it walks
    logic [3:0][38:0] wstep;     // ... and its address step es x stride (units of 16 bytes)
    // the walker view of the map (Chk cycles 1, 2; zero / es 1 for a dim the map does not walk)
    logic [3:0][31:0] wdim;      // dim - 1 of the tensor dim walker dim d walks
    logic [3:0][2:0]  wes;       // its es - 1
    logic [3:0][7:0]  wbox;      // its box - 1
    logic [3:0][35:0] wstr;      // its stride (units of 16 bytes; the chunk for dim 0)
    logic [3:0][2:0]  wsnz;      // the stride's pieces that are not zero (see pmask)
    logic [35:0]      fixs;      // interleave: stride of the fixed dim rank-2 ...
    logic [2:0]       fixsnz;    // ... and its pieces that are not zero
    // decoded fields (Chk cycle 0; used from Chk cycle 1 on): interleave, 32B interleave,
    // b4x16, b4x16_p64, b6x16_p32, rank 3, rank 4, log2 E; how c0 scales to bytes (proc_c0s,
    // one-hot; none: zero): x E (1, 2, 4, 8), x 16, x 32 (interleave), / 2, x 3/4
    logic             fl_il, fl_il2, fl_sbh, fl_g8, fl_g12, fl_r3, fl_r4;
    logic [1:0]       fl_esz;
    logic [7:0]       fl_c0m;
    logic             fl_r5;     // rank 5
    logic [4:0]       fl_fx;     // one-hot: rank - 2 (the dim an interleaved map does not walk)
  } ent_t;
  localparam int unsigned EntW = 1 + 64 + 1 + 3 + 4 + 2 + 3 + 1 + 1 + 144 + 160 + 15 + 8 + 32 +
                                 10 + 12 + 12 + 156 + 128 + 12 + 32 + 144 + 12 + 36 + 3 + 9 + 8 +
                                 1 + 5;

  state_e          state_d, state_q;
  tma_pkg::cmd_t   cmd_d, cmd_q;
  ent_t            d_d, d_q;
  logic            i_fetch;                 // intake of a command that misses (proc_next)
  logic            d_clr;                   // intake of a command that may fetch (proc_d)
  logic [3:0]      err_d, err_q;            // error found so far (ErrNone: none)
  logic [3:0]      ar_cnt_d, ar_cnt_q;      // descriptor beats requested
  logic [3:0]      r_cnt_d, r_cnt_q;        // descriptor beats received
  logic            stale_d, stale_q;        // invalidated since the lookup: do not cache
  logic [3:0]      kc_d, kc_q;              // Chk cycle
  logic            chk8_q;                  // Chk cycle 8 (the last)
  // Fields used only by the checks of a fetched map
  logic [1:0]      x_span_d, x_span_q, x_atom_d, x_atom_q;
  logic            x_b96_d, x_b96_q, x_wide_d, x_wide_q, x_rsv_d, x_rsv_q;
  logic [31:0]     x_boxbytes_d, x_boxbytes_q, x_swzrep_d, x_swzrep_q;
  // Reserved-bit test of the fetched beats, one flag per 32-bit quarter of each descriptor
  // chunk k (bit 4 k + quarter), registered: x_rsv_q takes their OR a cycle later, so the wide
  // OR of a beat and the sticky flag's update are in different cycles (the checks read
  // x_rsv_q in Chk cycle 1, two cycles after the last beat).
  logic [31:0]     rsv_d, rsv_q;

  // Reserved (must-be-zero) bits of descriptor chunk k (docs/descriptor.md).
  function automatic logic [127:0] rsv_mask(input int k);
    rsv_mask = '0;
    unique case (k)
      0: begin
        rsv_mask[67:65] = 3'b111;
        rsv_mask[85]    = 1'b1;
        rsv_mask[87]    = 1'b1;
        rsv_mask[95:89] = 7'h7F;
      end
      1: rsv_mask[127:112] = 16'hFFFF;
      2: rsv_mask = '0;
      3: begin
        rsv_mask[55:47]  = 9'h1FF;
        rsv_mask[127:106] = 22'h3FFFFF;
      end
      4: begin
        rsv_mask[63:32]  = 32'hFFFFFFFF;
        rsv_mask[127:96] = 32'hFFFFFFFF;
      end
      default: rsv_mask = {128{1'b1}};
    endcase
  endfunction

  // ---- Decoded fields as arrays ----
  logic [35:0] f_stride [MaxDims-1];   // in units of 16 bytes
  logic [31:0] f_dim_m1 [MaxDims];
  logic [2:0]  f_es_m1  [MaxDims];
  logic [7:0]  f_box_m1 [MaxDims];     // im2col: entry 0 is channels per pixel - 1
  logic [33:0] f_lower  [MaxDims-2];   // im2col corners, sign-extended (16/8/5-bit fields)
  logic [33:0] f_upper  [MaxDims-2];
  logic [33:0] lower_q  [MaxDims-2];   // f_lower registered (valid from the cycle after d_q)
  logic [3:0]  rank;
  logic [MaxDims-1:0] rk_lt_q;         // bit i: i < rank (registered: valid from Chk cycle 1)
  logic        i2c, il;
  logic [1:0]  esz;                    // log2 E (from the decoded flags) ...
  logic [1:0]  esz_c;                  // ... decoded from ftype (Chk cycle 0)
  logic        is_float;
  logic [7:0]  span;                   // swizzle span in bytes (0: none)
  logic [31:0] swz_repeat;

  always_comb begin : proc_fields
    for (int i = 0; i < MaxDims - 1; i++) f_stride[i] = d_q.stride[i];
    for (int i = 0; i < MaxDims; i++) begin
      f_dim_m1[i] = d_q.dim_m1[i];
      f_es_m1[i]  = d_q.es_m1[i];
    end
    f_box_m1[0] = d_q.box0_m1;
    for (int i = 1; i < MaxDims; i++) f_box_m1[i] = d_q.boxr[8*(i-1) +: 8];
    for (int k = 0; k < MaxDims - 2; k++) begin
      f_lower[k] = '0;
      f_upper[k] = '0;
    end
    // (rank from the decoded flags: valid from Chk cycle 1)
    if (d_q.fl_r3) begin
      f_lower[0] = {{18{d_q.boxr[15]}}, d_q.boxr[15:0]};
      f_upper[0] = {{18{d_q.boxr[31]}}, d_q.boxr[31:16]};
    end else if (d_q.fl_r4) begin
      for (int k = 0; k < 2; k++) begin
        f_lower[k] = {{26{d_q.boxr[7 + 8*k]}}, d_q.boxr[8*k +: 8]};
        f_upper[k] = {{26{d_q.boxr[23 + 8*k]}}, d_q.boxr[16 + 8*k +: 8]};
      end
    end else begin
      for (int k = 0; k < 3; k++) begin
        f_lower[k] = {{29{d_q.boxr[4 + 5*k]}}, d_q.boxr[5*k +: 5]};
        f_upper[k] = {{29{d_q.boxr[20 + 5*k]}}, d_q.boxr[16 + 5*k +: 5]};
      end
    end
    unique case (d_q.ftype)
      4'd0, 4'd11, 4'd12, 4'd13: esz_c = 2'd0;   // sub-byte: 1 byte (b4x16: sb_half)
      4'd1, 4'd6, 4'd10:         esz_c = 2'd1;
      4'd2, 4'd3, 4'd7, 4'd8:    esz_c = 2'd2;
      default:                   esz_c = 2'd3;   // 4, 5, 9 (and unsupported codes)
    endcase
    is_float = (d_q.ftype >= 4'd6 && d_q.ftype <= 4'd10);
    unique case (d_q.swz)
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
  assign rank = {1'b0, d_q.rank_m1} + 4'd1;
  assign i2c  = d_q.im2col;
  assign il   = d_q.fl_il;
  assign esz  = d_q.fl_esz;

  // Sub-byte types (sm_100; docs/descriptor.md sec. 2, docs/rtl-unpack.md): E is the element's
  // shared-memory size, 1 byte (esz 0) for b4x16_p64 / b6x16_p32 and half a byte for b4x16
  // (sb_half: the byte sizes are the 1-byte ones halved; the box-bytes check counts nibbles).
  logic       sb_half, sb_pk, sb_any;
  logic [6:0] sb_f1m;                  // F1: these low bits of c0 must be zero
  logic [1:0] sb_pkc;                  // job pk (tma_pkg::Pk*)
  assign sb_half = d_q.fl_sbh;
  assign sb_pk   = d_q.fl_g8 || d_q.fl_g12;
  assign sb_any  = sb_half || sb_pk;
  assign sb_f1m  = sb_pk ? 7'h7F : sb_half ? 7'h1F : (7'h0F >> esz);
  assign sb_pkc  = d_q.fl_g8 ? tma_pkg::PkG8 : d_q.fl_g12 ? tma_pkg::PkG12 : tma_pkg::PkNone;

  // ---- Walker dims of a map (stored with it): tile: walker dim d is tensor dim d; interleave
  // (D5): walker dim 1 is dim 0 in chunks, then the dims above it except rank-2. im2col:
  // walker dims 1 .. rank-2 are the spatial dims (tensor dims 1 .. rank-2, or 0 .. rank-3 with
  // interleave, D8), walker dim rank-1 is N. ----
  // (computed in Chk from the fetched fields in d_q, stored with the map)
  logic [2:0] m_rank_m1;
  logic [1:0] m_il_code;
  logic       m_i2c;
  logic [11:0] m_kind, m_td;     // 3 bits per walker dim 1..4
  assign m_rank_m1 = d_q.rank_m1;
  assign m_il_code = d_q.il;
  assign m_i2c     = d_q.im2col;
  always_comb begin : proc_wmap
    logic [3:0] mrank;
    logic       mil;
    logic [2:0] td;
    mrank = {1'b0, m_rank_m1} + 4'd1;
    mil   = (m_il_code != 2'd0);
    for (int d = 1; d < MaxDims; d++) begin
      m_kind[3*(d-1) +: 3] = KNone;
      td          = 3'(d);
      if (!m_i2c) begin
        if (!mil) begin
          td = 3'(d);
        end else if (d == 1) begin
          td = 3'd0;
        end else begin
          td = (4'(d) < mrank - 4'd1) ? 3'(d - 1) : 3'(d);
        end
        if ({1'b0, td} < mrank) m_kind[3*(d-1) +: 3] = (mil && d == 1) ? KChunk : KTile;
      end else if (4'(d) + 4'd2 <= mrank) begin
        m_kind[3*(d-1) +: 3] = KSpatial;
        td          = mil ? 3'(d - 1) : 3'(d);
      end else if (4'(d) + 4'd1 == mrank) begin
        m_kind[3*(d-1) +: 3] = KN;
        td          = m_rank_m1;
      end
      m_td[3*(d-1) +: 3] = td;
    end
  end

  // ---- Descriptor cache: tags and valid bits in flops, decoded maps in RAM ----
  logic                 c_valid_d [CacheEntries];
  logic                 c_valid_q [CacheEntries];
  logic [63:0]          c_addr_q  [CacheEntries];
  logic [EntW-1:0]      c_ent_q   [CacheEntries];
  logic [CacheIdxW-1:0] c_next_d, c_next_q;     // round-robin victim
  logic [CacheIdxW-1:0] hidx_d, hidx_q;         // entry that hit
  logic                 c_fill;                 // fill entry c_next_q (tag and valid now)
  logic                 c_wr_q;                 // ... and its data, d_q, a cycle later
  logic [CacheIdxW-1:0] c_wr_idx_q;             // the entry being filled
  ent_t                 c_rd;                   // the entry that hit (RAM read)
  assign c_rd = c_ent_q[hidx_q];

  // Tag compares, registered: m_q[e] is c_addr_q[e] == cmd_i.desc_addr of the previous cycle.
  // They hold for this cycle's command (m_ok_q) when the previous cycle held the same command
  // (valid and not taken: the stream keeps it stable) and wrote no tag; Idle takes a command
  // only then, so the lookup is a few LUTs of flops. (A command that arrives at an idle
  // controller waits one cycle; a queued one is compared while the previous command runs.)
  logic [CacheEntries-1:0] m_d, m_q;
  logic [CacheEntries-1:0] c_hit;   // entry e holds this cycle's command's map (valid, not
                                    // invalidated in this cycle, tag compares hold)
  logic m_ok_q;
  always_comb begin : proc_tag_d
    for (int e = 0; e < CacheEntries; e++) m_d[e] = c_addr_q[e] == cmd_i.desc_addr;
  end
  always_ff @(posedge clk_i) begin : proc_tag_cmp
    m_q <= m_d;
  end
  always_comb begin : proc_hit
    for (int e = 0; e < CacheEntries; e++) c_hit[e] = c_valid_q[e] && !desc_inval_i && m_q[e];
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_tag_ok
    if (!rst_ni) begin
      m_ok_q <= 1'b0;
    end else begin
      m_ok_q <= cmd_valid_i && !cmd_ready_o && !c_fill;
    end
  end
  `TMA_ASSERT(TagCmpFresh_A, m_ok_q && cmd_valid_i |-> m_q == m_d)

  // ---- Descriptor fetch ----
  logic [63:0] fetch_base;      // first beat address
  logic [3:0]  fetch_beats;
  logic [2:0]  chunk_off;       // descriptor's first 16-byte chunk inside the first beat
  assign fetch_base  = {cmd_i.desc_addr[63:SizeLog2], SizeLog2'(0)};   // loaded in Idle
  assign chunk_off   = 3'(cmd_q.desc_addr[6:4] & 3'(NumChunks - 1));
  assign fetch_beats = 4'((128 / DataBytes) + ((chunk_off != 3'd0) ? 1 : 0));

  assign ar_valid_o = state_q[IFetch] && (ar_cnt_q < fetch_beats);

  // Whether the beat the fetch waits for is the last one, as a flop (r_cnt_q + 1 ==
  // fetch_beats, formed from the next counter and command), so the fetch's end is one LUT of
  // the beat valid and flops.
  logic [2:0] chunk_off_d;
  logic [3:0] fetch_beats_d;
  logic       r_lastb_q;
  assign chunk_off_d   = 3'(cmd_d.desc_addr[6:4] & 3'(NumChunks - 1));
  assign fetch_beats_d = 4'((128 / DataBytes) + ((chunk_off_d != 3'd0) ? 1 : 0));

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_r_lastb
    if (!rst_ni) begin
      r_lastb_q <= 1'b0;
    end else begin
      r_lastb_q <= (r_cnt_d + 1'b1 == fetch_beats_d);
    end
  end

  // Beat address: fetch_base + ar_cnt x DataBytes as a 12-bit low part and a high part that
  // steps when the low part wraps (the map crosses a 4 KiB boundary at most once).
  logic [11:0] ar_lo_d, ar_lo_q;
  logic [51:0] ar_hi_d, ar_hi_q;
  always_comb begin : proc_ar_addr
    logic [12:0] lo_sum;
    lo_sum  = {1'b0, ar_lo_q} + 13'(DataBytes);
    ar_lo_d = ar_lo_q;
    ar_hi_d = ar_hi_q;
    if (!ar_valid_o) begin        // (loaded at intake; only Fetch steps it)
      ar_lo_d = fetch_base[11:0];
      ar_hi_d = fetch_base[63:12];
    end else if (ar_valid_o && ar_ready_i) begin
      ar_lo_d = lo_sum[11:0];
      if (lo_sum[12]) ar_hi_d = ar_hi_q + 52'd1;
    end
  end
  assign ar_o.addr = {ar_hi_q, ar_lo_q};
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_ar_addr_q
    if (!rst_ni) begin
      ar_lo_q <= '0;
      ar_hi_q <= '0;
    end else begin
      ar_lo_q <= ar_lo_d;
      ar_hi_q <= ar_hi_d;
    end
  end
  assign ar_o.len   = 8'd0;

  // ---- Chk: descriptor rules of a fetched map (all give invalid_descriptor) ----
  logic        chk_a;                      // cycle 1: field codes, alignment, row rules
  logic [31:0] far32_d [MaxDims-2];        // rule 16: dim + 1 + upper (32-bit, wrapping)
  logic [31:0] far32_q [MaxDims-2];
  logic [8:0]  bx_d [MaxDims];             // box + 1 (cycle 0) ...
  logic [8:0]  bx_q [MaxDims];
  logic [12:0] rc_d [MaxDims];             // ... and ceil(4096 / es)
  logic [12:0] rc_q [MaxDims];
  logic [20:0] rq_d [MaxDims];             // their product (cycle 1)
  logic [20:0] rq_q [MaxDims];
  logic [10:0] fq_d [MaxDims];             // size factors (cycle 1)
  logic [10:0] fq_q [MaxDims];
  logic        szero_d, szero_q;           // a tiled factor is 0: the size is 0
  logic        sfe_d, sfe_q;               // the last factor is multiplied by E
  logic [16:0] pa_d, pa_q, pb_d, pb_q;     // cycle 2
  logic [11:0] pc_d, pc_q;
  logic [33:0] pab_d, pab_q;               // cycle 3
  logic        sover_d, sover_q;           // cycle 4
  logic [18:0] pabc_d, pabc_q;             // (b4x16: nibbles, up to 2 x 233472)
  logic [29:0] tmp_q;                      // cycle 5: pabc[17:0] x pc (one MULT18X18D) ...
  logic [11:0] tmh_q;                      // ... and pabc[18] x pc / 2^18, registered
  logic [29:0] tot_d, tot_q;               // cycle 6: their sum (tot_q used from cycle 7)
  logic [MaxDims-3:0] chk_r16;             // cycle 2, per spatial dim
  logic        chk_b;                      // (the other half of chk_a)
  logic        chk_a_q, chk_b_q;           // ... registered (applied a cycle later)
  logic [MaxDims-3:0] chk_r16_q;           // (each compare ends in its own flop)
  logic [31:0] x_bbm1_q;                   // box-bytes field - 1 (b4x16 check, odd nibbles)
  logic        x_bbnz_q;                   // box-bytes field != 0 (registered: w1_go's cone)
  logic        bb_ok;                      // cycle 7: the box-bytes field matches
  logic        bb_ok_q, tot_big_q;         // cycle 8: bb_ok, tot above the limit, registered
  logic        size_bad;                   // cycle 8: rules 14 / 20 and the box-bytes field
  logic [32:0] far_s [MaxDims-2];          // {far32, 1}
  // the walker dims' steps es x stride = a + b + c (cycles 2..5: stride and es of walker dim
  // kc - 1, cycles 3..6: the shifted operands, cycles 4..7: the sum): es 1, 2, 4, 8: s << k;
  // 3, 5, 6: two shifted strides; 7: 8s - s
  logic [35:0] st_s_d, st_s_q;
  logic [2:0]  st_e_d, st_e_q;             // es - 1
  logic [38:0] st_a_d, st_a_q, st_b_d, st_b_q;
  logic        st_c_d, st_c_q;
  logic [39:0] st_sum;                     // {a + b + c, 1}
  logic [7:0]  span_e;                     // span / E (elements)

  function automatic logic [12:0] recip(input logic [2:0] es_m1);
    // ceil(4096 / es): floor(b x recip(es) / 4096) == floor(b / es) for b 1..1024 when es is
    // a power of two, for b 1..256 otherwise (tests/rtl/engine/cmd_ctrl_test.cc checks it).
    unique case (es_m1)
      3'd0: recip = 13'd4096;
      3'd1: recip = 13'd2048;
      3'd2: recip = 13'd1366;
      3'd3: recip = 13'd1024;
      3'd4: recip = 13'd820;
      3'd5: recip = 13'd683;
      3'd6: recip = 13'd586;
      default: recip = 13'd512;
    endcase
  endfunction

  assign span_e = span >> esz;

  always_comb begin : proc_chk
    logic [4:0] rb_lo;   // (box0 + 1) mod 32, for row_bytes[3:0]
    logic [3:0] rb_nib;
    rb_lo  = 5'(d_q.box0_m1[3:0]) + 5'd1;
    rb_nib = 4'(rb_lo << esz);
    chk_a = 1'b0;
    chk_b = 1'b0;   // (two halves, each registered)
    if (d_q.rank_m1 > 3'd4 || x_wide_q || (i2c && d_q.rank_m1 < 3'd2) || d_q.ftype >= 4'd14 ||
        (d_q.tf32 && d_q.ftype != 4'd7 && d_q.ftype != 4'd8) || d_q.il == 2'd3 ||
        (x_b96_q && (x_span_q != 2'd0 || x_atom_q != 2'd0)) ||
        (x_span_q != 2'd3 && x_atom_q != 2'd0) || x_rsv_q ||
        (!i2c && d_q.ppc_m1 != 10'd0) ||
        (i2c && d_q.rank_m1 == 3'd4 && (d_q.boxr[15] || d_q.boxr[31])) ||
        x_swzrep_q != swz_repeat) begin
      chk_b = 1'b1;
    end
    if (d_q.addr[3:0] != 4'd0 || (d_q.il == 2'd2 && d_q.addr[4]) ||
        (il && d_q.rank_m1 < 3'd2) || (d_q.fill && !is_float)) begin
      chk_a = 1'b1;
    end
    // rules 12/13 (tile), 17/19 (im2col): row bytes % 16, row bytes <= span
    if (rb_nib != 4'd0 || (d_q.il == 2'd0 && d_q.swz != tma_pkg::SwzNone &&
                           (sb_half ? {1'b0, d_q.box0_m1[7:1]} : d_q.box0_m1) >= span_e)) begin
      chk_a = 1'b1;
    end
    // sub-byte encoder rules (sm_100; model encoder.cc): b4x16: dim[0] % 2, box[0] % 32;
    // b4x16_p64 / b6x16_p32: address and strides % 32, dim[0] % 128, box[0] (cpp) == 128, the
    // swizzles each allows (b6x16_p32 with a 128B swizzle: no interleave)
    if ((sb_half && (!f_dim_m1[0][0] || d_q.box0_m1[4:0] != 5'h1F)) ||
        (sb_pk && (d_q.addr[4] || f_dim_m1[0][6:0] != 7'h7F || d_q.box0_m1 != 8'd127 ||
                   !(d_q.swz == tma_pkg::SwzNone || d_q.swz == tma_pkg::Swz128B ||
                     d_q.swz == tma_pkg::Swz128BA32 ||
                     (d_q.ftype == 4'd13 && d_q.swz == tma_pkg::Swz128BA64)) ||
                   (d_q.fl_g12 && il && d_q.swz != tma_pkg::SwzNone)))) begin
      chk_a = 1'b1;
    end
    for (int i = 0; i < MaxDims - 1; i++) begin
      if (d_q.il == 2'd2 && f_stride[i][0]) chk_a = 1'b1;
      if (sb_pk && f_stride[i][0]) chk_a = 1'b1;
    end
    // dim + upper + 1 as one carry chain: {a, 1} + {b, 1} = 2 (a + b + 1)
    for (int k = 0; k < MaxDims - 2; k++) begin
      far_s[k]   = {(il ? f_dim_m1[k] : f_dim_m1[k+1]), 1'b1} + {f_upper[k][31:0], 1'b1};
      far32_d[k] = far_s[k][32:1];
    end
    for (int i = 0; i < MaxDims; i++) begin
      bx_d[i] = {1'b0, f_box_m1[i]} + 9'd1;
      rc_d[i] = recip(f_es_m1[i]);
      rq_d[i] = 21'(bx_q[i]) * 21'(rc_q[i]);
    end
    // cycle 2: rule 16 (bounding box not empty: dim + upper > lower, 32-bit); cycle 2: the
    // factors
    for (int k = 0; k < MaxDims - 2; k++) begin
      chk_r16[k] = i2c && rk_lt_q[k+2] && signed'(far32_q[k]) <= signed'(lower_q[k][31:0]);
    end
    szero_d = 1'b0;
    for (int i = 0; i < MaxDims; i++) begin
      fq_d[i] = 11'd1;
      if (!i2c && rk_lt_q[i]) begin
        fq_d[i] = {2'b00, rq_q[i][20:12]};
        if (rq_q[i][20:12] == 9'd0) szero_d = 1'b1;
      end
    end
    if (i2c) begin
      fq_d[0] = 11'(d_q.box0_m1) + 11'd1;    // cpp
      fq_d[1] = 11'd1 << esz;                // E
      fq_d[2] = 11'(d_q.ppc_m1) + 11'd1;     // ppc
    end
    sfe_d = !i2c;
    // cycle 3..6: E x f0 .. f4 (im2col: cpp x E x ppc), capped above 233472
    pa_d    = 17'(fq_q[0]) * 17'(fq_q[1]);
    pb_d    = 17'(fq_q[2]) * 17'(fq_q[3]);
    pc_d    = sfe_q ? 12'(fq_q[4]) << esz : 12'(fq_q[4]);
    pab_d   = 34'(pa_q) * 34'(pb_q);
    sover_d = (pab_q > (sb_half ? 34'd466944 : 34'd233472));
    pabc_d  = pab_q[18:0];
    tot_d   = tmp_q + {tmh_q, 18'd0};
    unique case (kc_q)
      4'd2:    begin st_s_d = d_q.wstr[0]; st_e_d = d_q.wes[0]; end
      4'd3:    begin st_s_d = d_q.wstr[1]; st_e_d = d_q.wes[1]; end
      4'd4:    begin st_s_d = d_q.wstr[2]; st_e_d = d_q.wes[2]; end
      default: begin st_s_d = d_q.wstr[3]; st_e_d = d_q.wes[3]; end
    endcase
    begin : blk_step
      logic [38:0] sv;
      logic [2:0]  em1;
      sv  = 39'(st_s_q);
      em1 = st_e_q;
      st_c_d = 1'b0;
      st_b_d = '0;
      unique case (em1)
        3'd0: st_a_d = sv;
        3'd1: st_a_d = sv << 1;
        3'd2: begin st_a_d = sv << 1; st_b_d = sv; end
        3'd3: st_a_d = sv << 2;
        3'd4: begin st_a_d = sv << 2; st_b_d = sv; end
        3'd5: begin st_a_d = sv << 2; st_b_d = sv << 1; end
        3'd6: begin st_a_d = sv << 3; st_b_d = ~sv; st_c_d = 1'b1; end
        default: st_a_d = sv << 3;
      endcase
    end
    st_sum = {st_a_q, 1'b1} + {st_b_q, st_c_q};
    // b4x16: the field is ceil(nibbles / 2)
    bb_ok   = sb_half ? (33'(tot_q) == {x_boxbytes_q, 1'b0} || 33'(tot_q) == {x_bbm1_q, 1'b1}) :
                        (32'(tot_q) == x_boxbytes_q);
    size_bad = szero_q ? x_bbnz_q : (sover_q || tot_big_q || !bb_ok_q);
  end

  // ---- W1 / W2: walker dims, bounds, clamps, address start, instruction checks ----
  logic [35:0] v_str    [MaxDims];     // Chk cycle 1: stride of walker dim d (the view)
  // Per command, from d_q's walker dims: the tensor coordinate of walker dim d (registered
  // every cycle: valid from W1B) and its flags (W1), the same for the interleave fixed dim
  // rank-2. Flags (registered from cmd_i in Idle, per tensor dim): {c[31:16] all sign,
  // c[31:17] all sign (small), its pieces that are not zero (anz, see snzof)}.
  logic [3:0]  cf_d [MaxDims];
  logic [3:0]  cf_q [MaxDims];
  logic [31:0] crd_d [MaxDims];
  logic [31:0] crd_q [MaxDims];
  logic [3:0]  crf [MaxDims];          // (flags: W1, into tmask / tsmall)
  logic [31:0] fxc_d, fxc_q;
  logic [3:0]  fxf;
  logic [33:0] w1_crd   [MaxDims];     // crd_q sign-extended
  logic [33:0] sfar_d   [MaxDims];     // spatial: dim - 1 + upper (W1; W2 adds the offset)
  logic [33:0] sfar_q   [MaxDims];
  logic [5:0]  w1_mask  [NumSlots];    // partial products of each Mac slot (may be zero)
  logic [NumSlots*6-1:0] tmask_d, tmask_q;
  logic [NumSlots-1:0] tsmall_d, tsmall_q;   // the slot's operand is in [-2^17, 2^17): one piece
  logic [3:0]  spat_d, spat_q;         // walker dim d-1 is spatial (restarts at its corner)
  logic [33:0] fix_a;                 // interleave: coordinate of the fixed dim rank-2 ...
  logic [35:0] fix_s;                  // ... and its stride
  logic [35:0] nc0_d, nc0_q;           // -c0
  logic [35:0] hdiff_d, hdiff_q;       // dim[0] - 1 - c0
  logic [8:0]  box0_q;                 // box[0] (valid from W1B)
  logic        lo_big, hi_big;         // W1B: -c0 > box[0] - 1, dim[0] - 1 - c0 >= box[0] - 1
  logic [8:0]  el_lo, el_de;
  logic [8:0]  el_lo_q, el_de_q;       // W1B: the row's in-bounds elements [el_lo, el_de)
  logic        gc_d, gc_q;             // carry of the low half of gaddr
  logic        foob_d, foob_q;         // interleave: the fixed dim is out of bounds
  logic [3:0]  ipre_d, ipre_q;         // instruction error before F4
  logic [10:0] iflag_d, iflag_q;       // W1: the instruction checks' conditions
  logic [8:0]  f4v_d, f4v_q;           // W1B: the F4 compares (offset, lower, upper) x 3
  logic        f4_d;                   // W2: F4 (im2col offsets, start pixel in the corners)
  logic [3:0]  ierr_q;                 // the instruction error, registered in W2 (for Mac)
  logic        mabort_q;               // ... or a prefetch: Mac ends in a marker
  logic [31:0] drm2_q;                 // d_rm2 registered (W1B)
  logic [15:0] dst_mask;
  logic signed [34:0] c0;
  logic [63:0] c0s;                    // c0 in bytes (interleave: chunks x C)
  logic [37:0] c0s_q;                  // its low 38 bits (the rest is sign), from W1
  logic [37:0] c0t_q;                  // 3 c0 / 4 (b6x16_p32), registered from cmd_q: its add
                                       // ends in a flop, not in c0s_q's select (valid from W1)
  logic [2:0]  rm2;                    // rank - 2: the dim an interleaved map does not walk
  logic [1:0]  rm3;                    // rank - 3: index of its stride
  logic [31:0] d_rm2;
  logic        mode_ok, is_load;
  logic [11:0] row_bytes;
  logic [11:0] rowb_d, rowb_q;         // the job's row bytes and pitch, registered from d_q
  logic [11:0] pitch_d, pitch_q;       // (d_q is stable from W1 on: valid in W1B)
  logic [35:0] chunk16;                // interleave chunk in units of 16 bytes

  assign dst_mask = cmd_q.multicast ? cmd_q.cta_mask : (16'd1 << cmd_q.dst_cta);
  assign c0       = 35'(signed'(cmd_q.coords.v[0]));
  assign rm2      = d_q.rank_m1 - 3'd1;
  assign rm3      = 2'(d_q.rank_m1 - 3'd2);
  always_comb begin : proc_drm2   // (one-hot select from the decoded flags)
    d_rm2 = '0;
    for (int i = 0; i < MaxDims; i++) if (d_q.fl_fx[i]) d_rm2 = d_rm2 | f_dim_m1[i];
  end
  assign is_load  = (cmd_q.op == tma_pkg::OpLoad);
  assign mode_ok  = (cmd_q.mode == 3'd0 || cmd_q.mode == 3'd1 || cmd_q.mode == 3'd2 ||
                     cmd_q.mode == 3'd3 || cmd_q.mode == 3'd4);   // loads and prefetch
  assign row_bytes = (12'({4'd0, d_q.box0_m1} + 12'd1) << esz) >> sb_half;
  assign chunk16   = d_q.fl_il2 ? 36'd2 : 36'd1;
  assign rowb_d    = il ? 12'(chunk16) << 4 : row_bytes;
  assign pitch_d   = (il || d_q.swz == tma_pkg::SwzNone) ? rowb_d : 12'(span);

  always_comb begin : proc_c0s
    // (global bytes; one-hot mode, see fl_c0m)
    c0s = '0;
    for (int k = 0; k < 6; k++) if (d_q.fl_c0m[k]) c0s = c0s | (64'(c0) << k);
    if (d_q.fl_c0m[6]) c0s = c0s | 64'(signed'(64'(c0)) >>> 1);
    if (d_q.fl_c0m[7]) c0s = c0s | 64'(signed'(c0t_q));
  end
  logic [37:0] c0t_d;
  assign c0t_d = 38'((signed'(64'(c0)) >>> 1) + (signed'(64'(c0)) >>> 2));
  always_ff @(posedge clk_i) begin : proc_c0t
    c0t_q <= c0t_d;
  end
  `TMA_ASSERT(C0ThreeQuarters_A, state_q[IW1] |-> c0t_q == c0t_d)

  // Partial products of a 34-bit signed operand a and a 36-bit stride s: bit 3*ai + sj is
  // a piece ai (0: a[16:0], 1: a[33:17] signed) times s piece sj (s[16:0], s[33:17], s[35:34]).
  // A small operand (sm: a in [-2^17, 2^17)) is one signed piece a[17:0] (bit 3*0 + sj).
  // snz: the pieces of s that are not zero (stored with the map), anz: those of a.
  function automatic logic [2:0] snzof(input logic [35:0] s);
    snzof = {s[35:34] != 2'd0, s[33:17] != 17'd0, s[16:0] != 17'd0};
  endfunction
  function automatic logic [5:0] pmaskz(input logic [1:0] anz, input logic [2:0] snz);
    pmaskz = {anz[1] ? snz : 3'd0, anz[0] ? snz : 3'd0};
  endfunction
  function automatic logic [3:0] cflags(input logic [31:0] c);
    logic sm16, sm17;
    sm16   = c[31:16] == 16'd0 || c[31:16] == '1;
    sm17   = c[31:17] == 15'd0 || c[31:17] == '1;
    cflags = {sm16, sm17, sm17 ? {1'b0, c[17:0] != 18'd0} : {c[31:17] != 15'd0, c[16:0] != 17'd0}};
  endfunction

  // The per-command coordinate selection (registered every cycle; d_q and cmd_q are stable
  // from W1 to the end of Mac).
  always_comb begin : proc_crd
    logic [2:0] td;
    for (int i = 0; i < MaxDims; i++) cf_d[i] = cflags(cmd_i.coords.v[i]);
    crd_d[0] = '0;
    crf[0]   = '0;
    for (int d = 1; d < MaxDims; d++) begin
      td = d_q.wtd[d-1];
      crd_d[d] = cmd_q.coords.v[td];
      crf[d]   = cf_q[td];
    end
    fxc_d = '0;
    fxf   = '0;
    for (int i = 0; i < MaxDims; i++) begin
      if (d_q.fl_fx[i]) begin
        fxc_d = fxc_d | cmd_q.coords.v[i];
        fxf   = fxf | cf_q[i];
      end
    end
  end
  assign fix_a = 34'(signed'(fxc_q));
  assign fix_s = d_q.fixs;

  always_comb begin : proc_w1
    logic [2:0]  kd, td;
    logic [31:0] sdim;
    for (int d = 0; d < MaxDims; d++) begin
      v_str[d]  = '0;
      w1_crd[d] = 34'(signed'(crd_q[d]));
      sfar_d[d] = '0;
    end
    for (int s = 0; s < NumSlots; s++) w1_mask[s] = '0;
    tsmall_d = '0;
    for (int d = 1; d < MaxDims; d++) begin
      kd  = d_q.wkind[d-1];
      td  = d_q.wtd[d-1];
      if (kd != KNone) v_str[d] = (td == 3'd0) ? chunk16 : f_stride[2'(td - 3'd1)];
      // spatial dims (gated by spat_q where used): tensor dim il ? d-1 : d
      sdim = il ? f_dim_m1[d-1] : f_dim_m1[d];
      if (d < MaxDims - 1) sfar_d[d] = 34'(sdim) + f_upper[d-1];
      // astart: position x stride (the chunk dim of an interleaved map starts at 0)
      // (the operands are read from the job register from W2 on). A spatial
      // position is the coordinate plus an offset < 2^16: small when the coordinate is in
      // [-2^16, 2^16); its value may be zero only after the offset: both pieces then.
      if (kd == KSpatial) begin
        tsmall_d[d-1] = crf[d][3];
        w1_mask[d-1]  = pmaskz({!crf[d][3], 1'b1}, d_q.wsnz[d-1]);
      end else if (kd == KTile || kd == KN) begin
        tsmall_d[d-1] = crf[d][2];
        w1_mask[d-1]  = pmaskz(crf[d][1:0], d_q.wsnz[d-1]);
      end
      // alo: lower corner x stride (spatial dims): lower (16-bit signed) + offset is small
      if (kd == KSpatial) begin
        tsmall_d[4+d-1] = 1'b1;
        w1_mask[4+d-1]  = pmaskz(2'b01, d_q.wsnz[d-1]);
      end
      // (step: es x stride, stored with the map)
      spat_d[d-1] = (kd == KSpatial);
    end
    tsmall_d[8] = fxf[2];
    if (il) w1_mask[8] = pmaskz(fxf[1:0], d_q.fixsnz);
    for (int s = 0; s < NumSlots; s++) begin
      tmask_d[6*s +: 6] = w1_mask[s];
    end
    nc0_d   = 36'sd0 - 36'(c0);
    hdiff_d = 36'(f_dim_m1[0]) - 36'(c0);
    // foob: W1B (fix_a is c_rm2 sign-extended)
    foob_d  = il && (fix_a[33] || fix_a[31:0] > drm2_q);
    // W1B: in-bounds elements [lo_el, hi_el) of a row: lo_el = clamp(-c0, 0, box[0]),
    // hi_el = clamp(dim[0] - c0, 0, box[0]); hi_el > lo_el unless both clamp to 0 or both to
    // box[0] (one compare each, then the clamps; el_de: the end, hi_el or lo_el)
    lo_big = !nc0_q[35] && (nc0_q[34:8] != '0 || nc0_q[7:0] > d_q.box0_m1);
    hi_big = !hdiff_q[35] && (hdiff_q[34:8] != '0 || hdiff_q[7:0] >= d_q.box0_m1);
    el_lo  = nc0_q[35] ? 9'd0 : lo_big ? box0_q : nc0_q[8:0];
    el_de  = (hdiff_q[35] || lo_big) ? el_lo :
             hi_big ? box0_q : hdiff_q[8:0] + 9'd1;
    // Instruction checks (model CheckInstruction order) up to F1: the conditions in W1, their
    // priority in W1B.
    iflag_d[0]  = !mode_ok;
    iflag_d[1]  = cmd_q.mode >= 3'd2;   // gather4, im2col::w*: sm_100 only
    iflag_d[2]  = cmd_q.cta_group == 2'd3 || (cmd_q.cta_group != 2'd0 && !is_load);
    iflag_d[3]  = cmd_q.cta_group == 2'd2;
    iflag_d[4]  = {1'b0, cmd_q.dim} != rank || (cmd_q.mode == tma_pkg::ModeTile) == i2c;
    iflag_d[5]  = cmd_q.multicast && (!is_load ||
                  (NumCtas < 16 && (cmd_q.cta_mask >> NumCtas) != 16'd0));   // F6
    iflag_d[6]  = 32'(cmd_q.issuer) >= NumCtas ||
                  (is_load && !cmd_q.multicast && 32'(cmd_q.dst_cta) >= NumCtas);
    iflag_d[7]  = is_load && dst_mask == 16'd0;   // multicast to nobody: nothing would complete
    iflag_d[8]  = (sb_any && i2c) || (sb_pk && SubByte == 0);   // sub-byte: tile mode only
    iflag_d[9]  = is_load && (cmd_q.smem_addr[6:0] != 7'd0 || cmd_q.mbar_addr[2:0] != 3'd0);
    // F1 (interleave: dim 0 counts chunks); the sub-byte types also on c0's low bits
    // (c0s[3:0] != 0 is c0[3 - esz:0] != 0, b4x16 c0[4:1], b4x16_p64 / b6x16_p32 within c0[6:0])
    iflag_d[10] = !il && (c0[6:0] & sb_f1m) != 7'd0;
    ipre_d = tma_pkg::ErrNone;
    if (iflag_q[0]) begin
      ipre_d = tma_pkg::ErrInvalidInstr;
    end else if (iflag_q[1]) begin
      ipre_d = tma_pkg::ErrUnsupported;
    end else if (iflag_q[2]) begin
      ipre_d = tma_pkg::ErrInvalidInstr;
    end else if (iflag_q[3]) begin
      ipre_d = tma_pkg::ErrUnsupported;
    end else if (iflag_q[7:4] != 4'd0) begin
      ipre_d = tma_pkg::ErrInvalidInstr;
    end else if (iflag_q[8]) begin
      ipre_d = tma_pkg::ErrUnsupported;
    end else if (iflag_q[9]) begin
      ipre_d = tma_pkg::ErrMisaligned;
    end else if (iflag_q[10]) begin
      ipre_d = tma_pkg::ErrMisalignedCoord;
    end
    // F4 (spatial walker dims d = k + 1 of an im2col map): the offsets in range and the start
    // pixel (job_q.coord, the tensor coordinate from W1) inside [lower, dim - 1 + upper]: one
    // compare per flag in W1B, their OR in W2.
    for (int k = 0; k < MaxDims - 2; k++) begin
      f4v_d[k]     = (d_q.fl_r4 && cmd_q.im2col.v[k][15:8] != 8'd0) ||
                     (d_q.fl_r5 && cmd_q.im2col.v[k][15:5] != 11'd0);
      f4v_d[3 + k] = signed'(w1_crd[k+1]) < signed'(lower_q[k]);
      f4v_d[6 + k] = signed'(w1_crd[k+1]) > signed'(sfar_q[k+1]);
    end
    f4_d = 1'b0;
    for (int k = 0; k < MaxDims - 2; k++) begin
      if (spat_q[k] && (f4v_q[k] || f4v_q[3 + k] || f4v_q[6 + k])) f4_d = 1'b1;
    end
  end

  // W2: F4 (start pixel not beyond the upper corner), then the instruction error; both are
  // registered at the end of W2, so Mac (which always follows W2) reads flops.
  logic [3:0] instr_err_w2;
  always_comb begin : proc_w2
    instr_err_w2 = ipre_q;
    if (ipre_q == tma_pkg::ErrNone && f4_d) begin
      instr_err_w2 = tma_pkg::ErrInvalidCoord;
    end
  end

  // ---- Job register ----
  tma_pkg::job_t job_d, job_q;
  logic          job_valid_d, job_valid_q;
  logic          job_free;
  logic          w1_go;                // see proc_state
  // W1 / Err write the job register only when it is empty: a registered condition (not
  // job_ready_i, which would fan out to every job bit's enable)
  assign job_free = !job_valid_q;

  // ---- Mac: the address products through one 18x18 multiplier (tma_addr_mac) ----
  tma_pkg::mac_req_t  mac_req;
  tma_pkg::mac_opnd_t mac_opnd;
  tma_pkg::mac_wb_t   mac_wb;
  logic               mac_req_ready, mac_wb_valid, mac_idle, mac_clr;
  logic               wb;
  logic [63:0]        wb_val;
  logic [3:0]         acc_t_q;
  always_comb begin : proc_mac_req
    for (int s = 0; s < NumSlots; s++) begin
      mac_req.pieces[s] = tmask_q[6*s +: 6];
      mac_req.one_piece[s] = tsmall_q[s];
    end
    mac_opnd.coord       = job_q.coord;
    mac_opnd.lo          = job_q.lo;
    mac_opnd.stride.v[0] = '0;
    for (int d = 1; d < MaxDims; d++) mac_opnd.stride.v[d] = d_q.wstr[d-1];
    mac_opnd.fix_coord   = fix_a;
    mac_opnd.fix_stride  = fix_s;
    mac_opnd.gaddr       = job_q.gaddr;
  end
  tma_addr_mac u_mac (
    .clk_i, .rst_ni,
    .clr_i       (mac_clr),
    .req_valid_i (w1b_go),
    .req_ready_o (mac_req_ready),
    .req_i       (mac_req),
    .opnd_i      (mac_opnd),
    .wb_valid_o  (mac_wb_valid),
    .wb_o        (mac_wb),
    .idle_o      (mac_idle)
  );
  assign mac_clr = w1_go || (state_q[IMac] && mabort_q);
  assign wb      = mac_wb_valid;
  assign wb_val  = mac_wb.value;
  assign acc_t_q = mac_wb.slot;


  // ---- Fetch decode: descriptor chunk k is chunk (k + chunk_off) % NumChunks of beat
  // (k + chunk_off) / NumChunks. ----
  localparam int unsigned ChunkLog2 = SizeLog2 - 4;
  logic [127:0] dchunk [8];   // descriptor chunk k as it sits in the beat on r_data_i
  for (genvar k = 0; k < 8; k++) begin : gen_dchunk
    logic [3:0] kch;   // its chunk in the beat: (k + chunk_off) % NumChunks
    assign kch       = (4'(k) + {1'b0, chunk_off}) & 4'(NumChunks - 1);
    assign dchunk[k] = r_data_i[32'(kch) * 128 +: 128];
  end

  // ---- FSM ----
  // Next state, one equation per state flop (the actions are in proc_fsm).
  always_comb begin : proc_next
    logic acc, bad_i, hit, r_end, r_bad, mac_end;
    acc     = cmd_valid_i && state_q[IIdle] && m_ok_q;
    bad_i   = cmd_i.op == tma_pkg::OpStore || cmd_i.op == tma_pkg::OpReduce ||
              cmd_i.desc_addr[3:0] != 4'd0;
    hit     = c_hit != '0;   // (a map invalidated in this cycle misses)
    r_end   = state_q[IFetch] && r_valid_i && r_lastb_q;
    r_bad   = r_err_i || err_q != tma_pkg::ErrNone;
    mac_end = mabort_q || mac_idle;
    state_d = StIdle;   // (every bit is assigned below)
    state_d[IIdle]  = (state_q[IIdle] && !acc) || (state_q[IMac] && mac_end) ||
                      (state_q[IErr] && job_free);
    state_d[IRead]  = acc && !bad_i && hit;
    i_fetch         = acc && !bad_i && !hit;
    state_d[IFetch] = i_fetch || (state_q[IFetch] && !r_end);
    state_d[IChk]   = (r_end && !r_bad) || (state_q[IChk] && !chk8_q);
    state_d[IW1]    = state_q[IRead] || (state_q[IChk] && chk8_q) ||
                      (state_q[IW1] && !d_q.bad && !w1_go);
    state_d[IW1B]   = state_q[IW1] && w1_go;   // (w1_go: the map is good)
    state_d[IW2]    = state_q[IW1B];
    state_d[IMac]   = state_q[IW2] || (state_q[IMac] && !mac_end);
    state_d[IErr]   = (acc && bad_i) || (r_end && r_bad) || (state_q[IW1] && d_q.bad) ||
                      (state_q[IErr] && !job_free);
  end

  logic [32:0] ghi;                    // W2: {gaddr[63:32], 1}
  always_comb begin : proc_fsm
    logic [3:0]   kpos;
    logic [127:0] ch, rm;
    logic [2:0]   kd;
    logic [33:0]  off;
    logic [32:0]  glo;
    cmd_d    = cmd_q;
    d_clr    = 1'b0;
    err_d    = err_q;
    ar_cnt_d = ar_cnt_q;
    r_cnt_d  = r_cnt_q;
    stale_d  = stale_q || desc_inval_i;
    kc_d     = kc_q;
    hidx_d   = hidx_q;
    x_span_d = x_span_q;
    x_atom_d = x_atom_q;
    x_b96_d  = x_b96_q;
    x_wide_d = x_wide_q;
    x_rsv_d  = x_rsv_q || (rsv_q != '0);
    rsv_d    = '0;
    x_boxbytes_d = x_boxbytes_q;
    x_swzrep_d   = x_swzrep_q;
    c_fill   = 1'b0;
    job_d    = job_q;
    job_valid_d = job_valid_q && !job_ready_i;
    gc_d      = gc_q;
    kpos = '0;
    ch   = '0;
    rm   = '0;
    kd   = '0;
    off  = '0;
    glo   = '0;
    ghi   = '0;
    cmd_ready_o = 1'b0;

    (* parallel_case *) case (1'b1)   // (one-hot; not `unique`: random at time 0)
      state_q[IIdle]: cmd_ready_o = m_ok_q;   // intake below (the tag compares hold)
      state_q[IRead]: ;   // (proc_d loads the cache entry)
      state_q[IFetch]: begin
        if (ar_valid_o && ar_ready_i) ar_cnt_d = ar_cnt_q + 1'b1;
        if (r_valid_i) begin
          r_cnt_d = r_cnt_q + 1'b1;
          if (r_err_i) err_d = tma_pkg::ErrBusError;
          if (r_lastb_q) begin
            kc_d    = '0;
          end
        end
        // The check-only fields of beat r_cnt_q load in every cycle that waits for it (as d_q's
        // fields do, proc_d); the sticky reserved-bit flag takes valid beats only.
        begin
          for (int k = 0; k < 8; k++) begin
            kpos = 4'(k) + {1'b0, chunk_off};
            if ((kpos >> ChunkLog2) == r_cnt_q) begin
              ch  = dchunk[k];
              if (k == 0) begin
                x_span_d    = ch[78:77];
                x_atom_d    = ch[84:83];
                x_wide_d    = ch[86];
                x_b96_d     = ch[88];
              end else if (k == 4) begin
                x_boxbytes_d = ch[31:0];
                x_swzrep_d   = ch[95:64];
              end
              rm = ch & rsv_mask(k);
              for (int q = 0; q < 4; q++) rsv_d[4 * k + q] = r_valid_i && (rm[32 * q +: 32] != '0);
            end
          end
        end
      end
      state_q[IChk]: begin
        kc_d = kc_q + 1'b1;   // (proc_d writes the derived fields of d_q and its verdict)
        if (chk8_q) begin   // (kc 8)
          c_fill  = !stale_q && !desc_inval_i;
        end
      end
      state_q[IW1]: begin
        if (d_q.bad) begin
          err_d   = tma_pkg::ErrInvalidDescriptor;
        end else if (w1_go) begin
          // (coord, lo, hi, gaddr, row bytes, pitch, head, dend: W1B and W2 write them all)
          job_d   = '0;
          job_d.coord     = job_q.coord;
          job_d.lo        = job_q.lo;
          job_d.hi        = job_q.hi;
          job_d.gaddr     = job_q.gaddr;
          job_d.row_bytes = job_q.row_bytes;
          job_d.pitch     = job_q.pitch;
          job_d.head      = job_q.head;
          job_d.dend      = job_q.dend;
          job_d.i2c      = i2c;
          job_d.nrows_m1 = d_q.ppc_m1;
          job_d.smem_addr = cmd_q.smem_addr;
          job_d.fill_nan  = d_q.fill;
          job_d.tf32      = d_q.tf32;
          job_d.swz       = d_q.swz;
          job_d.pk        = il ? tma_pkg::PkNone : sb_pkc;
          job_d.cpl.kind      = tma_pkg::CplTx;
          job_d.cpl.cta_mask  = dst_mask;
          job_d.cpl.cta       = cmd_q.issuer;
          job_d.cpl.mbar_addr = cmd_q.mbar_addr;
          job_d.cpl.tag       = cmd_q.tag;
          job_d.es.v[0] = 4'd1;
          for (int d = 1; d < MaxDims; d++) begin   // the walker view (zero / es 1 when none)
            job_d.step.v[d]   = {21'd0, d_q.wstep[d-1], 4'd0};
            job_d.dim_m1.v[d] = d_q.wdim[d-1];
            job_d.es.v[d]     = {1'b0, d_q.wes[d-1]} + 4'd1;
          end
        end
      end
      state_q[IW1B]: begin
        job_d.row_bytes = rowb_q;
        job_d.pitch     = pitch_q;
        glo = {1'b0, d_q.addr[31:0]} + {1'b0, c0s_q[31:0]};
        gc_d = glo[32];
        job_d.gaddr[31:0] = glo[31:0];
        // coord: the tensor coordinate (spatial: plus the im2col offset); lo: the coordinate
        // (spatial: the lower corner plus the offset); hi: the coordinate plus the box (spatial:
        // dim - 1 + upper + offset; N: no wrap)
        job_d.coord.v[0] = '0;
        job_d.lo.v[0]    = '0;
        job_d.hi.v[0]    = '0;
        for (int d = 1; d < MaxDims; d++) begin
          kd  = d_q.wkind[d-1];
          off = (d < MaxDims - 1) ? 34'(cmd_q.im2col.v[2'(d-1)]) : 34'd0;
          job_d.coord.v[d] = '0;
          job_d.lo.v[d]    = '0;
          job_d.hi.v[d]    = '0;
          unique case (kd)
            KTile, KChunk: begin
              job_d.coord.v[d] = w1_crd[d];
              job_d.lo.v[d]    = w1_crd[d];
              job_d.hi.v[d]    = w1_crd[d] + 34'(d_q.wbox[d-1]);
            end
            KSpatial: begin
              job_d.coord.v[d] = w1_crd[d] + off;
              if (d < MaxDims - 1) job_d.lo.v[d] = lower_q[d-1] + off;
              if (d < MaxDims - 1) job_d.hi.v[d] = sfar_q[d] + off;
            end
            KN: begin
              job_d.coord.v[d] = w1_crd[d];
              job_d.lo.v[d]    = w1_crd[d];
              job_d.hi.v[d]    = {1'b0, {33{1'b1}}};
            end
            default: ;
          endcase
        end
      end
      state_q[IW2]: begin
        // addr_hi + c0s_hi + carry as one chain: {a, 1} + {b, c} = 2 (a + b) + 1 + c
        ghi = {d_q.addr[63:32], 1'b1} + {{26{c0s_q[37]}}, c0s_q[37:32], gc_q};
        job_d.gaddr[63:32] = ghi[32:1];
        if (!il) begin
          // (the element range was registered in W1B)
          job_d.head = (12'(el_lo_q) << esz) >> sb_half;
          job_d.dend = (12'(el_de_q) << esz) >> sb_half;
        end else begin
          job_d.head = '0;
          job_d.dend = foob_q ? 12'd0 : 12'(chunk16) << 4;
        end
      end
      state_q[IMac]: begin
        if (ierr_q != tma_pkg::ErrNone) begin
          job_d.marker   = 1'b1;
          job_d.cpl.kind = tma_pkg::CplError;
          job_d.cpl.err  = ierr_q;
          job_valid_d    = 1'b1;
        end else if (cmd_q.op == tma_pkg::OpPrefetch) begin
          job_d.marker   = 1'b1;
          job_d.cpl.kind = tma_pkg::CplDone;
          job_valid_d    = 1'b1;
        end else if (mac_idle) begin
          job_valid_d = 1'b1;     // the last write-back (if any) happens in this cycle
        end
      end
      state_q[IErr]: begin
        if (job_free) begin
          job_d.marker        = 1'b1;
          job_d.cpl.kind      = tma_pkg::CplError;
          job_d.cpl.err       = err_q;
          job_d.cpl.cta_mask  = dst_mask;
          job_d.cpl.cta       = cmd_q.issuer;
          job_d.cpl.mbar_addr = cmd_q.mbar_addr;
          job_d.cpl.bytes     = '0;
          job_d.cpl.tag       = cmd_q.tag;
          job_valid_d         = 1'b1;
        end
      end
      default: ;
    endcase

    // Intake (Idle), with the cache lookup: a map invalidated in this cycle misses. (Taking the
    // next command in a job's last cycle saves a cycle per command but puts the Mac's end on
    // the 377-bit cmd_q enable: 86 MHz at -6.)
    if (state_q[IIdle]) cmd_d = cmd_i;   // (a cycle in Idle without a command: unused)
    if (cmd_valid_i && cmd_ready_o) begin
      err_d = tma_pkg::ErrNone;
      if (cmd_i.op == tma_pkg::OpStore || cmd_i.op == tma_pkg::OpReduce) begin
        err_d   = tma_pkg::ErrUnsupported;
      end else if (cmd_i.desc_addr[3:0] != 4'd0) begin
        err_d   = tma_pkg::ErrInvalidInstr;
      end else begin
        ar_cnt_d = '0;
        r_cnt_d  = '0;
        stale_d  = 1'b0;
        d_clr    = 1'b1;
        x_rsv_d  = 1'b0;
        for (int e = 0; e < CacheEntries; e++) begin
          if (c_hit[e]) hidx_d = CacheIdxW'(e);
        end
      end
    end

    // Mac write-back (slots 0..3 also give alo of a dim that does not restart at a corner).
    if (wb) begin
      for (int d = 1; d < MaxDims; d++) begin
        if (32'(acc_t_q) == d - 1) begin
          job_d.astart.v[d] = wb_val;
          if (!spat_q[d-1] && d < MaxDims - 1) job_d.alo.v[d] = wb_val;
        end
        if (32'(acc_t_q) == d + 3 && d < MaxDims - 1) job_d.alo.v[d] = wb_val;
      end
      if (acc_t_q == 4'd8) job_d.gaddr = wb_val;
    end
  end

  // ---- Decoded map d_q: its next value and the registered selects of its loads ----
  // Every load of d_q (the cache entry in Read, a descriptor chunk's fields while its beat is
  // awaited in Fetch, the derived fields and the verdict in Chk cycle j) is selected by a flop
  // one-hot flag formed a cycle ahead from the next state, counters and command, held in
  // several kept copies (tma_dup_reg), each copy selecting a part of d_q. d_q's 1,019 bits
  // spread over the die next to their consumers; with the selects decoded from state_q and
  // kc_q one decode net crossed that spread to every bit's enable and multiplexer (the
  // routed -6 critical path at 4b565bf: d_q, 9.56 ns, 85 % routing).
  localparam int unsigned NumRd = 8;                        // Read: slices of d_q
  localparam int unsigned RdW   = (EntW + NumRd - 1) / NumRd;
  logic [NumRd-1:0] ds_rd;           // Read (slice g of the cache entry: copy g)
  logic [1:0]       ds_f [4];        // Fetch: chunk k's beat is awaited (two copies each)
  logic             ds_c0, ds_c2, ds_c3;   // Chk cycles 0, 2, 3
  logic [4:0]       ds_c1;           // Chk cycle 1 (the walker view: five copies)
  logic [3:0]       ds_st;           // Chk cycles 4..7 (wstep[j])

  tma_dup_reg #(.Copies (NumRd)) u_ds_rd (
    .clk_i, .rst_ni, .d_i (state_d[IRead]), .q_o (ds_rd)
  );
  // The next values are written out per flag (not as state_d / kc_d / r_cnt_d decodes) so the
  // descriptor beat's valid, which arrives late from the R channel register, is the last
  // input of one LUT (session 10: as decodes it went through five LUT levels, the routed -6
  // worst path of f2d160f's seed 1, 9.81 ns). Fetch: a command that misses starts at beat 0;
  // while fetching, a beat moves the wait to the next beat (none after the last). Chk cycle 0
  // follows the last beat (no error); cycle j > 0 follows cycle j - 1 (Chk ends after 8).
  logic chk_nx;   // Chk continues next cycle (kc_q + 1 is the next Chk cycle)
  assign chk_nx = state_q[IChk] && !chk8_q;
  for (genvar k = 0; k < 4; k++) begin : gen_ds_f
    logic [3:0] kpos_i, kpos_c;   // chunk k's beat: of cmd_i (intake) / of cmd_q (fetching)
    logic       f_i, f_v, f_nv;
    assign kpos_i = 4'(k) + {1'b0, chunk_off_d};
    assign kpos_c = 4'(k) + {1'b0, chunk_off};
    assign f_i    = i_fetch && (kpos_i >> ChunkLog2) == 4'd0;
    assign f_v    = !r_lastb_q && (kpos_c >> ChunkLog2) == r_cnt_q + 4'd1;
    assign f_nv   = (kpos_c >> ChunkLog2) == r_cnt_q;
    logic [1:0] f_k;   // (a wire: Verilator 5.006 fails on an array select in an assertion)
    tma_dup_reg #(.Copies (2)) u_ds_f (
      .clk_i, .rst_ni, .d_i (f_i || (state_q[IFetch] && (r_valid_i ? f_v : f_nv))),
      .q_o (f_k)
    );
    assign ds_f[k] = f_k;
    // The flag is its definition: chunk k's beat is the one awaited.
    `TMA_ASSERT(DSelFetch_A, f_k == {2{state_q[IFetch] && f_nv}})
  end
  tma_dup_reg #(.Copies (1)) u_ds_c0 (
    .clk_i, .rst_ni,
    .d_i (state_q[IFetch] && r_lastb_q && err_q == tma_pkg::ErrNone && r_valid_i && !r_err_i),
    .q_o (ds_c0)
  );
  tma_dup_reg #(.Copies (5)) u_ds_c1 (
    .clk_i, .rst_ni, .d_i (chk_nx && kc_q == 4'd0), .q_o (ds_c1)
  );
  tma_dup_reg #(.Copies (1)) u_ds_c2 (
    .clk_i, .rst_ni, .d_i (chk_nx && kc_q == 4'd1), .q_o (ds_c2)
  );
  tma_dup_reg #(.Copies (1)) u_ds_c3 (
    .clk_i, .rst_ni, .d_i (chk_nx && kc_q == 4'd2), .q_o (ds_c3)
  );
  for (genvar j = 0; j < 4; j++) begin : gen_ds_st
    tma_dup_reg #(.Copies (1)) u_ds_st (
      .clk_i, .rst_ni, .d_i (chk_nx && kc_q == 4'(j + 3)), .q_o (ds_st[j])
    );
  end

  always_comb begin : proc_d
    logic [127:0] ch [4];
    for (int k = 0; k < 4; k++) ch[k] = dchunk[k];
    d_d = d_q;
    // Read: the cache entry, slice by slice.
    for (int b = 0; b < EntW; b++) begin
      if (ds_rd[b / RdW]) d_d[b] = c_rd[b];
    end
    // Fetch: the fields of chunk k load in every cycle that waits for its beat, not only with
    // r_valid_i, so r_valid_i does not reach the enables of d_q: until the beat arrives they
    // hold don't-care data, which the beat overwrites (r_cnt_q advances only with it, and
    // nothing reads d_q before IChk).
    if (ds_f[0][0]) d_d.addr = ch[0][63:0];
    if (ds_f[0][1]) begin
      d_d.im2col  = ch[0][64];
      d_d.rank_m1 = ch[0][70:68];
      d_d.ftype   = ch[0][74:71];
      d_d.il      = ch[0][76:75];
      d_d.fill    = ch[0][79];
      d_d.tf32    = ch[0][80];
      if (ch[0][88]) d_d.swz = tma_pkg::Swz96B;
      else if (ch[0][78:77] == 2'd3) d_d.swz = 3'd3 + 3'(ch[0][84:83]);
      else d_d.swz = {1'b0, ch[0][78:77]};
      d_d.stride[0][31:0] = ch[0][127:96];
    end
    if (ds_f[1][0]) begin
      for (int i = 1; i < 3; i++) d_d.stride[i][31:0] = ch[1][32*(i-1) +: 32];
    end
    if (ds_f[1][1]) begin
      d_d.stride[3][31:0] = ch[1][95:64];
      for (int i = 0; i < 4; i++) d_d.stride[i][35:32] = ch[1][96 + 4*i +: 4];
    end
    if (ds_f[2][0]) begin
      for (int i = 0; i < 2; i++) d_d.dim_m1[i] = ch[2][32*i +: 32];
    end
    if (ds_f[2][1]) begin
      for (int i = 2; i < 4; i++) d_d.dim_m1[i] = ch[2][32*i +: 32];
    end
    if (ds_f[3][0]) begin
      d_d.dim_m1[4] = ch[3][31:0];
      for (int i = 0; i < 5; i++) d_d.es_m1[i] = ch[3][32 + 3*i +: 3];
    end
    if (ds_f[3][1]) begin
      d_d.box0_m1 = ch[3][63:56];
      d_d.boxr    = ch[3][95:64];
      d_d.ppc_m1  = ch[3][105:96];
    end
    // Chk cycle 0: the walker dims and the decoded flags of the map.
    if (ds_c0) begin
      d_d.wkind  = m_kind;
      d_d.wtd    = m_td;
      d_d.fl_il  = (d_q.il != 2'd0);
      d_d.fl_il2 = (d_q.il == 2'd2);
      d_d.fl_sbh = (d_q.ftype == 4'd11);
      d_d.fl_g8  = (d_q.ftype == 4'd12);
      d_d.fl_g12 = (d_q.ftype == 4'd13);
      d_d.fl_r3  = (d_q.rank_m1 == 3'd2);
      d_d.fl_r4  = (d_q.rank_m1 == 3'd3);
      d_d.fl_r5  = (d_q.rank_m1 == 3'd4);
      d_d.fl_fx  = 5'd1 << rm2;
      d_d.fl_esz = esz_c;
      // (c0s: the sub-byte types first, then interleave (im2col: zero), else E)
      d_d.fl_c0m = '0;
      if (d_q.ftype == 4'd11 || d_q.ftype == 4'd12) d_d.fl_c0m[6] = 1'b1;
      else if (d_q.ftype == 4'd13) d_d.fl_c0m[7] = 1'b1;
      else if (d_q.il != 2'd0) d_d.fl_c0m[{2'b10, d_q.il == 2'd2}] = !d_q.im2col;
      else d_d.fl_c0m[{1'b0, esz_c}] = 1'b1;
    end
    // Chk cycle 1: the walker view (from the walker dims); copies by field group.
    for (int d = 1; d < MaxDims; d++) begin
      if (ds_c1[(d < 3) ? 0 : 1]) begin
        d_d.wdim[d-1] = '0;
        if (d_q.wkind[d-1] != KNone) d_d.wdim[d-1] = f_dim_m1[d_q.wtd[d-1]];
      end
      if (ds_c1[0]) begin
        d_d.wes[d-1] = '0;
        if (d_q.wkind[d-1] != KNone) d_d.wes[d-1] = f_es_m1[d_q.wtd[d-1]];
      end
      if (ds_c1[2]) d_d.wbox[d-1] = f_box_m1[d_q.wtd[d-1]];
      if (ds_c1[(d < 3) ? 3 : 4]) d_d.wstr[d-1] = v_str[d];
    end
    if (ds_c1[2]) d_d.fixs = f_stride[rm3];
    // Chk cycle 2: the strides' pieces that are not zero.
    if (ds_c2) begin
      for (int d = 0; d < MaxDims - 1; d++) d_d.wsnz[d] = snzof(d_q.wstr[d]);
      d_d.fixsnz = snzof(d_q.fixs);
    end
    // Chk cycles 4..7: the address steps es x stride.
    for (int j = 0; j < 4; j++) begin
      if (ds_st[j]) d_d.wstep[j] = st_sum[39:1];
    end
    // The verdict: cleared at the intake of a command that may fetch, set by the checks (they
    // read the decoded flags: valid from cycle 1; cycle 8 takes rules 14 / 20 and the box-bytes
    // field, compares registered in cycle 7); a hit reads it with the entry (above).
    if (ds_c2 && (chk_a_q || chk_b_q)) d_d.bad = 1'b1;
    if (ds_c3 && chk_r16_q != '0) d_d.bad = 1'b1;
    if (chk8_q && size_bad) d_d.bad = 1'b1;
    if (d_clr) d_d.bad = 1'b0;
  end

  // The last walker dim is never spatial: its alo is its astart (no flops of its own).
  always_comb begin : proc_job_o
    job_o = job_q;
    job_o.alo.v[MaxDims-1] = job_q.astart.v[MaxDims-1];
  end
  assign job_valid_o = job_valid_q;

  // ---- Cache update ----
  always_comb begin : proc_cache
    c_next_d = c_next_q;
    for (int e = 0; e < CacheEntries; e++) c_valid_d[e] = desc_inval_i ? 1'b0 : c_valid_q[e];
    if (c_fill) begin
      c_valid_d[c_next_q] = 1'b1;
      c_next_d = (32'(c_next_q) == CacheEntries - 1) ? '0 : c_next_q + 1'b1;
    end
  end

  // The entry's data is written from d_q in the cycle after the fill (d_q then holds what d_d
  // held at the fill), so the write data comes from flops, not from the Chk-time logic that
  // computes d_d; the next read of the cache is at least two cycles later (W1 follows Chk).
  always_ff @(posedge clk_i) begin : proc_cache_ram
    if (c_wr_q) c_ent_q[c_wr_idx_q] <= d_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_cache_q
    if (!rst_ni) begin
      for (int e = 0; e < CacheEntries; e++) begin
        c_valid_q[e] <= 1'b0;
        c_addr_q[e]  <= '0;
      end
      c_next_q <= '0;
      c_wr_q     <= 1'b0;
      c_wr_idx_q <= '0;
    end else begin
      c_wr_q     <= c_fill;
      c_wr_idx_q <= c_next_q;
      for (int e = 0; e < CacheEntries; e++) c_valid_q[e] <= c_valid_d[e];
      if (c_fill) c_addr_q[c_next_q] <= cmd_q.desc_addr;
      c_next_q <= c_next_d;
    end
  end

  // W1 registers and the Mac slot list (loaded in W1 when the job register is free).
  // w1_go (W1 loads the job register: the map is good and the register is empty) comes from a
  // flop: it selects every job bit.
  logic w1b_go;
  logic w1_go_d, w1_go_q;
  logic w1b_q;
  // (the next state is W1 from Read, from the last Chk cycle, or W1 waiting for the job
  // register; written out so that the cone stays small)
  assign w1_go_d = !(job_valid_q && !job_ready_i) &&   // (job_valid_d in these states)
                   ((state_q[IRead] && !c_rd.bad) ||
                    (chk8_q && !d_q.bad && !size_bad) ||
                    (state_q[IW1] && !w1_go_q && !d_q.bad));
  assign w1_go   = w1_go_q;
  assign w1b_go = w1b_q;   // (W1 with w1_go is always followed by W1B)

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_state
    if (!rst_ni) begin
      state_q  <= StIdle;
      cmd_q    <= '0;
      d_q      <= '0;
      err_q    <= '0;
      ar_cnt_q <= '0;
      r_cnt_q  <= '0;
      stale_q  <= 1'b0;
      kc_q     <= '0;
      chk8_q   <= 1'b0;
      hidx_q   <= '0;
      x_span_q <= '0;
      x_atom_q <= '0;
      x_b96_q  <= 1'b0;
      x_wide_q <= 1'b0;
      x_rsv_q  <= 1'b0;
      rsv_q    <= '0;
      x_boxbytes_q <= '0;
      x_swzrep_q   <= '0;
      x_bbm1_q     <= '0;
      x_bbnz_q     <= 1'b0;
      for (int k = 0; k < MaxDims - 2; k++) far32_q[k] <= '0;
      for (int k = 0; k < MaxDims - 2; k++) lower_q[k] <= '0;
      rk_lt_q <= '0;
      for (int i = 0; i < MaxDims; i++) begin
        bx_q[i]   <= '0;
        rc_q[i]   <= '0;
        rq_q[i]   <= '0;
        fq_q[i]   <= '0;
        sfar_q[i] <= '0;
      end
      szero_q  <= 1'b0;
      sfe_q    <= 1'b0;
      pa_q     <= '0;
      pb_q     <= '0;
      pc_q     <= '0;
      pab_q    <= '0;
      sover_q  <= 1'b0;
      pabc_q   <= '0;
      tot_q    <= '0;
      tmp_q    <= '0;
      tmh_q    <= '0;
      bb_ok_q   <= 1'b0;
      tot_big_q <= 1'b0;
      tmask_q  <= '0;
      tsmall_q <= '0;
      spat_q   <= '0;
      fxc_q    <= '0;
      for (int i = 0; i < MaxDims; i++) begin
        cf_q[i]  <= '0;
        crd_q[i] <= '0;
      end
      nc0_q    <= '0;
      hdiff_q  <= '0;
      gc_q     <= 1'b0;
      foob_q   <= 1'b0;
      ipre_q   <= '0;
      iflag_q  <= '0;
      ierr_q   <= '0;
      mabort_q <= 1'b0;
      chk_a_q   <= 1'b0;
      chk_b_q   <= 1'b0;
      chk_r16_q <= '0;
      st_s_q    <= '0;
      st_e_q    <= '0;
      st_a_q    <= '0;
      st_b_q    <= '0;
      st_c_q    <= 1'b0;
      rowb_q    <= '0;
      pitch_q   <= '0;
      f4v_q     <= '0;
      drm2_q    <= '0;
      el_lo_q  <= '0;
      el_de_q  <= '0;
      box0_q   <= '0;
      c0s_q    <= '0;
      job_q    <= '0;
      job_valid_q <= 1'b0;
      w1_go_q  <= 1'b0;
      w1b_q    <= 1'b0;
    end else begin
      state_q  <= state_d;
      cmd_q    <= cmd_d;
      d_q      <= d_d;
      err_q    <= err_d;
      ar_cnt_q <= ar_cnt_d;
      r_cnt_q  <= r_cnt_d;
      stale_q  <= stale_d;
      kc_q     <= kc_d;
      chk8_q   <= state_q[IChk] && kc_q == 4'd7;
      hidx_q   <= hidx_d;
      x_span_q <= x_span_d;
      x_atom_q <= x_atom_d;
      x_b96_q  <= x_b96_d;
      x_wide_q <= x_wide_d;
      x_rsv_q  <= x_rsv_d;
      rsv_q    <= rsv_d;
      x_boxbytes_q <= x_boxbytes_d;
      x_swzrep_q   <= x_swzrep_d;
      x_bbm1_q     <= x_boxbytes_q - 32'd1;
      x_bbnz_q     <= x_boxbytes_q != 32'd0;
      for (int k = 0; k < MaxDims - 2; k++) far32_q[k] <= far32_d[k];
      for (int k = 0; k < MaxDims - 2; k++) lower_q[k] <= f_lower[k];
      for (int i = 0; i < MaxDims; i++) rk_lt_q[i] <= 4'(i) < rank;
      for (int i = 0; i < MaxDims; i++) begin
        bx_q[i] <= bx_d[i];
        rc_q[i] <= rc_d[i];
        rq_q[i] <= rq_d[i];
        fq_q[i] <= fq_d[i];
      end
      szero_q  <= szero_d;
      sfe_q    <= sfe_d;
      pa_q     <= pa_d;
      pb_q     <= pb_d;
      pc_q     <= pc_d;
      pab_q    <= pab_d;
      sover_q  <= sover_d;
      pabc_q   <= pabc_d;
      tot_q    <= tot_d;
      tmp_q    <= 30'(pabc_q[17:0]) * 30'(pc_q);
      tmh_q    <= pabc_q[18] ? pc_q : 12'd0;
      bb_ok_q   <= bb_ok;
      tot_big_q <= tot_q > (sb_half ? 30'd466944 : 30'd233472);
      // computed every cycle from d_q and cmd_q (stable from W1 on): valid from W1B
      spat_q   <= spat_d;
      nc0_q    <= nc0_d;
      hdiff_q  <= hdiff_d;
      iflag_q  <= iflag_d;
      for (int i = 0; i < MaxDims; i++) sfar_q[i] <= sfar_d[i];
      c0s_q    <= c0s[37:0];
      tmask_q  <= tmask_d;
      tsmall_q <= tsmall_d;
      // the per-command coordinates (valid from W1)
      if (state_q[IIdle]) begin
        for (int i = 0; i < MaxDims; i++) cf_q[i] <= cf_d[i];
      end
      for (int i = 0; i < MaxDims; i++) crd_q[i] <= crd_d[i];
      fxc_q <= fxc_d;
      if (w1b_go) begin
        foob_q   <= foob_d;
        ipre_q   <= ipre_d;
        el_lo_q  <= el_lo;
        el_de_q  <= el_de;
        gc_q     <= gc_d;
      end
      chk_a_q   <= chk_a;
      chk_b_q   <= chk_b;
      chk_r16_q <= chk_r16;
      st_s_q    <= st_s_d;
      st_e_q    <= st_e_d;
      st_a_q    <= st_a_d;
      st_b_q    <= st_b_d;
      st_c_q    <= st_c_d;
      rowb_q    <= rowb_d;
      box0_q    <= {1'b0, d_q.box0_m1} + 9'd1;
      pitch_q   <= pitch_d;
      f4v_q     <= f4v_d;
      drm2_q    <= d_rm2;
      if (state_q[IW2]) begin
        ierr_q   <= instr_err_w2;
        mabort_q <= instr_err_w2 != tma_pkg::ErrNone || cmd_q.op == tma_pkg::OpPrefetch;
      end
      job_q       <= job_d;
      job_valid_q <= job_valid_d;
      w1_go_q     <= w1_go_d;
      w1b_q       <= w1_go_q;
    end
  end
  `TMA_ASSERT_NEVER(CacheReadBeforeWrite_A, c_wr_q && (state_q == StRead) &&
                                           (hidx_q == c_wr_idx_q))
  `TMA_ASSERT(StateOneHot_A, $onehot(state_q))
  `TMA_ASSERT(FillThenW1_A, c_wr_q |-> state_q == StW1)
  // The reserved-bit flags of a fetch are folded into x_rsv_q before the next intake clears it.
  `TMA_ASSERT(RsvFlagsIdle_A, state_q[IIdle] |-> rsv_q == '0)
  `TMA_ASSERT(MacAbortFlag_A, state_q[IMac] |->
              mabort_q == (ierr_q != tma_pkg::ErrNone || cmd_q.op == tma_pkg::OpPrefetch))
  `TMA_ASSERT(LastBeatFlag_A, r_lastb_q == (r_cnt_q + 1'b1 == fetch_beats))
  `TMA_ASSERT(W1GoRegistered_A, w1_go == ((state_q == StW1) && !d_q.bad && !job_valid_q))

  assign busy_o = !state_q[IIdle] || job_valid_q;

  logic unused_bits;
  assign unused_bits = ^{cmd_q.redop, fxf[3], crf[0], v_str[0], sfar_d[0], sfar_q[0],
                         w1_crd[0],
                         sfar_q[MaxDims-1], mac_req_ready, rq_q[0][11:0], rq_q[1][11:0], rq_q[2][11:0],
                         rq_q[3][11:0], rq_q[4][11:0], c0s[63:32],
                         far_s[0][0], far_s[1][0], far_s[2][0], ghi[0],
                         st_sum[0]};

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_INIT(CacheEntriesLegal_A, CacheEntries >= 1 && CacheEntries <= 16)
  `TMA_ASSERT_INIT(NumCtasLegal_A, NumCtas >= 1 && NumCtas <= 16)
  `TMA_ASSERT_INIT(EntryWidth_A, EntW == $bits(ent_t))
`ifndef SYNTHESIS
  // The job is ~1900 bits: the stream check samples a 64-bit XOR fold of it (Verilator 5.006
  // emits uncompilable code for $past of a vector this wide).
  logic [63:0] job_sig;
  always_comb begin : proc_job_sig
    job_sig = '0;
    for (int i = 0; i < $bits(job_q); i += 64) job_sig = job_sig ^ 64'(job_q >> i);
  end
  `TMA_ASSERT_STABLE(JobHeld_A, job_valid_o, job_ready_i, job_sig)
`endif
  `TMA_ASSERT_STABLE(ArHeld_A, ar_valid_o, ar_ready_i, ar_o)
  `TMA_ASSERT_NEVER(UnexpectedDescBeat_A, r_valid_i && state_q != StFetch)
  `TMA_ASSERT_NEVER(MacOutsideJob_A, wb && state_q != StMac)
  // The registered load selects of d_q are their definitions (proc_d).
  `TMA_ASSERT(DSelRead_A, ds_rd == {NumRd{state_q[IRead]}})
  `TMA_ASSERT(DSelChk_A, ds_c0 == (state_q[IChk] && kc_q == 4'd0) &&
                         ds_c1 == {5{state_q[IChk] && kc_q == 4'd1}} &&
                         ds_c2 == (state_q[IChk] && kc_q == 4'd2) &&
                         ds_c3 == (state_q[IChk] && kc_q == 4'd3))
  for (genvar j = 0; j < 4; j++) begin : gen_ds_st_chk
    logic st_j;
    assign st_j = ds_st[j];
    `TMA_ASSERT(DSelStep_A, st_j == (state_q[IChk] && kc_q == 4'(j + 4)))
  end
  // (DSelFetch_A: in gen_ds_f)

endmodule
