// SPDX-License-Identifier: Apache-2.0
//
// tma_atop_split: the AXI write port of a store direction that does reductions at the memory
// (engine AtomicReduce = 1). The write engine's bursts come in as they are; a burst tagged
// with an AWATOP (a reduction row whose pair has an AXI5 AtomicStore form, tma_red_atop) is
// split into one AtomicStore per element and its element responses are merged back into the
// one B per burst the write engine counts, so the engine is unchanged:
//   * a plain burst (aw_atop 0) passes: AW, its W beats and its B go through unchanged;
//   * an atomic burst is taken from the engine's AW into the order queue; each of its W beats
//     becomes, element by element (4 or 8 bytes: in_esz8_i beside AW), one AW (ID AxiIdAtop,
//     AWLEN 0, AWSIZE the element size, the element's address, AWATOP as given) and one W
//     (the beat's data, the element's strobes only, WLAST); an element whose strobes are all
//     zero is skipped (no transaction), a beat without any is taken at once; an element's W
//     goes out after its AW (the engine's rule, tma_axi_wr_sva): the beat's AWs go out one per
//     cycle, then the beat moves into a W hold register whose Ws go out one per cycle while
//     the next beat's AWs do, so a steady stream moves one element per cycle;
//   * the element B responses (ID AxiIdAtop) are counted against the oldest atomic burst (the
//     merge queue holds each burst's element count once its last beat is split) and, when all
//     have come, one B goes to the engine with the worst response of them (DECERR > SLVERR >
//     OKAY): a failed element fails its burst, so its command ends with one bus_error.
// AXI5 rules relied on (docs/differences.md cites them): an AtomicStore carries 1, 2, 4 or 8
// bytes in one transfer, AWADDR aligned to that size, AWBURST INCR, the strobes inside the
// data window all set and those outside clear; an atomic transaction's ID is not used by any
// outstanding non-atomic transaction (read or write). The engine's reads use AxiIdData,
// AxiIdDesc and AxiIdRed, its plain writes AxiIdData; AxiIdAtop is the atomics' own.
// Ordering: AXI keeps no order between the two IDs, so the block never has both kinds
// outstanding: a plain burst waits until every atomic burst's merged B has gone to the engine,
// an atomic burst until every plain burst's B has. The engine's B responses so keep its AW
// order (its B queue needs that), and a store after a reduction is written after it.
// Elements' B responses are counted, not matched: should a memory answer same-ID atomics out
// of order, a failure could only be counted against another burst of the same command (the
// engine starts a reduction command only when the store direction is empty), and the command
// ends as bus_error either way.
// Throughput: one element per cycle (AtomicStore carries one element), i.e. 4 or 8 bytes a
// cycle of the DataBytes-wide bus; up to Depth atomic bursts between the engine's AW and their
// merged B.

`default_nettype none

`include "tma_assert.svh"

