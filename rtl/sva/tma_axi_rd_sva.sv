// SPDX-License-Identifier: Apache-2.0
//
// tma_axi_rd_sva: AXI4 read-channel protocol checker of a manager port given as the
// tma_pkg::axi_rd_req_t / axi_rd_rsp_t pair, bound from outside (rtl/sva/tma_bind.sv);
// simulation only. Checks both sides of the channel:
//   * AR: valid stays high with a stable payload until ar_ready; INCR bursts of the bus width
//     that do not cross a 4 KiB page (the manager's duties);
//   * R: valid stays high with a stable payload until r_ready; no R beat for an ID without an
//     outstanding AR of that ID; RLAST exactly on beat ARLEN + 1 of the ID's oldest
//     outstanding burst (the subordinate's duties; bursts of one ID return in AR order).
// Per ID it keeps the ARLEN of each outstanding burst in a ring of MaxBursts entries.

`default_nettype none

`include "tma_assert.svh"

module tma_axi_rd_sva #(
  parameter  int unsigned DataBytes = 16,
  parameter  int unsigned MaxBursts = 2048,   // outstanding bursts per ID the checker holds
  localparam int unsigned DW        = DataBytes * 8
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input tma_pkg::axi_rd_req_t req_i,
  input tma_pkg::axi_rd_rsp_t rsp_i,
  input logic [DW-1:0]        r_data_i
);

  localparam int unsigned NumIds = 16;
  localparam int unsigned PtrW   = $clog2(MaxBursts);

  // ---- Outstanding bursts per ID ----
  logic [7:0]    len_mem [NumIds][MaxBursts];  // ARLEN of each outstanding burst, AR order
  logic [PtrW:0] head_q [NumIds];              // oldest outstanding burst of the ID
  logic [PtrW:0] tail_q [NumIds];              // next free entry
  logic [7:0]    beats_q [NumIds];             // beats of the oldest burst already taken
  logic          ar_fire, r_fire;
  // The R beat's ID, as narrow values (the properties below sample only these)
  logic [PtrW:0] r_outstanding;                // outstanding bursts of the beat's ID
  logic [7:0]    r_len;                        // ARLEN of its oldest burst
  logic [7:0]    r_beats;                      // beats of that burst already taken
  logic [PtrW:0] ar_outstanding;               // outstanding bursts of the AR's ID
  logic [12:0]   ar_page_end;                  // AR's page offset + burst bytes

  assign ar_fire = req_i.ar_valid && rsp_i.ar_ready;
  assign r_fire  = rsp_i.r_valid && req_i.r_ready;

  always_comb begin : proc_lookup
    r_outstanding  = tail_q[rsp_i.r_id] - head_q[rsp_i.r_id];
    r_len          = len_mem[rsp_i.r_id][head_q[rsp_i.r_id][PtrW-1:0]];
    r_beats        = beats_q[rsp_i.r_id];
    ar_outstanding = tail_q[req_i.ar_id] - head_q[req_i.ar_id];
    ar_page_end    = 13'(req_i.ar_addr[11:0]) + ((13'(req_i.ar_len) + 13'd1) << req_i.ar_size);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_count
    if (!rst_ni) begin
      for (int i = 0; i < NumIds; i++) begin
        head_q[i]  <= '0;
        tail_q[i]  <= '0;
        beats_q[i] <= '0;
      end
    end else begin
      if (ar_fire) begin
        tail_q[req_i.ar_id] <= tail_q[req_i.ar_id] + 1'b1;
      end
      if (r_fire) begin
        if (rsp_i.r_last) begin
          head_q[rsp_i.r_id]  <= head_q[rsp_i.r_id] + 1'b1;
          beats_q[rsp_i.r_id] <= '0;
        end else begin
          beats_q[rsp_i.r_id] <= beats_q[rsp_i.r_id] + 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin : proc_len_mem
    if (ar_fire) begin
      len_mem[req_i.ar_id][tail_q[req_i.ar_id][PtrW-1:0]] <= req_i.ar_len;
    end
  end

  // ---- AR channel (manager) ----
  `TMA_ASSERT_STABLE(ArHeld_A, req_i.ar_valid, rsp_i.ar_ready,
                     {req_i.ar_id, req_i.ar_addr, req_i.ar_len, req_i.ar_size, req_i.ar_burst,
                      req_i.ar_cache})
  `TMA_ASSERT_IMPLY(ArIncr_A, req_i.ar_valid,
                    req_i.ar_burst == tma_pkg::AxiBurstIncr &&
                    req_i.ar_size == 3'($clog2(DataBytes)))
  `TMA_ASSERT_IMPLY(ArAligned_A, req_i.ar_valid, req_i.ar_addr[$clog2(DataBytes)-1:0] == '0)
  `TMA_ASSERT_IMPLY(ArInPage_A, req_i.ar_valid, ar_page_end <= 13'd4096)
  `TMA_ASSERT_IMPLY(ArCheckerRoom_A, ar_fire, ar_outstanding < (PtrW + 1)'(MaxBursts))
  // ---- R channel (subordinate) ----
  `TMA_ASSERT_STABLE(RHeld_A, rsp_i.r_valid, req_i.r_ready,
                     {rsp_i.r_id, rsp_i.r_resp, rsp_i.r_last, r_data_i})
  `TMA_ASSERT_IMPLY(RAfterAr_A, rsp_i.r_valid, r_outstanding != '0)
  `TMA_ASSERT_IMPLY(RLastCount_A, rsp_i.r_valid && r_outstanding != '0,
                    rsp_i.r_last == (r_beats == r_len))
  `TMA_COVER(ArStall_C, req_i.ar_valid && !rsp_i.ar_ready)
  `TMA_COVER(RStall_C, rsp_i.r_valid && !req_i.r_ready)
  `TMA_COVER(RError_C, r_fire && rsp_i.r_resp != tma_pkg::AxiRespOkay)

endmodule

`default_nettype wire
