// SPDX-License-Identifier: Apache-2.0
//
// tma_rd_engine: the engine's AXI4 read manager. Three AR streams share the AR channel: the
// controller's descriptor fetches (ID AxiIdDesc), the burst splitter's data bursts (ID
// AxiIdData) and the reductions' old-data bursts (ID AxiIdRed, the store direction's
// read-modify-write; their beats go to tma_wr_red with its ready, in order). Each enters
// through a spill register, so no source's ready depends on the AR port or the arbiter; a
// round-robin arbiter (tma_stream_arb, grant held while stalled) picks one per AR handshake.
// Data bursts are limited to MaxOutstanding in flight by a credit
// counter. R beats are routed by ID: descriptor beats go, registered, to the controller (which
// takes every beat of its fetch, so they are always accepted); data beats go to the data beat
// stream (unpacker or aligner) with its ready. All data reads use one ID, so AXI4 returns them
// in order.
//
// Watchdog (parameter Watchdog, cycles; 0: none): each ID has a tma_rd_watchdog. When the
// slave owes beats of an ID and the R channel stays empty for Watchdog cycles, every owed beat
// of that ID fails: the engine passes that many beats flagged as bus errors to the ID's
// consumer in their place (the descriptor fetch, the unpacker / aligner or tma_wr_red, which
// end the command with bus_error as for an SLVERR beat), returns the data bursts' credits, and
// takes and drops the slave's late answers to them. A read slave that stops answering thus
// ends the affected commands with bus_error instead of stalling the engine; the other commands
// are not touched. AR is not timed out: AXI4 does not let a manager withdraw a valid.
//
// Streams: descriptor AR in, data AR in (ar_t); AXI4 read request out / response in
// (axi_rd_req_t / axi_rd_rsp_t, R data beside the response); descriptor beats out (valid,
// data, err; no ready); data beats out (valid/ready, data, err).

`default_nettype none

`include "tma_assert.svh"