module tma_atop_split #(
  parameter  int unsigned DataBytes   = 16,   // 16, 32, 64 or 128
  parameter  int unsigned MaxBurstLen = 16,   // beats per burst of the write engine
  parameter  int unsigned Depth       = 16,   // atomic bursts waiting for their merged B, >= 2
  localparam int unsigned DW          = DataBytes * 8,
  localparam int unsigned NS          = DataBytes / 4,           // 4-byte slots of a beat
  localparam int unsigned SizeLog2    = $clog2(DataBytes)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // From the write engine: bursts (aw_atop tags the atomic ones), W beats, one B per burst
  input  tma_pkg::axi_wr_req_t  in_req_i,
  output tma_pkg::axi_wr_rsp_t  in_rsp_o,
  input  logic [DW-1:0]         in_w_data_i,
  input  logic [DataBytes-1:0]  in_w_strb_i,
  input  logic                  in_esz8_i,     // with aw_atop: the burst's elements are 8 bytes
  // To the AXI port
  output tma_pkg::axi_wr_req_t  out_req_o,
  input  tma_pkg::axi_wr_rsp_t  out_rsp_i,
  output logic [DW-1:0]         out_w_data_o,
  output logic [DataBytes-1:0]  out_w_strb_o
);

  localparam int unsigned EcW   = $clog2(MaxBurstLen * NS + 1);  // elements of a burst
  localparam int unsigned OutW  = 16;                            // bursts outstanding
  localparam int unsigned AoW   = $clog2(Depth + 1);
  localparam int unsigned KqW   = 1 + tma_pkg::AtopBits + 1 + 64;
  localparam int unsigned SlotW = (NS > 1) ? $clog2(NS) : 1;

  // ---- Order queue: one entry per burst taken from the engine, {atomic, atop, esz8, addr} ----
  logic                          aw_atom;     // the engine's AW is atomic
  logic                          kq_in_ready, kq_push, kq_valid, kq_pop;
  logic                          k_atom, k_esz8;
  logic [tma_pkg::AtopBits-1:0]  k_atop;
  logic [63:0]                   k_addr;
  logic [$clog2(4+1)-1:0]        kq_usage;
  logic [OutW-1:0]               data_out_q;  // plain bursts on AW whose B has not gone back
  logic [AoW-1:0]                atom_out_q;  // atomic bursts taken whose merged B has not
  logic                          pass_aw;     // the engine's plain AW goes out now

  assign aw_atom = in_req_i.aw_atop != tma_pkg::AtopNone;
  assign pass_aw = in_req_i.aw_valid && !aw_atom && atom_out_q == '0 && kq_in_ready;
  logic in_aw_ready;
  assign in_aw_ready = aw_atom ? (kq_in_ready && data_out_q == '0 && 32'(atom_out_q) < Depth)
                               : (kq_in_ready && atom_out_q == '0 && out_rsp_i.aw_ready);
  assign kq_push     = in_req_i.aw_valid && in_aw_ready;

  tma_fifo #(
    .Width    (KqW),
    .Depth    (4),
    .FlopWrEn (1'b1)
  ) u_kq (
    .clk_i,
    .rst_ni,
    .clr_i       (1'b0),
    .in_valid_i  (kq_push),
    .in_ready_o  (kq_in_ready),
    .in_data_i   ({aw_atom, in_req_i.aw_atop, in_esz8_i, in_req_i.aw_addr}),
    .out_valid_o (kq_valid),
    .out_ready_i (kq_pop),
    .out_data_o  ({k_atom, k_atop, k_esz8, k_addr}),
    .usage_o     (kq_usage)
  );

  // ---- Element split of the atomic burst at the queue's head ----
  // AW side: the engine's W beat at the input; its elements' AWs go out one per cycle (cur_aw),
  // then the beat moves into the W hold register (the engine's W handshake) and its elements'
  // Ws go out from there (cur_w), each after its own AW, while the next beat's AWs go out.
  logic [NS-1:0]        live4, live, pend_aw, aw_oh, w_oh;
  logic [SlotW-1:0]     cur_aw, cur_w;   // the slots of the element on AW / on W
  logic                 have_aw, more_aw, more_w;
  logic [NS-1:0]        aw_sent_q;       // elements of the input beat whose AW went out
  logic [7:0]           bidx_q;          // beat of the burst at the input
  logic [EcW-1:0]       ecnt_q;          // elements of that burst whose AW went out
  logic [11:0]          eaddr;           // the AW element's page offset
  logic                 w_atom;          // the engine's W beats belong to an atomic burst
  logic                 el_aw_valid, aw_fire_el, beat_aw_done, beat_take, burst_done;
  // W hold register: a beat whose elements' AWs have all gone out, its Ws not yet
  logic                 h_valid_q, h_esz8_q;
  logic [DW-1:0]        h_data_q;
  logic [DataBytes-1:0] h_strb_q;
  logic [NS-1:0]        h_pend_q;        // its elements whose W has not gone out
  logic [DataBytes-1:0] emask_w;         // the W element's byte lanes
  logic                 w_fire_el, h_drain, h_free;

  always_comb begin : proc_slots
    for (int s = 0; s < NS; s++) begin
      live4[s] = |in_w_strb_i[4*s +: 4];
    end
    for (int q = 0; q < NS / 2; q++) begin   // 8-byte elements: the even slots
      live[2*q]   = k_esz8 ? (live4[2*q] || live4[2*q+1]) : live4[2*q];
      live[2*q+1] = k_esz8 ? 1'b0 : live4[2*q+1];
    end
    pend_aw = live & ~aw_sent_q;
    cur_aw  = '0;
    have_aw = 1'b0;
    cur_w   = '0;
    for (int s = NS - 1; s >= 0; s--) begin
      if (pend_aw[s]) begin
        cur_aw  = SlotW'(s);
        have_aw = 1'b1;
      end
      if (h_pend_q[s]) begin
        cur_w = SlotW'(s);
      end
    end
    aw_oh   = NS'(1) << cur_aw;
    w_oh    = NS'(1) << cur_w;
    more_aw = (pend_aw & ~aw_oh) != '0;
    more_w  = (h_pend_q & ~w_oh) != '0;
    emask_w = (h_esz8_q ? DataBytes'(8'hFF) : DataBytes'(4'hF)) << (32'(cur_w) * 4);
    eaddr   = k_addr[11:0] + (12'(bidx_q) << SizeLog2) + (12'(cur_aw) << 2);
  end

  assign w_atom       = kq_valid && k_atom;
  assign el_aw_valid  = w_atom && in_req_i.w_valid && have_aw;
  assign aw_fire_el   = el_aw_valid && out_rsp_i.aw_ready;
  assign beat_aw_done = w_atom && in_req_i.w_valid && (!have_aw || (aw_fire_el && !more_aw));
  assign w_fire_el    = h_valid_q && out_rsp_i.w_ready;
  assign h_drain      = w_fire_el && !more_w;
  assign h_free       = !h_valid_q || h_drain;
  assign beat_take    = beat_aw_done && h_free;
  assign burst_done   = beat_take && in_req_i.w_last;

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_split
    if (!rst_ni) begin
      aw_sent_q <= '0;
      bidx_q    <= '0;
      ecnt_q    <= '0;
    end else begin
      if (beat_take) begin
        aw_sent_q <= '0;
        bidx_q    <= in_req_i.w_last ? 8'd0 : bidx_q + 8'd1;
      end else if (aw_fire_el) begin
        aw_sent_q <= aw_sent_q | aw_oh;
      end
      if (burst_done) begin
        ecnt_q <= '0;
      end else if (aw_fire_el) begin
        ecnt_q <= ecnt_q + 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_hold_ctl
    if (!rst_ni) begin
      h_valid_q <= 1'b0;
      h_pend_q  <= '0;
    end else if (beat_take) begin
      h_valid_q <= live != '0;
      h_pend_q  <= live;
    end else if (w_fire_el) begin
      h_valid_q <= more_w;
      h_pend_q  <= h_pend_q & ~w_oh;
    end
  end

  // The hold register's data (no reset: read only while h_valid_q).
  always_ff @(posedge clk_i) begin : proc_hold_data
    if (beat_take) begin
      h_data_q <= in_w_data_i;
      h_strb_q <= in_w_strb_i;
      h_esz8_q <= k_esz8;
    end
  end

  // Merge state (the merge queue below)
  logic           mq_valid, mq_in_ready, head_done, emit;
  logic [EcW-1:0] mq_cnt;
  logic [AoW-1:0] mq_usage;
  logic [EcW-1:0] bcnt_q;       // element responses of the oldest atomic burst so far
  logic [1:0]     berr_q;       // ... their worst response
  logic           mb_valid_q;   // the merged B waits for the engine
  logic [1:0]     mb_resp_q;
  logic           b_atom, b_atom_fire, b_data_fire, mb_take;
  logic           plain_w;      // the engine's W beat is a plain burst's

  assign b_atom    = out_rsp_i.b_id == tma_pkg::AxiIdAtop;
  assign head_done = mq_valid && bcnt_q == mq_cnt;
  assign plain_w   = kq_valid && !k_atom && !h_valid_q;

  // ---- AW, W to the port: the plain burst's, or the element's; B ready ----
  always_comb begin : proc_out
    out_req_o          = in_req_i;
    out_req_o.aw_valid = pass_aw;
    out_req_o.w_valid  = in_req_i.w_valid && plain_w;
    out_w_data_o       = in_w_data_i;
    out_w_strb_o       = in_w_strb_i;
    if (w_atom) begin
      out_req_o.aw_valid = el_aw_valid;
      out_req_o.aw_id    = tma_pkg::AxiIdAtop;
      out_req_o.aw_addr  = {k_addr[63:12], eaddr};
      out_req_o.aw_len   = 8'd0;
      out_req_o.aw_size  = k_esz8 ? 3'd3 : 3'd2;
      out_req_o.aw_burst = tma_pkg::AxiBurstIncr;
      out_req_o.aw_atop  = k_atop;
    end
    if (h_valid_q) begin
      out_req_o.w_valid = 1'b1;
      out_req_o.w_last  = 1'b1;
      out_w_data_o      = h_data_q;
      out_w_strb_o      = h_strb_q & emask_w;
    end
    // an element's B is taken unless the oldest atomic burst is complete (its merged B first)
    out_req_o.b_ready = b_atom ? !head_done : in_req_i.b_ready;
  end
  assign kq_pop = w_atom ? burst_done
                         : (in_req_i.w_valid && plain_w && out_rsp_i.w_ready && in_req_i.w_last);

  // ---- Merge queue: the element count of each atomic burst whose AWs have all gone out ----

  tma_fifo #(
    .Width    (EcW),
    .Depth    (Depth),
    .FlopWrEn (1'b1)
  ) u_mq (
    .clk_i,
    .rst_ni,
    .clr_i       (1'b0),
    .in_valid_i  (burst_done),
    .in_ready_o  (mq_in_ready),
    .in_data_i   (ecnt_q + EcW'(aw_fire_el)),
    .out_valid_o (mq_valid),
    .out_ready_i (emit),
    .out_data_o  (mq_cnt),
    .usage_o     (mq_usage)
  );

  assign mb_take     = mb_valid_q && in_req_i.b_ready;
  assign emit        = head_done && (!mb_valid_q || mb_take);
  assign b_atom_fire = out_rsp_i.b_valid && b_atom && !head_done;
  assign b_data_fire = out_rsp_i.b_valid && !b_atom && in_req_i.b_ready;

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_merge
    if (!rst_ni) begin
      bcnt_q     <= '0;
      berr_q     <= tma_pkg::AxiRespOkay;
      mb_valid_q <= 1'b0;
      mb_resp_q  <= tma_pkg::AxiRespOkay;
    end else begin
      if (emit) begin
        bcnt_q     <= '0;
        berr_q     <= tma_pkg::AxiRespOkay;
        mb_valid_q <= 1'b1;
        mb_resp_q  <= berr_q;
      end else begin
        if (mb_take) mb_valid_q <= 1'b0;
        if (b_atom_fire) begin
          bcnt_q <= bcnt_q + 1'b1;
          if (out_rsp_i.b_resp > berr_q) berr_q <= out_rsp_i.b_resp;
        end
      end
    end
  end

  // To the engine: AW and W readies; B: the merged one, or a plain burst's (never both
  // outstanding).
  always_comb begin : proc_in_rsp
    in_rsp_o.aw_ready = in_aw_ready;
    in_rsp_o.w_ready  = w_atom ? beat_take : (plain_w && out_rsp_i.w_ready);
    in_rsp_o.b_valid = mb_valid_q || (out_rsp_i.b_valid && !b_atom);
    in_rsp_o.b_id    = tma_pkg::AxiIdData;
    in_rsp_o.b_resp  = mb_valid_q ? mb_resp_q : out_rsp_i.b_resp;
  end

  // Outstanding bursts of each kind (the ordering fence).
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_outstanding
    if (!rst_ni) begin
      data_out_q <= '0;
      atom_out_q <= '0;
    end else begin
      data_out_q <= data_out_q + OutW'(pass_aw && out_rsp_i.aw_ready) - OutW'(b_data_fire);
      atom_out_q <= atom_out_q + AoW'(kq_push && aw_atom) - AoW'(mb_take);
    end
  end

  logic unused_bits;
  assign unused_bits = ^{kq_usage, mq_usage, mq_in_ready};

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_INIT(DepthLegal_A, Depth >= 2 && Depth < 256)
  // Never both kinds outstanding (the ordering fence), and never both B sources at once.
  `TMA_ASSERT_NEVER(KindsApart_A, data_out_q != '0 && atom_out_q != '0)
  `TMA_ASSERT_NEVER(OneBSource_A, mb_valid_q && out_rsp_i.b_valid && !b_atom)
  `TMA_ASSERT_IMPLY(BIdKnown_A, out_rsp_i.b_valid,
                    out_rsp_i.b_id == tma_pkg::AxiIdData || b_atom)
  `TMA_ASSERT_IMPLY(AtomBExpected_A, out_rsp_i.b_valid && b_atom, atom_out_q != '0)
  `TMA_ASSERT_IMPLY(DataBExpected_A, out_rsp_i.b_valid && !b_atom, data_out_q != '0)
  // The merge queue has room for every atomic burst taken (atom_out_q <= Depth).
  `TMA_ASSERT_IMPLY(MergeRoom_A, burst_done, mq_in_ready)
  `TMA_ASSERT(AtomOutRange_A, 32'(atom_out_q) <= Depth)
  // An atomic burst is the engine's: full beats, within MaxBurstLen.
  `TMA_ASSERT_IMPLY(AtomBurstShape_A, in_req_i.aw_valid && aw_atom,
                    in_req_i.aw_size == 3'(SizeLog2) && 32'(in_req_i.aw_len) < MaxBurstLen &&
                    in_req_i.aw_atop[5:4] == 2'b01 && !in_req_i.aw_atop[3])
  // AXI5: the strobes inside an AtomicStore's data window are all set (an element is written
  // whole or not at all).
  `TMA_ASSERT_IMPLY(ElemWhole_A, h_valid_q, (h_strb_q & emask_w) == emask_w)
  // The hold register holds only pending elements; plain W beats never meet it.
  `TMA_ASSERT_IMPLY(HoldPending_A, h_valid_q, h_pend_q != '0)
  `TMA_ASSERT_NEVER(HoldPlain_A, h_valid_q && kq_valid && !k_atom)
  `TMA_ASSERT_IMPLY(ElemAligned_A, out_req_o.aw_valid && w_atom,
                    (eaddr & (k_esz8 ? 12'd7 : 12'd3)) == '0)
  `TMA_COVER(ElemSkipped_C, beat_take && live != '0 && live != '1 && !k_esz8)
  `TMA_COVER(BeatEmpty_C, beat_take && live == '0)
  `TMA_COVER(AwAhead_C, aw_fire_el && w_fire_el)
  `TMA_COVER(AtomError_C, b_atom_fire && out_rsp_i.b_resp != tma_pkg::AxiRespOkay)
  `TMA_COVER(PlainWaitsAtom_C, in_req_i.aw_valid && !aw_atom && atom_out_q != '0)
  `TMA_COVER(AtomWaitsPlain_C, in_req_i.aw_valid && aw_atom && data_out_q != '0)

endmodule

`default_nettype wire
