// SPDX-License-Identifier: Apache-2.0
//
// tma_cluster_shell: the cluster around the engine on an FPGA or in an SoC (docs/soc.md):
// NumCtas shared memories (tma_smem_bank, SmemBytes each) and an mbarrier unit per CTA
// (tma_mbar_unit, MbarSlots slots).
//   * The engine's shared-memory write port writes one beat into every CTA of its mask in the
//     same cycle (multicast); it is always ready. A beat at or above SmemBytes is dropped.
//   * The store path's read port (rd_*) reads one beat of one CTA, data the next cycle.
//   * The host window (req / rsp, 32-bit words) reaches every bank at offset
//     cta x 0x10000 + byte address; an offset outside the built banks answers err.
//   Priority per cycle: engine write, then store read, then host; a bank is one port.
//   * Complete-tx events go to the mbarrier unit of their CTA; the host operates on a slot
//     through op_*, reads the selected slot's state through sel_*.
// Event vectors (done_o, stuck_o) have bit 4 x cta + slot whatever NumCtas and MbarSlots.

`default_nettype none

`include "tma_assert.svh"

module tma_cluster_shell #(
  parameter  int unsigned DataBytes = 16,
  parameter  int unsigned NumCtas   = 4,
  parameter  int unsigned SmemBytes = 16384,
  parameter  int unsigned MbarSlots = 4,
  localparam int unsigned DW        = DataBytes * 8,
  localparam int unsigned BankAW    = $clog2(SmemBytes / DataBytes),
  localparam int unsigned LaneW     = (DataBytes > 4) ? $clog2(DataBytes / 4) : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Engine shared-memory write port
  input  logic                  smem_wr_valid_i,
  output logic                  smem_wr_ready_o,
  input  tma_pkg::smem_wr_t     smem_wr_i,
  input  logic [DW-1:0]         smem_wr_data_i,
  input  logic [DataBytes-1:0]  smem_wr_strb_i,
  // Store path read port
  input  logic                  rd_valid_i,
  output logic                  rd_ready_o,
  input  logic [31:0]           rd_addr_i,
  input  logic [3:0]            rd_cta_i,
  output logic                  rd_rvalid_o,
  output logic [DW-1:0]         rd_rdata_o,
  // Host window (one request at a time; the response follows the accepting cycle)
  input  logic                  req_valid_i,
  output logic                  req_ready_o,
  input  logic                  req_we_i,
  input  logic [19:0]           req_addr_i,
  input  logic [31:0]           req_wdata_i,
  input  logic [3:0]            req_wstrb_i,
  output logic                  rsp_valid_o,
  output logic [31:0]           rsp_rdata_o,
  output logic                  rsp_err_o,
  // Complete-tx of the engine's completions
  input  logic                  tx_valid_i,
  input  logic [3:0]            tx_cta_i,
  input  logic [31:0]           tx_addr_i,
  input  logic [31:0]           tx_bytes_i,
  // mbarrier host operation and the selected slot's state
  input  logic                  op_valid_i,
  output logic                  op_ready_o,
  input  logic [2:0]            op_i,
  input  logic [3:0]            op_cta_i,
  input  logic [1:0]            op_slot_i,
  input  logic [31:0]           op_addr_i,
  input  logic [19:0]           op_arg_i,
  input  logic [3:0]            sel_cta_i,
  input  logic [1:0]            sel_slot_i,
  output logic                  sel_valid_o,
  output logic                  sel_phase_o,
  output logic                  sel_stuck_o,
  output logic [19:0]           sel_pending_o,
  output logic [20:0]           sel_tx_o,
  input  logic                  idle_i,
  output logic [63:0]           done_o,
  output logic [63:0]           stuck_o,
  output logic                  miss_o
);

  localparam int unsigned SlotW = (MbarSlots > 1) ? $clog2(MbarSlots) : 1;

  // ---- Bank port selection ----
  logic                 host_fire, rd_fire, host_ok;
  logic [3:0]           host_cta;
  logic [DW-1:0]        host_wdata;
  logic [DataBytes-1:0] host_wstrb;
  logic                 host_pend_q, host_we_q, host_err_q, rd_pend_q;
  logic [3:0]           host_cta_q, rd_cta_q;
  logic [LaneW-1:0]     host_lane_q;
  logic [DW-1:0]        bank_rdata [NumCtas];

  assign smem_wr_ready_o = 1'b1;
  assign rd_ready_o      = !smem_wr_valid_i;
  assign rd_fire         = rd_valid_i && rd_ready_o;
  assign req_ready_o     = !smem_wr_valid_i && !rd_valid_i;
  assign host_fire       = req_valid_i && req_ready_o;
  assign host_cta        = req_addr_i[19:16];
  assign host_ok         = 32'(host_cta) < NumCtas && 32'(req_addr_i[15:0]) < SmemBytes;

  always_comb begin : proc_host_lane
    host_wdata = '0;
    host_wstrb = '0;
    for (int l = 0; l < DataBytes / 4; l++) begin
      host_wdata[l*32 +: 32] = req_wdata_i;
      if (LaneW'(req_addr_i[15:2]) == LaneW'(l) || DataBytes == 4) begin
        host_wstrb[l*4 +: 4] = req_wstrb_i;
      end
    end
  end

  for (genvar c = 0; c < NumCtas; c++) begin : gen_bank
    logic                 wr_hit, rd_hit, host_hit, en, we;
    logic [BankAW-1:0]    addr;
    logic [DW-1:0]        wdata;
    logic [DataBytes-1:0] wstrb;
    assign wr_hit   = smem_wr_valid_i && smem_wr_i.cta_mask[c] &&
                      32'(smem_wr_i.addr) < SmemBytes;
    assign rd_hit   = rd_fire && rd_cta_i == 4'(c);
    assign host_hit = host_fire && host_ok && host_cta == 4'(c);
    assign en       = wr_hit || rd_hit || host_hit;
    assign we       = wr_hit || (host_hit && req_we_i);
    always_comb begin : proc_port
      if (smem_wr_valid_i) begin
        addr  = BankAW'(smem_wr_i.addr >> $clog2(DataBytes));
        wdata = smem_wr_data_i;
        wstrb = smem_wr_strb_i;
      end else if (rd_valid_i) begin
        addr  = BankAW'(rd_addr_i >> $clog2(DataBytes));
        wdata = smem_wr_data_i;
        wstrb = '0;
      end else begin
        addr  = BankAW'(req_addr_i[15:0] >> $clog2(DataBytes));
        wdata = host_wdata;
        wstrb = host_wstrb;
      end
    end
    tma_smem_bank #(
      .DataBytes (DataBytes),
      .SmemBytes (SmemBytes)
    ) u_bank (
      .clk_i,
      .en_i    (en),
      .we_i    (we),
      .addr_i  (addr),
      .wdata_i (wdata),
      .wstrb_i (wstrb),
      .rdata_o (bank_rdata[c])
    );
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_rsp
    if (!rst_ni) begin
      host_pend_q <= 1'b0;
      host_we_q   <= 1'b0;
      host_err_q  <= 1'b0;
      host_cta_q  <= '0;
      host_lane_q <= '0;
      rd_pend_q   <= 1'b0;
      rd_cta_q    <= '0;
    end else begin
      host_pend_q <= host_fire;
      rd_pend_q   <= rd_fire;
      if (host_fire) begin
        host_we_q   <= req_we_i;
        host_err_q  <= !host_ok;
        host_cta_q  <= host_cta;
        host_lane_q <= LaneW'(req_addr_i[15:2]);
      end
      if (rd_fire) rd_cta_q <= rd_cta_i;
    end
  end

  always_comb begin : proc_rdata
    logic [DW-1:0] beat, rbeat;
    beat  = '0;
    rbeat = '0;
    for (int c = 0; c < NumCtas; c++) begin
      if (host_cta_q == 4'(c)) beat = bank_rdata[c];
      if (rd_cta_q == 4'(c)) rbeat = bank_rdata[c];
    end
    rsp_rdata_o = '0;
    if (!host_we_q && !host_err_q) begin
      for (int l = 0; l < DataBytes / 4; l++) begin
        if (host_lane_q == LaneW'(l) || DataBytes == 4) rsp_rdata_o = beat[l*32 +: 32];
      end
    end
    rd_rdata_o = rbeat;
  end
  assign rsp_valid_o = host_pend_q;
  assign rsp_err_o   = host_err_q;
  assign rd_rvalid_o = rd_pend_q;

  // ---- mbarrier units ----
  logic [NumCtas-1:0] miss;
  logic [NumCtas-1:0] sel_valid_c, sel_phase_c, sel_stuck_c;
  logic [19:0]        sel_pend_c [NumCtas];
  logic [20:0]        sel_tx_c [NumCtas];

  assign op_ready_o = !tx_valid_i;

  for (genvar c = 0; c < NumCtas; c++) begin : gen_mbar
    logic [MbarSlots-1:0]    valid, phase, stuck, done;
    logic [MbarSlots*20-1:0] pending;
    logic [MbarSlots*21-1:0] tx;
    logic                    op_ready;
    tma_mbar_unit #(
      .Slots (MbarSlots)
    ) u_mbar (
      .clk_i,
      .rst_ni,
      .tx_valid_i (tx_valid_i && tx_cta_i == 4'(c)),
      .tx_addr_i,
      .tx_bytes_i (tx_bytes_i[20:0]),
      // an operation on a slot the unit does not have does nothing (no alias of a lower one)
      .op_valid_i (op_valid_i && op_cta_i == 4'(c) && 32'(op_slot_i) < MbarSlots),
      .op_ready_o (op_ready),
      .op_i,
      .op_slot_i  (SlotW'(op_slot_i)),
      .op_addr_i,
      .op_arg_i,
      .idle_i,
      .valid_o    (valid),
      .phase_o    (phase),
      .stuck_o    (stuck),
      .pending_o  (pending),
      .tx_o       (tx),
      .done_o     (done),
      .miss_o     (miss[c])
    );
    always_comb begin : proc_sel
      sel_valid_c[c] = 1'b0;
      sel_phase_c[c] = 1'b0;
      sel_stuck_c[c] = 1'b0;
      sel_pend_c[c]  = '0;
      sel_tx_c[c]    = '0;
      for (int s = 0; s < MbarSlots; s++) begin
        if (sel_slot_i == 2'(s)) begin
          sel_valid_c[c] = valid[s];
          sel_phase_c[c] = phase[s];
          sel_stuck_c[c] = stuck[s];
          sel_pend_c[c]  = pending[s*20 +: 20];
          sel_tx_c[c]    = tx[s*21 +: 21];
        end
      end
    end
    for (genvar s = 0; s < 4; s++) begin : gen_bits
      if (s < MbarSlots) begin : gen_slot
        assign done_o[4*c + s]  = done[s];
        assign stuck_o[4*c + s] = stuck[s];
      end else begin : gen_none
        assign done_o[4*c + s]  = 1'b0;
        assign stuck_o[4*c + s] = 1'b0;
      end
    end
    logic unused_op_ready;
    assign unused_op_ready = op_ready;   // the same as op_ready_o
  end
  if (NumCtas < 16) begin : gen_no_cta
    assign done_o[63:4*NumCtas]  = '0;
    assign stuck_o[63:4*NumCtas] = '0;
  end

  always_comb begin : proc_sel_out
    sel_valid_o   = 1'b0;
    sel_phase_o   = 1'b0;
    sel_stuck_o   = 1'b0;
    sel_pending_o = '0;
    sel_tx_o      = '0;
    for (int c = 0; c < NumCtas; c++) begin
      if (sel_cta_i == 4'(c)) begin
        sel_valid_o   = sel_valid_c[c];
        sel_phase_o   = sel_phase_c[c];
        sel_stuck_o   = sel_stuck_c[c];
        sel_pending_o = sel_pend_c[c];
        sel_tx_o      = sel_tx_c[c];
      end
    end
  end
  logic unused_tx_hi;
  assign unused_tx_hi = ^tx_bytes_i[31:21];   // complete-tx counts stay below 2^20 (a box)

  // A complete-tx for a CTA the shell does not build names no barrier either.
  assign miss_o = |miss || (tx_valid_i && 32'(tx_cta_i) >= NumCtas);

  `TMA_ASSERT_INIT(NumCtasLegal_A, NumCtas >= 1 && NumCtas <= 16)
  `TMA_ASSERT_INIT(SmemBytesLegal_A, SmemBytes <= 65536)
  `TMA_ASSERT_INIT(MbarSlotsLegal_A, MbarSlots >= 1 && MbarSlots <= 4)
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes >= 4)

endmodule

`default_nettype wire
