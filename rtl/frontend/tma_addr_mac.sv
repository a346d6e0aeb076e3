// SPDX-License-Identifier: Apache-2.0
//
// tma_addr_mac: the issue-time address products of one job (position x stride, lower corner x
// stride, the interleave fixed dim's coordinate x stride) as 17 x 18-bit partial products
// through one registered multiplier and a split 64-bit accumulator.
//
// A request carries the job's slot list (tma_pkg::mac_req_t: which partial products each slot
// has; slots with none are skipped). The slots run in order, their partial products back to
// back: operands (op_*) -> a plain copy beside the multiplier (mul_*) -> product (prod_*) ->
// accumulator (acc_*). The copy stage has no logic in front of it, so the placer can put it
// next to the multiplier block: the operand muxes and their routing are outside the
// multiplier's cycle. The accumulator is two 32-bit halves with a registered carry; a slot's
// sum leaves on the write-back stream when its last product is in. idle_o: nothing left to
// multiply or accumulate (the last write-back, if any, is in this cycle).
//
// Operands (opnd_i) are read when a slot loads: they must hold from the cycle after the
// request until the last slot has loaded (opnd_done_o; OpndHeld_A), so the frontend may move
// on to the next command while the products of this one are still in the pipeline. The gaddr
// slot's base (opnd_i.gaddr) is read when its first product enters the accumulator.
// The write-back stream has no ready; instead wb_next_i says whether the job register takes
// write-backs in the next cycle, and own_next_i whether it also holds the gaddr base (the
// gaddr slot's first product reads it; own_next_i implies wb_next_i). A request may run ahead
// of that (its slot loads and products need no job register): the whole pipeline freezes
// (frz_q, formed a cycle ahead from flops, wb_next_i and own_next_i) in a cycle in which a
// write-back would happen without wb_next_i, or the gaddr slot's first product would enter the
// accumulator without own_next_i.
// SlotMask: the slots this MAC serves (a slot outside it is skipped, its operand multiplexer
// inputs are constant 0): tma_frontend runs a second MAC on gather4 / scatter4 rows 3 and 4
// beside the first, so the four row products of such a command take two slots' time, not four.

`default_nettype none

`include "tma_assert.svh"

