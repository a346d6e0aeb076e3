// SPDX-License-Identifier: Apache-2.0
//
// tma_wr_engine: the AXI4 write manager of the store direction. Row writes {first beat, beats,
// last} come in row order; tma_burst_split cuts them into INCR bursts of at most MaxBurstLen
// beats that never cross 4 KiB; each burst goes out on AW (ID AxiIdData) and its data on W
// (from tma_wr_align, strobes included), a burst's W beats only after its AW.
//
// B ordering: every write uses the one ID AxiIdData, so the slave answers the bursts in AW
// order (AXI4 keeps one ID's responses in order) and the engine needs no ID table: a burst
// enters the B queue, in order, with its last W beat, as {burst, end (its command's last),
// W error}, and each B answers the queue's head. A command whose last row writes nothing adds
// an entry {no burst, end} in its place in the order. When a command's end entry leaves the
// queue, its completion information (from tma_wr_fork, in command order) goes out as done, or
// as bus_error when any burst of the command was answered SLVERR / DECERR (or timed out, or
// carried a W error): one completion per command, after every burst of it is written or
// answered; a failed burst marks only its own command (the failure flag clears at each
// command end), so the commands before and after it end as they would without it.
//
// Outstanding bursts: up to MaxOutstanding entries are between AW and their B (counted from
// the W length queue's input to the B queue's output; the credit is a flop). The B queue is a
// RAM (tma_fifo_ram, MaxOutstanding x 3 bits: block RAM / EBR at the default 512) whose head
// is its read register. One-beat bursts at a B latency of L cycles need about L entries for
// one burst per cycle.
//
// Timing: every flop queue's entries load from flops (tma_fifo FlopWrEn), so the handshakes
// that push them (row writes, AW, W, B) reach only their pointer and count flops; the B
// queue's head is a register, so the B handshake, the command end and the pops start at
// flops, not at a MaxOutstanding-way multiplexer. The command information comes in through a
// spill register (its valid is a flop here), and the finished-command queue stores it with
// one failure flag, applied as the queue's output leaves: the B response's logic reaches only
// that flag's data input.
//
// Rows whose bursts are in the splitter are followed by the row tracker (a queue of {beats,
// last} per row, in row order): each AW handshake counts its beats against the tracker's head
// row, and the burst that completes a row takes the row's last flag into the W length queue
// (one entry per burst, AW order: the W beat count and the flags it passes on to the B queue).
// A row of 0 beats (a command's last row with nothing to write) leaves the tracker in a cycle
// without an AW handshake and queues its end entry behind the earlier bursts.
//
// AXI5 atomics: a row write tagged with an AWATOP (a reduction done at the memory, engine
// AtomicReduce) goes out as bursts like any other, with aw_atop set and its element size beside
// AW (axi_aw_esz8_o); tma_atop_split at the AXI write port turns each such burst into one
// AtomicStore per element and merges their B responses into the one B per burst counted here.
//
// Streams: row writes in (wr_req_t), write beats in (data + strobes), command information in
// (cpl_info_t), AXI4 AW / W / B (axi_wr_req_t / axi_wr_rsp_t + W data and strobes), finished
// commands out (cpl_info_t). A write beat flagged with an error (a reduction whose old data
// could not be read) is still written (its strobes as given) and fails its burst (the W error
// bit of its B queue entry), so its command ends with bus_error.
//
// Watchdog (parameter Watchdog, cycles; 0: none): a burst at the B queue's head (its data is
// all sent) whose B has not come after Watchdog cycles leaves the queue as failed (its command
// ends with bus_error) and the next burst's wait starts. Its B, should it still come, is taken
// and dropped: with one ID the B responses keep AW order, so while timed-out bursts are
// unanswered every B belongs to the oldest of them (late_q counts them). AW and W are not
// timed out: AXI4 does not let a manager withdraw a valid (a slave that never takes them
// stalls the store direction until reset).

`default_nettype none

`include "tma_assert.svh"

