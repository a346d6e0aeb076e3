// SPDX-License-Identifier: Apache-2.0
//
// tma_burst_split: cuts row read requests {DataBytes-aligned address, beats} into AXI4 INCR
// bursts of at most MaxBurstLen beats that never cross a 4 KiB boundary.
//
// Pipeline: an input register slice (tma_spill_reg: req_ready_o depends only on flops; it also
// holds the beats to the page end, computed beside the request), the current request (4 KiB
// page, beat offset in the page, beats left - 1) with registered decision flags, and the AR
// output spill register (the burst on ar_o comes from flops and is held until taken; whether
// it can take a burst is a function of its own flops, so ar_ready_i reaches only them). The burst
// length is min(beats left, MaxBurstLen, beats to the page end); which of the three it is, is
// decided one cycle ahead: for a new request from the input slice (compares of its registered
// fields, in the cycle it is loaded), later from the current registers. So a request that fits
// one burst leaves in one cycle and the next request is loaded in the same cycle (one burst per
// cycle). A request split into several bursts spends two cycles per burst (the decision is
// recomputed after each). A burst that ends at a page end is followed by two cycles that
// increment the page number (a row of <= 2048 bytes crosses at most one page boundary).

`default_nettype none

`include "tma_assert.svh"

module tma_burst_split #(
  parameter  int unsigned DataBytes   = 16,
  parameter  int unsigned MaxBurstLen = 16,   // beats, 1 .. 256
  localparam int unsigned SizeLog2    = $clog2(DataBytes),
  localparam int unsigned CntW        = tma_pkg::BeatCntW
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // Row read requests
  input  logic              req_valid_i,
  output logic              req_ready_o,
  input  tma_pkg::rd_req_t  req_i,
  // Bursts
  output logic              ar_valid_o,
  input  logic              ar_ready_i,
  output tma_pkg::ar_t      ar_o,
  // Status
  output logic              busy_o
);

  localparam int unsigned OffW  = 12 - SizeLog2;     // beat offset inside a 4 KiB page
  localparam int unsigned PageW = 52;                // page number, address bits [63:12]
  localparam int unsigned HalfW = PageW / 2;
  localparam int unsigned LeftW = OffW + 1;
  localparam int unsigned InW   = tma_pkg::RdReqWidth + LeftW;

  // ---- Input slice: the request and its beats to the page end ----
  logic             in_valid, in_ready;
  tma_pkg::rd_req_t in_req;
  logic [LeftW-1:0] in_page_left;         // beats from the request address to the page end

  tma_spill_reg #(
    .Width  (InW),
    .Bypass (0)
  ) u_in (
    .clk_i,
    .rst_ni,
    .in_valid_i  (req_valid_i),
    .in_ready_o  (req_ready_o),
    .in_data_i   ({req_i, LeftW'(1 << OffW) - LeftW'(req_i.addr[11:SizeLog2])}),
    .out_valid_o (in_valid),
    .out_ready_i (in_ready),
    .out_data_o  ({in_req, in_page_left})
  );

  // ---- Current request ----
  logic              cur_valid_d, cur_valid_q;          // a request is being split
  logic              cross_d, cross_q;       // the last burst ended at a page end: next page ...
  logic              cross2_q;               // ... taken in the second cycle (page_inc)
  logic [PageW-1:0]  page_d, page_q;                    // 4 KiB page of the next burst
  logic [OffW-1:0]   beat_off_d, beat_off_q;            // its beat offset in the page
  logic [CntW-1:0]   beats_left_m1_d, beats_left_m1_q;  // beats left - 1
  logic              flags_ok_d, flags_ok_q;  // the flags below hold for the current registers
  logic              fits_d, fits_q;          // one burst takes the rest of the request
  logic              to_page_end_d, to_page_end_q;  // (else) the burst ends at the page end
  logic              pf_d, pf_q;             // the current request is a prefetch's
  logic              emit_ok_d, emit_ok_q;    // cur_valid_q && flags_ok_q && !cross_q &&
                                              // !cross2_q, a flop: a burst may be emitted
  // ---- AR output spill register ----
  logic              ar_room;                // it can take a burst (flops only)

  logic [OffW-1:0]   page_left_m1;           // beats to the page end - 1
  // Decision flags from the current registers (cur_*) / from the input slice (in_*)
  logic              cur_fits, cur_to_page_end, in_fits, in_to_page_end;
  logic [7:0]        burst_len;
  logic              emit, take, load;
  // Copies of cur_valid_q, emit_ok_q and fits_q for the input slice's ready, held inverted:
  // the slice's flags sit by the row fork, the current registers' selects by the splitter, and
  // neither waits for the other's LUTs.
  logic              inv_cur_valid_q, inv_emit_ok_q, inv_fits_q;
  logic [CntW-1:0]   beats_left_m1_after_max, beats_left_m1_after_page;
  logic [OffW-1:0]   beat_off_after_max;
  logic [PageW-1:0]  page_inc;               // page_q + 1 (page_q stable for two cycles)
  logic              page_lo_ones_q;         // &page_q[HalfW-1:0], registered

  // Whether a page end comes before MaxBurstLen beats (always, when a page holds no more).
  logic page_le_max, in_page_le_max;
  if ((1 << OffW) <= MaxBurstLen) begin : gen_page_le_max
    assign page_le_max    = 1'b1;
    assign in_page_le_max = 1'b1;
  end else begin : gen_page_gt_max
    assign page_le_max    = (32'(page_left_m1) <= MaxBurstLen - 1);
    assign in_page_le_max = (32'(in_page_left) <= MaxBurstLen);
  end

  assign pf_d            = take ? in_req.pf : pf_q;   // (every burst of a request has it)
  assign page_left_m1    = ~beat_off_q;
  assign cur_fits        = (beats_left_m1_q <= CntW'(MaxBurstLen - 1)) &&
                           (beats_left_m1_q <= CntW'(page_left_m1));
  assign cur_to_page_end = !cur_fits && page_le_max;
  assign in_fits         = (32'(in_req.nbeats) <= MaxBurstLen) &&
                           (CntW'(in_req.nbeats) <= CntW'(in_page_left));
  assign in_to_page_end  = !in_fits && in_page_le_max;

  assign burst_len = fits_q        ? 8'(beats_left_m1_q) :
                     to_page_end_q ? 8'(page_left_m1) : 8'(MaxBurstLen - 1);

  assign beats_left_m1_after_max  = beats_left_m1_q - CntW'(MaxBurstLen);
  assign beats_left_m1_after_page = beats_left_m1_q + ~(CntW'(page_left_m1));   // - page left
  assign beat_off_after_max       = beat_off_q + OffW'(MaxBurstLen);

  // Page + 1, registered every cycle, as two halves; the upper half's carry-in (the AND of
  // the lower half) is itself registered a cycle earlier: the page register is stable for at
  // least two cycles before a page crossing uses page_inc (a load, then a burst, then cross_q).
  logic             page_lo_ones_d;
  logic [PageW-1:0] page_inc_d;
  assign page_lo_ones_d = &page_q[HalfW-1:0];
  assign page_inc_d     = {page_q[PageW-1:HalfW] + HalfW'(page_lo_ones_q),
                           page_q[HalfW-1:0] + HalfW'(1)};

  always_ff @(posedge clk_i) begin : proc_page_inc
    page_lo_ones_q <= page_lo_ones_d;
    page_inc       <= page_inc_d;
  end

  // emit is one LUT of flops (emit_ok_q and the AR spill register's flags). The current
  // registers take the input slice's request whenever the current request is absent or ends
  // (take, a LUT of flops: without the slice's valid they load a request that is not there,
  // and cur_valid_q stays clear); the valid reaches only cur_valid_q, flags_ok_q and emit_ok_q
  // (load).
  assign emit     = emit_ok_q && ar_room;
  assign take     = !cur_valid_q || (emit && fits_q);
  assign load     = in_valid && take;
  // take, from the inverted copies
  assign in_ready = inv_cur_valid_q || (!inv_emit_ok_q && ar_room && !inv_fits_q);

  always_comb begin : proc_next
    cur_valid_d     = cur_valid_q;
    cross_d         = cross_q;
    page_d          = page_q;
    beat_off_d      = beat_off_q;
    beats_left_m1_d = beats_left_m1_q;
    // Decision flags: recomputed from the current registers whenever they are stale.
    flags_ok_d      = 1'b1;
    fits_d          = flags_ok_q ? fits_q : cur_fits;
    to_page_end_d   = flags_ok_q ? to_page_end_q : cur_to_page_end;
    if (cross_q) begin
      cross_d = 1'b0;
    end
    if (cross2_q) begin
      page_d = page_inc;
    end
    if (emit) begin
      if (fits_q) begin
        cur_valid_d = 1'b0;
      end else if (to_page_end_q) begin
        cross_d         = 1'b1;
        beat_off_d      = '0;
        beats_left_m1_d = beats_left_m1_after_page;
        flags_ok_d      = 1'b0;
      end else begin
        beat_off_d      = beat_off_after_max;
        beats_left_m1_d = beats_left_m1_after_max;
        flags_ok_d      = 1'b0;
      end
    end
    if (load) begin
      cur_valid_d = 1'b1;
    end
    if (take) begin
      page_d          = in_req.addr[63:12];
      beat_off_d      = in_req.addr[11:SizeLog2];
      beats_left_m1_d = in_req.nbeats - CntW'(1);
      flags_ok_d      = 1'b1;
      fits_d          = in_fits;
      to_page_end_d   = in_to_page_end;
    end
  end

  // emit_ok_d = cur_valid_d && flags_ok_d && !cross_d && !cross2_d: a load makes the new
  // request ready at once (its flags come from the input slice, and a load never follows a
  // page crossing); a burst clears it (the request ends, or its flags are recomputed, or a
  // page crossing follows); in the first crossing cycle it stays clear; otherwise the flags
  // are fresh.
  assign emit_ok_d = load || (!emit && cur_valid_q && !cross_q);

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_state
    if (!rst_ni) begin
      cur_valid_q <= 1'b0;
      cross_q     <= 1'b0;
      cross2_q    <= 1'b0;
      flags_ok_q  <= 1'b0;
      emit_ok_q   <= 1'b0;
    end else begin
      cur_valid_q <= cur_valid_d;
      cross_q     <= cross_d;
      cross2_q    <= cross_q;
      flags_ok_q  <= flags_ok_d;
      emit_ok_q   <= emit_ok_d;
    end
  end

  tma_dup_reg #(
    .Width  (2),
    .Copies (1),
    .Invert (1'b1)
  ) u_in_copies (
    .clk_i,
    .rst_ni,
    .d_i    ({cur_valid_d, emit_ok_d}),
    .q_o    ({inv_cur_valid_q, inv_emit_ok_q})
  );

  always_ff @(posedge clk_i) begin : proc_data
    pf_q            <= pf_d;
    page_q          <= page_d;
    beat_off_q      <= beat_off_d;
    beats_left_m1_q <= beats_left_m1_d;
    fits_q          <= fits_d;
    to_page_end_q   <= to_page_end_d;
  end

  // fits_q's copy has no reset, like fits_q (a tma_dup_reg resets its copies): its own flop.
  always_ff @(posedge clk_i) begin : proc_fits_copy
    inv_fits_q <= !fits_d;
  end

  tma_spill_reg #(
    .Width  (73),
    .Bypass (0)
  ) u_ar (
    .clk_i,
    .rst_ni,
    .in_valid_i  (emit),
    .in_ready_o  (ar_room),
    .in_data_i   ({page_q, beat_off_q, SizeLog2'(0), burst_len, pf_q}),
    .out_valid_o (ar_valid_o),
    .out_ready_i (ar_ready_i),
    .out_data_o  ({ar_o.addr, ar_o.len, ar_o.pf})
  );

  assign busy_o = in_valid || cur_valid_q || ar_valid_o;

  logic unused_req;
  assign unused_req = ^in_req.addr[SizeLog2-1:0];

  `TMA_ASSERT_INIT(MaxBurstLenLegal_A, MaxBurstLen >= 1 && MaxBurstLen <= 256)
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes >= 16 && DataBytes <= 128)
  `TMA_ASSERT_STABLE(ArHeld_A, ar_valid_o, ar_ready_i, ar_o)
  `TMA_ASSERT_IMPLY(ReqAligned_A, req_valid_i, req_i.addr[SizeLog2-1:0] == '0)
  `TMA_ASSERT_IMPLY(ReqBeats_A, req_valid_i, req_i.nbeats != '0)
  `TMA_ASSERT_IMPLY(No4kCross_A, ar_valid_o,
                    32'(ar_o.addr[11:0]) + ((32'(ar_o.len) + 32'd1) << SizeLog2) <= 32'd4096)
  `TMA_ASSERT_IMPLY(BurstLen_A, ar_valid_o, 32'(ar_o.len) < MaxBurstLen)
  // The registered decision matches the current registers when it is used.
  `TMA_ASSERT_COPY(EmitOkFlag_A, emit_ok_q, cur_valid_q && flags_ok_q && !cross_q && !cross2_q)
  `TMA_ASSERT_IMPLY(FlagsFresh_A, emit, fits_q == cur_fits && to_page_end_q == cur_to_page_end)
  `TMA_ASSERT_COPY(CurValidCopy_A, inv_cur_valid_q, !cur_valid_q)
  `TMA_ASSERT_COPY(EmitOkCopy_A, inv_emit_ok_q, !emit_ok_q)
  `TMA_ASSERT_COPY(FitsCopy_A, inv_fits_q, !fits_q)
  `TMA_ASSERT_IMPLY(PageIncFresh_A, cross2_q, page_inc == page_q + PageW'(1))

endmodule

`default_nettype wire
