// SPDX-License-Identifier: Apache-2.0
//
// tma_smem_rd: the shared-memory read port, the source of stores. For each read job (one
// store row) it requests the row's logical beats in order, each at its physical address in the
// issuing CTA's window: the same address-based swizzle as the load direction's write port
// (tma_swizzle on the absolute shared address, docs/silicon-notes.md finding 6). The port
// answers every request with one data beat, in request order, a cycle or more later and with
// no back-pressure, so a request is made only when the response queue has room for it: the
// lane queue (the beat's 8-byte granule permutation, pushed with the request) has Depth
// entries and its room is the credit; the data queue, pushed with each response, never holds
// more. The beats leave in logical order: a swizzle XORs granule indices, so the permutation
// that placed logical granule g ^ lane at physical granule g also undoes itself.
//
// Timing: the response valid (from the port, late) reaches only the data queue's pointer and
// count flops (its entries load from flops, tma_fifo FlopWrEn), and the permuted beats leave
// through a spill register, so neither the queue's read multiplexer nor the permutation is in
// a path into the next block (one cycle more from response to beat; same rate).
//
// Streams: read jobs in (smem_rd_job_t), read requests out (smem_rd_t) with the port's
// response in (rvalid, rdata), logical beats out (data, through a spill register).

`default_nettype none

`include "tma_assert.svh"

