// SPDX-License-Identifier: Apache-2.0
//
// tma_instr_check: the instruction checks of a command against its map (the model's
// CheckInstruction, in its order), over the job setup's three cycles W1, W1B, W2.
//
// The conditions are registered every cycle from the command and map registers (stable from
// W1 on: valid in W1B); W1B registers their priority (w1b_i) and one registered compare per
// F4 flag (the im2col offsets in range, the start pixel inside [lower, dim - 1 + upper] of
// each spatial dim, from the job setup's walk bounds); W2 (w2_i) registers the error class:
// the first failing check, F4 and F5 last. err_o / abort_o (the error, or a check-only
// prefetch, PrefetchReads = 0: the job ends in a marker) hold from the cycle after W2 until the
// next W2.
//
// arch_i (tma_pkg::Arch*, the engine's effective architecture) gates what the model's Arch
// gates: on sm_90 a sub-byte type, a swizzle above 128B or an im2col-wide map is
// `invalid_descriptor` (encoder rules 1, 4, 21; the descriptor check itself applies the sm_103
// rules, so the verdict it caches
// holds for every arch), the 96B swizzle needs sm_103; gather4 / scatter4 / im2col::w* and
// .cta_group::2 are `unsupported` on sm_90.
//
// StorePath = 0 (an engine built without the write direction): every tensor store and
// reduction is `unsupported`, the first instruction check after the architecture's encoder
// rules (the model's CheckInstruction after ValidateTensorMap).

`default_nettype none

`include "tma_assert.svh"

