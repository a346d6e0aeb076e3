// SPDX-License-Identifier: Apache-2.0
//
// tma_s2s_copy: the data of the shared::cta -> shared::cluster bulk operations (cp.async.bulk
// and cp.reduce.async.bulk .shared::cluster.shared::cta: from the issuing CTA's shared memory
// to a CTA of the cluster, complete-tx on that CTA's mbarrier). tma_bulk_rows checks the
// command and hands it here (source and destination offsets, both 16-byte aligned, and its
// completion: CplTx on the destination CTA, bytes = the moved bytes; a reduction has cpl.red
// set with its Red* and Elem*). The command runs alone: it waits until go_i says the rest of the
// engine is empty (the engine holds every later command back while this block holds one), then
// owns both shared-memory ports and works a 16-byte granule at a time:
//   * copy: a read of the source granule's beat in the issuer's window, its response, a write
//     of the granule into the destination's beat with the granule's 16 strobes;
//   * reduction (read-modify-write): a read of the source granule, a read of the destination
//     granule (in the destination CTA's window), both responses (the port answers in request
//     order), two cycles through the reduction ALU's integer unit (tma_red_int, one per 8-byte
//     slot: every pair of the seed's .shared::cluster table is an integer one, the model's
//     ReduceElement, silicon D9), the write of the reduced granule.
// Bulk operations have no swizzle, so logical and physical addresses are the same. After the
// last write the completion leaves (to the completion unit, whose complete-tx then follows every
// write of the command).
// A reduction may name its own CTA as the destination, so source and destination can overlap.
// The model reads the whole source and destination before it writes; walking the granules
// upward when the destination lies below the source and downward when it lies above (as
// memmove does) gives the same bytes, since no granule is read after its bytes were written.
// One granule at a time keeps the block small and deadlock-free (it never waits on the other
// direction and holds no port while it waits): about 3 cycles a copied granule and 6 a reduced
// one, plus the port latency; these are peer-CTA transfers, not a path whose throughput the
// engine targets. The integer unit is the ALU's, not the whole ALU: no pair of the table needs
// its float adders (docs/architecture.md).
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

  // StRead: the source granule's read; StReadDst: the destination's (reductions); StResp: the
  // last response; StAluA / StAluB: the integer unit's two stages (reductions).
  typedef enum logic [3:0] {
    StIdle, StWait, StRead, StReadDst, StResp, StAluA, StAluB, StWrite, StDone
  } state_e;

  state_e                 state_q, state_d;
  logic [31:0]            src_q, dst_q, left_q;
  tma_pkg::cpl_info_t     cpl_q;
  logic [tma_pkg::CtaW-1:0] dcta_d, dcta_q;  // the destination CTA (cpl.cta_mask's one bit)
  logic                   back_d, back_q;    // the granules are walked downward
  logic                   nresp_q;           // responses of this granule so far (0 or 1)
  logic                   last_resp;         // this response is the granule's last
  logic [127:0]           src_g_q, dst_g_q, red_r, gran;
  logic [31:0]            step;
  logic                   take_cmd, take_wr, rd_dst;
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

  assign take_cmd  = cmd_valid_i && cmd_ready_o;
  assign take_wr   = wr_valid_o && wr_ready_i;
  // (a copy has one response a granule, a reduction two: source, then destination)
  assign last_resp = rvalid_i && (!cpl_q.red || nresp_q);

  // The destination CTA and the direction of the walk, from the command.
  always_comb begin : proc_dcta
    dcta_d = '0;
    for (int i = 0; i < tma_pkg::MaxCtas; i++) begin
      if (cmd_cpl_i.cta_mask[i]) begin
        dcta_d = dcta_d | tma_pkg::CtaW'(i);
      end
    end
  end
  assign back_d = dcta_d == cmd_cpl_i.cta && cmd_dst_i > cmd_src_i && cmd_cpl_i.bytes != '0;
  assign step   = back_q ? 32'hFFFF_FFF0 : 32'd16;   // -16 or +16

  always_comb begin : proc_next
    state_d = state_q;
    unique case (state_q)
      StIdle:    if (cmd_valid_i) state_d = StWait;
      StWait:    if (go_i) state_d = (left_q == '0) ? StDone : StRead;
      StRead:    if (rd_ready_i) state_d = cpl_q.red ? StReadDst : StResp;
      StReadDst: if (rd_ready_i) state_d = StResp;
      StResp:    if (last_resp) state_d = cpl_q.red ? StAluA : StWrite;
      StAluA:    state_d = StAluB;
      StAluB:    state_d = StWrite;
      StWrite:   if (wr_ready_i) state_d = (left_q == 32'd16) ? StDone : StRead;
      StDone:    if (done_ready_i) state_d = StIdle;
      default:   state_d = StIdle;
    endcase
  end

  // active_o from a flop of its own (formed from state_d): it selects the engine's
  // shared-memory ports (every request, data and strobe bit) and gates their readies.
  // busy_o likewise: it holds the engine's command register.
  logic active_q, busy_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_state
    if (!rst_ni) begin
      state_q  <= StIdle;
      active_q <= 1'b0;
      busy_q   <= 1'b0;
      nresp_q  <= 1'b0;
    end else begin
      state_q  <= state_d;
      active_q <= state_d != StIdle && state_d != StWait && state_d != StDone;
      busy_q   <= state_d != StIdle;
      if (state_q == StRead) begin
        nresp_q <= 1'b0;
      end else if (rvalid_i && active_o) begin
        nresp_q <= 1'b1;
      end
    end
  end

  // Data registers (no reset: qualified by the state).
  always_ff @(posedge clk_i) begin : proc_data
    if (take_cmd) begin
      // (downward: from the last granule of each range)
      src_q  <= back_d ? cmd_src_i + cmd_cpl_i.bytes - 32'd16 : cmd_src_i;
      dst_q  <= back_d ? cmd_dst_i + cmd_cpl_i.bytes - 32'd16 : cmd_dst_i;
      left_q <= cmd_cpl_i.bytes;
      cpl_q  <= cmd_cpl_i;
      dcta_q <= dcta_d;
      back_q <= back_d;
    end else if (take_wr) begin
      src_q  <= src_q + step;
      dst_q  <= dst_q + step;
      left_q <= left_q - 32'd16;
    end
    if (rvalid_i && active_o) begin
      // the source granule at byte src_q % DataBytes of its beat, the destination granule at
      // byte dst_q % DataBytes of its
      if (!nresp_q) begin
        src_g_q <= 128'(rdata_i >> {src_off, 3'd0});
      end else begin
        dst_g_q <= 128'(rdata_i >> {dst_off, 3'd0});
      end
    end
  end

  // The reduction: old = the destination granule, new = the source granule (stage A loads
  // every cycle, stage B in StAluB; the result holds through StWrite).
  for (genvar j = 0; j < 2; j++) begin : gen_int
    logic [63:0] unused_d;
    tma_red_int u_int (
      .clk_i,
      .redop_i (cpl_q.redop),
      .elem_i  (cpl_q.elem),
      .d_i     (dst_g_q[64*j +: 64]),
      .s_i     (src_g_q[64*j +: 64]),
      .en_i    (state_q == StAluB),
      .r_o     (red_r[64*j +: 64]),
      .d_o     (unused_d)
    );
  end

  assign cmd_ready_o = state_q == StIdle;
  assign active_o    = active_q;
  `TMA_ASSERT_COPY(Active_A, active_q, state_q != StIdle && state_q != StWait &&
                                       state_q != StDone)
  assign busy_o      = busy_q;
  `TMA_ASSERT_COPY(Busy_A, busy_q, state_q != StIdle)

  assign rd_dst      = state_q == StReadDst;
  assign rd_valid_o  = state_q == StRead || rd_dst;
  always_comb begin : proc_rd
    rd_o      = '0;
    rd_o.addr = rd_dst ? {dst_q[31:SizeLog2], SizeLog2'(0)} : {src_q[31:SizeLog2], SizeLog2'(0)};
    rd_o.cta  = rd_dst ? dcta_q : cpl_q.cta;
  end

  assign gran       = cpl_q.red ? red_r : src_g_q;
  assign wr_valid_o = state_q == StWrite;
  always_comb begin : proc_wr
    wr_o          = '0;
    wr_o.addr     = {dst_q[31:SizeLog2], SizeLog2'(0)};
    wr_o.cta_mask = cpl_q.cta_mask;
  end
  assign wr_data_o = DW'(gran) << {dst_off, 3'd0};
  assign wr_strb_o = DataBytes'({16{1'b1}}) << dst_off;

  assign done_valid_o = state_q == StDone;
  assign done_o       = cpl_q;

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_IMPLY(CmdAligned_A, cmd_valid_i,
                    cmd_src_i[3:0] == 4'd0 && cmd_dst_i[3:0] == 4'd0 &&
                    cmd_cpl_i.bytes[3:0] == 4'd0 && cmd_cpl_i.kind == tma_pkg::CplTx &&
                    $onehot(cmd_cpl_i.cta_mask))
  // A copy goes to another CTA (so it never walks downward).
  `TMA_ASSERT_IMPLY(CopyToPeer_A, cmd_valid_i && !cmd_cpl_i.red, dcta_d != cmd_cpl_i.cta)
  // A reduction is a pair of the .shared::cluster table (seed 004 lines 340-349): add on u32 /
  // s32 / u64, min / max on u32 / s32, inc / dec on u32, and / or / xor on b32 (as u32).
  `TMA_ASSERT_IMPLY(ClusterPair_A, cmd_valid_i && cmd_cpl_i.red,
                    cmd_cpl_i.elem == tma_pkg::ElemU32 ||
                    (cmd_cpl_i.elem == tma_pkg::ElemS32 &&
                     (cmd_cpl_i.redop == tma_pkg::RedAdd || cmd_cpl_i.redop == tma_pkg::RedMin ||
                      cmd_cpl_i.redop == tma_pkg::RedMax)) ||
                    (cmd_cpl_i.elem == tma_pkg::ElemU64 && cmd_cpl_i.redop == tma_pkg::RedAdd))
  // A response comes only for one of the block's requests: the source's (StReadDst or StResp)
  // or the destination's (StResp, after the source's).
  `TMA_ASSERT_IMPLY(RespExpected_A, active_o && rvalid_i,
                    (state_q == StReadDst && !nresp_q) ||
                    (state_q == StResp && (!nresp_q || cpl_q.red)))
  // Granules are moved while bytes are left.
  `TMA_ASSERT_IMPLY(BytesLeft_A, active_o, left_q != '0 && left_q[3:0] == 4'd0)
  // Only a reduction into its own window with the destination above the source walks
  // downward.
  `TMA_ASSERT_IMPLY(DownOnlyAbove_A, active_o && back_q,
                    cpl_q.red && dcta_q == cpl_q.cta && dst_q > src_q)
  `TMA_ASSERT_STABLE(RdHeld_A, rd_valid_o, rd_ready_i, rd_o)
  `TMA_ASSERT_STABLE(WrHeld_A, wr_valid_o, wr_ready_i, {wr_o, wr_data_o, wr_strb_o})
  `TMA_ASSERT_STABLE(DoneHeld_A, done_valid_o, done_ready_i, done_o)
  `TMA_COVER(ReduceDown_C, take_wr && cpl_q.red && back_q)
  `TMA_COVER(ReduceUpSameCta_C, take_wr && cpl_q.red && !back_q && dcta_q == cpl_q.cta)

endmodule

`default_nettype wire
