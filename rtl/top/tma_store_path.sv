// SPDX-License-Identifier: Apache-2.0
//
// tma_store_path: the engine's store direction (tensor and bulk stores, reductions), instances
// and wires only, in data-path order (docs/architecture.md):
//   tma_spill_reg    store rows from the walkers / bulk rows enter through a spill register
//   tma_wr_fork      store rows -> shared reads, realignments, global writes, reductions'
//                    old-data reads, command completion information
//   tma_smem_rd      shared-memory read port (swizzled), the stores' source
//   tma_wr_align     shared beats -> global beats with strobes
//   tma_burst_split  reductions' old-data reads -> AXI4 bursts (ID AxiIdRed, through the
//                    engine's read engine)
//   tma_wr_red       write data: reductions read-modify-write through tma_red_alu, stores pass
//   tma_wr_engine    AXI4 write manager: bursts, AW / W / B, B accounting, command end
//   tma_atop_split   (AtomicReduce = 1) atomic-tagged bursts -> AXI5 AtomicStores, one per
//                    element, their B responses merged back into one per burst
// Its finished commands go to the engine's completion unit (done_*). Present = 0 builds none of
// it (the engine's StorePath = 0): the outputs are tied off.

`default_nettype none

`include "tma_assert.svh"

module tma_store_path #(
  parameter  int unsigned DataBytes        = 16,   // 16, 32, 64 or 128
  parameter  int unsigned MaxBurstLen      = 16,   // beats per AXI4 burst, 1 .. 256
  parameter  int unsigned MaxWrOutstanding = 512,  // write bursts waiting for B, >= 2
  parameter  int unsigned StCmdDepth       = 128,  // store commands waiting for B, >= 2
  parameter  int unsigned WrWatchdog       = 0,    // cycles a burst waits for B (0: forever)
  parameter  int unsigned AtomicReduce     = 0,    // 1: AtomicStore for the integer pairs
  parameter  int unsigned Present          = 1,    // 0: none (the engine's StorePath = 0)
  localparam int unsigned DW               = DataBytes * 8
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Rows of store and reduction commands
  input  logic                  row_valid_i,
  output logic                  row_ready_o,
  input  tma_pkg::row_t         row_i,
  // Shared-memory read port: requests; one data beat per request, in order, no back-pressure
  output logic                  smem_rd_valid_o,
  input  logic                  smem_rd_ready_i,
  output tma_pkg::smem_rd_t     smem_rd_o,
  input  logic                  smem_rd_rvalid_i,
  input  logic [DW-1:0]         smem_rd_rdata_i,
  // Reductions' old data: read bursts to the read engine, their beats back
  output logic                  red_ar_valid_o,
  input  logic                  red_ar_ready_i,
  output tma_pkg::ar_t          red_ar_o,
  input  logic                  red_valid_i,
  output logic                  red_ready_o,
  input  logic [DW-1:0]         red_data_i,
  input  logic                  red_err_i,
  // AXI4 write channels (global memory); W data and strobes beside the request
  output tma_pkg::axi_wr_req_t  axi_wr_req_o,
  input  tma_pkg::axi_wr_rsp_t  axi_wr_rsp_i,
  output logic [DW-1:0]         axi_w_data_o,
  output logic [DataBytes-1:0]  axi_w_strb_o,
  // Finished commands
  output logic                  done_valid_o,
  input  logic                  done_ready_i,
  output tma_pkg::cpl_info_t    done_o,
  // A row or a command is inside
  output logic                  busy_o
);

  `TMA_ASSERT_INIT(AtomicReduceLegal_A, AtomicReduce <= 1)
  `TMA_ASSERT_INIT(PresentLegal_A, Present <= 1)

  // Present = 0: no store direction is built; its outputs are tied off (the frontend and
  // tma_bulk_rows refuse every store and reduction, so no row and no old-data beat comes).
  if (Present != 0) begin : gen_store
    // ---- Streams between the blocks ----
    // the spill register -> store fork
    logic                  fk_row_valid, fk_row_ready;
    tma_pkg::row_t         fk_row;
    // store fork -> shared read port, aligner, write engine, write data, old-data reads
    logic                  st_rd_valid, st_rd_ready;
    tma_pkg::smem_rd_job_t st_rd;
    logic                  st_al_valid, st_al_ready;
    tma_pkg::wr_al_t       st_al;
    logic                  st_wr_valid, st_wr_ready;
    tma_pkg::wr_req_t      st_wr;
    logic                  st_info_valid, st_info_ready;
    tma_pkg::cpl_info_t    st_info;
    logic                  st_wd_valid, st_wd_ready;
    tma_pkg::wr_red_t      st_wd;
    logic                  st_rr_valid, st_rr_ready;
    tma_pkg::rd_req_t      st_rr;
    // shared read port -> store aligner -> write data (tma_wr_red) -> write engine
    logic                  st_beat_valid, st_beat_ready;
    logic [DW-1:0]         st_beat_data;
    logic                  st_nbeat_valid, st_nbeat_ready;
    logic [DW-1:0]         st_nbeat_data;
    logic [DataBytes-1:0]  st_nbeat_strb;
    logic                  st_wbeat_valid, st_wbeat_ready, st_wbeat_err;
    logic [DW-1:0]         st_wbeat_data;
    logic [DataBytes-1:0]  st_wbeat_strb;
    // block status
    logic st_fork_busy, st_rd_busy, st_al_busy, st_wr_busy, st_red_busy, red_split_busy;
    logic st_idle;
    logic st_idle_q;   // st_idle of the previous cycle

    // The store rows enter the fork through a spill register: the walker's ready for them comes
    // from flops, and the fork's take (which enables its six queues) starts at flops beside it.
    tma_spill_reg #(
      .Width  (tma_pkg::RowWidth),
      .Copies (4)
    ) u_st_row (
      .clk_i,
      .rst_ni,
      .in_valid_i  (row_valid_i),
      .in_ready_o  (row_ready_o),
      .in_data_i   (row_i),
      .out_valid_o (fk_row_valid),
      .out_ready_i (fk_row_ready),
      .out_data_o  (fk_row)
    );

    tma_wr_fork #(
      .DataBytes    (DataBytes),
      .CmdDepth     (StCmdDepth),
      .AtomicReduce (AtomicReduce)
    ) u_wr_fork (
      .clk_i,
      .rst_ni,
      .row_valid_i  (fk_row_valid),
      .row_ready_o  (fk_row_ready),
      .row_i        (fk_row),
      .rd_valid_o   (st_rd_valid),
      .rd_ready_i   (st_rd_ready),
      .rd_o         (st_rd),
      .al_valid_o   (st_al_valid),
      .al_ready_i   (st_al_ready),
      .al_o         (st_al),
      .wr_valid_o   (st_wr_valid),
      .wr_ready_i   (st_wr_ready),
      .wr_o         (st_wr),
      .wd_valid_o   (st_wd_valid),
      .wd_ready_i   (st_wd_ready),
      .wd_o         (st_wd),
      .rr_valid_o   (st_rr_valid),
      .rr_ready_i   (st_rr_ready),
      .rr_o         (st_rr),
      .idle_i       (st_idle_q),
      .info_valid_o (st_info_valid),
      .info_ready_i (st_info_ready),
      .info_o       (st_info),
      .busy_o       (st_fork_busy)
    );

    tma_smem_rd #(
      .DataBytes (DataBytes)
    ) u_smem_rd (
      .clk_i,
      .rst_ni,
      .job_valid_i   (st_rd_valid),
      .job_ready_o   (st_rd_ready),
      .job_i         (st_rd),
      .smem_valid_o  (smem_rd_valid_o),
      .smem_ready_i  (smem_rd_ready_i),
      .smem_o        (smem_rd_o),
      .smem_rvalid_i (smem_rd_rvalid_i),
      .smem_rdata_i  (smem_rd_rdata_i),
      .beat_valid_o  (st_beat_valid),
      .beat_ready_i  (st_beat_ready),
      .beat_data_o   (st_beat_data),
      .busy_o        (st_rd_busy)
    );

    tma_wr_align #(
      .DataBytes (DataBytes)
    ) u_wr_align (
      .clk_i,
      .rst_ni,
      .row_valid_i  (st_al_valid),
      .row_ready_o  (st_al_ready),
      .row_i        (st_al),
      .beat_valid_i (st_beat_valid),
      .beat_ready_o (st_beat_ready),
      .beat_data_i  (st_beat_data),
      .out_valid_o  (st_nbeat_valid),
      .out_ready_i  (st_nbeat_ready),
      .out_data_o   (st_nbeat_data),
      .out_strb_o   (st_nbeat_strb),
      .busy_o       (st_al_busy)
    );

    // Reductions' old data: the rows' global bytes read back in bursts (ID AxiIdRed).
    tma_burst_split #(
      .DataBytes   (DataBytes),
      .MaxBurstLen (MaxBurstLen)
    ) u_red_split (
      .clk_i,
      .rst_ni,
      .req_valid_i (st_rr_valid),
      .req_ready_o (st_rr_ready),
      .req_i       (st_rr),
      .ar_valid_o  (red_ar_valid_o),
      .ar_ready_i  (red_ar_ready_i),
      .ar_o        (red_ar_o),
      .busy_o      (red_split_busy)
    );

    tma_wr_red #(
      .DataBytes (DataBytes)
    ) u_wr_red (
      .clk_i,
      .rst_ni,
      .row_valid_i  (st_wd_valid),
      .row_ready_o  (st_wd_ready),
      .row_i        (st_wd),
      .new_valid_i  (st_nbeat_valid),
      .new_ready_o  (st_nbeat_ready),
      .new_data_i   (st_nbeat_data),
      .new_strb_i   (st_nbeat_strb),
      .old_valid_i  (red_valid_i),
      .old_ready_o  (red_ready_o),
      .old_data_i   (red_data_i),
      .old_err_i    (red_err_i),
      .out_valid_o  (st_wbeat_valid),
      .out_ready_i  (st_wbeat_ready),
      .out_data_o   (st_wbeat_data),
      .out_strb_o   (st_wbeat_strb),
      .out_err_o    (st_wbeat_err),
      .busy_o       (st_red_busy)
    );

    // The store direction behind the fork is empty (a reduction may start reading). The fork
    // reads it a cycle late, from a flop (its ordering rule: tma_wr_fork, StIdleLate_A below).
    assign st_idle = !(st_rd_busy || st_al_busy || st_red_busy || st_wr_busy || red_split_busy);

    always_ff @(posedge clk_i or negedge rst_ni) begin : proc_st_idle
      if (!rst_ni) begin
        st_idle_q <= 1'b0;
      end else begin
        st_idle_q <= st_idle;
      end
    end

    // The write engine's AXI port: the store path's, or tma_atop_split's input.
    tma_pkg::axi_wr_req_t  we_req;
    tma_pkg::axi_wr_rsp_t  we_rsp;
    logic [DW-1:0]         we_w_data;
    logic [DataBytes-1:0]  we_w_strb;
    logic                  we_esz8;

    tma_wr_engine #(
      .DataBytes      (DataBytes),
      .MaxBurstLen    (MaxBurstLen),
      .MaxOutstanding (MaxWrOutstanding),
      .Watchdog       (WrWatchdog)
    ) u_wr (
      .clk_i,
      .rst_ni,
      .req_valid_i  (st_wr_valid),
      .req_ready_o  (st_wr_ready),
      .req_i        (st_wr),
      .beat_valid_i (st_wbeat_valid),
      .beat_ready_o (st_wbeat_ready),
      .beat_data_i  (st_wbeat_data),
      .beat_strb_i  (st_wbeat_strb),
      .beat_err_i   (st_wbeat_err),
      .info_valid_i (st_info_valid),
      .info_ready_o (st_info_ready),
      .info_i       (st_info),
      .axi_req_o    (we_req),
      .axi_rsp_i    (we_rsp),
      .axi_w_data_o (we_w_data),
      .axi_w_strb_o (we_w_strb),
      .axi_aw_esz8_o (we_esz8),
      .done_valid_o (done_valid_o),
      .done_ready_i (done_ready_i),
      .done_o       (done_o),
      .busy_o       (st_wr_busy)
    );

    if (AtomicReduce != 0) begin : gen_atop
      tma_atop_split #(
        .DataBytes   (DataBytes),
        .MaxBurstLen (MaxBurstLen)
      ) u_atop_split (
        .clk_i,
        .rst_ni,
        .in_req_i     (we_req),
        .in_rsp_o     (we_rsp),
        .in_w_data_i  (we_w_data),
        .in_w_strb_i  (we_w_strb),
        .in_esz8_i    (we_esz8),
        .out_req_o    (axi_wr_req_o),
        .out_rsp_i    (axi_wr_rsp_i),
        .out_w_data_o (axi_w_data_o),
        .out_w_strb_o (axi_w_strb_o)
      );
    end else begin : gen_no_atop
      logic unused_esz8;
      assign axi_wr_req_o = we_req;
      assign we_rsp       = axi_wr_rsp_i;
      assign axi_w_data_o = we_w_data;
      assign axi_w_strb_o = we_w_strb;
      assign unused_esz8  = we_esz8;
    end

    assign busy_o = st_fork_busy || st_rd_busy || st_al_busy || st_wr_busy || st_red_busy ||
                    red_split_busy || fk_row_valid;

    // ---- Assertions ----
    // The blocks behind the store fork receive items only from its queues: when they were
    // empty in the previous cycle and the fork's queues held nothing then, they are empty now
    // (the one-cycle-late idle the fork's reduction ordering relies on).
    // Without AtomicReduce no write is atomic.
    `TMA_ASSERT_IMPLY(NoAtop_A, AtomicReduce == 0 && axi_wr_req_o.aw_valid,
                      axi_wr_req_o.aw_atop == tma_pkg::AtopNone)
    `TMA_ASSERT_IMPLY(StIdleLate_A, st_idle_q && !$past(st_fork_busy), st_idle)
  end else begin : gen_none
    logic unused_in;
    assign row_ready_o     = 1'b1;
    assign smem_rd_valid_o = 1'b0;
    assign smem_rd_o       = '0;
    assign red_ar_valid_o  = 1'b0;
    assign red_ar_o        = '0;
    assign red_ready_o     = 1'b1;
    assign axi_wr_req_o    = '0;
    assign axi_w_data_o    = '0;
    assign axi_w_strb_o    = '0;
    assign done_valid_o    = 1'b0;
    assign done_o          = '0;
    assign busy_o          = 1'b0;
    assign unused_in       = ^{row_i, done_ready_i, red_ar_ready_i, red_data_i, red_err_i,
                               axi_wr_rsp_i, smem_rd_ready_i, smem_rd_rvalid_i, smem_rd_rdata_i};
    `TMA_ASSERT_NEVER(NoStoreRow_A, row_valid_i)
    `TMA_ASSERT_NEVER(NoRedBeat_A, red_valid_i)
  end

endmodule

`default_nettype wire
