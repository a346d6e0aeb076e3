// SPDX-License-Identifier: Apache-2.0
//
// tma_bulk_rows: the non-tensor bulk commands (cmd_t.mode == BulkMode: cp.async.bulk,
// cp.reduce.async.bulk, cp.async.bulk.prefetch.L2) as 1-D rows for the engine's row streams.
// A bulk command needs no tensor map: this block checks it the way the model's CheckBulkCopy /
// CheckBulkReduce / CheckBulkPrefetch do (cmodel/src/bulk_copy.cc, in their order) and then
// either ends it with one completion-only error row or cuts its bytes into rows of at most
// RowMax bytes, which take the tensor rows' paths behind the walker:
//   * global -> shared::cta / shared::cluster (multicast too): load rows (complete-tx of the
//     command's bytes on the destination CTAs' mbarrier at offset mbar_addr);
//   * shared::cta -> global: store rows (a done completion once every B is back);
//   * cp.reduce.async.bulk to global: reduction rows (read-modify-write through tma_red_alu,
//     the element type of the seed's .type; f32 add flushes subnormals, ElemF32Ftz);
//   * prefetch: load rows with no destination CTA (cpl.kind CplDone, cpl.cta_mask 0): the
//     bytes are read from global memory and dropped; a done completion ends it (PrefetchReads
//     = 0: one completion-only row, no read);
//   * shared::cta -> shared::cluster copy and reduction: no rows; the command (source and
//     destination offsets, the complete-tx of its bytes on the destination CTA, a reduction's
//     Red* and Elem* in cpl.red / redop / elem) goes out on the s2s port to tma_s2s_copy,
//     which moves (or reads, reduces and writes back) it between the shared-memory ports.
// Both shared::cluster forms are mbarrier operations, not bulk-group ones: their completions
// never join a bulk async-group.
// Silicon finding B1 (docs/silicon-notes.md): a size that is not a multiple of 16 moves
// size & ~15 bytes (SizeStrict = 0); SizeStrict = 1 gives the PTX text's invalid_instruction.
// StorePath = 0 (an engine built without the write direction): every copy and reduction to
// global memory ends `unsupported`, before any other check.
// A commit_group (coords[2][6]) comes here only from an issuer at or above NumCtas (tma_cmd_reg
// sends the others to tma_bulk_group): it ends `invalid_instruction`, before any other check.
// Whether a command joined a bulk async-group is tma_cmd_reg's decision (bg_i), kept with it.
//
// Bulk command fields (docs/interfaces.md "Bulk commands"): op (OpLoad: global -> shared,
// OpStore: shared::cta -> global, OpReduce: shared::cta -> global, OpPrefetch), desc_addr = the
// global address (source or destination), smem_addr = the shared address in the issuer's (or,
// loads, the destination CTA's) window, coords[0] = size in bytes, coords[1][15:0] = .cp_mask,
// coords[1][16] = .cp_mask given, coords[2][3:0] = .type (BulkT*), coords[2][4] = .noftz,
// coords[2][5] = the destination is .shared::cluster (a load: 0 .shared::cta; a store or
// reduction: 0 .global, 1 shared::cta -> shared::cluster with desc_addr = the destination's
// offset in CTA dst_cta's window), redop, mbar_addr, multicast, cta_mask, issuer, dst_cta, tag
// as for tensor commands.
//
// Streams: bulk commands in (cmd_t), rows out (row_t, one command's rows in order, the last
// with `last` and the completion information), shared::cta -> shared::cluster copies and
// reductions out (offsets and cpl_info_t).

`default_nettype none

`include "tma_assert.svh"