module tma_smem_rd #(
  parameter  int unsigned DataBytes = 16,   // 16, 32, 64 or 128
  parameter  int unsigned Depth     = 4,    // responses in flight or queued, >= 1 (3: full rate)
  localparam int unsigned DW        = DataBytes * 8,
  localparam int unsigned SizeLog2  = $clog2(DataBytes)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Read jobs (from tma_wr_fork)
  input  logic                  job_valid_i,
  output logic                  job_ready_o,
  input  tma_pkg::smem_rd_job_t job_i,
  // Shared-memory read port
  output logic                  smem_valid_o,
  input  logic                  smem_ready_i,
  output tma_pkg::smem_rd_t     smem_o,
  input  logic                  smem_rvalid_i,
  input  logic [DW-1:0]         smem_rdata_i,
  // Logical beats (to tma_wr_align)
  output logic                  beat_valid_o,
  input  logic                  beat_ready_i,
  output logic [DW-1:0]         beat_data_o,
  // Status
  output logic                  busy_o
);

  localparam int unsigned UsageW = $clog2(Depth + 1);

  // ---- Request side: the current job ----
  logic                        active_q;
  logic [31:SizeLog2]          addr_q;     // logical beat address of the next request
  logic [tma_pkg::BeatCntW-1:0] left_q;    // requests left, >= 1 while active
  logic [2:0]                  swz_q;
  logic [tma_pkg::CtaW-1:0]    cta_q;
  logic                        lane_room;  // the response queue has room (the credit)
  logic                        req_fire, req_last;
  logic [31:0]                 phys_addr;
  logic [6:3]                  lane;       // the beat's granule permutation

  assign smem_valid_o = active_q && lane_room;
  assign req_fire     = smem_valid_o && smem_ready_i;
  assign req_last     = left_q == tma_pkg::BeatCntW'(1);
  assign job_ready_o  = !active_q || (req_fire && req_last);

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_req
    if (!rst_ni) begin
      active_q <= 1'b0;
      addr_q   <= '0;
      left_q   <= '0;
      swz_q    <= '0;
      cta_q    <= '0;
    end else if (job_valid_i && job_ready_o) begin
      active_q <= 1'b1;
      addr_q   <= job_i.beat[31:SizeLog2];
      left_q   <= job_i.nbeats;
      swz_q    <= job_i.swz;
      cta_q    <= job_i.cta;
    end else if (req_fire) begin
      active_q <= !req_last;
      addr_q   <= addr_q + 1'b1;
      left_q   <= left_q - 1'b1;
    end
  end

  // The physical beat address (data and strobes unused: the permutation is applied to the
  // response below).
  logic [DW-1:0]        unused_swz_data;
  logic [DataBytes-1:0] unused_swz_strb;

  tma_swizzle #(
    .DataBytes (DataBytes),
    .LaneIn    (0)
  ) u_swz_addr (
    .mode_i (swz_q),
    .addr_i ({addr_q, SizeLog2'(0)}),
    .lane_i (4'd0),
    .data_i ('0),
    .strb_i ('0),
    .addr_o (phys_addr),
    .data_o (unused_swz_data),
    .strb_o (unused_swz_strb)
  );
  assign lane = tma_pkg::swz_lanes(swz_q, addr_q[9:7], DataBytes);

  assign smem_o.addr = phys_addr;
  assign smem_o.cta  = cta_q;

  // ---- Response side: lane queue (credit) and data queue ----
  logic              lane_out_valid, data_out_valid, data_in_ready;
  logic [6:3]        lane_out;
  logic [DW-1:0]     data_out;
  logic [UsageW-1:0] lane_usage, data_usage;
  logic              pop, out_in_ready;
  logic [DW-1:0]     perm_data;     // the queue's head beat in logical order

  assign pop = data_out_valid && out_in_ready;

  tma_fifo #(
    .Width    (4),
    .Depth    (Depth),
    .FlopWrEn (1'b1)
  ) u_lane_q (
    .clk_i,
    .rst_ni,
    .clr_i       (1'b0),
    .in_valid_i  (req_fire),
    .in_ready_o  (lane_room),
    .in_data_i   (lane),
    .out_valid_o (lane_out_valid),
    .out_ready_i (pop),
    .out_data_o  (lane_out),
    .usage_o     (lane_usage)
  );

  tma_fifo #(
    .Width    (DW),
    .Depth    (Depth),
    .FlopWrEn (1'b1)
  ) u_data_q (
    .clk_i,
    .rst_ni,
    .clr_i       (1'b0),
    .in_valid_i  (smem_rvalid_i),
    .in_ready_o  (data_in_ready),
    .in_data_i   (smem_rdata_i),
    .out_valid_o (data_out_valid),
    .out_ready_i (pop),
    .out_data_o  (data_out),
    .usage_o     (data_usage)
  );

  // Physical granule g holds logical granule g ^ lane: the same permutation undoes it.
  logic [31:0]          unused_perm_addr;
  logic [DataBytes-1:0] unused_perm_strb;

  tma_swizzle #(
    .DataBytes (DataBytes),
    .LaneIn    (1)
  ) u_swz_data (
    .mode_i (3'd0),
    .addr_i (32'd0),
    .lane_i (lane_out),
    .data_i (data_out),
    .strb_i ('0),
    .addr_o (unused_perm_addr),
    .data_o (perm_data),
    .strb_o (unused_perm_strb)
  );

  tma_spill_reg #(
    .Width  (DW),
    .Copies (DataBytes / 16)
  ) u_out (
    .clk_i,
    .rst_ni,
    .in_valid_i  (data_out_valid),
    .in_ready_o  (out_in_ready),
    .in_data_i   (perm_data),
    .out_valid_o (beat_valid_o),
    .out_ready_i (beat_ready_i),
    .out_data_o  (beat_data_o)
  );

  assign busy_o = active_q || lane_usage != '0 || beat_valid_o;

  logic unused_bits;
  assign unused_bits = ^{unused_swz_data, unused_swz_strb, unused_perm_addr, unused_perm_strb,
                         data_usage, job_i.beat[SizeLog2-1:0]};

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_INIT(DepthLegal_A, Depth >= 1)
  `TMA_ASSERT_INIT(SmemRdWidth_A, tma_pkg::SmemRdWidth == $bits(tma_pkg::smem_rd_t))
  `TMA_ASSERT_IMPLY(JobBeats_A, job_valid_i, job_i.nbeats != '0)
  // Every response has a request (its lane entry) and room in the data queue.
  `TMA_ASSERT_IMPLY(ResponseExpected_A, smem_rvalid_i, data_in_ready && lane_usage > data_usage)
  `TMA_ASSERT_IMPLY(LaneWithData_A, data_out_valid, lane_out_valid)
  `TMA_ASSERT_STABLE(ReqHeld_A, smem_valid_o, smem_ready_i, smem_o)

endmodule

`default_nettype wire
