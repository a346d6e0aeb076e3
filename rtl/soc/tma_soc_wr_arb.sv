// SPDX-License-Identifier: Apache-2.0
//
// tma_soc_wr_arb: the write channels (AW / W / B) of the SoC top's AXI4 manager port, shared by
// the engine's store path (bursts, ID AxiIdData) and the completion ring writer (single-beat
// records, ID RingWrId).
//   AW: one source at a time owns the write channels: a source is granted when no burst is in
//       progress, the completion ring first; its AW is offered on the port until accepted (the
//       grant does not change while the port's AW is offered), then its W beats follow up to
//       WLAST, then the channels are free again. W therefore never interleaves and always
//       follows its own AW, as AXI4 requires of a manager without write interleaving.
//   B:  routed by ID: RingWrId to the completion ring writer, any other to the engine.
// Soft reset (docs/soc.md): while hold_i the engine is granted no new AW (an AW already offered
// stays offered until accepted). wr_drained_o: no engine AW offered, no burst in progress and
// no engine B outstanding; the engine is reset only then, so it never leaves a burst half
// written on the port.

`default_nettype none

`include "tma_assert.svh"

module tma_soc_wr_arb #(
  parameter int unsigned DataBytes     = 16,
  parameter logic [3:0]  RingWrId      = 4'd3,
  parameter int unsigned MaxOutstanding = 255   // engine bursts awaiting B (counter range)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,        // hard reset only (the port's state)
  input  logic                  hold_i,
  output logic                  wr_drained_o,
  // Engine write channels
  input  tma_pkg::axi_wr_req_t  eng_req_i,
  output tma_pkg::axi_wr_rsp_t  eng_rsp_o,
  input  logic [DataBytes*8-1:0] eng_w_data_i,
  input  logic [DataBytes-1:0]  eng_w_strb_i,
  // Completion ring writer (one 16-byte beat per record, AWLEN 0)
  input  logic                  ring_aw_valid_i,
  output logic                  ring_aw_ready_o,
  input  logic [63:0]           ring_aw_addr_i,
  input  logic                  ring_w_valid_i,
  output logic                  ring_w_ready_o,
  input  logic [DataBytes*8-1:0] ring_w_data_i,
  input  logic [DataBytes-1:0]  ring_w_strb_i,
  output logic                  ring_b_valid_o,
  input  logic                  ring_b_ready_i,
  output logic [1:0]            ring_b_resp_o,
  // Manager port: AW / W / B
  output logic                  m_awvalid_o,
  input  logic                  m_awready_i,
  output logic [3:0]            m_awid_o,
  output logic [63:0]           m_awaddr_o,
  output logic [7:0]            m_awlen_o,
  output logic [2:0]            m_awsize_o,
  output logic [1:0]            m_awburst_o,
  output logic                  m_wvalid_o,
  input  logic                  m_wready_i,
  output logic [DataBytes*8-1:0] m_wdata_o,
  output logic [DataBytes-1:0]  m_wstrb_o,
  output logic                  m_wlast_o,
  input  logic                  m_bvalid_i,
  output logic                  m_bready_o,
  input  logic [3:0]            m_bid_i,
  input  logic [1:0]            m_bresp_i
);

  localparam int unsigned CntW = $clog2(MaxOutstanding + 1);

  // aw_own_q: which source's AW the port offers (aw_on_q) or whose W beats follow (w_on_q):
  // 1 = the completion ring writer, 0 = the engine.
  logic            aw_on_q, w_on_q, own_ring_q;
  logic            grant_ring, grant_eng, aw_fire, w_fire, w_last, b_eng_fire, eng_aw_fire;
  logic [CntW-1:0] b_pend_q;

  // A new grant only when the channels are free: no AW offered, no burst in progress.
  assign grant_ring = !aw_on_q && !w_on_q && ring_aw_valid_i;
  assign grant_eng  = !aw_on_q && !w_on_q && !ring_aw_valid_i && eng_req_i.aw_valid &&
                      !hold_i && b_pend_q != CntW'(MaxOutstanding);

  // The port's AW: the granted source's, registered at the grant and held until accepted.
  logic [3:0]  awid_q;
  logic [63:0] awaddr_q;
  logic [7:0]  awlen_q;
  logic [2:0]  awsize_q;
  logic [1:0]  awburst_q;
  assign aw_fire     = aw_on_q && m_awready_i;
  assign eng_aw_fire = grant_eng;   // the engine's AW is taken into the port's AW register
  assign w_fire      = m_wvalid_o && m_wready_i;
  assign w_last      = w_fire && m_wlast_o;
  assign b_eng_fire  = m_bvalid_i && m_bready_o && m_bid_i != RingWrId;

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_aw
    if (!rst_ni) begin
      aw_on_q    <= 1'b0;
      w_on_q     <= 1'b0;
      own_ring_q <= 1'b0;
      awid_q     <= '0;
      awaddr_q   <= '0;
      awlen_q    <= '0;
      awsize_q   <= '0;
      awburst_q  <= '0;
    end else begin
      if (grant_ring || grant_eng) begin
        aw_on_q    <= 1'b1;
        own_ring_q <= grant_ring;
        awid_q     <= grant_ring ? RingWrId : eng_req_i.aw_id;
        awaddr_q   <= grant_ring ? ring_aw_addr_i : eng_req_i.aw_addr;
        awlen_q    <= grant_ring ? 8'd0 : eng_req_i.aw_len;
        awsize_q   <= grant_ring ? 3'd4 : eng_req_i.aw_size;  // a record: 16 bytes
        awburst_q  <= grant_ring ? tma_pkg::AxiBurstIncr : eng_req_i.aw_burst;
      end else if (aw_fire) begin
        aw_on_q <= 1'b0;
      end
      if (aw_fire) begin
        w_on_q <= 1'b1;
      end else if (w_last) begin
        w_on_q <= 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_b_pend
    if (!rst_ni) begin
      b_pend_q <= '0;
    end else if (eng_aw_fire && !b_eng_fire) begin
      b_pend_q <= b_pend_q + CntW'(1);
    end else if (b_eng_fire && !eng_aw_fire) begin
      b_pend_q <= b_pend_q - CntW'(1);
    end
  end

  // Sources: the AW is taken at the grant (the port's register holds it from then on).
  assign ring_aw_ready_o = grant_ring;

  assign m_awvalid_o = aw_on_q;
  assign m_awid_o    = awid_q;
  assign m_awaddr_o  = awaddr_q;
  assign m_awlen_o   = awlen_q;
  assign m_awsize_o  = awsize_q;
  assign m_awburst_o = awburst_q;

  // W: the owner's beats, once its AW has been accepted.
  assign m_wvalid_o     = w_on_q && (own_ring_q ? ring_w_valid_i : eng_req_i.w_valid);
  assign m_wdata_o      = own_ring_q ? ring_w_data_i : eng_w_data_i;
  assign m_wstrb_o      = own_ring_q ? ring_w_strb_i : eng_w_strb_i;
  assign m_wlast_o      = own_ring_q ? 1'b1 : eng_req_i.w_last;
  assign ring_w_ready_o = w_on_q && own_ring_q && m_wready_i;

  // B by ID.
  assign ring_b_valid_o = m_bvalid_i && m_bid_i == RingWrId;
  assign ring_b_resp_o  = m_bresp_i;
  assign m_bready_o     = m_bid_i == RingWrId ? ring_b_ready_i : eng_req_i.b_ready;

  always_comb begin : proc_eng_rsp
    eng_rsp_o          = '0;
    eng_rsp_o.aw_ready = grant_eng;
    eng_rsp_o.w_ready  = w_on_q && !own_ring_q && m_wready_i;
    eng_rsp_o.b_valid  = m_bvalid_i && m_bid_i != RingWrId;
    eng_rsp_o.b_id     = m_bid_i;
    eng_rsp_o.b_resp   = m_bresp_i;
  end

  assign wr_drained_o = !aw_on_q && !w_on_q && b_pend_q == '0;

  // The SoC port is AXI4 (no AWATOP): its engine is built without AtomicReduce, so every
  // engine burst is a plain write (EngineNoAtop_A).
  logic [5:0] unused_aw_atop;
  assign unused_aw_atop = eng_req_i.aw_atop;

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesPow2_A, DataBytes >= 16 && (DataBytes & (DataBytes - 1)) == 0)
  `TMA_ASSERT_NEVER(GrantBoth_A, grant_ring && grant_eng)
  `TMA_ASSERT_NEVER(EngineUsesRingId_A, eng_req_i.aw_valid && eng_req_i.aw_id == RingWrId)
  `TMA_ASSERT_NEVER(EngineNoAtop_A, eng_req_i.aw_valid && eng_req_i.aw_atop != '0)
  `TMA_ASSERT_NEVER(RingMultiBeat_A, w_fire && own_ring_q && !m_wlast_o)
  `TMA_ASSERT_NEVER(BUnderflow_A, b_eng_fire && b_pend_q == '0 && !eng_aw_fire)
  `TMA_ASSERT_STABLE(AwStable_A, m_awvalid_o, m_awready_i,
                     {m_awid_o, m_awaddr_o, m_awlen_o, m_awsize_o, m_awburst_o})

endmodule

`default_nettype wire
