// SPDX-License-Identifier: Apache-2.0
//
// tma_s2s_copy: the data of cp.async.bulk.shared::cluster.shared::cta (a bulk copy from the
// issuing CTA's shared memory to another CTA's shared memory, complete-tx on that CTA's
// mbarrier). tma_bulk_rows checks the command and hands it here (source and destination
// offsets, both 16-byte aligned, and its completion: CplTx on the destination CTA, bytes =
// the moved bytes). The copy runs alone: it waits until go_i says the rest of the engine is
// empty (the engine holds every later command back while this block holds one), then owns
// both shared-memory ports and moves the bytes a 16-byte granule at a time: a read of the
// granule's beat in the issuer's window, its response, a write of the granule into the
// destination's beat with the granule's 16 strobes. Bulk copies have no swizzle, so logical
// and physical addresses are the same. After the last write its completion leaves (to the
// completion unit, whose complete-tx then follows every write of the command).
// One granule at a time keeps the block small and deadlock-free (it never waits on the other
// direction and holds no port while it waits): about 3 cycles a granule plus the port
// latency; the copy is a peer-CTA transfer, not a path whose throughput the engine targets.
//
// Streams: commands in (offsets and cpl_info_t), shared-memory read requests out (smem_rd_t)
// with the port's response in, shared-memory writes out (smem_wr_t, data, strobes), the
// finished command out (cpl_info_t).

`default_nettype none

`include "tma_assert.svh"

module tma_s2s_copy #(
  parameter  int unsigned DataBytes = 16,   // 16, 32, 64 or 128
  localparam int unsigned DW        = DataBytes * 8,
  localparam int unsigned SizeLog2  = $clog2(DataBytes)
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  // Commands (from tma_bulk_rows)
  input  logic                    cmd_valid_i,
  output logic                    cmd_ready_o,
  input  logic [31:0]             cmd_src_i,   // source offset in the issuer's window (cpl.cta)
  input  logic [31:0]             cmd_dst_i,   // destination offset in the cpl.cta_mask CTA
  input  tma_pkg::cpl_info_t      cmd_cpl_i,   // CplTx; bytes: the bytes to move, % 16 == 0
  // The rest of the engine is empty (it may start)
  input  logic                    go_i,
  // The block owns the shared-memory ports (the engine's port multiplexers)
  output logic                    active_o,
  // Shared-memory read port
  output logic                    rd_valid_o,
  input  logic                    rd_ready_i,
  output tma_pkg::smem_rd_t       rd_o,
  input  logic                    rvalid_i,
  input  logic [DW-1:0]           rdata_i,
  // Shared-memory write port
  output logic                    wr_valid_o,
  input  logic                    wr_ready_i,
  output tma_pkg::smem_wr_t       wr_o,
  output logic [DW-1:0]           wr_data_o,
  output logic [DataBytes-1:0]    wr_strb_o,
  // Finished commands (to the completion unit)
  output logic                    done_valid_o,
  input  logic                    done_ready_i,
  output tma_pkg::cpl_info_t      done_o,
  // Status: a command is held
  output logic                    busy_o
);

  typedef enum logic [2:0] {
    StIdle, StWait, StRead, StResp, StWrite, StDone
  } state_e;

  state_e             state_q, state_d;
  logic [31:0]        src_q, dst_q, left_q;
  tma_pkg::cpl_info_t cpl_q;
  logic [127:0]       gran_q;
  logic               take_cmd, take_wr;
  // the granules' byte offsets in their beats (16-byte multiples: the low bits are constant 0,
  // so at DataBytes 16 there is no shifter)
  logic [SizeLog2-1:0] src_off, dst_off;
  if (DataBytes > 16) begin : gen_lanes
    assign src_off = {src_q[SizeLog2-1:4], 4'd0};
    assign dst_off = {dst_q[SizeLog2-1:4], 4'd0};
  end else begin : gen_one_lane
    assign src_off = '0;
    assign dst_off = '0;
    logic unused_off;
    assign unused_off = ^{src_q[3:0], dst_q[3:0]};
  end

  assign take_cmd = cmd_valid_i && cmd_ready_o;
  assign take_wr  = wr_valid_o && wr_ready_i;

  always_comb begin : proc_next
    state_d = state_q;
    unique case (state_q)
      StIdle:  if (cmd_valid_i) state_d = StWait;
      StWait:  if (go_i) state_d = (left_q == '0) ? StDone : StRead;
      StRead:  if (rd_ready_i) state_d = StResp;
      StResp:  if (rvalid_i) state_d = StWrite;
      StWrite: if (wr_ready_i) state_d = (left_q == 32'd16) ? StDone : StRead;
      StDone:  if (done_ready_i) state_d = StIdle;
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_state
    if (!rst_ni) begin
      state_q <= StIdle;
    end else begin
      state_q <= state_d;
    end
  end

  // Data registers (no reset: qualified by the state).
  always_ff @(posedge clk_i) begin : proc_data
    if (take_cmd) begin
      src_q  <= cmd_src_i;
      dst_q  <= cmd_dst_i;
      left_q <= cmd_cpl_i.bytes;
      cpl_q  <= cmd_cpl_i;
    end else if (take_wr) begin
      src_q  <= src_q + 32'd16;
      dst_q  <= dst_q + 32'd16;
      left_q <= left_q - 32'd16;
    end
    if (state_q == StResp && rvalid_i) begin
      // the granule at byte src_q % DataBytes of the beat
      gran_q <= 128'(rdata_i >> {src_off, 3'd0});
    end
  end

  assign cmd_ready_o = state_q == StIdle;
  assign active_o    = state_q == StRead || state_q == StResp || state_q == StWrite;
  assign busy_o      = state_q != StIdle;

  assign rd_valid_o  = state_q == StRead;
  always_comb begin : proc_rd
    rd_o      = '0;
    rd_o.addr = {src_q[31:SizeLog2], SizeLog2'(0)};
    rd_o.cta  = cpl_q.cta;
  end

  assign wr_valid_o = state_q == StWrite;
  always_comb begin : proc_wr
    wr_o          = '0;
    wr_o.addr     = {dst_q[31:SizeLog2], SizeLog2'(0)};
    wr_o.cta_mask = cpl_q.cta_mask;
  end
  assign wr_data_o = DW'(gran_q) << {dst_off, 3'd0};
  assign wr_strb_o = DataBytes'({16{1'b1}}) << dst_off;

  assign done_valid_o = state_q == StDone;
  assign done_o       = cpl_q;

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_IMPLY(CmdAligned_A, cmd_valid_i,
                    cmd_src_i[3:0] == 4'd0 && cmd_dst_i[3:0] == 4'd0 &&
                    cmd_cpl_i.bytes[3:0] == 4'd0 && cmd_cpl_i.kind == tma_pkg::CplTx)
  // A read response comes only for the block's one request.
  `TMA_ASSERT_IMPLY(RespExpected_A, active_o && rvalid_i, state_q == StResp)
  // Granules are moved while bytes are left.
  `TMA_ASSERT_IMPLY(BytesLeft_A, active_o, left_q != '0 && left_q[3:0] == 4'd0)
  `TMA_ASSERT_STABLE(RdHeld_A, rd_valid_o, rd_ready_i, rd_o)
  `TMA_ASSERT_STABLE(WrHeld_A, wr_valid_o, wr_ready_i, {wr_o, wr_data_o, wr_strb_o})
  `TMA_ASSERT_STABLE(DoneHeld_A, done_valid_o, done_ready_i, done_o)

endmodule

`default_nettype wire
