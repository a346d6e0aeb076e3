// SPDX-License-Identifier: Apache-2.0
//
// tma_wr_engine: the AXI4 write manager of the store direction. Row writes {first beat, beats,
// last} come in row order; tma_burst_split cuts them into INCR bursts of at most MaxBurstLen
// beats that never cross 4 KiB; each burst goes out on AW (ID AxiIdData) and its data on W
// (from tma_wr_align, strobes included), a burst's W beats only after its AW. All writes use
// one ID, so the B responses come back in AW order and are matched against the B queue: one
// entry per burst (flagged when it is its command's last) plus one entry for a command whose
// last row writes nothing. Up to MaxOutstanding bursts wait for B. When a command's last entry
// leaves the queue, its completion information (from tma_wr_fork, in command order) goes out
// as done, or as bus_error when any B of the command answered SLVERR / DECERR: every burst of
// the command is written or answered before it ends, and a failed one does not affect other
// commands.
//
// Timing: every flop queue's entries load from flops (tma_fifo FlopWrEn), so the handshakes
// that push them (row writes, AW, W, B) reach only their pointer and count flops; the B
// queue is a RAM queue whose head is a register. The command
// information comes in through a spill register (its valid is a flop here), and the
// finished-command queue stores it with one failure flag, applied as the queue's output
// leaves: the B response's logic reaches only that flag's data input.
//
// Rows whose bursts are in the splitter are followed by the row tracker (a queue of {beats,
// last} per row, in row order): each AW handshake counts its beats against the tracker's head
// row, and the burst that completes a row takes the row's last flag into the B queue. A row of
// 0 beats (a command's last row with nothing to write) leaves the tracker in a cycle without an
// AW handshake (AW waits a cycle for it), and adds its own B-queue entry.
//
// Streams: row writes in (wr_req_t), write beats in (data + strobes), command information in
// (cpl_info_t), AXI4 AW / W / B (axi_wr_req_t / axi_wr_rsp_t + W data and strobes), finished
// commands out (cpl_info_t). A write beat flagged with an error (a reduction whose old data
// could not be read) is still written (its strobes as given) and fails its burst, so its
// command ends with bus_error: the burst's flag waits in the W error queue (one entry per
// burst, W order = AW order) until the burst leaves the B queue.
//
// Watchdog (parameter Watchdog, cycles; 0: none): a burst whose data is all sent and whose B
// has not come after Watchdog cycles (with no B in between) leaves the B queue as failed (its
// command ends with bus_error) and the next burst's wait starts. Its B, should it still come,
// is taken and dropped: with one ID the B responses keep AW order, so while timed-out bursts
// are unanswered every B belongs to the oldest of them (late_q counts them). AW and W are not
// timed out: AXI4 does not let a manager withdraw a valid (a slave that never takes them
// stalls the store direction until reset).

`default_nettype none

`include "tma_assert.svh"

