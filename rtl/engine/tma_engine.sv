// SPDX-License-Identifier: Apache-2.0
//
// tma_engine: the OpenTMA tensor engine, load path (issue 6). Integration of the command
// controller (intake, descriptor cache/fetch, validation, issue arithmetic), the N-D walker,
// the burst splitter, the read engine (AR arbitration, outstanding limit, R routing by ID),
// the row aligner (realign, OOB fill, tf32), the swizzle unit, the shared-memory write port
// and the completion unit. docs/rtl.md is the theory of operation.

`include "tma_assert.svh"

module tma_engine #(
  parameter  int unsigned DataBytes        = 16,   // 16, 32, 64 or 128
  parameter  int unsigned NumCtas          = 16,   // 1 .. 16
  parameter  int unsigned MaxOutstanding   = 8,    // data read bursts in flight, 1 .. 1024
  parameter  int unsigned DescCacheEntries = 4,    // 1 .. 16
  parameter  int unsigned MaxBurstLen      = 16,   // beats per AXI4 burst, 1 .. 256
  parameter  int unsigned RowFifoDepth     = 8,    // rows between walker and aligner, >= 2
  localparam int unsigned DW               = DataBytes * 8
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // Commands
  input  logic                 cmd_valid_i,
  output logic                 cmd_ready_o,
  input  tma_pkg::cmd_t        cmd_i,
  input  logic                 desc_inval_i,
  // AXI4 read address / data (global memory)
  output logic                 ar_valid_o,
  input  logic                 ar_ready_i,
  output logic [3:0]           ar_id_o,
  output tma_pkg::ar_t         ar_o,
  input  logic                 r_valid_i,
  output logic                 r_ready_o,
  input  logic [3:0]           r_id_i,
  input  logic [DW-1:0]        r_data_i,
  input  logic [1:0]           r_resp_i,
  input  logic                 r_last_i,
  // Shared-memory write port
  output logic                 smem_wr_valid_o,
  input  logic                 smem_wr_ready_i,
  output logic [31:0]          smem_wr_addr_o,
  output logic [DW-1:0]        smem_wr_data_o,
  output logic [DataBytes-1:0] smem_wr_strb_o,
  output logic [15:0]          smem_wr_cta_mask_o,
  // Completions
  output logic                 cpl_valid_o,
  input  logic                 cpl_ready_i,
  output tma_pkg::cpl_t        cpl_o,
  // Status
  output logic                 busy_o,
  output logic [15:0]          err_count_o
);

  localparam int unsigned SizeLog2 = $clog2(DataBytes);
  localparam int unsigned OutW     = $clog2(MaxOutstanding + 1);
  localparam int unsigned ItemW    = 1 + 32 + DW + DataBytes + 1 + tma_pkg::CplInfoWidth;
  localparam int unsigned RowFifoUsageW = $clog2(RowFifoDepth + 1);

  // ---- Command controller ----
  logic          desc_ar_valid, desc_ar_ready;
  tma_pkg::ar_t  desc_ar;
  logic          desc_r_valid;
  logic          job_valid, job_ready;
  tma_pkg::job_t job;
  logic          ctrl_busy;

  assign desc_r_valid = r_valid_i && (r_id_i == tma_pkg::AxiIdDesc);

  tma_cmd_ctrl #(
    .DataBytes    (DataBytes),
    .CacheEntries (DescCacheEntries),
    .NumCtas      (NumCtas)
  ) u_ctrl (
    .clk_i,
    .rst_ni,
    .cmd_valid_i,
    .cmd_ready_o,
    .cmd_i,
    .desc_inval_i,
    .ar_valid_o  (desc_ar_valid),
    .ar_ready_i  (desc_ar_ready),
    .ar_o        (desc_ar),
    .r_valid_i   (desc_r_valid),
    .r_data_i    (r_data_i),
    .r_err_i     (r_resp_i != 2'b00),
    .job_valid_o (job_valid),
    .job_ready_i (job_ready),
    .job_o       (job),
    .busy_o      (ctrl_busy)
  );

  // ---- N-D walker ----
  logic          row_valid, row_ready;
  tma_pkg::row_t row;
  logic          walker_busy;

  tma_nd_walker u_walker (
    .clk_i,
    .rst_ni,
    .job_valid_i (job_valid),
    .job_ready_o (job_ready),
    .job_i       (job),
    .row_valid_o (row_valid),
    .row_ready_i (row_ready),
    .row_o       (row),
    .busy_o      (walker_busy)
  );

  // ---- Row fork: every row to the aligner, rows with reads also to the splitter ----
  logic             needs_read;
  logic             fifo_in_valid, fifo_in_ready;
  logic             req_valid, req_ready;
  tma_pkg::rd_req_t req;
  logic             afifo_valid, afifo_ready;
  tma_pkg::row_t    afifo_row;
  logic [RowFifoUsageW-1:0] afifo_usage;

  assign needs_read    = row.has_data && (row.dend > row.head);
  assign fifo_in_valid = row_valid && (!needs_read || req_ready);
  assign req_valid     = row_valid && needs_read && fifo_in_ready;
  assign row_ready     = fifo_in_ready && (!needs_read || req_ready);
  assign req.addr      = {row.gaddr[63:SizeLog2], SizeLog2'(0)};
  assign req.nbeats    = tma_pkg::BeatCntW'((tma_pkg::RowBytesW'(row.gaddr[SizeLog2-1:0]) +
                          row.dend - row.head + tma_pkg::RowBytesW'(DataBytes - 1)) >> SizeLog2);

  tma_fifo #(
    .Width       (tma_pkg::RowWidth),
    .Depth       (RowFifoDepth),
    .FallThrough (0)
  ) u_row_fifo (
    .clk_i,
    .rst_ni,
    .clr_i       (1'b0),
    .in_valid_i  (fifo_in_valid),
    .in_ready_o  (fifo_in_ready),
    .in_data_i   (row),
    .out_valid_o (afifo_valid),
    .out_ready_i (afifo_ready),
    .out_data_o  (afifo_row),
    .usage_o     (afifo_usage)
  );

  // ---- Burst splitter and read engine ----
  logic         split_ar_valid, split_ar_ready, split_busy;
  tma_pkg::ar_t split_ar;
  logic [OutW-1:0] outstanding_d, outstanding_q;
  logic         data_ar_valid, data_ar_ready;
  logic         data_ar_fire, data_r_last_fire;
  logic [1:0]   arb_ready;
  logic         arb_idx;

  tma_burst_split #(
    .DataBytes   (DataBytes),
    .MaxBurstLen (MaxBurstLen)
  ) u_split (
    .clk_i,
    .rst_ni,
    .req_valid_i (req_valid),
    .req_ready_o (req_ready),
    .req_i       (req),
    .ar_valid_o  (split_ar_valid),
    .ar_ready_i  (split_ar_ready),
    .ar_o        (split_ar),
    .busy_o      (split_busy)
  );

  // At most MaxOutstanding data bursts in flight; all data reads use one ID, so AXI4 returns
  // them in order.
  assign data_ar_valid  = split_ar_valid && (outstanding_q < OutW'(MaxOutstanding));
  assign split_ar_ready = data_ar_ready && (outstanding_q < OutW'(MaxOutstanding));

  tma_stream_arb #(
    .NumIn  (2),
    .Width  (tma_pkg::ArWidth),
    .LockIn (1)
  ) u_ar_arb (
    .clk_i,
    .rst_ni,
    .in_valid_i  ({desc_ar_valid, data_ar_valid}),
    .in_ready_o  (arb_ready),
    .in_data_i   ({desc_ar, split_ar}),
    .out_valid_o (ar_valid_o),
    .out_ready_i (ar_ready_i),
    .out_data_o  (ar_o),
    .out_idx_o   (arb_idx)
  );
  assign data_ar_ready = arb_ready[0];
  assign desc_ar_ready = arb_ready[1];
  assign ar_id_o       = arb_idx ? tma_pkg::AxiIdDesc : tma_pkg::AxiIdData;

  // ---- R routing ----
  logic beat_valid, beat_ready;
  assign beat_valid       = r_valid_i && (r_id_i != tma_pkg::AxiIdDesc);
  assign r_ready_o        = (r_id_i == tma_pkg::AxiIdDesc) ? 1'b1 : beat_ready;
  assign data_ar_fire     = data_ar_valid && data_ar_ready;
  assign data_r_last_fire = beat_valid && beat_ready && r_last_i;

  always_comb begin : proc_outstanding
    outstanding_d = outstanding_q;
    if (data_ar_fire && !data_r_last_fire) outstanding_d = outstanding_q + 1'b1;
    if (!data_ar_fire && data_r_last_fire) outstanding_d = outstanding_q - 1'b1;
  end

  // ---- Row aligner ----
  logic                 al_valid, al_ready, al_wr, al_last;
  logic [31:0]          al_addr;
  logic [DW-1:0]        al_data;
  logic [DataBytes-1:0] al_strb;
  logic [2:0]           al_swz;
  tma_pkg::cpl_info_t   al_cpl;
  logic                 al_busy;

  tma_row_aligner #(
    .DataBytes (DataBytes)
  ) u_aligner (
    .clk_i,
    .rst_ni,
    .row_valid_i  (afifo_valid),
    .row_ready_o  (afifo_ready),
    .row_i        (afifo_row),
    .beat_valid_i (beat_valid),
    .beat_ready_o (beat_ready),
    .beat_data_i  (r_data_i),
    .beat_err_i   (r_resp_i != 2'b00),
    .out_valid_o  (al_valid),
    .out_ready_i  (al_ready),
    .out_wr_o     (al_wr),
    .out_addr_o   (al_addr),
    .out_data_o   (al_data),
    .out_strb_o   (al_strb),
    .out_swz_o    (al_swz),
    .out_last_o   (al_last),
    .out_cpl_o    (al_cpl),
    .busy_o       (al_busy)
  );

  // ---- Swizzle (on the absolute shared address) ----
  logic [31:0]          sw_addr;
  logic [DW-1:0]        sw_data;
  logic [DataBytes-1:0] sw_strb;

  tma_swizzle #(
    .DataBytes (DataBytes)
  ) u_swizzle (
    .mode_i (al_swz),
    .addr_i (al_addr),
    .data_i (al_data),
    .strb_i (al_strb),
    .addr_o (sw_addr),
    .data_o (sw_data),
    .strb_o (sw_strb)
  );

  // ---- Shared-memory write port ----
  logic                 pv, pready, p_wr, p_last;
  logic [31:0]          p_addr;
  logic [DW-1:0]        p_data;
  logic [DataBytes-1:0] p_strb;
  tma_pkg::cpl_info_t   p_cpl;
  logic                 cq_in_valid, cq_in_ready, cq_out_valid, cq_out_ready;
  tma_pkg::cpl_info_t   cq_out;
  logic [1:0]           cq_usage;

  tma_spill_reg #(
    .Width  (ItemW),
    .Bypass (0)
  ) u_port_reg (
    .clk_i,
    .rst_ni,
    .in_valid_i  (al_valid),
    .in_ready_o  (al_ready),
    .in_data_i   ({al_wr, sw_addr, sw_data, sw_strb, al_last, al_cpl}),
    .out_valid_o (pv),
    .out_ready_i (pready),
    .out_data_o  ({p_wr, p_addr, p_data, p_strb, p_last, p_cpl})
  );

  // A beat that ends a command leaves only when its completion can be queued.
  assign smem_wr_valid_o    = pv && p_wr && (!p_last || cq_in_ready);
  assign smem_wr_addr_o     = p_addr;
  assign smem_wr_data_o     = p_data;
  assign smem_wr_strb_o     = p_strb;
  assign smem_wr_cta_mask_o = p_cpl.cta_mask;
  assign pready      = (!p_last || cq_in_ready) && (!p_wr || smem_wr_ready_i);
  // (valid only when it is taken: the smem ready may drop again, valid must not.)
  assign cq_in_valid = pv && p_last && cq_in_ready && (!p_wr || smem_wr_ready_i);

  tma_fifo #(
    .Width       (tma_pkg::CplInfoWidth),
    .Depth       (2),
    .FallThrough (0)
  ) u_cpl_fifo (
    .clk_i,
    .rst_ni,
    .clr_i       (1'b0),
    .in_valid_i  (cq_in_valid),
    .in_ready_o  (cq_in_ready),
    .in_data_i   (p_cpl),
    .out_valid_o (cq_out_valid),
    .out_ready_i (cq_out_ready),
    .out_data_o  (cq_out),
    .usage_o     (cq_usage)
  );

  tma_cpl_unit u_cpl (
    .clk_i,
    .rst_ni,
    .info_valid_i (cq_out_valid),
    .info_ready_o (cq_out_ready),
    .info_i       (cq_out),
    .cpl_valid_o,
    .cpl_ready_i,
    .cpl_o
  );

  // ---- Status ----
  logic [15:0] err_count_d, err_count_q;
  assign err_count_d = err_count_q + 16'((cpl_valid_o && cpl_ready_i &&
                                          cpl_o.kind == tma_pkg::CplError) ? 1 : 0);

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_state
    if (!rst_ni) begin
      outstanding_q <= '0;
      err_count_q   <= '0;
    end else begin
      outstanding_q <= outstanding_d;
      err_count_q   <= err_count_d;
    end
  end

  assign err_count_o = err_count_q;
  assign busy_o = ctrl_busy || walker_busy || (afifo_usage != '0) || split_busy ||
                  (outstanding_q != '0) || al_busy || pv || (cq_usage != '0) || cpl_valid_o;

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_INIT(NumCtasLegal_A, NumCtas >= 1 && NumCtas <= 16)
  `TMA_ASSERT_INIT(MaxOutstandingLegal_A, MaxOutstanding >= 1 && MaxOutstanding <= 1024)
  `TMA_ASSERT_INIT(DescCacheEntriesLegal_A, DescCacheEntries >= 1 && DescCacheEntries <= 16)
  `TMA_ASSERT_INIT(MaxBurstLenLegal_A, MaxBurstLen >= 1 && MaxBurstLen <= 256)
  `TMA_ASSERT_INIT(RowFifoDepthLegal_A, RowFifoDepth >= 2)
  `TMA_ASSERT_STABLE(SmemHeld_A, smem_wr_valid_o, smem_wr_ready_i,
                     {smem_wr_addr_o, smem_wr_data_o, smem_wr_strb_o, smem_wr_cta_mask_o})
  `TMA_ASSERT(NoLostDescBeat_A, r_valid_i && r_id_i == tma_pkg::AxiIdDesc |-> r_ready_o)
  `TMA_ASSERT_NEVER(OutstandingUnderflow_A, data_r_last_fire && outstanding_q == '0 &&
                                            !data_ar_fire)

endmodule