module tma_addr_mac #(
  parameter int unsigned SlotMask = (1 << tma_pkg::MacSlots) - 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                clr_i,       // drop the job (it aborts)
  input  logic                wb_next_i,   // the job register takes write-backs next cycle
  input  logic                own_next_i,  // ... and holds the gaddr base (implies wb_next_i)
  // Slot list of a job
  input  logic                req_valid_i,
  output logic                req_ready_o,
  input  tma_pkg::mac_req_t   req_i,
  input  tma_pkg::mac_opnd_t  opnd_i,
  // Finished slots
  output logic                wb_valid_o,
  output tma_pkg::mac_wb_t    wb_o,
  // wb_valid_o && wb_o.slot == s, registered, in two copies (0: the low 32 bits of the job
  // register's fields, 1: the high 32), so no decode sits in front of their enables
  output logic [2*tma_pkg::MacSlots-1:0] wb_en_o,
  output logic                idle_o,
  output logic                opnd_done_o  // every slot of the request has loaded its operands
);

  localparam int unsigned MacSlots = tma_pkg::MacSlots;

  // ---- Slot list ----
  logic [MacSlots-1:0] req_pend;          // slots of the request with partial products
  logic [3:0]               req_first;         // ... the first of them ...
  logic [MacSlots-1:0]      req_rest;          // ... and the others
  logic                     req_go;
  tma_pkg::mac_req_t        list_q;            // the request's slot list, held while it runs
  logic [MacSlots-1:0]      slots_left_d, slots_left_q;   // slots not yet started
  logic [3:0]               next_slot_d, next_slot_q;     // next slot (prefetched)
  logic                     next_valid_d, next_valid_q;
  // next_slot_q one-hot, in kept copies: 0 the slot list and the slot number, 1..2 the operand
  // a (low, high piece), 3..4 the stride (low, high half); each copy selects its part of the
  // current slot's registers, so no slot decode sits in front of those multiplexers
  localparam int unsigned NextCopies = 5;
  logic [MacSlots-1:0]            next_sel_d;
  logic [NextCopies*MacSlots-1:0] next_sel_q;
  logic [MacSlots-1:0]            list_le1_q;   // slot s of the list has at most one piece

  assign req_go = req_valid_i && req_ready_o;
  always_comb begin : proc_req
    for (int s = 0; s < MacSlots; s++) req_pend[s] = SlotMask[s] && req_i.pieces[s] != 6'd0;
    req_first = '0;
    for (int s = MacSlots - 1; s >= 0; s--) if (req_pend[s]) req_first = 4'(s);
    req_rest = req_pend & ~(MacSlots'(1) << req_first);
  end

  // ---- Current slot and the operand stage ----
  logic [3:0]  cur_slot_d, cur_slot_q;
  logic [5:0]  cur_pieces_d, cur_pieces_q;     // partial products of the current slot left
  logic        cur_le1_d, cur_le1_q;           // ... at most one (the next slot loads now)
  logic        cur_load;                       // the current slot takes the next one
  logic [35:0] ld_list, ld_alo, ld_ahi, ld_slo, ld_shi;   // the next slot's list entry, a, s
  logic [33:0] cur_a_d, cur_a_q;
  logic        cur_small_d, cur_small_q;       // cur_a is small: piece 0 is a[17:0] signed
  logic [35:0] cur_s_d, cur_s_q;
  logic        op_valid_d, op_valid_q;
  logic [17:0] op_a_d, op_a_q, op_s_d, op_s_q;
  logic [1:0]  op_shift_d, op_shift_q;         // weight 2^(4 + 17 shift)
  logic [3:0]  op_slot_d, op_slot_q;
  // ---- Copy beside the multiplier, product ----
  logic        mul_valid_q;
  logic [17:0] mul_a_q, mul_s_q;
  logic [1:0]  mul_shift_q;
  logic [3:0]  mul_slot_q;
  logic        prod_valid_q;
  logic signed [35:0] prod_d, prod_q;
  logic [1:0]  prod_shift_q;
  logic [3:0]  prod_slot_q;
  // ---- Accumulator ----
  logic        acc_valid_d, acc_valid_q;
  logic [3:0]  acc_slot_d, acc_slot_q;
  logic [MacSlots-1:0]   wb_en_d;             // the write-back of the next cycle, per slot
  logic [2*MacSlots-1:0] wb_en_q;
  logic [31:0] acc_lo_d, acc_lo_q, acc_hi_d, acc_hi_q;
  logic        acc_carry_d, acc_carry_q;
  logic [32:0] hi_sum;                         // {acc_hi_d, 1} when prod_valid_q
  logic        acc_first_d, acc_first_q;       // the product entering the accumulator starts a slot
  logic        acc_gaddr_d, acc_gaddr_q;       // ... of the gaddr slot (starts from opnd_i.gaddr)
  logic        wb;
  // ---- Freeze (no job register to write into) ----
  localparam int unsigned FrzCopies = 3;   // 0: slot list and operand stage, 1: copy and
                                           // product stages, 2: accumulator and write-back
  logic                 frz_d;
  logic [FrzCopies-1:0] frz_q;
  logic                 frz_now;           // the freeze condition of this cycle's flops
  logic                 wb_nf;             // the write-back of the next cycle, if not frozen
  logic                 gf_nf;             // ... the gaddr slot's first accumulate

  assign idle_o = (slots_left_q == '0) && !next_valid_q && (cur_pieces_q == '0) && !op_valid_q &&
                  !mul_valid_q && !prod_valid_q && !frz_q[2];
  assign req_ready_o = idle_o;
  assign opnd_done_o = (slots_left_q == '0) && !next_valid_q;

  function automatic logic [35:0] sel_mux(input logic [MacSlots-1:0] sel,
                                          input logic [MacSlots*36-1:0] v);
    sel_mux = '0;
    for (int s = 0; s < MacSlots; s++) if (sel[s]) sel_mux = sel_mux | v[36 * s +: 36];
  endfunction

  // The at-most-one-piece tests: of a slot list's slots, and of a current slot with one more
  function automatic logic le1(input logic [5:0] p);
    le1 = (p & (p - 6'd1)) == 6'd0;
  endfunction

  assign cur_load = cur_le1_q && next_valid_q;

  always_comb begin : proc_mac
    logic [MacSlots*36-1:0] va_lo, va_hi, vs;
    logic [MacSlots*36-1:0] vp;
    logic [5:0]  rem;
    logic [5:0]  pick;
    logic [MacSlots-1:0] plow;
    logic [3:0]  pnum;
    logic [63:0] pp, base;
    logic [32:0] lo_sum;
    hi_sum       = '0;
    next_slot_d  = next_slot_q;
    next_valid_d = next_valid_q;
    slots_left_d = slots_left_q;
    cur_slot_d   = cur_slot_q;
    cur_a_d      = cur_a_q;
    cur_small_d  = cur_small_q;
    cur_s_d      = cur_s_q;
    op_valid_d   = 1'b0;
    op_a_d       = op_a_q;
    op_s_d       = op_s_q;
    op_shift_d   = op_shift_q;
    op_slot_d    = op_slot_q;
    // Issue the lowest partial product of the current slot (pick, one-hot: bit 3 ai + sj).
    for (int b = 0; b < 6; b++) begin
      pick[b] = cur_pieces_q[b] && (6'(cur_pieces_q << (6 - b)) == 6'd0);
    end
    rem = cur_pieces_q & ~pick;
    // at most one piece after this cycle: the next slot's test when it loads, else at most
    // two now
    cur_le1_d = cur_load ? |(next_sel_q[0 +: MacSlots] & list_le1_q) : le1(rem);
    if (cur_pieces_q != '0) begin
      op_valid_d = 1'b1;
      op_slot_d  = cur_slot_q;
      op_a_d     = (cur_pieces_q[2:0] == 3'd0) ? {cur_a_q[33], cur_a_q[33:17]} :
                   cur_small_q ? cur_a_q[17:0] : {1'b0, cur_a_q[16:0]};
      op_s_d     = (pick[0] || pick[3]) ? {1'b0, cur_s_q[16:0]} :
                   (pick[1] || pick[4]) ? {1'b0, cur_s_q[33:17]} : {16'd0, cur_s_q[35:34]};
      op_shift_d = {pick[2] || pick[4] || pick[5], pick[1] || pick[3] || pick[5]};
    end
    cur_pieces_d = rem;
    // Load the next slot when this one is done (one partial product left, or none): AND-OR
    // multiplexers selected by the copies of the one-hot next slot (slot s: astart of walker
    // dim s + 1, alo of dim s - 3, gaddr)
    for (int sl = 0; sl < MacSlots; sl++) begin
      vp[36 * sl +: 36] = {29'd0, list_q.one_piece[sl], list_q.pieces[sl]};
      if (!SlotMask[sl]) begin
        vp[36 * sl +: 36]    = '0;
        va_lo[36 * sl +: 36] = '0;
        va_hi[36 * sl +: 36] = '0;
        vs[36 * sl +: 36]    = '0;
      end else if (sl == 32'(tma_pkg::MacSlotGaddr)) begin
        va_lo[36 * sl +: 36] = 36'(opnd_i.fix_coord[16:0]);
        va_hi[36 * sl +: 36] = 36'(opnd_i.fix_coord[33:17]);
        vs[36 * sl +: 36]    = opnd_i.fix_stride;
      end else begin
        va_lo[36 * sl +: 36] = {19'd0, sl < 4 ? opnd_i.coord.v[(sl % 4) + 1][16:0] :
                                                opnd_i.lo.v[(sl % 4) + 1][16:0]};
        va_hi[36 * sl +: 36] = {19'd0, sl < 4 ? opnd_i.coord.v[(sl % 4) + 1][33:17] :
                                                opnd_i.lo.v[(sl % 4) + 1][33:17]};
        vs[36 * sl +: 36]    = opnd_i.stride.v[(sl % 4) + 1];
      end
    end
    ld_list = sel_mux(next_sel_q[0 * MacSlots +: MacSlots], vp);
    ld_alo  = sel_mux(next_sel_q[1 * MacSlots +: MacSlots], va_lo);
    ld_ahi  = sel_mux(next_sel_q[2 * MacSlots +: MacSlots], va_hi);
    ld_slo  = sel_mux(next_sel_q[3 * MacSlots +: MacSlots], vs);
    ld_shi  = sel_mux(next_sel_q[4 * MacSlots +: MacSlots], vs);
    if (cur_load) begin
      cur_slot_d   = next_slot_q;
      cur_pieces_d = ld_list[5:0];
      cur_small_d  = ld_list[6];
      cur_a_d      = {ld_ahi[16:0], ld_alo[16:0]};
      cur_s_d      = {ld_shi[35:18], ld_slo[17:0]};
      next_valid_d = 1'b0;
    end
    // Prefetch the next slot (its one-hot and number from slots_left_q alone).
    plow = '0;
    for (int s = 0; s < MacSlots; s++) begin
      plow[s] = slots_left_q[s] && (MacSlots'(slots_left_q << (MacSlots - s)) == '0);
    end
    pnum = '0;
    for (int s = 0; s < MacSlots; s++) if (plow[s]) pnum = pnum | 4'(s);
    next_sel_d = next_sel_q[0 +: MacSlots];
    if (!next_valid_d && slots_left_q != '0) begin
      next_slot_d  = pnum;
      next_sel_d   = plow;
      slots_left_d = slots_left_q & ~plow;
      next_valid_d = 1'b1;
    end
    // (req_first: the lowest slot with partial products, slot 0 when there is none)
    if (req_go) begin
      next_sel_d = (req_pend == '0) ? MacSlots'(1) : req_pend & ~(req_pend - MacSlots'(1));
    end
    // Multiply.
    prod_d = signed'(mul_a_q) * signed'(mul_s_q);
    // Accumulate.
    unique case (prod_shift_q)
      2'd0:    pp = 64'(prod_q) << 4;
      2'd1:    pp = 64'(prod_q) << 21;
      2'd2:    pp = 64'(prod_q) << 38;
      default: pp = 64'(prod_q) << 55;
    endcase
    // (whether this product starts a slot, and of which kind, comes registered)
    base   = acc_first_q ? (acc_gaddr_q ? opnd_i.gaddr : 64'd0) : {acc_hi_q, acc_lo_q};
    lo_sum = {1'b0, base[31:0]} + {1'b0, pp[31:0]};
    wb     = acc_valid_q && (!prod_valid_q || acc_first_q);
    acc_valid_d = acc_valid_q && !wb;
    acc_slot_d  = acc_slot_q;
    acc_lo_d    = acc_lo_q;
    acc_hi_d    = acc_hi_q;
    acc_carry_d = acc_carry_q;
    if (prod_valid_q) begin
      acc_valid_d = 1'b1;
      acc_slot_d  = prod_slot_q;
      acc_lo_d    = lo_sum[31:0];
      acc_carry_d = lo_sum[32];
      // one chain with carry in: {a, 1} + {b, c} = 2 (a + b) + 1 + c
      hi_sum      = {base[63:32], 1'b1} + {pp[63:32], !acc_first_q && acc_carry_q};
      acc_hi_d    = hi_sum[32:1];
    end
    acc_first_d = !acc_valid_d || (mul_slot_q != acc_slot_d);
    acc_gaddr_d = (mul_slot_q == tma_pkg::MacSlotGaddr);
    // Freeze: a write-back without the job register, or the gaddr slot's first product
    // entering the accumulator (it reads the job register's gaddr) before the job register
    // holds the gaddr base. frz_now from this cycle's flops (a frozen cycle has one of them);
    // the next cycle's from the _d values (or this cycle's flops while frozen).
    frz_now = wb || (prod_valid_q && acc_first_q && acc_gaddr_q);
    wb_nf   = frz_q[2] ? wb : (acc_valid_d && (!mul_valid_q || acc_first_d));
    gf_nf   = frz_q[2] ? (prod_valid_q && acc_first_q && acc_gaddr_q)
                       : (mul_valid_q && acc_first_d && acc_gaddr_d);
    frz_d   = !clr_i && ((wb_nf && !wb_next_i) || (gf_nf && !own_next_i));
  end

  tma_dup_reg #(.Copies (FrzCopies)) u_frz (
    .clk_i, .rst_ni, .d_i (frz_d), .q_o (frz_q)
  );
  `TMA_ASSERT_COPY(Frz_A, frz_q, {FrzCopies{frz_q[0]}})

  tma_dup_reg #(.Width (MacSlots), .Copies (NextCopies), .ResetVal (1)) u_next_sel (
    .clk_i, .rst_ni, .d_i (frz_q[0] ? next_sel_q[0 +: MacSlots] : next_sel_d), .q_o (next_sel_q)
  );
  `TMA_ASSERT_COPY(NextSel_A, next_sel_q, {NextCopies{MacSlots'(1) << next_slot_q}})
  `TMA_ASSERT_COPY(CurLe1_A, cur_le1_q, le1(cur_pieces_q))

  assign wb_valid_o = wb && !frz_q[2];
  assign wb_o.slot  = acc_slot_q;
  assign wb_o.value = {acc_hi_q + 32'(acc_carry_q), acc_lo_q};
  assign wb_en_o    = wb_en_q;
  // (a cycle ahead: acc_valid_q, prod_valid_q, acc_first_q and acc_slot_q of the next cycle
  // are acc_valid_d, mul_valid_q, acc_first_d and acc_slot_d, or this cycle's while frozen,
  // or a clear; no write-back in a frozen cycle)
  assign wb_en_d = (!clr_i && !frz_d && wb_nf) ?
                   MacSlots'(1) << (frz_q[2] ? acc_slot_q : acc_slot_d) : '0;
  tma_dup_reg #(.Width (MacSlots), .Copies (2)) u_wb_en (
    .clk_i, .rst_ni, .d_i (wb_en_d), .q_o (wb_en_q)
  );
  `TMA_ASSERT_COPY(WbEn_A, wb_en_q, {2{wb_valid_o ? MacSlots'(1) << acc_slot_q : MacSlots'(0)}})

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_regs
    if (!rst_ni) begin
      list_q       <= '0;
      list_le1_q   <= '1;
      cur_le1_q    <= 1'b1;
      slots_left_q <= '0;
      next_slot_q  <= '0;
      next_valid_q <= 1'b0;
      cur_slot_q   <= '0;
      cur_pieces_q <= '0;
      cur_a_q      <= '0;
      cur_small_q  <= 1'b0;
      cur_s_q      <= '0;
      op_valid_q   <= 1'b0;
      op_a_q       <= '0;
      op_s_q       <= '0;
      op_shift_q   <= '0;
      op_slot_q    <= '0;
      mul_valid_q  <= 1'b0;
      mul_a_q      <= '0;
      mul_s_q      <= '0;
      mul_shift_q  <= '0;
      mul_slot_q   <= '0;
      prod_valid_q <= 1'b0;
      prod_q       <= '0;
      prod_shift_q <= '0;
      prod_slot_q  <= '0;
      acc_valid_q  <= 1'b0;
      acc_slot_q   <= '0;
      acc_lo_q     <= '0;
      acc_hi_q     <= '0;
      acc_carry_q  <= 1'b0;
      acc_first_q  <= 1'b1;
      acc_gaddr_q  <= 1'b0;
    end else begin
      if (req_go) begin
        list_q <= req_i;
        for (int s = 0; s < MacSlots; s++) list_le1_q[s] <= le1(req_i.pieces[s]);
      end
      if (clr_i) begin
        slots_left_q <= '0;
        next_valid_q <= 1'b0;
        cur_pieces_q <= '0;
        cur_le1_q    <= 1'b1;
        op_valid_q   <= 1'b0;
        mul_valid_q  <= 1'b0;
        prod_valid_q <= 1'b0;
        acc_valid_q  <= 1'b0;
        acc_first_q  <= 1'b1;
      end else begin
        // (a frozen cycle keeps every stage; no request is taken while frozen: idle_o)
        if (!frz_q[0]) begin
          slots_left_q <= req_go ? req_rest : slots_left_d;
          next_valid_q <= req_go ? (req_pend != '0) : next_valid_d;
          cur_pieces_q <= cur_pieces_d;
          cur_le1_q    <= cur_le1_d;
          op_valid_q   <= op_valid_d;
        end
        if (!frz_q[1]) begin
          mul_valid_q  <= op_valid_q;
          prod_valid_q <= mul_valid_q;
        end
        if (!frz_q[2]) begin
          acc_valid_q  <= acc_valid_d;
          acc_first_q  <= acc_first_d;
        end
      end
      if (!frz_q[0]) begin
        next_slot_q  <= req_go ? req_first : next_slot_d;
        cur_slot_q   <= cur_slot_d;
        cur_a_q      <= cur_a_d;
        cur_small_q  <= cur_small_d;
        cur_s_q      <= cur_s_d;
        op_a_q       <= op_a_d;
        op_s_q       <= op_s_d;
        op_shift_q   <= op_shift_d;
        op_slot_q    <= op_slot_d;
      end
      if (!frz_q[1]) begin
        mul_a_q      <= op_a_q;
        mul_s_q      <= op_s_q;
        mul_shift_q  <= op_shift_q;
        mul_slot_q   <= op_slot_q;
        prod_q       <= prod_d;
        prod_shift_q <= mul_shift_q;
        prod_slot_q  <= mul_slot_q;
      end
      if (!frz_q[2]) begin
        acc_slot_q   <= acc_slot_d;
        acc_lo_q     <= acc_lo_d;
        acc_hi_q     <= acc_hi_d;
        acc_carry_q  <= acc_carry_d;
        acc_gaddr_q  <= acc_gaddr_d;
      end
    end
  end

  logic unused_bits;
  assign unused_bits = ^{hi_sum[0], ld_list[35:7], ld_alo[35:17], ld_ahi[35:17], ld_slo[35:18],
                         ld_shi[17:0], opnd_i.coord.v[0], opnd_i.lo.v[0], opnd_i.stride.v[0],
                         opnd_i, req_i};   // (a SlotMask lane reads part of them)

  // ---- Assertions ----
  `TMA_ASSERT_INIT(SlotMaskLegal_A, SlotMask >= 1 && SlotMask < (1 << MacSlots))
  `TMA_ASSERT_INIT(MacReqWidth_A, tma_pkg::MacReqWidth == $bits(tma_pkg::mac_req_t))
  `TMA_ASSERT_INIT(MacOpndWidth_A, tma_pkg::MacOpndWidth == $bits(tma_pkg::mac_opnd_t))
  `TMA_ASSERT_INIT(MacWbWidth_A, tma_pkg::MacWbWidth == $bits(tma_pkg::mac_wb_t))
  `TMA_ASSERT_NEVER(ReqWhileBusy_A, req_valid_i && !req_ready_o)
  // a frozen cycle holds a write-back, or the gaddr slot's first product at the accumulator
  `TMA_ASSERT_NEVER(FrzCause_A, frz_q[0] && !frz_now)
  `TMA_ASSERT_NEVER(OwnImpliesWb_A, own_next_i && !wb_next_i)
`ifndef SYNTHESIS
  // The operands a running slot list reads hold (the gaddr slot's base, the low 64 bits, aside:
  // it is read at the accumulator, from the job register) from a cycle in which slots are
  // still to load to the next, unless cleared.
  localparam int unsigned OpndHeldW = $bits(opnd_i) - 64;
  logic                 loading_q;
  logic                 opnd_hold_q;
  logic [OpndHeldW-1:0] opnd_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_running
    if (!rst_ni) loading_q <= 1'b0;
    else loading_q <= !clr_i && (req_go || (loading_q && !opnd_done_o));
  end
  always_ff @(posedge clk_i) begin : proc_opnd_last
    opnd_hold_q <= loading_q && !opnd_done_o && !clr_i;
    if (loading_q && !opnd_done_o && !clr_i) opnd_q <= opnd_i[64 +: OpndHeldW];
  end
  `TMA_ASSERT_IMPLY(OpndHeld_A, opnd_hold_q, clr_i || opnd_i[64 +: OpndHeldW] == opnd_q)
`endif

endmodule

`default_nettype wire
