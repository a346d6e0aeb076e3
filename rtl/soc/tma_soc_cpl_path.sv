// SPDX-License-Identifier: Apache-2.0
//
// tma_soc_cpl_path: where the SoC top's completions go (docs/soc.md "Completions"). The
// engine's completions and its bulk async-group completions are merged into one stream of
// completion records (tma_soc_cpl_merge: a group completion becomes a record of kind CplGroup
// with its grp_done / grp_err flags), which goes, by ring_en_i (CTRL.cpl_ring_en), to
//   * the completion FIFO (CplFifoDepth records; its head is the CPLF_* registers, pop_i drops
//     it), or
//   * the completion ring writer (tma_cpl_ring: one AXI4 write per record, on the write
//     channels the top gives it).
// Nothing is dropped: a full FIFO or ring stalls the engine's completions, and so does hold_i
// (the soft reset's drain) for the FIFO (the ring writer holds by itself). The merger restarts
// with the engine (core_rst_ni); clr_i (soft reset) empties the FIFO and the ring.
// cpl_fire_o / cpl_o show each record as it leaves the merger (counters, first error,
// complete-tx to the mbarrier units); written_o when a record reached the FIFO or (its write
// response arrived) the ring, written_grp_o when that record is a group completion.
// Stream in: engine completions (eng_*, bg_*); stream out: completion records (FIFO, ring).

`default_nettype none

`include "tma_assert.svh"

module tma_soc_cpl_path #(
  parameter  int unsigned DataBytes    = 16,
  parameter  int unsigned CplFifoDepth = 16,
  localparam int unsigned DW           = DataBytes * 8,
  localparam int unsigned FifoUw       = $clog2(CplFifoDepth + 1)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 core_rst_ni,
  input  logic                 clr_i,
  input  logic                 hold_i,
  // Engine completions and bulk async-group completions
  input  logic                 eng_valid_i,
  output logic                 eng_ready_o,
  input  tma_pkg::cpl_t        eng_i,
  input  logic                 bg_valid_i,
  output logic                 bg_ready_o,
  input  tma_pkg::bg_cpl_t     bg_i,
  // The merged records as they leave, and where they landed
  output logic                 cpl_fire_o,
  output tma_pkg::cpl_t        cpl_o,
  output logic                 written_o,
  output logic                 written_grp_o,
  input  logic                 ring_en_i,
  // Completion FIFO registers
  input  logic                 pop_i,
  output logic                 fifo_valid_o,
  output logic                 fifo_full_o,
  output logic [FifoUw-1:0]    fifo_usage_o,
  output tma_pkg::cpl_t        fifo_head_o,
  output logic                 fifo_grp_done_o,
  output logic                 fifo_grp_err_o,
  // Completion ring registers
  input  logic [63:4]          ring_base_i,
  input  logic [3:0]           ring_log2_i,
  input  logic [16:0]          ring_head_i,
  output logic [16:0]          ring_tail_o,
  output logic [16:0]          ring_count_o,
  output logic                 ring_full_o,
  output logic                 ring_busy_o,
  output logic                 ring_bus_err_o,
  // The ring writer's AXI4 writes (one beat, ID chosen by the top)
  output logic                 aw_valid_o,
  input  logic                 aw_ready_i,
  output logic [63:0]          aw_addr_o,
  output logic                 w_valid_o,
  input  logic                 w_ready_i,
  output logic [DW-1:0]        w_data_o,
  output logic [DataBytes-1:0] w_strb_o,
  input  logic                 b_valid_i,
  output logic                 b_ready_o,
  input  logic [1:0]           b_resp_i
);

  logic                         cpl_valid, cpl_ready, grp_done, grp_err;
  logic                         fifo_in_valid, fifo_in_ready, fifo_push;
  logic                         cr_valid, cr_ready, cr_written, cr_written_grp;
  logic [tma_pkg::CplWidth+1:0] fifo_out_bits;

  tma_soc_cpl_merge u_cpl_merge (
    .clk_i,
    .rst_ni      (core_rst_ni),
    .cpl_valid_i (eng_valid_i),
    .cpl_ready_o (eng_ready_o),
    .cpl_i       (eng_i),
    .bg_valid_i,
    .bg_ready_o,
    .bg_i,
    .out_valid_o (cpl_valid),
    .out_ready_i (cpl_ready),
    .out_o       (cpl_o),
    .grp_done_o  (grp_done),
    .grp_err_o   (grp_err)
  );

  assign cr_valid      = cpl_valid && ring_en_i;
  assign fifo_in_valid = cpl_valid && !ring_en_i && !hold_i;
  assign cpl_ready     = ring_en_i ? cr_ready : fifo_in_ready && !hold_i;
  assign cpl_fire_o    = cpl_valid && cpl_ready;
  assign fifo_push     = fifo_in_valid && fifo_in_ready;
  assign written_o     = fifo_push || cr_written;
  assign written_grp_o = (fifo_push && cpl_o.kind == tma_pkg::CplGroup) || cr_written_grp;
  assign fifo_full_o   = !fifo_in_ready;

  tma_fifo #(
    .Width (tma_pkg::CplWidth + 2),
    .Depth (CplFifoDepth)
  ) u_cpl_fifo (
    .clk_i,
    .rst_ni,
    .clr_i,
    .in_valid_i  (fifo_in_valid),
    .in_ready_o  (fifo_in_ready),
    .in_data_i   ({grp_done, grp_err, cpl_o}),
    .out_valid_o (fifo_valid_o),
    .out_ready_i (pop_i),
    .out_data_o  (fifo_out_bits),
    .usage_o     (fifo_usage_o)
  );
  assign {fifo_grp_done_o, fifo_grp_err_o, fifo_head_o} = fifo_out_bits;

  tma_cpl_ring #(
    .DataBytes (DataBytes)
  ) u_cpl_ring (
    .clk_i,
    .rst_ni,
    .clr_i,
    .hold_i,
    .base_i        (ring_base_i),
    .log2_i        (ring_log2_i),
    .head_i        (ring_head_i),
    .tail_o        (ring_tail_o),
    .count_o       (ring_count_o),
    .full_o        (ring_full_o),
    .busy_o        (ring_busy_o),
    .written_o     (cr_written),
    .written_grp_o (cr_written_grp),
    .bus_err_o     (ring_bus_err_o),
    .cpl_valid_i   (cr_valid),
    .cpl_ready_o   (cr_ready),
    .cpl_i         (cpl_o),
    .grp_done_i    (grp_done),
    .grp_err_i     (grp_err),
    .aw_valid_o,
    .aw_ready_i,
    .aw_addr_o,
    .w_valid_o,
    .w_ready_i,
    .w_data_o,
    .w_strb_o,
    .b_valid_i,
    .b_ready_o,
    .b_resp_i
  );

  `TMA_ASSERT_INIT(CplFifoDepthLegal_A, CplFifoDepth >= 2 && CplFifoDepth <= 255)
  `TMA_ASSERT_INIT(CplWidth_A, tma_pkg::CplWidth == $bits(tma_pkg::cpl_t))

endmodule

`default_nettype wire