module tma_wr_engine #(
  parameter  int unsigned DataBytes      = 16,   // 16, 32, 64 or 128
  parameter  int unsigned MaxBurstLen    = 16,   // beats per AXI4 burst, 1 .. 256
  parameter  int unsigned MaxOutstanding = 512,  // entries waiting for B (bursts), >= 2
  parameter  int unsigned Watchdog       = 0,    // cycles a burst waits for its B (0: forever)
  localparam int unsigned DW             = DataBytes * 8,
  localparam int unsigned SizeLog2       = $clog2(DataBytes)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Row writes (from tma_wr_fork)
  input  logic                  req_valid_i,
  output logic                  req_ready_o,
  input  tma_pkg::wr_req_t      req_i,
  // Write beats (from tma_wr_align)
  input  logic                  beat_valid_i,
  output logic                  beat_ready_o,
  input  logic [DW-1:0]         beat_data_i,
  input  logic [DataBytes-1:0]  beat_strb_i,
  input  logic                  beat_err_i,     // the beat's old data (reduction) failed
  // Completion information of each store command (from tma_wr_fork)
  input  logic                  info_valid_i,
  output logic                  info_ready_o,
  input  tma_pkg::cpl_info_t    info_i,
  // AXI4 write channels (global memory)
  output tma_pkg::axi_wr_req_t  axi_req_o,
  input  tma_pkg::axi_wr_rsp_t  axi_rsp_i,
  output logic [DW-1:0]         axi_w_data_o,
  output logic [DataBytes-1:0]  axi_w_strb_o,
  output logic                  axi_aw_esz8_o,  // with aw_atop: the burst's elements are 8 bytes
  // Finished store commands (to the completion unit)
  output logic                  done_valid_o,
  input  logic                  done_ready_i,
  output tma_pkg::cpl_info_t    done_o,
  // Status
  output logic                  busy_o
);

  localparam int unsigned CntW    = tma_pkg::BeatCntW;
  localparam int unsigned TrkW    = CntW + 1 + tma_pkg::AtopBits + 1;
  localparam int unsigned TrkD    = 4;
  localparam int unsigned WlenD   = 4;
  localparam int unsigned WlenW   = 8 + 2;
  localparam int unsigned BqUseW  = $clog2(MaxOutstanding + 1);
  localparam int unsigned WdW     = (Watchdog > 1) ? $clog2(Watchdog + 1) : 1;

  // ---- Command information in, through a spill register ----
  logic               info_valid, info_ready;
  tma_pkg::cpl_info_t info;

  tma_spill_reg #(
    .Width (tma_pkg::CplInfoWidth)
  ) u_info (
    .clk_i,
    .rst_ni,
    .in_valid_i  (info_valid_i),
    .in_ready_o  (info_ready_o),
    .in_data_i   (info_i),
    .out_valid_o (info_valid),
    .out_ready_i (info_ready),
    .out_data_o  (info)
  );

  // ---- Row writes into the splitter and the row tracker ----
  logic split_in_ready, trk_in_ready, has_beats;
  tma_pkg::rd_req_t split_req;

  assign has_beats   = req_i.nbeats != '0;
  assign req_ready_o = trk_in_ready && (split_in_ready || !has_beats);
  assign split_req.addr   = req_i.addr;
  assign split_req.nbeats = req_i.nbeats;
  assign split_req.pf     = 1'b0;

  logic         burst_valid, burst_ready;
  tma_pkg::ar_t burst;
  logic         split_busy;

  tma_burst_split #(
    .DataBytes   (DataBytes),
    .MaxBurstLen (MaxBurstLen)
  ) u_split (
    .clk_i,
    .rst_ni,
    .req_valid_i (req_valid_i && has_beats && trk_in_ready),
    .req_ready_o (split_in_ready),
    .req_i       (split_req),
    .ar_valid_o  (burst_valid),
    .ar_ready_i  (burst_ready),
    .ar_o        (burst),
    .busy_o      (split_busy)
  );

  logic            trk_valid, trk_pop;
  logic [TrkW-1:0] trk_out;
  logic [CntW-1:0] trk_beats;
  logic            trk_last;
  logic [tma_pkg::AtopBits-1:0] trk_atop;
  logic            trk_esz8;
  logic [$clog2(TrkD+1)-1:0] trk_usage;

  tma_fifo #(
    .Width    (TrkW),
    .Depth    (TrkD),
    .FlopWrEn (1'b1)
  ) u_trk (
    .clk_i,
    .rst_ni,
    .clr_i       (1'b0),
    .in_valid_i  (req_valid_i && (split_in_ready || !has_beats)),
    .in_ready_o  (trk_in_ready),
    .in_data_i   ({req_i.nbeats, req_i.last, req_i.atop, req_i.esz8}),
    .out_valid_o (trk_valid),
    .out_ready_i (trk_pop),
    .out_data_o  (trk_out),
    .usage_o     (trk_usage)
  );
  assign {trk_beats, trk_last, trk_atop, trk_esz8} = trk_out;

  // ---- AW, under the credit of the B queue ----
  // credit_q: fewer than MaxOutstanding entries are between the W length queue's input and
  // the B queue's output (a flop: AW and the zero entries start at flops, not at the B
  // queue's pop).
  logic            zero_head;     // the tracker's head row writes nothing
  logic            wlen_in_ready;
  logic            aw_fire;
  logic            zero_push;     // the zero row's end entry enters the W length queue
  logic [CntW-1:0] issued_q;      // beats of the tracker's head row already on AW
  logic [CntW-1:0] issued_n;
  logic            row_end;       // this AW completes the head row
  logic            credit_q;
  logic [BqUseW-1:0] ent_d, ent_q; // entries in the W length queue and the B queue
  logic            wlen_push;
  logic [WlenW-1:0] wlen_in;      // {burst length, end, zero}

  assign zero_head = trk_valid && trk_beats == '0;
  assign axi_req_o.aw_valid = burst_valid && trk_valid && !zero_head && credit_q &&
                              wlen_in_ready;
  assign axi_req_o.aw_id    = tma_pkg::AxiIdData;
  assign axi_req_o.aw_addr  = burst.addr;
  assign axi_req_o.aw_len   = burst.len;
  assign axi_req_o.aw_size  = 3'(SizeLog2);
  assign axi_req_o.aw_burst = tma_pkg::AxiBurstIncr;
  assign axi_req_o.aw_atop  = trk_atop;
  assign axi_aw_esz8_o      = trk_esz8;
  assign aw_fire     = axi_req_o.aw_valid && axi_rsp_i.aw_ready;
  assign burst_ready = aw_fire;
  assign issued_n    = issued_q + CntW'(burst.len) + CntW'(1);
  assign row_end     = issued_n == trk_beats;
  assign zero_push   = zero_head && credit_q && wlen_in_ready;
  assign trk_pop     = (aw_fire && row_end) || zero_push;
  assign wlen_push   = aw_fire || zero_push;
  assign wlen_in     = zero_head ? {8'd0, 1'b1, 1'b1} : {burst.len, row_end && trk_last, 1'b0};

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_issued
    if (!rst_ni) begin
      issued_q <= '0;
    end else if (aw_fire) begin
      issued_q <= row_end ? '0 : issued_n;
    end
  end

  // ---- W: the beats of each burst, after its AW; the burst enters the B queue with its
  // last beat ----
  logic       wlen_valid, wlen_pop, w_fire, w_end;
  logic [7:0] wlen;
  logic       wlen_last, wlen_zero;
  logic [7:0] wcnt_q;
  logic [$clog2(WlenD+1)-1:0] wlen_usage;
  logic       bq_in_ready, bq_push;
  logic [2:0] bq_in;          // {burst, end, W error}

  tma_fifo #(
    .Width    (WlenW),
    .Depth    (WlenD),
    .FlopWrEn (1'b1)
  ) u_wlen (
    .clk_i,
    .rst_ni,
    .clr_i       (1'b0),
    .in_valid_i  (wlen_push),
    .in_ready_o  (wlen_in_ready),
    .in_data_i   (wlen_in),
    .out_valid_o (wlen_valid),
    .out_ready_i (wlen_pop),
    .out_data_o  ({wlen, wlen_last, wlen_zero}),
    .usage_o     (wlen_usage)
  );

  // W waits for room in the B queue (a flop; with the credit it is short only in the cycle
  // after a pop at full occupancy, the RAM queue counting its reads a cycle late).
  assign axi_req_o.w_valid = beat_valid_i && wlen_valid && !wlen_zero && bq_in_ready;
  assign axi_req_o.w_last  = wcnt_q == wlen;
  assign axi_w_data_o      = beat_data_i;
  assign axi_w_strb_o      = beat_strb_i;
  assign w_fire            = axi_req_o.w_valid && axi_rsp_i.w_ready;
  assign w_end             = w_fire && axi_req_o.w_last;
  assign beat_ready_o      = wlen_valid && !wlen_zero && bq_in_ready && axi_rsp_i.w_ready;
  assign bq_push           = w_end || (wlen_valid && wlen_zero && bq_in_ready);
  assign wlen_pop          = bq_push;

  logic werr_q;     // a beat of the burst on W failed

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_wcnt
    if (!rst_ni) begin
      wcnt_q <= '0;
      werr_q <= 1'b0;
    end else if (w_fire) begin
      wcnt_q <= axi_req_o.w_last ? 8'd0 : wcnt_q + 8'd1;
      werr_q <= axi_req_o.w_last ? 1'b0 : werr_q || beat_err_i;
    end
  end

  assign bq_in = wlen_zero ? 3'b010 : {1'b1, wlen_last, werr_q || beat_err_i};

  // ---- B queue and command end ----
  logic              bq_valid, bq_pop;
  logic              bq_burst, bq_end, bq_werr;
  logic              bq_nonempty;
  logic              b_fire, b_err, end_now, done_in_ready;
  logic              b_take;        // a B is taken (an answer, or a timed-out burst's, dropped)
  logic              retire;        // the head burst leaves: answered, or timed out
  logic              retire_err;    // ... failed (SLVERR / DECERR, W error, or no answer)
  logic              head_ready;    // the head entry may leave (room for a command end)
  logic              err_q;         // a burst of the current command failed
  logic              fail;          // the command ending now failed
  // Watchdog
  logic              late;          // timed-out bursts are unanswered: the next B is theirs
  logic [BqUseW:0]   late_q;        // timed-out bursts whose B has not come
  logic              waiting;       // the head burst's data is sent; its B is due
  logic              timeout;       // ... and it has waited Watchdog cycles
  logic [WdW-1:0]    wd_q;

  // The B queue's head is a register (a RAM queue's read register, tma_fifo_ram without the
  // fabric output register): the B handshake, the command end and the pops start at flops,
  // not at a MaxOutstanding-way multiplexer. It holds MaxOutstanding entries (RAM and head):
  // one per burst whose W is complete, {1, end, W error}, and one per command whose last row
  // writes nothing, {0, 1, 0}, in AW order.
  tma_fifo_ram #(
    .Width  (3),
    .Depth  (MaxOutstanding - 1),
    .OutReg (1'b0)
  ) u_bq (
    .clk_i,
    .rst_ni,
    .in_valid_i  (bq_push),
    .in_ready_o  (bq_in_ready),
    .in_data_i   (bq_in),
    .out_valid_o (bq_valid),
    .out_ready_i (bq_pop),
    .out_data_o  ({bq_burst, bq_end, bq_werr}),
    .nonempty_o  (bq_nonempty)
  );

  // A command-ending entry needs room for its completion and the command's information.
  assign late       = late_q != '0;
  assign head_ready = !bq_end || (done_in_ready && info_valid);
  assign axi_req_o.b_ready = late || (bq_valid && bq_burst && head_ready);
  assign b_take     = axi_rsp_i.b_valid && axi_req_o.b_ready;
  assign b_fire     = b_take && !late;
  assign b_err      = axi_rsp_i.b_resp != tma_pkg::AxiRespOkay;
  assign waiting    = bq_valid && bq_burst;
  assign timeout    = Watchdog != 0 && waiting && !b_fire && head_ready &&
                      32'(wd_q) >= Watchdog - 1;
  assign retire     = b_fire || timeout;
  assign retire_err = timeout || (b_fire && b_err) || bq_werr;
  assign end_now    = bq_valid && bq_end && head_ready && (!bq_burst || retire);
  assign bq_pop     = retire || (bq_valid && !bq_burst && end_now);
  assign info_ready = end_now;

  // Entries from the W length queue's input to the B queue's output, and the credit.
  assign ent_d = ent_q + BqUseW'(wlen_push) - BqUseW'(bq_pop);

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_credit
    if (!rst_ni) begin
      ent_q    <= '0;
      credit_q <= 1'b1;
    end else begin
      ent_q    <= ent_d;
      credit_q <= 32'(ent_d) < MaxOutstanding;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_watchdog
    if (!rst_ni) begin
      late_q  <= '0;
      wd_q    <= '0;
    end else begin
      late_q  <= late_q + (BqUseW + 1)'(timeout) - (BqUseW + 1)'(b_take && late);
      if (!waiting || retire) begin
        wd_q <= '0;
      end else if (32'(wd_q) < Watchdog - 1) begin
        wd_q <= wd_q + 1'b1;
      end
    end
  end

  assign fail = err_q || (retire && retire_err);

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_err
    if (!rst_ni) begin
      err_q <= 1'b0;
    end else if (end_now) begin
      err_q <= 1'b0;
    end else if (retire && retire_err) begin
      err_q <= 1'b1;
    end
  end

  // Finished commands: {information, failed}; a failed command ends as bus_error.
  logic [1:0]         done_usage;
  tma_pkg::cpl_info_t done_info;
  logic               done_fail;

  tma_fifo #(
    .Width    (tma_pkg::CplInfoWidth + 1),
    .Depth    (2),
    .FlopWrEn (1'b1)
  ) u_done (
    .clk_i,
    .rst_ni,
    .clr_i       (1'b0),
    .in_valid_i  (end_now),
    .in_ready_o  (done_in_ready),
    .in_data_i   ({info, fail}),
    .out_valid_o (done_valid_o),
    .out_ready_i (done_ready_i),
    .out_data_o  ({done_info, done_fail}),
    .usage_o     (done_usage)
  );

  always_comb begin : proc_done
    done_o = done_info;
    if (done_fail) begin
      done_o.kind  = tma_pkg::CplError;
      done_o.err   = tma_pkg::ErrBusError;
      done_o.bytes = '0;
    end
  end

  assign busy_o = split_busy || trk_usage != '0 || wlen_usage != '0 || bq_nonempty ||
                  done_usage != '0 || info_valid;

  logic unused_bits;
  assign unused_bits = ^{axi_rsp_i.b_id, beat_valid_i, burst.pf};

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_INIT(MaxBurstLenLegal_A, MaxBurstLen >= 1 && MaxBurstLen <= 256)
  `TMA_ASSERT_INIT(MaxOutstandingLegal_A, MaxOutstanding >= 2)
  `TMA_ASSERT_INIT(WatchdogLegal_A, Watchdog == 0 || Watchdog >= 2)
  `TMA_ASSERT_INIT(AxiWrReqWidth_A, tma_pkg::AxiWrReqWidth == $bits(tma_pkg::axi_wr_req_t))
  `TMA_ASSERT_INIT(AxiWrRspWidth_A, tma_pkg::AxiWrRspWidth == $bits(tma_pkg::axi_wr_rsp_t))
  `TMA_ASSERT_INIT(WrReqWidth_A, tma_pkg::WrReqWidth == $bits(tma_pkg::wr_req_t))
  // Only command-ending rows carry no beats.
  `TMA_ASSERT_IMPLY(ZeroRowLast_A, req_valid_i && !has_beats, req_i.last)
  // A burst belongs to the tracker's head row and never runs past it.
  `TMA_ASSERT_IMPLY(BurstInRow_A, burst_valid, trk_valid)
  `TMA_ASSERT_IMPLY(BurstFitsRow_A, aw_fire, issued_n <= trk_beats)
`ifndef SYNTHESIS
  // Bursts whose W is complete and that have not left the B queue (assertions only).
  logic [BqUseW:0] wsent_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_wsent
    if (!rst_ni) begin
      wsent_q <= '0;
    end else begin
      wsent_q <= wsent_q + (BqUseW + 1)'(w_end) - (BqUseW + 1)'(retire);
    end
  end
  // A B response belongs to a burst whose W is complete, or to a timed-out one (the only ID
  // is AxiIdData).
  `TMA_ASSERT_IMPLY(BExpected_A, axi_rsp_i.b_valid, late || wsent_q != '0)
  `TMA_ASSERT_IMPLY(BId_A, axi_rsp_i.b_valid, axi_rsp_i.b_id == tma_pkg::AxiIdData)
  // Only a burst whose W is complete leaves; the B queue holds every such burst.
  `TMA_ASSERT_IMPLY(RetireSent_A, retire, wsent_q != '0)
  `TMA_ASSERT_IMPLY(WsentInQueue_A, wsent_q != '0, bq_nonempty)
`endif
  // The credit: entries never exceed MaxOutstanding, and the B queue has room for each.
  `TMA_ASSERT(EntriesInRange_A, 32'(ent_q) <= MaxOutstanding)
  `TMA_ASSERT_COPY(CreditCopy_A, credit_q, 32'(ent_q) < MaxOutstanding)
  `TMA_COVER(NoCredit_C, !credit_q && burst_valid)
  // The command's information is queued before its last entry leaves the B queue.
  `TMA_ASSERT_IMPLY(InfoBeforeEnd_A, bq_valid && bq_end && !bq_burst, info_valid)
  `TMA_ASSERT_STABLE(DoneHeld_A, done_valid_o, done_ready_i, done_o)

endmodule

`default_nettype wire