module tma_instr_check #(
  parameter int unsigned NumCtas = 16,
  parameter int unsigned SubByte = 1,   // 0: b4x16_p64 / b6x16_p32 give `unsupported`
  // 1: a tensor prefetch walks its box like a load (its address products are needed); 0: it
  // is check-only and ends in a marker (the MAC is cut short as for an error)
  parameter int unsigned PrefetchReads = 1,
  // 1: stores and reductions execute; 0: the engine has no write direction, they give
  // `unsupported`
  parameter int unsigned StorePath = 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  tma_pkg::cmd_t         cmd_i,
  input  logic [1:0]            arch_i,     // tma_pkg::Arch*
  input  logic [3:0]            cluster_i,  // CTAs in the cluster (0: 16), at most NumCtas
  input  tma_pkg::map_t         map_i,
  input  tma_pkg::walk_bounds_t bounds_i,   // from W1B
  input  logic                  w1b_i,
  input  logic                  w2_i,
  output logic [3:0]            err_o,
  output logic                  abort_o
);

  localparam int unsigned MaxDims = tma_pkg::MaxDims;

  // The checks in priority order (CheckInstruction), each with its error class.
  localparam int unsigned NumChecks = 16;
  localparam int unsigned ChkMode = 0, ChkModeSm100 = 1, ChkCtaGroup = 2, ChkCtaGroup2 = 3,
                          ChkDims = 4, ChkMulticast = 5, ChkCtas = 6, ChkNoDest = 7,
                          ChkSubByte = 8, ChkAlign = 9, ChkCoord0 = 10, ChkNegCoord = 11,
                          ChkArchDesc = 12, ChkGather = 13, ChkMbar = 14, ChkNoWrite = 15;

  tma_pkg::desc_fields_t mf;
  tma_pkg::map_derived_t md;
  logic [3:0]  rank;
  logic        is_load, sb_pk, sb_any;
  logic        is_store, to_global;   // a store or reduction (writes global memory)
  logic [MaxDims-1:0] neg_coord;      // F3: coordinate d is negative (d < rank; scatter4: all
                                      // five, the column and the four row coordinates)
  logic        no_offs_corner;        // im2col_no_offs with a lower corner < 0 or upper > 0
  logic [3:0]  map_elem;              // the map's element type (Elem*)
  logic        red_sup;               // the reduction's redOp x type pair executes (F5)
  logic        f5_d, f5_q;            // F5: a reduction that does not execute
  logic [tma_pkg::AtopBits-1:0] unused_atop;
  logic        unused_atop_inv;
  logic [6:0]  f1_mask;                // F1: these low bits of c0 must be zero
  logic [15:0] dst_mask;
  logic        sm90, gs, i2c_mode;      // arch sm_90; gather4 / scatter4; an im2col-map mode
  logic        wmode;                   // im2col::w / im2col::w::128
  logic        wide_rng_d, wide_rng_q;  // F4 of im2col::w*: wHalo or wOffset out of range
  logic [15:0] route_bad;               // .cta_group::2: destination d's peer routing leaves
                                        // the cluster
  logic        mbar_par;                // parity of the CTA holding mbar
  logic [4:0]  ncta;                    // CTAs in the cluster: cluster_i, at most NumCtas
  logic [15:0] in_cluster;              // bit c: CTA c is in the cluster
  logic [NumChecks-1:0] cond_d, cond_q;
  logic [3:0]  pre_d, pre_q;           // the first failing check before F4
  logic [8:0]  f4_cmp_d, f4_cmp_q;     // W1B: the F4 compares (offset, lower, upper) x 3
  logic        f4;
  logic [3:0]  err_d, err_q;
  logic        abort_q;

  assign mf       = map_i.fields;
  assign md       = map_i.derived;
  assign rank     = {1'b0, mf.rank_m1} + 4'd1;
  assign is_load  = (cmd_i.op == tma_pkg::OpLoad);
  assign is_store = (cmd_i.op == tma_pkg::OpStore);
  assign to_global = is_store || cmd_i.op == tma_pkg::OpReduce;
  // (a one-bit range, not a bit select: Yosys 0.23 crashes on a single-bit select of a 2-D
  // packed struct field)
  always_comb begin : proc_neg
    for (int d = 0; d < MaxDims; d++) begin
      neg_coord[d] = cmd_i.coords.v[d][31:31] != 1'b0 && (4'(d) < rank || gs);
    end
  end
  // (the element type as a signal: Yosys 0.23 crashes on a function call in the port list of
  // a module it has not read yet)
  assign map_elem = tma_pkg::dt_elem(mf.dtype, mf.tf32);

  tma_red_atop u_red_atop (
    .redop_i     (cmd_i.redop),
    .elem_i      (map_elem),
    .supported_o (red_sup),
    .atop_o      (unused_atop),
    .atop_inv_o  (unused_atop_inv)
  );
  assign f5_d = cmd_i.op == tma_pkg::OpReduce && (sb_any || !red_sup);

  always_comb begin : proc_no_offs
    logic [33:0] lo, up;
    no_offs_corner = 1'b0;
    for (int k = 0; k < MaxDims - 2; k++) begin
      lo = tma_pkg::im2col_corner(mf.box_hi, md.is_rank3, md.is_rank4, k, 1'b0);
      up = tma_pkg::im2col_corner(mf.box_hi, md.is_rank3, md.is_rank4, k, 1'b1);
      if (4'(k) < rank - 4'd2 && ((lo[33] && lo != '0) || (!up[33] && up != '0))) begin
        no_offs_corner = 1'b1;   // (a negative lower corner is not zero)
      end
    end
  end
  assign sb_pk    = md.is_b4x16p64 || md.is_b6x16p32;
  assign sb_any   = md.is_b4x16 || sb_pk;
  assign f1_mask  = sb_pk ? 7'h7F : md.is_b4x16 ? 7'h1F : (7'h0F >> md.elem_log2);
  assign dst_mask = cmd_i.multicast ? cmd_i.cta_mask : (16'd1 << cmd_i.dst_cta);
  assign sm90     = arch_i == tma_pkg::ArchSm90;
  assign gs       = cmd_i.mode == tma_pkg::ModeTileGather4 ||
                    cmd_i.mode == tma_pkg::ModeTileScatter4;
  assign i2c_mode = cmd_i.mode == tma_pkg::ModeIm2col || cmd_i.mode == tma_pkg::ModeIm2colNoOffs ||
                    cmd_i.mode == tma_pkg::ModeIm2colW || cmd_i.mode == tma_pkg::ModeIm2colW128;
  // RouteCompleteTx: destination d signals CTA (d & ~1) | parity(mbar CTA, else d itself)
  assign ncta       = (cluster_i == 4'd0 || 32'(cluster_i) > NumCtas) ? 5'(NumCtas) :
                      {1'b0, cluster_i};
  assign in_cluster = (ncta >= 5'd16) ? 16'hFFFF : (16'd1 << ncta) - 16'd1;
  for (genvar d = 0; d < 16; d++) begin : gen_route
    assign route_bad[d] = dst_mask[d] &&
                          {4'(d >> 1), cmd_i.mbar_remote ? mbar_par : 1'(d & 1)} >= ncta;
  end
  assign mbar_par = cmd_i.mbar_cta[0];
  assign wmode    = cmd_i.mode == tma_pkg::ModeIm2colW || cmd_i.mode == tma_pkg::ModeIm2colW128;
  // im2col::w: wHalo <= 511, ::128: <= 31; wOffset <= 31
  assign wide_rng_d = wmode && ((cmd_i.im2col.v[0] > (cmd_i.mode == tma_pkg::ModeIm2colW ?
                                                      16'd511 : 16'd31)) ||
                                cmd_i.im2col.v[1] > 16'd31);

  always_comb begin : proc_cond
    // encoder rules 1 and 4 under the arch: sub-byte types and swizzles above 128B need
    // sm_100, the 96B swizzle sm_103
    cond_d[ChkArchDesc]  = (sm90 && (sb_any || mf.swz > tma_pkg::Swz128B || md.is_wide)) ||
                           (arch_i != tma_pkg::ArchSm103 && mf.swz == tma_pkg::Swz96B);
    // a store or reduction in an engine built without the write direction
    cond_d[ChkNoWrite]   = StorePath == 0 && to_global;
    // modes of each op: loads and prefetch tile .. gather4; stores tile, scatter4,
    // im2col_no_offs; reductions tile, im2col_no_offs
    cond_d[ChkMode]      = to_global ? !(cmd_i.mode == tma_pkg::ModeTile ||
                                         cmd_i.mode == tma_pkg::ModeIm2colNoOffs ||
                                         (is_store && cmd_i.mode == tma_pkg::ModeTileScatter4)) :
                                       cmd_i.mode > tma_pkg::ModeTileGather4;
    // im2col::w*, gather4, scatter4: sm_100 and later
    cond_d[ChkModeSm100] = sm90 && cmd_i.mode >= tma_pkg::ModeIm2colW &&
                           cmd_i.mode <= tma_pkg::ModeTileScatter4;
    cond_d[ChkCtaGroup]  = cmd_i.cta_group == 2'd3 || (cmd_i.cta_group != 2'd0 && !is_load);
    cond_d[ChkCtaGroup2] = sm90 && cmd_i.cta_group == 2'd2;
    // .Nd = rank; the map's mode = the load mode (im2col::w*: a wide map of the same mode)
    cond_d[ChkDims]      = {1'b0, cmd_i.dim} != rank || i2c_mode != mf.im2col ||
                           wmode != md.is_wide ||
                           (wmode && (cmd_i.mode == tma_pkg::ModeIm2colW128) != md.is_w128);
    // gather4 / scatter4: a 2-D map, box[1] == 1, no interleave
    cond_d[ChkGather]    = gs && (rank != 4'd2 || mf.box_hi[7:0] != 8'd0 || md.is_il);
    cond_d[ChkMulticast] = cmd_i.multicast && (!is_load || cmd_i.smem_cta ||
                           (cmd_i.cta_mask & ~in_cluster) != 16'd0);   // F6
    // issuer and destination in the cluster; .shared::cta writes the executing CTA
    cond_d[ChkCtas]      = {1'b0, cmd_i.issuer} >= ncta ||
                           (is_load && !cmd_i.multicast && {1'b0, cmd_i.dst_cta} >= ncta) ||
                           (is_load && !cmd_i.multicast && cmd_i.smem_cta &&
                            cmd_i.dst_cta != cmd_i.issuer);
    // where mbar may sit (the model's CheckMbarCta): in the cluster; with .shared::cta in the
    // executing CTA; without multicast in the destination CTA (.cta_group::2: or its peer);
    // every routed complete-tx inside the cluster. Only loads have an mbarrier.
    cond_d[ChkMbar]      = is_load ?
                           ((cmd_i.mbar_remote && ({1'b0, cmd_i.mbar_cta} >= ncta ||
                             (cmd_i.smem_cta && cmd_i.mbar_cta != cmd_i.issuer) ||
                             (!cmd_i.multicast && (cmd_i.cta_group == 2'd2 ?
                               cmd_i.mbar_cta[3:1] != cmd_i.dst_cta[3:1] :
                               cmd_i.mbar_cta != cmd_i.dst_cta)))) ||
                            (cmd_i.cta_group == 2'd2 && route_bad != '0)) :
                           cmd_i.mbar_remote;
    // multicast to nobody; a store of b4x16_p64 (PTX restriction); im2col_no_offs corners
    cond_d[ChkNoDest]    = (is_load && dst_mask == 16'd0) || (is_store && md.is_b4x16p64) ||
                           (cmd_i.mode == tma_pkg::ModeIm2colNoOffs && no_offs_corner);
    cond_d[ChkSubByte]   = sb_pk && SubByte == 0;
    // F2: the shared operand of every op but prefetch, the mbarrier of a load
    cond_d[ChkAlign]     = ((is_load || to_global) && cmd_i.smem_addr[6:0] != 7'd0) ||
                           (is_load && cmd_i.mbar_addr[2:0] != 3'd0);
    // F1 (interleave: dim 0 counts chunks); the sub-byte types also on c0's low bits
    cond_d[ChkCoord0]    = !md.is_il && (cmd_i.coords.v[0][6:0] & f1_mask) != 7'd0;
    // F3: stores and reductions need non-negative coordinates
    cond_d[ChkNegCoord]  = to_global && neg_coord != '0;
    pre_d = tma_pkg::ErrNone;
    if (cond_q[ChkArchDesc]) begin
      pre_d = tma_pkg::ErrInvalidDescriptor;
    end else if (cond_q[ChkNoWrite]) begin
      pre_d = tma_pkg::ErrUnsupported;
    end else if (cond_q[ChkMode]) begin
      pre_d = tma_pkg::ErrInvalidInstr;
    end else if (cond_q[ChkModeSm100]) begin
      pre_d = tma_pkg::ErrUnsupported;
    end else if (cond_q[ChkCtaGroup]) begin
      pre_d = tma_pkg::ErrInvalidInstr;
    end else if (cond_q[ChkCtaGroup2]) begin
      pre_d = tma_pkg::ErrUnsupported;
    end else if (cond_q[ChkNoDest:ChkDims] != '0 || cond_q[ChkGather] || cond_q[ChkMbar]) begin
      pre_d = tma_pkg::ErrInvalidInstr;
    end else if (cond_q[ChkSubByte]) begin
      pre_d = tma_pkg::ErrUnsupported;
    end else if (cond_q[ChkAlign]) begin
      pre_d = tma_pkg::ErrMisaligned;
    end else if (cond_q[ChkCoord0]) begin
      pre_d = tma_pkg::ErrMisalignedCoord;
    end else if (cond_q[ChkNegCoord]) begin
      pre_d = tma_pkg::ErrInvalidCoord;
    end
    // F4 (spatial walker dims d = k + 1 of an im2col map): the offsets in range and the start
    // pixel inside [lower, dim - 1 + upper]: one compare per flag in W1B, their OR in W2.
    for (int k = 0; k < MaxDims - 2; k++) begin
      f4_cmp_d[k]     = cmd_i.mode == tma_pkg::ModeIm2col &&
                        ((md.is_rank4 && cmd_i.im2col.v[k][15:8] != 8'd0) ||
                         (md.is_rank5 && cmd_i.im2col.v[k][15:5] != 11'd0));
      f4_cmp_d[3 + k] = signed'(bounds_i.coord.v[k+1]) < signed'(bounds_i.lower.v[k+1]);
      f4_cmp_d[6 + k] = signed'(bounds_i.coord.v[k+1]) > signed'(bounds_i.upper.v[k+1]);
    end
    f4 = 1'b0;
    for (int k = 0; k < MaxDims - 2; k++) begin
      // (the start-pixel compares: .im2col and im2col_no_offs; im2col::w* has its own ranges)
      if (bounds_i.spatial[k+1] && (f4_cmp_q[k] || (!wmode && (f4_cmp_q[3 + k] ||
                                                                f4_cmp_q[6 + k])))) begin
        f4 = 1'b1;
      end
    end
    if (wide_rng_q) f4 = 1'b1;
    err_d = pre_q;
    if (pre_q == tma_pkg::ErrNone && f4) begin
      err_d = tma_pkg::ErrInvalidCoord;
    end else if (pre_q == tma_pkg::ErrNone && f5_q) begin
      err_d = tma_pkg::ErrUnsupportedRed;   // F5, the model's last check
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_regs
    if (!rst_ni) begin
      cond_q   <= '0;
      pre_q    <= '0;
      f4_cmp_q <= '0;
      wide_rng_q <= 1'b0;
      f5_q     <= 1'b0;
      err_q    <= '0;
      abort_q  <= 1'b0;
    end else begin
      cond_q   <= cond_d;
      f4_cmp_q <= f4_cmp_d;
      wide_rng_q <= wide_rng_d;
      f5_q     <= f5_d;
      if (w1b_i) pre_q <= pre_d;
      if (w2_i) begin
        err_q   <= err_d;
        abort_q <= err_d != tma_pkg::ErrNone ||
                   (PrefetchReads == 0 && cmd_i.op == tma_pkg::OpPrefetch);
      end
    end
  end
  assign err_o   = err_q;
  assign abort_o = abort_q;

  logic unused_bits;
  assign unused_bits = ^{cmd_i, map_i, mf, md, unused_atop, unused_atop_inv};

  // ---- Assertions ----
  `TMA_ASSERT_INIT(NumCtasLegal_A, NumCtas >= 1 && NumCtas <= 16)
  `TMA_ASSERT_INIT(StorePathLegal_A, StorePath <= 1)
  `TMA_ASSERT_INIT(WalkBoundsWidth_A, tma_pkg::WalkBoundsWidth == $bits(tma_pkg::walk_bounds_t))

endmodule

`default_nettype wire