module tma_rd_engine #(
  parameter  int unsigned DataBytes      = 16,
  parameter  int unsigned MaxOutstanding = 512,   // data bursts in flight, 1 .. 1024
  parameter  int unsigned Watchdog       = 0,     // cycles of R silence before owed beats
                                                  // fail (0: never), >= 2
  localparam int unsigned DW             = DataBytes * 8
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // Descriptor fetch bursts (from the command controller)
  input  logic                 desc_ar_valid_i,
  output logic                 desc_ar_ready_o,
  input  tma_pkg::ar_t         desc_ar_i,
  // Data bursts (from the burst splitter)
  input  logic                 data_ar_valid_i,
  output logic                 data_ar_ready_o,
  input  tma_pkg::ar_t         data_ar_i,
  // Old-data bursts of reductions (from their burst splitter)
  input  logic                 red_ar_valid_i,
  output logic                 red_ar_ready_o,
  input  tma_pkg::ar_t         red_ar_i,
  // AXI4 read channels
  output tma_pkg::axi_rd_req_t axi_req_o,
  input  tma_pkg::axi_rd_rsp_t axi_rsp_i,
  input  logic [DW-1:0]        axi_r_data_i,
  // Descriptor beats (to the command controller: registered, always accepted)
  output logic                 desc_r_valid_o,
  output logic [DW-1:0]        desc_r_data_o,
  output logic                 desc_r_err_o,
  // Data beats (to the unpacker / aligner)
  output logic                 beat_valid_o,
  input  logic                 beat_ready_i,
  output logic [DW-1:0]        beat_data_o,
  output logic                 beat_err_o,
  // Old-data beats of reductions (to tma_wr_red)
  output logic                 red_valid_o,
  input  logic                 red_ready_i,
  output logic                 red_err_o,
  // Status
  output logic                 busy_o
);

  localparam int unsigned CreditW = $clog2(MaxOutstanding + 1);

  // ---- Signals ----
  logic               desc_slice_valid, desc_slice_ready;  // descriptor ARs out of their slice
  tma_pkg::ar_t       desc_slice_ar;
  logic               data_slice_valid, data_slice_ready;  // data ARs out of their slice
  tma_pkg::ar_t       data_slice_ar;
  logic               data_arb_valid, data_arb_ready;      // data ARs at the arbiter
  logic               red_slice_valid, red_slice_ready;    // reduction ARs out of their slice
  tma_pkg::ar_t       red_slice_ar;
  logic [2:0]         arb_ready;
  logic [1:0]         arb_idx;                             // the granted AR: 0 data, 1 desc,
                                                           // 2 reduction
  logic               r_is_red;               // the R beat on the port is a reduction's
  logic               ar_valid;
  tma_pkg::ar_t       ar;
  logic [CreditW-1:0] credits_d, credits_q;   // data bursts that may still be issued
  logic               credit_ok_q;            // credits_q != 0, registered with credits_q
  logic               data_ar_fire;           // a data burst's AR handshake
  logic               data_r_last_fire;       // the last beat of a data burst is taken
  logic               rlast_q;                // ... (or it timed out) registered: its
                                              // credit returns
  logic               r_is_desc;              // the R beat on the port is a descriptor beat
  logic               r_err;                  // its response is not OKAY
  logic               desc_r_valid_d;         // a descriptor beat is on the port
  logic               credit_ok_d;            // credits_d != 0
  logic               ar_fire;                // an AR handshake on the port
  // Watchdogs, per ID (tma_rd_watchdog): an error beat is offered in place of the port's
  // (inj), the port's beat of the ID is late (drop), the data ID's owed beats fail (timeout)
  logic               desc_inj, desc_drop, data_inj, data_drop, red_inj, red_drop;
  logic               desc_timeout, data_timeout, red_timeout;
  logic               desc_wd_busy, data_wd_busy, red_wd_busy;
  logic               beat_take, red_take;    // the data / reduction consumer takes a beat

  // ---- AR slices ----
  // Descriptor AR slice: the controller's AR handshake ends at flops (its valid is a compare
  // of its fetch counters), so the arbiter's grant does not reach into the controller.
  tma_spill_reg #(
    .Width  (tma_pkg::ArWidth),
    .Bypass (0)
  ) u_desc_ar_slice (
    .clk_i,
    .rst_ni,
    .in_valid_i  (desc_ar_valid_i),
    .in_ready_o  (desc_ar_ready_o),
    .in_data_i   (desc_ar_i),
    .out_valid_o (desc_slice_valid),
    .out_ready_i (desc_slice_ready),
    .out_data_o  (desc_slice_ar)
  );

  // Data AR slice: the splitter's ready path ends here, so the AR port, the arbiter and the
  // credit test do not reach the splitter.
  tma_spill_reg #(
    .Width  (tma_pkg::ArWidth),
    .Bypass (0)
  ) u_data_ar_slice (
    .clk_i,
    .rst_ni,
    .in_valid_i  (data_ar_valid_i),
    .in_ready_o  (data_ar_ready_o),
    .in_data_i   (data_ar_i),
    .out_valid_o (data_slice_valid),
    .out_ready_i (data_slice_ready),
    .out_data_o  (data_slice_ar)
  );

  // Reduction AR slice (its burst splitter's ready path ends here).
  tma_spill_reg #(
    .Width  (tma_pkg::ArWidth),
    .Bypass (0)
  ) u_red_ar_slice (
    .clk_i,
    .rst_ni,
    .in_valid_i  (red_ar_valid_i),
    .in_ready_o  (red_ar_ready_o),
    .in_data_i   (red_ar_i),
    .out_valid_o (red_slice_valid),
    .out_ready_i (red_slice_ready),
    .out_data_o  (red_slice_ar)
  );

  // ---- AR arbitration ----
  // A data burst competes only while a credit is left (credit_ok_q, a flop).
  assign data_arb_valid   = data_slice_valid && credit_ok_q;
  assign data_slice_ready = data_arb_ready && credit_ok_q;

  tma_stream_arb #(
    .NumIn  (3),
    .Width  (tma_pkg::ArWidth),
    .LockIn (1)
  ) u_ar_arb (
    .clk_i,
    .rst_ni,
    .in_valid_i  ({red_slice_valid, desc_slice_valid, data_arb_valid}),
    .in_ready_o  (arb_ready),
    .in_data_i   ({red_slice_ar, desc_slice_ar, data_slice_ar}),
    .out_valid_o (ar_valid),
    .out_ready_i (axi_rsp_i.ar_ready),
    .out_data_o  (ar),
    .out_idx_o   (arb_idx)
  );
  assign data_arb_ready   = arb_ready[0];
  assign desc_slice_ready = arb_ready[1];
  assign red_slice_ready  = arb_ready[2];

  always_comb begin : proc_axi_req
    axi_req_o          = '0;
    axi_req_o.ar_valid = ar_valid;
    axi_req_o.ar_id    = (arb_idx == 2'd1) ? tma_pkg::AxiIdDesc :
                         (arb_idx == 2'd2) ? tma_pkg::AxiIdRed : tma_pkg::AxiIdData;
    axi_req_o.ar_addr  = ar.addr;
    axi_req_o.ar_len   = ar.len;
    axi_req_o.ar_size  = 3'($clog2(DataBytes));
    axi_req_o.ar_burst = tma_pkg::AxiBurstIncr;
    // ARCACHE: a prefetch's data burst asks a system cache to allocate; every other read is
    // Normal Non-cacheable Bufferable (docs/interfaces.md)
    axi_req_o.ar_cache = (arb_idx == 2'd0 && ar.pf) ? tma_pkg::AxiCachePrefetch :
                                                      tma_pkg::AxiCacheNormal;
    axi_req_o.r_ready  = r_is_desc ? (desc_drop || !desc_inj) :
                         r_is_red  ? (red_drop || (!red_inj && red_ready_i)) :
                                     (data_drop || (!data_inj && beat_ready_i));
  end

  // ---- R routing by ID ----
  assign r_is_desc    = (axi_rsp_i.r_id == tma_pkg::AxiIdDesc);
  assign r_err        = (axi_rsp_i.r_resp != tma_pkg::AxiRespOkay);
  assign r_is_red     = (axi_rsp_i.r_id == tma_pkg::AxiIdRed);
  // An ID's error beat (its watchdog timed out) goes first; a late beat is not passed on.
  assign beat_valid_o = data_inj || (axi_rsp_i.r_valid && !r_is_desc && !r_is_red && !data_drop);
  assign red_valid_o  = red_inj || (axi_rsp_i.r_valid && r_is_red && !red_drop);
  assign red_err_o    = red_inj || r_err;
  assign beat_data_o  = axi_r_data_i;
  assign beat_err_o   = data_inj || r_err;

  // Descriptor beats reach the controller a cycle after the port. The controller loads its
  // decoded map's fields with each beat, an enable of several hundred flops; registering the
  // beat keeps the ID compare, the valid and the controller's beat count out of that enable's
  // path. Data and response are copied every cycle: only the valid is qualified.
  assign desc_r_valid_d = desc_inj || (axi_rsp_i.r_valid && r_is_desc && !desc_drop);

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_desc_r
    if (!rst_ni) begin
      desc_r_valid_o <= 1'b0;
      desc_r_err_o   <= 1'b0;
    end else begin
      desc_r_valid_o <= desc_r_valid_d;
      desc_r_err_o   <= desc_inj || r_err;
    end
  end
  always_ff @(posedge clk_i) begin : proc_desc_r_data
    desc_r_data_o <= axi_r_data_i;
  end

  // ---- Watchdogs ----
  // Data reads: several commands' bursts are in flight (a credit each, at most MaxOutstanding
  // x 256 beats), so a timeout fails the oldest burst only (PerBurst). Descriptor fetches
  // (single beats of one map: one fetch at a time) and reductions' old-data reads (tma_wr_fork
  // runs one reduction at a time in the store direction) belong to one command at a time: a
  // timeout fails every owed beat of the ID, which is that command's. Each watchdog asserts
  // that its counters never wrap.
  assign ar_fire   = ar_valid && axi_rsp_i.ar_ready;
  assign beat_take = beat_valid_o && beat_ready_i;
  assign red_take  = red_valid_o && red_ready_i;

  tma_rd_watchdog #(
    .Watchdog (Watchdog),
    .OwedW    (10)
  ) u_desc_wd (
    .clk_i,
    .rst_ni,
    .ar_fire_i  (ar_fire && arb_idx == 2'd1),
    .ar_len_i   (ar.len),
    .r_valid_i  (axi_rsp_i.r_valid),
    .r_mine_i   (r_is_desc),
    .r_last_i   (axi_rsp_i.r_last),
    .take_i     (desc_r_valid_d),
    .inj_o      (desc_inj),
    .drop_o     (desc_drop),
    .timeout_o  (desc_timeout),
    .busy_o     (desc_wd_busy)
  );

  tma_rd_watchdog #(
    .Watchdog (Watchdog),
    .PerBurst (1'b1),
    .Depth    (MaxOutstanding),
    .OwedW    (CreditW + 9)
  ) u_data_wd (
    .clk_i,
    .rst_ni,
    .ar_fire_i  (ar_fire && arb_idx == 2'd0),
    .ar_len_i   (ar.len),
    .r_valid_i  (axi_rsp_i.r_valid),
    .r_mine_i   (!r_is_desc && !r_is_red),
    .r_last_i   (axi_rsp_i.r_last),
    .take_i     (beat_take),
    .inj_o      (data_inj),
    .drop_o     (data_drop),
    .timeout_o  (data_timeout),
    .busy_o     (data_wd_busy)
  );

  tma_rd_watchdog #(
    .Watchdog (Watchdog),
    .OwedW    (24)
  ) u_red_wd (
    .clk_i,
    .rst_ni,
    .ar_fire_i  (ar_fire && arb_idx == 2'd2),
    .ar_len_i   (ar.len),
    .r_valid_i  (axi_rsp_i.r_valid),
    .r_mine_i   (r_is_red),
    .r_last_i   (axi_rsp_i.r_last),
    .take_i     (red_take),
    .inj_o      (red_inj),
    .drop_o     (red_drop),
    .timeout_o  (red_timeout),
    .busy_o     (red_wd_busy)
  );

  // ---- Credits ----
  // At most MaxOutstanding data bursts in flight. A burst's credit returns one cycle after its
  // last beat (rlast_q), so the R handshake (which reaches back through the aligner's ready)
  // does not meet the counter's adder and zero test in the same cycle. A data burst that
  // times out returns its credit the same way (its late last beat is dropped and returns
  // none).
  assign data_ar_fire     = data_arb_valid && data_arb_ready;
  assign data_r_last_fire = beat_take && !data_inj && axi_rsp_i.r_last;

  always_comb begin : proc_credits
    credits_d = credits_q;
    if (data_ar_fire && !rlast_q) credits_d = credits_q - 1'b1;
    if (!data_ar_fire && rlast_q) credits_d = credits_q + 1'b1;
  end
  assign credit_ok_d = (credits_d != '0);

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_credit_q
    if (!rst_ni) begin
      credits_q   <= CreditW'(MaxOutstanding);
      credit_ok_q <= 1'b1;
      rlast_q     <= 1'b0;
    end else begin
      credits_q   <= credits_d;
      credit_ok_q <= credit_ok_d;
      rlast_q     <= data_r_last_fire || data_timeout;
    end
  end

  assign busy_o = desc_slice_valid || data_slice_valid || red_slice_valid ||
                  (credits_q != CreditW'(MaxOutstanding)) || desc_wd_busy || data_wd_busy ||
                  red_wd_busy;

  // The descriptor and reduction timeouts need no action here (their consumers count beats).
  logic unused_timeout;
  assign unused_timeout = desc_timeout ^ red_timeout;

  // ---- Assertions ----
  `TMA_ASSERT_INIT(MaxOutstandingLegal_A, MaxOutstanding >= 1 && MaxOutstanding <= 1024)
  `TMA_ASSERT_INIT(AxiRdReqWidth_A, tma_pkg::AxiRdReqWidth == $bits(tma_pkg::axi_rd_req_t))
  `TMA_ASSERT_INIT(AxiRdRspWidth_A, tma_pkg::AxiRdRspWidth == $bits(tma_pkg::axi_rd_rsp_t))
  `TMA_ASSERT_INIT(WatchdogLegal_A, Watchdog == 0 || Watchdog >= 2)
  // Descriptor beats are always taken, but for one waiting behind an error beat of its ID.
  `TMA_ASSERT_IMPLY(NoLostDescBeat_A, axi_rsp_i.r_valid && r_is_desc && !desc_inj,
                    axi_req_o.r_ready)
  // credit_ok_q is a registered copy of the zero test of credits_q.
  `TMA_ASSERT_COPY(CreditOkCopy_A, credit_ok_q, credits_q != '0)
  `TMA_ASSERT_NEVER(OutstandingUnderflow_A, rlast_q && !data_ar_fire &&
                                            credits_q == CreditW'(MaxOutstanding))
  // A timeout comes in a cycle without an R beat.
  `TMA_ASSERT_NEVER(TimeoutBeat_A, data_timeout && data_r_last_fire)

endmodule

`default_nettype wire