module tma_bulk_rows #(
  parameter int unsigned NumCtas    = 16,  // 1 .. 16: CTA numbers at or above are invalid
  parameter int unsigned SizeStrict = 0,   // 1: size % 16 != 0 is invalid_instruction (PTX)
  parameter int unsigned PrefetchReads = 1, // 0: a prefetch reads nothing (check-only)
  parameter int unsigned StorePath  = 1    // 0: copies and reductions to global: unsupported
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // Bulk commands
  input  logic               cmd_valid_i,
  output logic               cmd_ready_o,
  input  tma_pkg::cmd_t      cmd_i,
  input  logic               bg_i,        // the command joined a bulk async-group (tma_cmd_reg)
  input  logic [7:0]         bg_seq_i,    // ... the group it joined
  // Rows (to the row / store fork, merged with the walker's)
  output logic               row_valid_o,
  input  logic               row_ready_i,
  output tma_pkg::row_t      row_o,
  // shared::cta -> shared::cluster copies and reductions (to tma_s2s_copy)
  output logic               s2s_valid_o,
  input  logic               s2s_ready_i,
  output logic [31:0]        s2s_src_o,   // source offset in the issuer's window
  output logic [31:0]        s2s_dst_o,   // destination offset in CTA dst_cta's window
  output tma_pkg::cpl_info_t s2s_cpl_o,   // CplTx of the moved bytes on CTA dst_cta
  // Status
  output logic               busy_o
);

  localparam int unsigned RbW    = tma_pkg::RowBytesW;
  localparam int unsigned RowMax = 1 << (RbW - 1);          // 2048: the longest row_t row

  // ---- Command fields ----
  logic [31:0] size, size_eff;     // size in bytes; moved: size & ~15 unless SizeStrict
  logic        has_mask, noftz, to_cluster;
  logic [3:0]  btype;
  logic        is_load, is_store, is_red, is_pf;
  logic        half, global_red_ok, cluster_red_ok;
  logic        s2s, s2s_cp, s2s_red;  // shared::cta -> shared::cluster (copy / reduction)
  logic [32:0] smem_end;           // smem_addr + moved bytes
  logic        smem_over;          // smem_end > 2^32: outside the window
  logic [32:0] dst_end;            // the shared::cluster destination's low half + moved bytes
  logic        dst_over;           // destination + moved bytes > 2^32
  logic [15:0] dst_mask;           // the load's destination CTAs
  logic [3:0]  err;                // first failing check (ErrNone: none) of the checks
  logic        chk_q;              // registered (fail_q) while the command was on cmd_i in the
                                   // previous cycle, not taken: hold for it now
  logic [3:0]  elem;               // the reduction's element type (Elem*)
  logic        commit;             // commit_group of an issuer outside NumCtas (tma_cmd_reg)

  // coords[1] and coords[2] as plain vectors: Yosys 0.23 crashes on a bit select of an element
  // of a struct member's array (cmd_i.coords.v[k][b]).
  logic [31:0] coord1, coord2;
  assign coord1     = cmd_i.coords.v[1];
  assign coord2     = cmd_i.coords.v[2];
  assign size       = cmd_i.coords.v[0];
  assign size_eff   = (SizeStrict != 0) ? size : {size[31:4], 4'd0};
  assign has_mask   = coord1[16];
  assign btype      = coord2[3:0];
  assign noftz      = coord2[4];
  assign to_cluster = coord2[5];
  assign commit     = coord2[6];
  assign is_load    = cmd_i.op == tma_pkg::OpLoad;
  assign is_store   = cmd_i.op == tma_pkg::OpStore;
  assign is_red     = cmd_i.op == tma_pkg::OpReduce;
  assign is_pf      = cmd_i.op == tma_pkg::OpPrefetch;
  assign half       = btype == tma_pkg::BulkTF16 || btype == tma_pkg::BulkTBF16;
  assign s2s        = (is_store || is_red) && to_cluster;
  assign s2s_cp     = is_store && to_cluster;
  assign s2s_red    = is_red && to_cluster;
  // Window ends: one 33-bit add each; "> 2^32" is its carry with a non-zero low part (an OR
  // after the add, no second carry chain). The 64-bit destination's upper half h: h >= 2 is
  // over, h == 1 is over unless the low half plus the bytes is 0.
  assign smem_end   = {1'b0, cmd_i.smem_addr} + {1'b0, size_eff};
  assign smem_over  = smem_end[32] && smem_end[31:0] != '0;
  assign dst_end    = {1'b0, cmd_i.desc_addr[31:0]} + {1'b0, size_eff};
  assign dst_over   = cmd_i.desc_addr[63:33] != '0 ||
                      (cmd_i.desc_addr[32] ? dst_end != '0 : dst_end[32] && dst_end[31:0] != '0);
  assign dst_mask   = cmd_i.multicast ? cmd_i.cta_mask : (16'd1 << cmd_i.dst_cta);

  // The cp.reduce.async.bulk .global table (seed 004 lines 340-349; BulkReduceSupported).
  always_comb begin : proc_red_table
    unique case (cmd_i.redop)
      tma_pkg::RedAdd: global_red_ok = btype == tma_pkg::BulkTU32 || btype == tma_pkg::BulkTS32 ||
                                       btype == tma_pkg::BulkTU64 || btype == tma_pkg::BulkTF32 ||
                                       btype == tma_pkg::BulkTF64 || half;
      tma_pkg::RedMin, tma_pkg::RedMax:
        global_red_ok = btype == tma_pkg::BulkTU32 || btype == tma_pkg::BulkTS32 ||
                        btype == tma_pkg::BulkTU64 || btype == tma_pkg::BulkTS64 || half;
      tma_pkg::RedInc, tma_pkg::RedDec: global_red_ok = btype == tma_pkg::BulkTU32;
      default: global_red_ok = btype == tma_pkg::BulkTB32 || btype == tma_pkg::BulkTB64;
    endcase
  end

  // The cp.reduce.async.bulk .shared::cluster table (seed 004 lines 340-349).
  always_comb begin : proc_red_table_cluster
    unique case (cmd_i.redop)
      tma_pkg::RedAdd: cluster_red_ok = btype == tma_pkg::BulkTU32 ||
                                        btype == tma_pkg::BulkTS32 || btype == tma_pkg::BulkTU64;
      tma_pkg::RedMin, tma_pkg::RedMax:
        cluster_red_ok = btype == tma_pkg::BulkTU32 || btype == tma_pkg::BulkTS32;
      tma_pkg::RedInc, tma_pkg::RedDec: cluster_red_ok = btype == tma_pkg::BulkTU32;
      default: cluster_red_ok = btype == tma_pkg::BulkTB32;
    endcase
  end

  // The element arithmetic of a .type (the model's ElementDType).
  always_comb begin : proc_elem
    unique case (btype)
      tma_pkg::BulkTS32:                   elem = tma_pkg::ElemS32;
      tma_pkg::BulkTB64, tma_pkg::BulkTU64: elem = tma_pkg::ElemU64;
      tma_pkg::BulkTS64:                   elem = tma_pkg::ElemS64;
      tma_pkg::BulkTF16:                   elem = tma_pkg::ElemF16;
      tma_pkg::BulkTBF16:                  elem = tma_pkg::ElemBF16;
      tma_pkg::BulkTF32:  elem = (cmd_i.redop == tma_pkg::RedAdd) ? tma_pkg::ElemF32Ftz :
                                                                    tma_pkg::ElemF32;
      tma_pkg::BulkTF64:                   elem = tma_pkg::ElemF64;
      default:                             elem = tma_pkg::ElemU32;
    endcase
  end

  // ---- Checks, the model's order: issuer, qualifiers of another direction, the reduction
  // table and .noftz, size, destination and source alignment, mbarrier alignment (a copy's),
  // the direction's CTA and window rules; a shared::cluster reduction checks its source window
  // before its mbarrier and destination (CheckBulkReduce) ----
  // Each check is formed on its own (fail_c, one bit each, in the model's order) and
  // registered while the command waits on cmd_i (fail_q); the first failing one's class is
  // picked from the flops in the cycle the command is taken (err), so the command
  // register's output, the window-end adds and the priority ladder are not one path.
  localparam int unsigned NumChecks = 20;
  logic [NumChecks-1:0] fail_c, fail_q;
  assign fail_c[0]  = commit;                      // commit_group of a CTA the engine lacks
  assign fail_c[1]  = StorePath == 0 && (is_store || is_red) && !to_cluster;  // no writes
  assign fail_c[2]  = !is_pf && 32'(cmd_i.issuer) >= NumCtas;
  assign fail_c[3]  = cmd_i.multicast && !(is_load && to_cluster);   // shared::cluster.global
  assign fail_c[4]  = has_mask && !(is_store && !to_cluster);        // .cp_mask: global only
  assign fail_c[5]  = is_red && !(to_cluster ? cluster_red_ok : global_red_ok);
  assign fail_c[6]  = is_red && (noftz != (cmd_i.redop == tma_pkg::RedAdd && half));  // .noftz
  assign fail_c[7]  = size[3:0] != 4'd0 && SizeStrict != 0;
  assign fail_c[8]  = (is_load ? cmd_i.smem_addr[3:0] : cmd_i.desc_addr[3:0]) != 4'd0 &&
                      !is_pf;                                        // dstMem
  assign fail_c[9]  = (is_load || is_pf ? cmd_i.desc_addr[3:0] : cmd_i.smem_addr[3:0]) !=
                      4'd0;                                          // srcMem
  assign fail_c[10] = (is_load || s2s_cp) && cmd_i.mbar_addr[2:0] != 3'd0;   // mbar
  assign fail_c[11] = is_load && !to_cluster && cmd_i.dst_cta != cmd_i.issuer;  // own window
  assign fail_c[12] = is_load && to_cluster && cmd_i.multicast && NumCtas < 16 &&
                      (cmd_i.cta_mask >> NumCtas) != '0;             // ctaMask beyond cluster
  assign fail_c[13] = is_load && to_cluster && !cmd_i.multicast &&
                      32'(cmd_i.dst_cta) >= NumCtas;
  assign fail_c[14] = s2s_cp && 32'(cmd_i.dst_cta) >= NumCtas;      // dstMem outside cluster
  assign fail_c[15] = s2s_cp && cmd_i.dst_cta == cmd_i.issuer;      // must be another CTA
  assign fail_c[16] = !is_pf && smem_over;         // + size overflows the 32-bit window
  assign fail_c[17] = s2s_red && cmd_i.mbar_addr[2:0] != 3'd0;      // mbar
  assign fail_c[18] = s2s_red && 32'(cmd_i.dst_cta) >= NumCtas;     // dstMem outside cluster
  assign fail_c[19] = s2s && dst_over;             // dstMem + size overflows the window

  // The error class of each check (the model's class for it), by its index in fail_c above:
  // a new check is added in both places.
  function automatic logic [3:0] check_err(int unsigned k);
    unique case (k)
      1:              check_err = tma_pkg::ErrUnsupported;      // no write direction
      5:              check_err = tma_pkg::ErrUnsupportedRed;   // the reduction table
      8, 9, 10, 17:   check_err = tma_pkg::ErrMisaligned;       // dstMem, srcMem, mbar, mbar
      default:        check_err = tma_pkg::ErrInvalidInstr;
    endcase
  endfunction

  // The first failing check of a command, or ErrNone.
  function automatic logic [3:0] first_err(logic [NumChecks-1:0] f);
    first_err = tma_pkg::ErrNone;
    for (int k = NumChecks - 1; k >= 0; k--) begin
      if (f[k]) first_err = check_err(32'(k));
    end
  endfunction

  assign err = first_err(fail_q);

  // ---- Command register and row generator ----
  logic                   active_q;   // a command's rows are being sent
  logic                   s2s_q;      // a shared::cta -> shared::cluster command waits on s2s
  logic                   bytes_q;    // its rows carry bytes (else one completion-only row)
  logic [63:0]            gaddr_q;    // global address of the next row
  logic [31:0]            saddr_q;    // shared address of the next row
  logic [31:0]            left_q;     // bytes not yet sent
  logic                   bmask_en_q; // a store's .cp_mask (written bytes of each 16-byte chunk)
  logic [15:0]            bmask_q;
  tma_pkg::cpl_info_t     cpl_d, cpl_q;
  logic [RbW-1:0]         row_len;
  logic                   row_last_q; // the next row is the command's last (registered a row
                                      // ahead: left_q <= RowMax as the row before is taken)
  logic                   row_last, take_cmd, take_row;
  logic                   bytes_d;

  always_comb begin : proc_cpl
    cpl_d           = '0;
    cpl_d.cta       = cmd_i.issuer;
    cpl_d.mbar_addr = cmd_i.mbar_addr;
    cpl_d.bytes     = size_eff;
    cpl_d.tag       = cmd_i.tag;
    if (err != tma_pkg::ErrNone) begin
      cpl_d.kind = tma_pkg::CplError;
      cpl_d.err  = err;
    end else if (is_load || s2s) begin
      cpl_d.kind     = tma_pkg::CplTx;         // (s2s: no multicast, the one dst_cta)
      cpl_d.cta_mask = dst_mask;
      cpl_d.red      = s2s_red;                // (tma_s2s_copy's read-modify-write)
      cpl_d.redop    = s2s_red ? cmd_i.redop : '0;
      cpl_d.elem     = s2s_red ? elem : '0;
    end else begin
      // Stores and reductions name the issuer (a store row has a destination CTA); a prefetch
      // has none, so its rows are read and dropped on the load path.
      cpl_d.kind     = tma_pkg::CplDone;
      cpl_d.cta_mask = is_pf ? 16'd0 : (16'd1 << cmd_i.issuer);
      cpl_d.red      = is_red;
      cpl_d.redop    = is_red ? cmd_i.redop : '0;
      cpl_d.elem     = is_red ? elem : '0;
    end
    // A bulk-group operation (an error ends it too): tma_cmd_reg joined it to its group.
    cpl_d.bg     = bg_i;
    cpl_d.bg_seq = bg_seq_i;
  end

  // A command is taken once its checks are registered (a cycle on cmd_i: one cycle more for
  // a command that finds the block idle, none for one that waits behind another), so the
  // check ladder and the window-end adds do not reach cpl_q, bytes_q and the flags.
  assign cmd_ready_o = !active_q && !s2s_q && chk_q;
  assign take_cmd    = cmd_valid_i && cmd_ready_o;
  assign take_row    = row_valid_o && row_ready_i;
  assign row_last    = row_last_q;
  assign bytes_d     = err == tma_pkg::ErrNone && size_eff != '0 &&
                       !(has_mask && coord1[15:0] == '0) && !(is_pf && PrefetchReads == 0);
  assign row_len     = row_last ? RbW'(left_q) : RbW'(RowMax);

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_chk
    if (!rst_ni) begin
      chk_q  <= 1'b0;
      fail_q <= '0;
    end else begin
      chk_q  <= cmd_valid_i && !take_cmd;
      fail_q <= fail_c;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_active
    if (!rst_ni) begin
      active_q <= 1'b0;
      s2s_q    <= 1'b0;
    end else begin
      if (take_cmd) begin
        active_q <= !(err == tma_pkg::ErrNone && s2s);
        s2s_q    <= err == tma_pkg::ErrNone && s2s;
      end else begin
        if (take_row && row_last) begin
          active_q <= 1'b0;
        end
        if (s2s_valid_o && s2s_ready_i) begin
          s2s_q <= 1'b0;
        end
      end
    end
  end

  // Data registers (no reset: qualified by active_q).
  always_ff @(posedge clk_i) begin : proc_cmd
    if (take_cmd) begin
      // (a .cp_mask of 0 writes nothing: one completion-only row, no W beat without strobes)
      bytes_q  <= bytes_d;
      row_last_q <= !bytes_d || size_eff <= 32'(RowMax);
      gaddr_q <= cmd_i.desc_addr;
      saddr_q <= is_pf ? 32'd0 : cmd_i.smem_addr;
      left_q  <= size_eff;
      cpl_q   <= cpl_d;
      bmask_en_q <= has_mask;
      bmask_q    <= coord1[15:0];
    end else if (take_row) begin
      gaddr_q <= gaddr_q + 64'(row_len);
      saddr_q <= saddr_q + 32'(row_len);
      left_q  <= left_q - 32'(row_len);
      // after a row that is not the last, left_q - RowMax <= RowMax makes the next one last
      row_last_q <= left_q <= 32'(2 * RowMax);
    end
  end

  always_comb begin : proc_row
    row_o           = '0;
    row_o.has_data  = bytes_q;
    row_o.last      = row_last;
    row_o.gaddr     = gaddr_q;
    row_o.smem_addr = saddr_q;
    row_o.row_bytes = bytes_q ? row_len : '0;
    row_o.head      = '0;
    row_o.dend      = bytes_q ? row_len : '0;
    row_o.swz       = tma_pkg::SwzNone;
    row_o.pk        = tma_pkg::PkNone;
    row_o.cpl       = cpl_q;
    row_o.bmask_en  = bmask_en_q;
    row_o.bmask     = bmask_q;
  end
  assign row_valid_o = active_q;
  assign busy_o      = active_q || s2s_q;

  assign s2s_valid_o = s2s_q;
  assign s2s_src_o   = saddr_q;
  assign s2s_dst_o   = gaddr_q[31:0];
  assign s2s_cpl_o   = cpl_q;

  logic unused_cmd;
  assign unused_cmd = ^{cmd_i.mode, cmd_i.dim, cmd_i.coords.v[4:3], coord2[31:7],
                        coord1[31:17], cmd_i.im2col, cmd_i.cta_group,
                        cmd_i.smem_cta, cmd_i.mbar_remote, cmd_i.mbar_cta};

  // ---- Assertions ----
  `TMA_ASSERT_INIT(NumCtasLegal_A, NumCtas >= 1 && NumCtas <= 16)
  `TMA_ASSERT_INIT(SizeStrictLegal_A, SizeStrict <= 1)
  `TMA_ASSERT_INIT(PrefetchReadsLegal_A, PrefetchReads <= 1)
  `TMA_ASSERT_INIT(StorePathLegal_A, StorePath <= 1)
  `TMA_ASSERT_IMPLY(BulkOnly_A, cmd_valid_i, cmd_i.mode == tma_pkg::BulkMode)
  `TMA_ASSERT_STABLE(RowHeld_A, row_valid_o, row_ready_i, row_o)
  // Rows with bytes are 16-byte aligned in both memories and at most RowMax long.
  `TMA_ASSERT_IMPLY(RowAligned_A, row_valid_o && bytes_q,
                    gaddr_q[3:0] == 4'd0 && saddr_q[3:0] == 4'd0 && left_q[3:0] == 4'd0 &&
                    left_q != '0)
  // Only a prefetch's rows have no destination CTA, and it is no reduction.
  `TMA_ASSERT_IMPLY(PrefetchRows_A, row_valid_o && cpl_q.kind == tma_pkg::CplDone &&
                                    cpl_q.cta_mask == '0, !cpl_q.red)
  // A masked store writes some byte of every beat (whole 16-byte chunks, a mask not 0).
  `TMA_ASSERT_IMPLY(MaskNotEmpty_A, row_valid_o && bytes_q && bmask_en_q, bmask_q != '0)
  `TMA_ASSERT_NEVER(RowsOrCopy_A, active_q && s2s_q)
  `TMA_ASSERT_IMPLY(ErrReg_A, chk_q, fail_q == fail_c && cmd_valid_i)
  `TMA_ASSERT_IMPLY(LastFlag_A, active_q, row_last_q == (!bytes_q || left_q <= 32'(RowMax)))
  `TMA_ASSERT_STABLE(S2sHeld_A, s2s_valid_o, s2s_ready_i, {s2s_src_o, s2s_dst_o, s2s_cpl_o})

endmodule

`default_nettype wire
