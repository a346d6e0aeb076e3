// SPDX-License-Identifier: Apache-2.0
//
// tma_axi_wr_sva: AXI4 write-channel protocol checker of a manager port given as the
// tma_pkg::axi_wr_req_t / axi_wr_rsp_t pair (W data and strobes beside it), bound from outside
// (rtl/sva/tma_bind.sv); simulation only. Checks both sides of the channel:
//   * AW: valid stays high with a stable payload until aw_ready; INCR bursts of the bus width
//     (with Narrow, of the bus width or narrower: the SoC port's 16-byte completion records;
//     an AXI5 AtomicStore: one transfer of its element's 4 or 8 bytes, ID AxiIdAtop),
//     aligned to the transfer size, inside one 4 KiB page (the manager's duties);
//   * W: valid stays high with a stable payload until w_ready; WLAST exactly on beat AWLEN + 1
//     of the oldest burst whose data is not complete; a W beat only for a burst whose AW was
//     sent (the engine's own rule, stricter than AXI4); strobes not empty;
//   * B: valid stays high with a stable payload until b_ready (the subordinate's duty); no B
//     without a burst whose data is complete and whose response is still due.
// It keeps the AWLEN of each burst whose data is not complete in a ring of MaxBursts entries.

`default_nettype none

`include "tma_assert.svh"

module tma_axi_wr_sva #(
  parameter  int unsigned DataBytes = 16,
  parameter  int unsigned MaxBursts = 1024,   // bursts whose W is not complete the checker holds
  parameter  int unsigned Narrow    = 0,      // 1: AWSIZE may be narrower than the bus
  localparam int unsigned DW        = DataBytes * 8
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input tma_pkg::axi_wr_req_t req_i,
  input tma_pkg::axi_wr_rsp_t rsp_i,
  input logic [DW-1:0]        w_data_i,
  input logic [DataBytes-1:0] w_strb_i
);

  localparam int unsigned PtrW = $clog2(MaxBursts);

  logic [7:0]    len_mem [MaxBursts];  // AWLEN of each burst whose W is not complete, AW order
  logic [PtrW:0] aw_q;                 // bursts sent on AW
  logic [PtrW:0] w_q;                  // bursts whose W is complete
  logic [31:0]   b_due_q;              // bursts with complete W and no B yet
  logic [7:0]    beats_q;              // W beats of the oldest incomplete burst already taken
  logic          aw_fire, w_fire, b_fire;
  logic [PtrW:0] w_open;               // bursts sent on AW whose W is not complete
  logic [7:0]    w_len;                // AWLEN of the oldest of them
  logic [12:0]   aw_page_end;          // AW's page offset + burst bytes

  assign aw_fire = req_i.aw_valid && rsp_i.aw_ready;
  assign w_fire  = req_i.w_valid && rsp_i.w_ready;
  assign b_fire  = rsp_i.b_valid && req_i.b_ready;

  always_comb begin : proc_lookup
    w_open      = aw_q - w_q;
    w_len       = len_mem[w_q[PtrW-1:0]];
    aw_page_end = 13'(req_i.aw_addr[11:0]) + ((13'(req_i.aw_len) + 13'd1) << req_i.aw_size);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_count
    if (!rst_ni) begin
      aw_q    <= '0;
      w_q     <= '0;
      b_due_q <= '0;
      beats_q <= '0;
    end else begin
      if (aw_fire) aw_q <= aw_q + 1'b1;
      if (w_fire) begin
        if (req_i.w_last) begin
          w_q     <= w_q + 1'b1;
          beats_q <= '0;
        end else begin
          beats_q <= beats_q + 1'b1;
        end
      end
      b_due_q <= b_due_q + 32'(w_fire && req_i.w_last) - 32'(b_fire);
    end
  end

  always_ff @(posedge clk_i) begin : proc_len_mem
    if (aw_fire) len_mem[aw_q[PtrW-1:0]] <= req_i.aw_len;
  end

  // ---- AW channel (manager) ----
  `TMA_ASSERT_STABLE(AwHeld_A, req_i.aw_valid, rsp_i.aw_ready,
                     {req_i.aw_id, req_i.aw_addr, req_i.aw_len, req_i.aw_size, req_i.aw_burst,
                      req_i.aw_atop})
  `TMA_ASSERT_IMPLY(AwIncr_A, req_i.aw_valid,
                    req_i.aw_burst == tma_pkg::AxiBurstIncr &&
                    (req_i.aw_size == 3'($clog2(DataBytes)) || req_i.aw_atop != '0 ||
                     (Narrow != 0 && req_i.aw_size < 3'($clog2(DataBytes)))))
  // AXI5 AtomicStore (the engine's only atomic form): little-endian, one transfer of 4 or 8
  // bytes (the element), on the atomics' own ID.
  `TMA_ASSERT_IMPLY(AwAtomicStore_A, req_i.aw_valid && req_i.aw_atop != '0,
                    req_i.aw_atop[5:3] == 3'b010 && req_i.aw_len == '0 &&
                    (req_i.aw_size == 3'd2 || req_i.aw_size == 3'd3) &&
                    req_i.aw_id == tma_pkg::AxiIdAtop)
  `TMA_ASSERT_IMPLY(AwAtopId_A, req_i.aw_valid && req_i.aw_id == tma_pkg::AxiIdAtop,
                    req_i.aw_atop != '0)
  `TMA_ASSERT_IMPLY(AwAligned_A, req_i.aw_valid,
                    (req_i.aw_addr[6:0] & ((7'd1 << req_i.aw_size) - 7'd1)) == '0)
  `TMA_ASSERT_IMPLY(AwInPage_A, req_i.aw_valid, aw_page_end <= 13'd4096)
  `TMA_ASSERT_IMPLY(AwCheckerRoom_A, aw_fire, w_open < (PtrW + 1)'(MaxBursts))
  // ---- W channel (manager) ----
  `TMA_ASSERT_STABLE(WHeld_A, req_i.w_valid, rsp_i.w_ready, {req_i.w_last, w_data_i, w_strb_i})
  `TMA_ASSERT_IMPLY(WAfterAw_A, req_i.w_valid, w_open != '0)
  `TMA_ASSERT_IMPLY(WLastCount_A, req_i.w_valid && w_open != '0,
                    req_i.w_last == (beats_q == w_len))
  `TMA_ASSERT_IMPLY(WStrobes_A, req_i.w_valid, w_strb_i != '0)
  // ---- B channel (subordinate) ----
  `TMA_ASSERT_STABLE(BHeld_A, rsp_i.b_valid, req_i.b_ready, {rsp_i.b_id, rsp_i.b_resp})
  `TMA_ASSERT_IMPLY(BAfterW_A, rsp_i.b_valid, b_due_q != '0)
  `TMA_COVER(AwStall_C, req_i.aw_valid && !rsp_i.aw_ready)
  `TMA_COVER(WStall_C, req_i.w_valid && !rsp_i.w_ready)
  `TMA_COVER(BStall_C, rsp_i.b_valid && !req_i.b_ready)
  `TMA_COVER(BError_C, b_fire && rsp_i.b_resp != tma_pkg::AxiRespOkay)

endmodule

`default_nettype wire
