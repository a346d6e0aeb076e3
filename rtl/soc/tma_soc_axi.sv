// SPDX-License-Identifier: Apache-2.0
//
// tma_soc_axi: the SoC top's one AXI4 manager port to global memory (docs/soc.md), shared by
// the engine's reads (IDs AxiIdData / AxiIdDesc / AxiIdRed) and the command ring fetcher (ID
// RingId); the write channels are tma_soc_wr_arb's.
//   AR: the engine and the fetcher are arbitrated (tma_stream_arb, core reset domain) into a
//       register slice (tma_spill_reg) that only the hard reset clears, so an AR the port
//       offers stays offered through a soft reset, as AXI4 requires.
//   R:  routed by ID: RingId to the fetcher (always ready), any other to the engine.
// Soft reset (docs/soc.md): while hold_i no new AR is taken; while drain_i every R beat is
// accepted and none is shown to the engine (it is about to be reset). drained_o: no AR is
// offered and no read burst is outstanding.

`default_nettype none

`include "tma_assert.svh"

module tma_soc_axi #(
  parameter int unsigned DataBytes = 16,
  parameter logic [3:0]  RingId    = 4'd2
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,        // hard reset: slice, outstanding count
  input  logic                  core_rst_ni,   // hard or soft reset: the arbiter
  input  logic                  hold_i,
  input  logic                  drain_i,
  output logic                  drained_o,
  // Engine read channels
  input  tma_pkg::axi_rd_req_t  eng_req_i,
  output tma_pkg::axi_rd_rsp_t  eng_rsp_o,
  // Ring fetcher read channels
  input  logic                  ring_ar_valid_i,
  output logic                  ring_ar_ready_o,
  input  logic [63:0]           ring_ar_addr_i,
  input  logic [7:0]            ring_ar_len_i,
  output logic                  ring_r_valid_o,
  // Manager port: AR / R (write channels pass through the top)
  output logic                  m_arvalid_o,
  input  logic                  m_arready_i,
  output logic [3:0]            m_arid_o,
  output logic [63:0]           m_araddr_o,
  output logic [7:0]            m_arlen_o,
  output logic [2:0]            m_arsize_o,
  output logic [1:0]            m_arburst_o,
  input  logic                  m_rvalid_i,
  output logic                  m_rready_o,
  input  logic [3:0]            m_rid_i,
  input  logic [1:0]            m_rresp_i,
  input  logic                  m_rlast_i
);

  // An AR: id, addr, len (size and burst are fixed).
  localparam int unsigned ArW = 4 + 64 + 8;

  logic [1:0]     arb_valid, arb_ready;
  logic [2*ArW-1:0] arb_data;
  logic           arb_out_valid, arb_out_ready, slice_ready, slice_in_valid, offered_q;
  logic [ArW-1:0] arb_out, slice_out;
  logic           arb_idx;
  logic [10:0]    rd_out_q;
  logic           is_ring, ar_fire, r_end;

  assign arb_valid = {ring_ar_valid_i, eng_req_i.ar_valid};
  assign arb_data  = {RingId, ring_ar_addr_i, ring_ar_len_i,
                      eng_req_i.ar_id, eng_req_i.ar_addr, eng_req_i.ar_len};

  tma_stream_arb #(
    .NumIn  (2),
    .Width  (ArW),
    .LockIn (1)
  ) u_arb (
    .clk_i,
    .rst_ni      (core_rst_ni),
    .in_valid_i  (arb_valid),
    .in_ready_o  (arb_ready),
    .in_data_i   (arb_data),
    .out_valid_o (arb_out_valid),
    .out_ready_i (arb_out_ready),
    .out_data_o  (arb_out),
    .out_idx_o   (arb_idx)
  );
  // hold_i stops new ARs at the slice's input; one the arbiter already offers (and the slice
  // did not take last cycle) is taken, as the stream contract requires.
  always_ff @(posedge clk_i or negedge core_rst_ni) begin : proc_offered
    if (!core_rst_ni) begin
      offered_q <= 1'b0;
    end else begin
      offered_q <= slice_in_valid && !slice_ready;
    end
  end
  assign slice_in_valid = arb_out_valid && (!hold_i || offered_q);
  assign arb_out_ready  = slice_ready && (!hold_i || offered_q);

  tma_spill_reg #(
    .Width (ArW)
  ) u_ar_slice (
    .clk_i,
    .rst_ni,
    .in_valid_i  (slice_in_valid),
    .in_ready_o  (slice_ready),
    .in_data_i   (arb_out),
    .out_valid_o (m_arvalid_o),
    .out_ready_i (m_arready_i),
    .out_data_o  (slice_out)
  );
  assign {m_arid_o, m_araddr_o, m_arlen_o} = slice_out;
  assign m_arsize_o  = 3'($clog2(DataBytes));
  assign m_arburst_o = tma_pkg::AxiBurstIncr;

  assign ring_ar_ready_o = arb_ready[1];

  // ---- R routing ----
  assign is_ring        = m_rid_i == RingId;
  assign ring_r_valid_o = m_rvalid_i && is_ring;
  assign m_rready_o     = is_ring || drain_i || eng_req_i.r_ready;

  always_comb begin : proc_eng_rsp
    eng_rsp_o          = '0;
    eng_rsp_o.ar_ready = arb_ready[0];
    eng_rsp_o.r_valid  = m_rvalid_i && !is_ring && !drain_i;
    eng_rsp_o.r_id     = m_rid_i;
    eng_rsp_o.r_resp   = m_rresp_i;
    eng_rsp_o.r_last   = m_rlast_i;
  end

  // ---- Outstanding read bursts (for the soft reset drain) ----
  assign ar_fire = m_arvalid_o && m_arready_i;
  assign r_end   = m_rvalid_i && m_rready_o && m_rlast_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_out
    if (!rst_ni) begin
      rd_out_q <= '0;
    end else begin
      rd_out_q <= rd_out_q + 11'(ar_fire) - 11'(r_end);
    end
  end
  assign drained_o = !m_arvalid_o && !slice_in_valid && rd_out_q == '0;

  logic unused_arb_idx;
  // (ar_cache: the SoC port's ARCACHE is the wrapper's constant, opentma_axi.v)
  assign unused_arb_idx = ^{arb_idx, eng_req_i.ar_size, eng_req_i.ar_burst, eng_req_i.ar_cache};

  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes >= 4 && DataBytes <= 128)
  `TMA_ASSERT_NEVER(EngineUsesRingId_A, eng_req_i.ar_valid && eng_req_i.ar_id == RingId)
  `TMA_ASSERT_NEVER(OutstandingUnderflow_A, r_end && !ar_fire && rd_out_q == '0)
  `TMA_ASSERT_IMPLY(EngineSizeFixed_A, eng_req_i.ar_valid,
                    eng_req_i.ar_size == m_arsize_o && eng_req_i.ar_burst == m_arburst_o)

endmodule

`default_nettype wire
