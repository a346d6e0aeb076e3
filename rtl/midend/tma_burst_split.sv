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
  localparam int unsigned PgW   = 52;                // page number, address bits [63:12]
  localparam int unsigned HalfW = PgW / 2;
  localparam int unsigned LeftW = OffW + 1;
  localparam int unsigned InW   = tma_pkg::RdReqWidth + LeftW;

  // ---- Input slice: the request and its beats to the page end ----
  logic             iv, iready;
  tma_pkg::rd_req_t ireq;
  logic [LeftW-1:0] ileft;                // beats from the request address to the page end

  tma_spill_reg #(
    .Width  (InW),
    .Bypass (0)
  ) u_in (
    .clk_i,
    .rst_ni,
    .in_valid_i  (req_valid_i),
    .in_ready_o  (req_ready_o),
    .in_data_i   ({req_i, LeftW'(1 << OffW) - LeftW'(req_i.addr[11:SizeLog2])}),
    .out_valid_o (iv),
    .out_ready_i (iready),
    .out_data_o  ({ireq, ileft})
  );

  // ---- Current request ----
  logic            cv_d, cv_q;           // a request is being split
  logic            cross_d, cross_q;     // the last burst ended at a page end: next page ...
  logic            cross2_q;             // ... taken in the second cycle (pg_inc)
  logic [PgW-1:0]  pg_d, pg_q;
  logic [OffW-1:0] off_d, off_q;
  logic [CntW-1:0] lm_d, lm_q;           // beats left - 1
  logic            fok_d, fok_q;         // the flags below hold for the current registers
  logic            fs_d, fs_q;           // one burst takes the rest of the request
  logic            ft_d, ft_q;           // (else) the burst ends at the page end
  logic            rdy_d, rdy_q;         // cv_q && fok_q && !cross_q && !cross2_q, a flop
  // ---- AR output spill register ----
  logic            ar_room;              // it can take a burst (flops only)

  logic [OffW-1:0] tm;                   // beats to the page end - 1
  logic            sc, tc, sl, tl;       // decision flags from the current regs / the input
  logic [7:0]      len;
  logic            go, take, load;
  // Copies of cv_q, rdy_q and fs_q for the input slice's ready, held inverted so synthesis
  // keeps them apart from the originals: the slice's flags sit by the fork stage, the current
  // registers' selects by the splitter, and neither waits for the other's LUTs.
  logic            ncv_i_q, nrdy_i_q, nfs_i_q;
  logic [CntW-1:0] lm_after_mx, lm_after_tm;
  logic [OffW-1:0] off_after_mx;
  logic [PgW-1:0]  pg_inc;               // pg_q + 1 (pg_q stable for two cycles)
  logic            pg_lo_all_q;          // &pg_q[HalfW-1:0], registered

  // Whether a page end comes before MaxBurstLen beats (always, when a page holds no more).
  logic tm_le_mx, ileft_le_mx;
  if ((1 << OffW) <= MaxBurstLen) begin : gen_page_le_max
    assign tm_le_mx    = 1'b1;
    assign ileft_le_mx = 1'b1;
  end else begin : gen_page_gt_max
    assign tm_le_mx    = (32'(tm) <= MaxBurstLen - 1);
    assign ileft_le_mx = (32'(ileft) <= MaxBurstLen);
  end

  assign tm = ~off_q;
  assign sc = (lm_q <= CntW'(MaxBurstLen - 1)) && (lm_q <= CntW'(tm));
  assign tc = !sc && tm_le_mx;
  assign sl = (32'(ireq.nbeats) <= MaxBurstLen) && (CntW'(ireq.nbeats) <= CntW'(ileft));
  assign tl = !sl && ileft_le_mx;

  assign len = fs_q ? 8'(lm_q) : (ft_q ? 8'(tm) : 8'(MaxBurstLen - 1));

  assign lm_after_mx  = lm_q - CntW'(MaxBurstLen);
  assign lm_after_tm  = lm_q + ~(CntW'(tm));           // lm - tm - 1
  assign off_after_mx = off_q + OffW'(MaxBurstLen);
  // Page + 1, registered every cycle, as two halves; the upper half's carry-in (the AND of
  // the lower half) is itself registered a cycle earlier: the page register is stable for at
  // least two cycles before a page crossing uses pg_inc (a load, then a burst, then cross_q).
  always_ff @(posedge clk_i) begin : proc_pg_inc
    pg_lo_all_q <= &pg_q[HalfW-1:0];
    pg_inc      <= {pg_q[PgW-1:HalfW] + HalfW'(pg_lo_all_q), pg_q[HalfW-1:0] + HalfW'(1)};
  end

  // go is one LUT of flops (rdy_q and the AR spill register's flags). The current registers
  // take the input slice's request whenever the current request is absent or ends (take, a
  // LUT of flops: without the slice's valid they load a request that is not there, and cv_q
  // stays clear); the valid reaches only cv_q, fok_q and rdy_q (load).
  assign go     = rdy_q && ar_room;
  assign take   = !cv_q || (go && fs_q);
  assign load   = iv && take;
  assign iready = ncv_i_q || (!nrdy_i_q && ar_room && !nfs_i_q);   // take, from the copies

  always_comb begin : proc_next
    cv_d    = cv_q;
    cross_d = cross_q;
    pg_d    = pg_q;
    off_d   = off_q;
    lm_d    = lm_q;
    // Decision flags: recomputed from the current registers whenever they are stale.
    fok_d   = 1'b1;
    fs_d    = fok_q ? fs_q : sc;
    ft_d    = fok_q ? ft_q : tc;
    if (cross_q) begin
      cross_d = 1'b0;
    end
    if (cross2_q) begin
      pg_d = pg_inc;
    end
    if (go) begin
      if (fs_q) begin
        cv_d = 1'b0;
      end else if (ft_q) begin
        cross_d = 1'b1;
        off_d   = '0;
        lm_d    = lm_after_tm;
        fok_d   = 1'b0;
      end else begin
        off_d = off_after_mx;
        lm_d  = lm_after_mx;
        fok_d = 1'b0;
      end
    end
    if (load) begin
      cv_d  = 1'b1;
    end
    if (take) begin
      pg_d  = ireq.addr[63:12];
      off_d = ireq.addr[11:SizeLog2];
      lm_d  = ireq.nbeats - CntW'(1);
      fok_d = 1'b1;
      fs_d  = sl;
      ft_d  = tl;
    end
  end

  // rdy_d = cv_d && fok_d && !cross_d && !cross2_d: a load makes the new request ready at
  // once (its flags come from the input slice, and a load never follows a page crossing); a
  // burst clears it (the request ends, or its flags are recomputed, or a page crossing
  // follows); in the first crossing cycle it stays clear; otherwise the flags are fresh.
  assign rdy_d = load || (!go && cv_q && !cross_q);

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_state
    if (!rst_ni) begin
      cv_q    <= 1'b0;
      ncv_i_q <= 1'b1;
      nrdy_i_q <= 1'b1;
      cross_q <= 1'b0;
      cross2_q <= 1'b0;
      fok_q   <= 1'b0;
      rdy_q   <= 1'b0;
    end else begin
      cv_q    <= cv_d;
      ncv_i_q <= !cv_d;
      nrdy_i_q <= !rdy_d;
      cross_q <= cross_d;
      cross2_q <= cross_q;
      fok_q   <= fok_d;
      rdy_q   <= rdy_d;
    end
  end

  always_ff @(posedge clk_i) begin : proc_data
    pg_q  <= pg_d;
    off_q <= off_d;
    lm_q  <= lm_d;
    fs_q  <= fs_d;
    nfs_i_q <= !fs_d;
    ft_q  <= ft_d;
  end

  tma_spill_reg #(
    .Width  (72),
    .Bypass (0)
  ) u_ar (
    .clk_i,
    .rst_ni,
    .in_valid_i  (go),
    .in_ready_o  (ar_room),
    .in_data_i   ({pg_q, off_q, SizeLog2'(0), len}),
    .out_valid_o (ar_valid_o),
    .out_ready_i (ar_ready_i),
    .out_data_o  ({ar_o.addr, ar_o.len})
  );

  assign busy_o     = iv || cv_q || ar_valid_o;

  logic unused_req;
  assign unused_req = ^ireq.addr[SizeLog2-1:0];

  `TMA_ASSERT_INIT(MaxBurstLenLegal_A, MaxBurstLen >= 1 && MaxBurstLen <= 256)
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes >= 16 && DataBytes <= 128)
  `TMA_ASSERT_STABLE(ArHeld_A, ar_valid_o, ar_ready_i, ar_o)
  `TMA_ASSERT_IMPLY(ReqAligned_A, req_valid_i, req_i.addr[SizeLog2-1:0] == '0)
  `TMA_ASSERT_IMPLY(ReqBeats_A, req_valid_i, req_i.nbeats != '0)
  `TMA_ASSERT_IMPLY(No4kCross_A, ar_valid_o,
                    32'(ar_o.addr[11:0]) + ((32'(ar_o.len) + 32'd1) << SizeLog2) <= 32'd4096)
  `TMA_ASSERT_IMPLY(BurstLen_A, ar_valid_o, 32'(ar_o.len) < MaxBurstLen)
  // The registered decision matches the current registers when it is used.
  `TMA_ASSERT(ReadyFlag_A, rdy_q == (cv_q && fok_q && !cross_q && !cross2_q))
  `TMA_ASSERT_IMPLY(FlagsFresh_A, go, fs_q == sc && ft_q == tc)
  `TMA_ASSERT(InputCopies_A, ncv_i_q == !cv_q && nrdy_i_q == !rdy_q && nfs_i_q == !fs_q)
  `TMA_ASSERT_IMPLY(PageIncFresh_A, cross2_q, pg_inc == pg_q + PgW'(1))

endmodule
