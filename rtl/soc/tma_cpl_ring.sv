// SPDX-License-Identifier: Apache-2.0
//
// tma_cpl_ring: the completion ring writer (docs/soc.md). Each completion becomes a 16-byte
// record (soc_records.cpl, tma_cpl_rec_enc) written to base + 16 x (tail mod entries) with
// one single-beat AXI4 write (AWSIZE 16 bytes, the record's lanes strobed); tail advances when
// the write response arrives, so a record software sees through the tail register is in
// memory. The record's lap bit is 1 on the first pass and alternates, so software can also
// poll the records. The ring is full when tail - head = entries (indices mod 2 x entries):
// completions then wait (cpl_ready_o low). hold_i (soft reset drain) starts no new write;
// clr_i (soft reset) empties the ring: tail := head. An error response pulses bus_err_o.

`default_nettype none

`include "tma_assert.svh"

module tma_cpl_ring #(
  parameter  int unsigned DataBytes = 16,
  localparam int unsigned DW        = DataBytes * 8
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 clr_i,
  input  logic                 hold_i,
  // Ring registers
  input  logic [63:4]          base_i,     // 16-byte aligned
  input  logic [3:0]           log2_i,
  input  logic [16:0]          head_i,
  output logic [16:0]          tail_o,
  output logic [16:0]          count_o,    // records written and not consumed
  output logic                 full_o,
  output logic                 busy_o,     // a write is in flight
  output logic                 written_o,  // a record landed (its response arrived)
  output logic                 written_grp_o,  // ... and it is a group completion (CplGroup)
  output logic                 bus_err_o,
  // Completions in
  input  logic                 cpl_valid_i,
  output logic                 cpl_ready_o,
  input  tma_pkg::cpl_t        cpl_i,
  input  logic                 grp_done_i, // a group completion's flags (tma_soc_cpl_merge)
  input  logic                 grp_err_i,
  // AXI4 write (one beat)
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

  typedef enum logic [1:0] { CrIdle, CrWrite, CrResp } cr_state_e;

  cr_state_e     state_d, state_q;
  logic [16:0]   tail_d, tail_q, mask2, pos;
  logic          aw_sent_d, aw_sent_q, w_sent_d, w_sent_q, lap;
  logic [127:0]  rec, rec_q;
  logic [63:0]   addr_q;
  logic          grp_q;

  assign mask2       = (17'd2 << log2_i) - 17'd1;
  assign pos         = tail_q & (mask2 >> 1);
  assign count_o     = (tail_q - head_i) & mask2;
  assign full_o      = count_o == (mask2 >> 1) + 17'd1;
  assign lap         = !tail_q[5'(log2_i)];
  assign cpl_ready_o = state_q == CrIdle && !full_o && !hold_i && !clr_i;

  tma_cpl_rec_enc u_enc (
    .cpl_i,
    .grp_done_i,
    .grp_err_i,
    .lap_i (lap),
    .rec_o (rec)
  );

  always_comb begin : proc_next
    state_d   = state_q;
    tail_d    = tail_q;
    aw_sent_d = aw_sent_q;
    w_sent_d  = w_sent_q;
    unique case (state_q)
      CrIdle: begin
        if (cpl_valid_i && cpl_ready_o) begin
          state_d   = CrWrite;
          aw_sent_d = 1'b0;
          w_sent_d  = 1'b0;
        end
      end
      CrWrite: begin
        aw_sent_d = aw_sent_q || aw_ready_i;
        w_sent_d  = w_sent_q || w_ready_i;
        if (aw_sent_d && w_sent_d) state_d = CrResp;
      end
      CrResp: begin
        if (b_valid_i) begin
          state_d = CrIdle;
          tail_d  = (tail_q + 17'd1) & mask2;
        end
      end
      default: state_d = CrIdle;
    endcase
    if (clr_i) tail_d = head_i & mask2;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_state
    if (!rst_ni) begin
      state_q   <= CrIdle;
      tail_q    <= '0;
      aw_sent_q <= 1'b0;
      w_sent_q  <= 1'b0;
      rec_q     <= '0;
      addr_q    <= '0;
      grp_q     <= 1'b0;
    end else begin
      state_q   <= state_d;
      tail_q    <= tail_d;
      aw_sent_q <= aw_sent_d;
      w_sent_q  <= w_sent_d;
      if (cpl_valid_i && cpl_ready_o) begin
        rec_q  <= rec;
        addr_q <= {base_i, 4'd0} + {43'd0, pos, 4'd0};
        grp_q  <= cpl_i.kind == tma_pkg::CplGroup;
      end
    end
  end

  always_comb begin : proc_w
    for (int l = 0; l < DataBytes / 16; l++) w_data_o[l*128 +: 128] = rec_q;
    w_strb_o = '0;
    for (int l = 0; l < DataBytes / 16; l++) begin
      if (DataBytes == 16 || 32'(addr_q[6:4]) % (DataBytes / 16) == l) begin
        w_strb_o[l*16 +: 16] = '1;
      end
    end
  end

  assign aw_valid_o = state_q == CrWrite && !aw_sent_q;
  assign aw_addr_o  = addr_q;
  assign w_valid_o  = state_q == CrWrite && !w_sent_q;
  assign b_ready_o  = state_q == CrResp;
  assign tail_o     = tail_q;
  assign busy_o     = state_q != CrIdle;
  assign written_o  = state_q == CrResp && b_valid_i;
  assign written_grp_o = written_o && grp_q;
  assign bus_err_o  = written_o && b_resp_i != tma_pkg::AxiRespOkay;

  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes >= 16 && DataBytes <= 128)
  `TMA_ASSERT_STABLE(AwHeld_A, aw_valid_o, aw_ready_i, aw_addr_o)
  `TMA_ASSERT_STABLE(WHeld_A, w_valid_o, w_ready_i, w_data_o)
  `TMA_ASSERT_NEVER(ClrWhileBusy_A, clr_i && state_q != CrIdle)

endmodule

`default_nettype wire