module tma_wr_engine #(
  parameter  int unsigned DataBytes      = 16,   // 16, 32, 64 or 128
  parameter  int unsigned MaxBurstLen    = 16,   // beats per AXI4 burst, 1 .. 256
  parameter  int unsigned MaxOutstanding = 64,   // bursts waiting for B, >= 2
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
  // Finished store commands (to the completion unit)
  output logic                  done_valid_o,
  input  logic                  done_ready_i,
  output tma_pkg::cpl_info_t    done_o,
  // Status
  output logic                  busy_o
);

  localparam int unsigned CntW    = tma_pkg::BeatCntW;
  localparam int unsigned TrkW    = CntW + 1;
  localparam int unsigned TrkD    = 4;
  localparam int unsigned WlenD   = 4;
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
    .in_data_i   ({req_i.nbeats, req_i.last}),
    .out_valid_o (trk_valid),
    .out_ready_i (trk_pop),
    .out_data_o  (trk_out),
    .usage_o     (trk_usage)
  );
  assign {trk_beats, trk_last} = trk_out;

  // ---- AW ----
  logic            zero_head;     // the tracker's head row writes nothing
  logic            bq_in_ready, wlen_in_ready;
  logic            aw_fire;
  logic [CntW-1:0] issued_q;      // beats of the tracker's head row already on AW
  logic [CntW-1:0] issued_n;
  logic            row_end;       // this AW completes the head row
  logic            bq_push;
  logic [1:0]      bq_in;         // {burst, end}

  assign zero_head = trk_valid && trk_beats == '0;
  assign axi_req_o.aw_valid = burst_valid && trk_valid && !zero_head && bq_in_ready &&
                              wlen_in_ready;
  assign axi_req_o.aw_id    = tma_pkg::AxiIdData;
  assign axi_req_o.aw_addr  = burst.addr;
  assign axi_req_o.aw_len   = burst.len;
  assign axi_req_o.aw_size  = 3'(SizeLog2);
  assign axi_req_o.aw_burst = tma_pkg::AxiBurstIncr;
  assign aw_fire     = axi_req_o.aw_valid && axi_rsp_i.aw_ready;
  assign burst_ready = aw_fire;
  assign issued_n    = issued_q + CntW'(burst.len) + CntW'(1);
  assign row_end     = issued_n == trk_beats;
  assign trk_pop     = (aw_fire && row_end) || (zero_head && !aw_fire);
  assign bq_push     = aw_fire || (zero_head && !aw_fire);
  assign bq_in       = aw_fire ? {1'b1, row_end && trk_last} : 2'b01;

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_issued
    if (!rst_ni) begin
      issued_q <= '0;
    end else if (aw_fire) begin
      issued_q <= row_end ? '0 : issued_n;
    end
  end

  // ---- W: the beats of each burst, after its AW ----
  logic       wlen_valid, w_fire;
  logic [7:0] wlen;
  logic [7:0] wcnt_q;
  logic [$clog2(WlenD+1)-1:0] wlen_usage;

  tma_fifo #(
    .Width    (8),
    .Depth    (WlenD),
    .FlopWrEn (1'b1)
  ) u_wlen (
    .clk_i,
    .rst_ni,
    .clr_i       (1'b0),
    .in_valid_i  (aw_fire),
    .in_ready_o  (wlen_in_ready),
    .in_data_i   (burst.len),
    .out_valid_o (wlen_valid),
    .out_ready_i (w_fire && axi_req_o.w_last),
    .out_data_o  (wlen),
    .usage_o     (wlen_usage)
  );

  assign axi_req_o.w_valid = beat_valid_i && wlen_valid;
  assign axi_req_o.w_last  = wcnt_q == wlen;
  assign axi_w_data_o      = beat_data_i;
  assign axi_w_strb_o      = beat_strb_i;
  assign w_fire            = axi_req_o.w_valid && axi_rsp_i.w_ready;
  assign beat_ready_o      = wlen_valid && axi_rsp_i.w_ready;

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

  // ---- B queue and command end ----
  logic              bq_valid, bq_pop;
  logic [1:0]        bq_out;        // {burst, end}
  logic              bq_nonempty;
  logic              b_fire, b_err, end_now, done_in_ready;
  logic              b_take;        // a B is taken (an answer, or a timed-out burst's, dropped)
  logic              retire;        // the head burst leaves: answered, or timed out
  logic              retire_err;    // ... failed (SLVERR / DECERR, or no answer)
  logic              head_ready;    // the head entry may leave (room for a command end)
  logic              err_q;         // a burst of the current command failed
  logic              fail;          // the command ending now failed
  // Watchdog
  logic              late;          // timed-out bursts are unanswered: the next B is theirs
  logic [BqUseW:0]   late_q;        // timed-out bursts whose B has not come
  logic [BqUseW:0]   wsent_q;       // bursts in the B queue whose W is complete
  logic              waiting;       // the head burst's data is sent; its B is due
  logic              timeout;       // ... and it has waited Watchdog cycles
  logic [WdW-1:0]    wd_q;
  // W error queue
  logic              werr_out, werr_valid, werr_in_ready;
  logic [BqUseW-1:0] werr_usage;

  // The B queue's head is a register (a RAM queue's read register, tma_fifo_ram without the
  // fabric output register): the B handshake, the command end and the pops start at flops,
  // not at a MaxOutstanding-way multiplexer. It holds MaxOutstanding entries (RAM and head).
  tma_fifo_ram #(
    .Width  (2),
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
    .out_data_o  (bq_out),
    .nonempty_o  (bq_nonempty)
  );

  // A command-ending entry needs room for its completion and the command's information.
  assign late       = late_q != '0;
  assign head_ready = !bq_out[0] || (done_in_ready && info_valid);
  assign axi_req_o.b_ready = late || (bq_valid && bq_out[1] && head_ready);
  assign b_take     = axi_rsp_i.b_valid && axi_req_o.b_ready;
  assign b_fire     = b_take && !late;
  assign b_err      = axi_rsp_i.b_resp != tma_pkg::AxiRespOkay;
  assign waiting    = bq_valid && bq_out[1] && wsent_q != '0;
  assign timeout    = Watchdog != 0 && waiting && !b_fire && head_ready &&
                      32'(wd_q) >= Watchdog - 1;
  assign retire     = b_fire || timeout;
  assign retire_err = timeout || (b_fire && b_err) || werr_out;
  assign end_now    = bq_valid && bq_out[0] && head_ready && (!bq_out[1] || retire);
  assign bq_pop     = retire || (bq_valid && !bq_out[1] && end_now);
  assign info_ready = end_now;

  // W error flag of each burst whose W is complete, popped when the burst leaves.

  tma_fifo #(
    .Width    (1),
    .Depth    (MaxOutstanding),
    .FlopWrEn (1'b1)
  ) u_werr (
    .clk_i,
    .rst_ni,
    .clr_i       (1'b0),
    .in_valid_i  (w_fire && axi_req_o.w_last),
    .in_ready_o  (werr_in_ready),
    .in_data_i   (werr_q || beat_err_i),
    .out_valid_o (werr_valid),
    .out_ready_i (retire),
    .out_data_o  (werr_out),
    .usage_o     (werr_usage)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_watchdog
    if (!rst_ni) begin
      late_q  <= '0;
      wsent_q <= '0;
      wd_q    <= '0;
    end else begin
      late_q  <= late_q + (BqUseW + 1)'(timeout) - (BqUseW + 1)'(b_take && late);
      wsent_q <= wsent_q + (BqUseW + 1)'(w_fire && axi_req_o.w_last) - (BqUseW + 1)'(retire);
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
  assign unused_bits = ^{axi_rsp_i.b_id, beat_valid_i, werr_in_ready, burst.pf};

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
  // A B response belongs to an outstanding burst (the only ID is AxiIdData).
  // A B response belongs to a burst in the B queue or a timed-out one.
  `TMA_ASSERT_IMPLY(BExpected_A, axi_rsp_i.b_valid, late || (bq_valid && wsent_q != '0))
  // W completes in AW order, never ahead of the queue.
  `TMA_ASSERT_IMPLY(WsentInQueue_A, wsent_q != '0, bq_valid)
  // The W error queue holds one flag per burst whose W is complete.
  `TMA_ASSERT(WerrCount_A, 32'(werr_usage) == 32'(wsent_q))
  `TMA_ASSERT_IMPLY(WerrAtRetire_A, retire, werr_valid)
  `TMA_ASSERT_IMPLY(BId_A, axi_rsp_i.b_valid, axi_rsp_i.b_id == tma_pkg::AxiIdData)
  // The command's information is queued before its last row's bursts are answered.
  `TMA_ASSERT_IMPLY(InfoBeforeEnd_A, bq_valid && bq_out[0] && !bq_out[1], info_valid)
  `TMA_ASSERT_STABLE(DoneHeld_A, done_valid_o, done_ready_i, done_o)

endmodule

`default_nettype wire
