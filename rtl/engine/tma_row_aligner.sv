// SPDX-License-Identifier: Apache-2.0
//
// tma_row_aligner: turns row segments and the global read beats of their in-bounds bytes into
// logical (unswizzled) shared-memory beats: it realigns bus beats to the row's shared-memory
// lanes, writes the OOB fill (zero, or 0x7FF7 per 16 bits) for every byte outside the
// in-bounds range without any read for it, rounds 4-byte elements to tf32 (silicon D3) and
// sets byte strobes to exactly the row's bytes. All positions are multiples of 16 bytes except
// the in-bounds end, so the realignment is a rotation by a multiple of 16 bytes of the window
// {beat w+1, beat w}, w = k + q for output beat k. One output beat per cycle in steady state;
// a row whose first output needs two global beats spends one extra cycle loading the first.
// Completion-only rows (has_data = 0) pass as one item without a write. A read beat with an
// error response turns the rest of its command into no-write items and its completion into a
// bus_error error completion.

`include "tma_assert.svh"

module tma_row_aligner #(
  parameter  int unsigned DataBytes = 16,
  localparam int unsigned DW        = DataBytes * 8,
  localparam int unsigned SizeLog2  = $clog2(DataBytes),
  localparam int unsigned RbW       = tma_pkg::RowBytesW,
  localparam int unsigned CntW      = tma_pkg::BeatCntW,
  localparam int unsigned CntW1     = tma_pkg::BeatCntW + 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Row segments (in order, from the row FIFO)
  input  logic                  row_valid_i,
  output logic                  row_ready_o,
  input  tma_pkg::row_t         row_i,
  // Global read beats of the rows' in-bounds bytes, in order
  input  logic                  beat_valid_i,
  output logic                  beat_ready_o,
  input  logic [DW-1:0]         beat_data_i,
  input  logic                  beat_err_i,
  // Logical shared-memory beats (and completion-only items)
  output logic                  out_valid_o,
  input  logic                  out_ready_i,
  output logic                  out_wr_o,      // 1: write this beat; 0: no write
  output logic [31:0]           out_addr_o,    // logical beat address, DataBytes aligned
  output logic [DW-1:0]         out_data_o,
  output logic [DataBytes-1:0]  out_strb_o,
  output logic [2:0]            out_swz_o,
  output logic                  out_last_o,    // last item of a command: complete it
  output tma_pkg::cpl_info_t    out_cpl_o,
  // Status
  output logic                  busy_o
);

  // ---- Current row ----
  logic                       act_d, act_q;
  logic                       data_d, data_q;      // has_data
  logic                       last_d, last_q;
  logic [RbW-1:0]             len_d, len_q;        // L
  logic [RbW-1:0]             head_d, head_q;      // H
  logic [RbW-1:0]             dend_d, dend_q;      // D
  logic [SizeLog2-1:0]        rot_d, rot_q;        // rotation in bytes (multiple of 16)
  logic [CntW-1:0]            nout_d, nout_q;      // output beats of the row
  logic [CntW-1:0]            nb_d, nb_q;          // global beats of the row
  logic                       nan_d, nan_q;
  logic                       tf32_d, tf32_q;
  logic [2:0]                 swz_d, swz_q;
  tma_pkg::cpl_info_t         cpl_d, cpl_q;
  // ---- Per beat ----
  logic [CntW-1:0]            k_d, k_q;            // output beat index
  logic signed [13:0]         pos_d, pos_q;        // row byte of lane 0 of beat k
  logic signed [CntW1-1:0]       w_d, w_q;            // global beat giving lane 0 (k + q)
  logic signed [CntW1-1:0]       in_d, in_q;          // global beats taken so far in the row
  logic [31:0]                addr_d, addr_q;      // logical address of beat k
  logic [DW-1:0]              lo_d, lo_q;          // global beat in_q - 1
  logic                       err_d, err_q;        // a read of this command failed
  // ---- Output register ----
  logic                       ov_d, ov_q;
  logic                       owr_d, owr_q;
  logic [31:0]                oaddr_d, oaddr_q;
  logic [DW-1:0]              odata_d, odata_q;
  logic [DataBytes-1:0]       ostrb_d, ostrb_q;
  logic [2:0]                 oswz_d, oswz_q;
  logic                       olast_d, olast_q;
  tma_pkg::cpl_info_t         ocpl_d, ocpl_q;

  // ---- Row set-up from the row FIFO head ----
  logic [SizeLog2-1:0]        in_soff, in_goff;
  logic signed [14:0]         in_ediff;

  assign in_soff  = row_i.smem_addr[SizeLog2-1:0];
  assign in_goff  = row_i.gaddr[SizeLog2-1:0];
  assign in_ediff = signed'(15'(in_goff)) - signed'(15'(row_i.head)) - signed'(15'(in_soff));

  // ---- Lane ranges of beat k ----
  function automatic logic [8:0] clamp_lanes(input logic signed [14:0] v);
    if (v < 0) clamp_lanes = '0;
    else if (v > 15'(DataBytes)) clamp_lanes = 9'(DataBytes);
    else clamp_lanes = 9'(v);
  endfunction

  logic [8:0] jl, jh, rl, rh;        // in-bounds lanes [jl, jh), row lanes [rl, rh)
  logic [8:0] split;                 // lanes below come from beat w, the others from w + 1
  logic       inb_any, need_lo, need_hi;
  logic       ok, preload, fire, pop, row_end, load;
  logic       err_now;
  logic [DW-1:0]   lo_beat, hi_beat;
  logic [2*DW-1:0] window;
  logic [DW-1:0]   aligned, data;
  logic [DataBytes-1:0] inb, strb;

  assign jl    = clamp_lanes(15'(signed'({1'b0, head_q})) - 15'(pos_q));
  assign jh    = clamp_lanes(15'(signed'({1'b0, dend_q})) - 15'(pos_q));
  assign rl    = clamp_lanes(15'd0 - 15'(pos_q));
  assign rh    = clamp_lanes(15'(signed'({1'b0, len_q})) - 15'(pos_q));
  assign split = 9'(DataBytes) - 9'(rot_q);
  assign inb_any = data_q && (jl < jh);
  assign need_lo = inb_any && (jl < split);
  assign need_hi = inb_any && (jh > split);

  // Where beats w and w + 1 are: in lo_q (taken before) or at the input (taken now).
  always_comb begin : proc_sources
    ok      = 1'b0;
    preload = 1'b0;
    lo_beat = lo_q;
    hi_beat = beat_data_i;
    pop     = 1'b0;
    if (act_q) begin
      if (need_lo && need_hi) begin
        if (in_q == w_q + CntW1'(1)) begin
          ok = beat_valid_i;
          pop = 1'b1;
        end else if (in_q == w_q) begin
          preload = 1'b1;
        end
      end else if (need_lo) begin
        if (in_q == w_q + CntW1'(1)) begin
          ok = 1'b1;
        end else if (in_q == w_q) begin
          ok      = beat_valid_i;
          lo_beat = beat_data_i;
          pop     = 1'b1;
        end
      end else if (need_hi) begin
        if (in_q == w_q + CntW1'(2)) begin
          ok      = 1'b1;
          hi_beat = lo_q;
        end else if (in_q == w_q + CntW1'(1)) begin
          ok  = beat_valid_i;
          pop = 1'b1;
        end
      end else begin
        ok = 1'b1;
      end
    end
  end

  assign fire         = ok && (!ov_q || out_ready_i);
  assign beat_ready_o = (fire && pop) || preload;
  assign row_end      = fire && (k_q == nout_q - 1'b1);
  assign load         = !act_q || row_end;
  assign row_ready_o  = load;
  assign err_now      = err_q || (beat_valid_i && beat_ready_o && beat_err_i);

  // ---- Data: rotate, fill, round ----
  assign window  = {hi_beat, lo_beat};
  assign aligned = DW'(window >> {rot_q, 3'b000});

  always_comb begin : proc_data
    for (int j = 0; j < DataBytes; j++) begin
      inb[j]  = (9'(j) >= jl) && (9'(j) < jh);
      strb[j] = (9'(j) >= rl) && (9'(j) < rh);
      if (inb[j]) data[j*8 +: 8] = aligned[j*8 +: 8];
      else if (nan_q) data[j*8 +: 8] = (j % 2 == 1) ? 8'h7F : 8'hF7;
      else data[j*8 +: 8] = 8'h00;
    end
    if (tf32_q) begin
      for (int g = 0; g < DataBytes / 4; g++) begin
        if (inb[4*g]) begin
          if (data[g*32+23 +: 8] == 8'hFF && data[g*32 +: 23] != '0) begin
            data[g*32 +: 32] = 32'h7FFFE000;   // NaN: sign dropped (silicon D3)
          end else begin
            // Round to nearest, ties to even (25 measured ties, docs/silicon-notes.md).
            data[g*32 +: 32] = (data[g*32 +: 32] + 32'h0FFF + {31'd0, data[g*32+13]})
                               & 32'hFFFFE000;
          end
        end
      end
    end
  end

  // ---- Next state ----
  always_comb begin : proc_next
    act_d = act_q;   data_d = data_q;  last_d = last_q;  len_d = len_q;   head_d = head_q;
    dend_d = dend_q; rot_d = rot_q;    nout_d = nout_q;  nb_d = nb_q;     nan_d = nan_q;
    tf32_d = tf32_q; swz_d = swz_q;    cpl_d = cpl_q;    k_d = k_q;       pos_d = pos_q;
    w_d = w_q;       in_d = in_q;      addr_d = addr_q;  lo_d = lo_q;     err_d = err_q;
    ov_d = ov_q;     owr_d = owr_q;    oaddr_d = oaddr_q; odata_d = odata_q;
    ostrb_d = ostrb_q; oswz_d = oswz_q; olast_d = olast_q; ocpl_d = ocpl_q;

    if (ov_q && out_ready_i) ov_d = 1'b0;

    if (beat_valid_i && beat_ready_o) begin
      lo_d = beat_data_i;
      in_d = in_q + 1'b1;
    end
    if (beat_valid_i && beat_ready_o && beat_err_i) err_d = 1'b1;

    if (fire) begin
      ov_d    = 1'b1;
      owr_d   = data_q && !err_now;
      oaddr_d = addr_q;
      odata_d = data;
      ostrb_d = (data_q && !err_now) ? strb : '0;
      oswz_d  = swz_q;
      olast_d = last_q && row_end;
      ocpl_d  = cpl_q;
      if (err_now && ocpl_d.kind == tma_pkg::CplTx) begin
        ocpl_d.kind = tma_pkg::CplError;
        ocpl_d.err  = tma_pkg::ErrBusError;
      end
      k_d    = k_q + 1'b1;
      pos_d  = pos_q + 14'(DataBytes);
      w_d    = w_q + 1'b1;
      addr_d = addr_q + 32'(DataBytes);
      if (row_end) begin
        act_d = 1'b0;
        if (last_q) err_d = 1'b0;
      end
    end

    if (load && row_valid_i) begin
      act_d  = 1'b1;
      data_d = row_i.has_data;
      last_d = row_i.last;
      len_d  = row_i.row_bytes;
      head_d = row_i.head;
      dend_d = row_i.dend;
      rot_d  = in_ediff[SizeLog2-1:0];
      nout_d = row_i.has_data ?
               CntW'((RbW'(in_soff) + row_i.row_bytes + RbW'(DataBytes - 1)) >> SizeLog2) :
               CntW'(1);
      nb_d   = (row_i.dend > row_i.head) ?
               CntW'((RbW'(in_goff) + row_i.dend - row_i.head + RbW'(DataBytes - 1)) >> SizeLog2) :
               '0;
      nan_d  = row_i.fill_nan;
      tf32_d = row_i.tf32;
      swz_d  = row_i.swz;
      cpl_d  = row_i.cpl;
      k_d    = '0;
      pos_d  = 14'd0 - 14'(in_soff);
      w_d    = CntW1'(in_ediff >>> SizeLog2);
      in_d   = '0;
      addr_d = {row_i.smem_addr[31:SizeLog2], SizeLog2'(0)};
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_state
    if (!rst_ni) begin
      act_q <= 1'b0;  data_q <= 1'b0;  last_q <= 1'b0;  len_q <= '0;   head_q <= '0;
      dend_q <= '0;   rot_q <= '0;     nout_q <= '0;    nb_q <= '0;    nan_q <= 1'b0;
      tf32_q <= 1'b0; swz_q <= '0;     cpl_q <= '0;     k_q <= '0;     pos_q <= '0;
      w_q <= '0;      in_q <= '0;      addr_q <= '0;    lo_q <= '0;    err_q <= 1'b0;
      ov_q <= 1'b0;   owr_q <= 1'b0;   oaddr_q <= '0;   odata_q <= '0; ostrb_q <= '0;
      oswz_q <= '0;   olast_q <= 1'b0; ocpl_q <= '0;
    end else begin
      act_q <= act_d;   data_q <= data_d; last_q <= last_d; len_q <= len_d;   head_q <= head_d;
      dend_q <= dend_d; rot_q <= rot_d;   nout_q <= nout_d; nb_q <= nb_d;     nan_q <= nan_d;
      tf32_q <= tf32_d; swz_q <= swz_d;   cpl_q <= cpl_d;   k_q <= k_d;       pos_q <= pos_d;
      w_q <= w_d;       in_q <= in_d;     addr_q <= addr_d; lo_q <= lo_d;     err_q <= err_d;
      ov_q <= ov_d;     owr_q <= owr_d;   oaddr_q <= oaddr_d; odata_q <= odata_d;
      ostrb_q <= ostrb_d; oswz_q <= oswz_d; olast_q <= olast_d; ocpl_q <= ocpl_d;
    end
  end

  assign out_valid_o = ov_q;
  assign out_wr_o    = owr_q;
  assign out_addr_o  = oaddr_q;
  assign out_data_o  = odata_q;
  assign out_strb_o  = ostrb_q;
  assign out_swz_o   = oswz_q;
  assign out_last_o  = olast_q;
  assign out_cpl_o   = ocpl_q;
  assign busy_o      = act_q || ov_q;

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_STABLE(OutHeld_A, out_valid_o, out_ready_i,
                     {out_wr_o, out_addr_o, out_data_o, out_strb_o, out_swz_o, out_last_o,
                      out_cpl_o})
  // Every global beat of a row is consumed by its last output beat.
  logic signed [CntW1-1:0] in_after;   // beats taken in the row, this cycle's included
  assign in_after = in_q + CntW1'((beat_valid_i && beat_ready_o) ? 1 : 0);
  `TMA_ASSERT(RowBeatsUsed_A, row_end |-> (in_after == signed'(CntW1'(nb_q))))
  `TMA_ASSERT(RowAligned_A, row_valid_i && row_i.has_data |->
              row_i.smem_addr[3:0] == 4'd0 && row_i.gaddr[3:0] == 4'd0)
  // A beat arriving while no row needs it would be a lost beat.
  `TMA_ASSERT_NEVER(BeatBeyondRow_A, act_q && in_q > signed'(CntW1'(nb_q)))

endmodule
