// SPDX-License-Identifier: Apache-2.0
//
// tma_soc_top: the OpenTMA engine as an SoC peripheral (docs/soc.md has the block diagram):
// instances and wiring only.
//   s_axil   AXI4-Lite subordinate: registers (tma_regs.rdl) at 0x0, the cluster shell's
//            shared-memory window at 0x100000 (tma_soc_axil)
//   m_axi    one AXI4 manager to global memory: the engine's reads, the command ring
//            fetcher's reads, the completion ring writer's writes (tma_soc_axi)
//   irq_o    level interrupt: |(INTR_STATE & INTR_ENABLE)
// Commands come from the register window (tma_cmd_window) or the command ring in memory
// (tma_cmd_ring), arbitrated into tma_engine; completions go to the mbarrier units of the
// cluster shell (complete-tx) and, merged with the engine's bulk async-group completions
// (tma_soc_cpl_merge: records of kind CplGroup), to the completion FIFO registers or the
// completion ring (CTRL.cpl_ring_en). The engine writes the shell's shared memories
// (tma_cluster_shell) and its store path reads them.
// Resets: rst_ni (hard) resets everything; a soft reset (CTRL.soft_reset, tma_soc_ctrl)
// resets the engine, the arbiters and the mbarrier units through core_rst_n after draining
// the AXI4 port, and clears the rings, the window and the completion FIFO; the registers and
// the shared memories keep their contents.

`default_nettype none

`include "tma_assert.svh"

module tma_soc_top #(
  parameter  int unsigned DataBytes        = 16,
  parameter  int unsigned NumCtas          = 4,
  parameter  int unsigned SmemBytes        = 16384,   // per CTA, power of two, <= 64 KiB
  parameter  int unsigned MbarSlots        = 4,       // mbarrier slots per CTA, 1 .. 4
  parameter  int unsigned CplFifoDepth     = 16,      // completion FIFO records, 2 .. 255
  parameter  int unsigned DescCacheEntries = 4,
  parameter  int unsigned MaxOutstanding   = 512,
  parameter  int unsigned MaxBurstLen      = 16,
  parameter  int unsigned RowFifoDepth     = 512,
  parameter  int unsigned Arch             = 90,      // BUILD0.arch: the sm number (90, 100, 103)
  parameter  int unsigned PrefetchReads    = 1,       // tma_engine: 0 prefetches are check-only
  localparam int unsigned DW               = DataBytes * 8
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // AXI4-Lite subordinate: registers and the shared-memory window
  input  logic                 s_axil_awvalid_i,
  output logic                 s_axil_awready_o,
  input  logic [20:0]          s_axil_awaddr_i,
  input  logic [2:0]           s_axil_awprot_i,
  input  logic                 s_axil_wvalid_i,
  output logic                 s_axil_wready_o,
  input  logic [31:0]          s_axil_wdata_i,
  input  logic [3:0]           s_axil_wstrb_i,
  output logic                 s_axil_bvalid_o,
  input  logic                 s_axil_bready_i,
  output logic [1:0]           s_axil_bresp_o,
  input  logic                 s_axil_arvalid_i,
  output logic                 s_axil_arready_o,
  input  logic [20:0]          s_axil_araddr_i,
  input  logic [2:0]           s_axil_arprot_i,
  output logic                 s_axil_rvalid_o,
  input  logic                 s_axil_rready_i,
  output logic [31:0]          s_axil_rdata_o,
  output logic [1:0]           s_axil_rresp_o,
  // AXI4 manager: global memory
  output logic                 m_axi_arvalid_o,
  input  logic                 m_axi_arready_i,
  output logic [3:0]           m_axi_arid_o,
  output logic [63:0]          m_axi_araddr_o,
  output logic [7:0]           m_axi_arlen_o,
  output logic [2:0]           m_axi_arsize_o,
  output logic [1:0]           m_axi_arburst_o,
  input  logic                 m_axi_rvalid_i,
  output logic                 m_axi_rready_o,
  input  logic [3:0]           m_axi_rid_i,
  input  logic [DW-1:0]        m_axi_rdata_i,
  input  logic [1:0]           m_axi_rresp_i,
  input  logic                 m_axi_rlast_i,
  output logic                 m_axi_awvalid_o,
  input  logic                 m_axi_awready_i,
  output logic [3:0]           m_axi_awid_o,
  output logic [63:0]          m_axi_awaddr_o,
  output logic [7:0]           m_axi_awlen_o,
  output logic [2:0]           m_axi_awsize_o,
  output logic [1:0]           m_axi_awburst_o,
  output logic                 m_axi_wvalid_o,
  input  logic                 m_axi_wready_i,
  output logic [DW-1:0]        m_axi_wdata_o,
  output logic [DataBytes-1:0] m_axi_wstrb_o,
  output logic                 m_axi_wlast_o,
  input  logic                 m_axi_bvalid_i,
  output logic                 m_axi_bready_o,
  input  logic [3:0]           m_axi_bid_i,
  input  logic [1:0]           m_axi_bresp_i,
  // Interrupt (level)
  output logic                 irq_o
);

  localparam logic [3:0] RingId = 4'd4;    // AXI ID of the command ring fetcher's reads
                                           // (the engine reads with AxiIdData/Desc/Red)
  localparam logic [3:0] CplId  = 4'd3;    // AXI ID of the completion ring writer
  localparam int unsigned FifoUw = $clog2(CplFifoDepth + 1);

  // ---- Signals ----
  tma_reg_pkg::tma_regs__in_t  hwif_in;
  tma_reg_pkg::tma_regs__out_t hwif_out;
  // register block AXI4-Lite
  logic       r_awvalid, r_awready, r_wvalid, r_wready, r_bvalid, r_bready;
  logic       r_arvalid, r_arready, r_rvalid, r_rready;
  logic [9:0] r_awaddr, r_araddr;
  logic [31:0] r_wdata, r_rdata;
  logic [3:0] r_wstrb;
  logic [1:0] r_bresp, r_rresp;
  // shell window
  logic        win_req_valid, win_req_ready, win_req_we, win_rsp_valid, win_rsp_err;
  logic [19:0] win_req_addr;
  logic [31:0] win_req_wdata, win_rsp_rdata;
  logic [3:0]  win_req_wstrb;
  // control
  logic        hold, drain, clr, core_rst_n, reset_busy, drained, idle_long;
  logic [6:0]  evt, intr_test;
  logic [31:0] cnt_cmds, cnt_errs;
  logic [63:0] cnt_bytes, cnt_busy;
  logic        err_valid;
  logic [3:0]  err_class, err_cta;
  logic [7:0]  err_tag;
  // commands
  tma_pkg::cmd_t win_cmd_in, win_cmd, ring_cmd, cmd;
  logic        win_valid, win_ready, win_pending, win_drop, win_drop_q;
  logic        ring_valid, ring_ready, ring_busy, ring_bus_err, ring_err_q;
  logic [16:0] cmdr_head, cmdr_count;
  logic        ring_ar_valid, ring_ar_ready, ring_r_valid;
  logic [63:0] ring_ar_addr;
  logic [7:0]  ring_ar_len;
  logic [1:0]  cmd_arb_ready;
  logic        cmd_valid, cmd_ready, cmd_arb_idx;
  // engine
  tma_pkg::axi_rd_req_t eng_rd_req;
  tma_pkg::axi_rd_rsp_t eng_rd_rsp;
  logic                 smem_wr_valid, smem_wr_ready;
  tma_pkg::smem_wr_t    smem_wr;
  logic [DW-1:0]        smem_wr_data;
  logic [DataBytes-1:0] smem_wr_strb;
  logic                 eng_cpl_valid, eng_cpl_ready, eng_busy;
  tma_pkg::cpl_t        eng_cpl;
  logic                 bg_cpl_valid, bg_cpl_ready;  // bulk async-group completions
  tma_pkg::bg_cpl_t     bg_cpl;
  // completion records (engine completions and group completions merged)
  logic                 cpl_valid, cpl_ready, cpl_fire, grp_done, grp_err;
  tma_pkg::cpl_t        cpl;
  logic [15:0]          eng_err_count;
  // completions
  logic                 fifo_in_valid, fifo_in_ready, fifo_out_valid, fifo_push;
  logic [tma_pkg::CplWidth+1:0] fifo_out_bits;
  tma_pkg::cpl_t        fifo_out;
  logic                 fifo_out_grp_done, fifo_out_grp_err;
  logic [FifoUw-1:0]    fifo_usage;
  logic                 cr_valid, cr_ready, cr_full, cr_busy, cr_written, cr_bus_err;
  logic                 cr_written_grp;
  logic [16:0]          cplr_tail, cplr_count;
  // shell
  logic                 mbar_op_valid, mbar_op_ready, mbar_op_pend_q, mbar_miss, mbar_miss_q;
  logic [63:0]          mbar_done, mbar_stuck;
  logic                 sel_valid, sel_phase, sel_stuck;
  logic [19:0]          sel_pending;
  logic [20:0]          sel_tx;
  // engine writes (stores, reductions) and the completion ring writer on one AW/W/B port
  tma_pkg::axi_wr_req_t eng_wr_req;
  tma_pkg::axi_wr_rsp_t eng_wr_rsp;
  logic [DW-1:0]        eng_w_data;
  logic [DataBytes-1:0] eng_w_strb;
  logic                 cr_aw_valid, cr_aw_ready, cr_w_valid, cr_w_ready, cr_b_valid, cr_b_ready;
  logic [63:0]          cr_aw_addr;
  logic [DW-1:0]        cr_w_data;
  logic [DataBytes-1:0] cr_w_strb;
  logic [1:0]           cr_b_resp;
  logic                 wr_drained;
  // the store path's shared-memory reads
  logic                 smem_rd_valid, smem_rd_ready, smem_rd_rvalid;
  tma_pkg::smem_rd_t    smem_rd;
  logic [DW-1:0]        smem_rd_rdata;

  // ---- Host port: split into the register block and the shell window ----
  tma_soc_axil u_axil (
    .clk_i,
    .rst_ni,
    .s_awvalid_i   (s_axil_awvalid_i),
    .s_awready_o   (s_axil_awready_o),
    .s_awaddr_i    (s_axil_awaddr_i),
    .s_wvalid_i    (s_axil_wvalid_i),
    .s_wready_o    (s_axil_wready_o),
    .s_wdata_i     (s_axil_wdata_i),
    .s_wstrb_i     (s_axil_wstrb_i),
    .s_bvalid_o    (s_axil_bvalid_o),
    .s_bready_i    (s_axil_bready_i),
    .s_bresp_o     (s_axil_bresp_o),
    .s_arvalid_i   (s_axil_arvalid_i),
    .s_arready_o   (s_axil_arready_o),
    .s_araddr_i    (s_axil_araddr_i),
    .s_rvalid_o    (s_axil_rvalid_o),
    .s_rready_i    (s_axil_rready_i),
    .s_rdata_o     (s_axil_rdata_o),
    .s_rresp_o     (s_axil_rresp_o),
    .r_awvalid_o   (r_awvalid),
    .r_awready_i   (r_awready),
    .r_awaddr_o    (r_awaddr),
    .r_wvalid_o    (r_wvalid),
    .r_wready_i    (r_wready),
    .r_wdata_o     (r_wdata),
    .r_wstrb_o     (r_wstrb),
    .r_bvalid_i    (r_bvalid),
    .r_bready_o    (r_bready),
    .r_bresp_i     (r_bresp),
    .r_arvalid_o   (r_arvalid),
    .r_arready_i   (r_arready),
    .r_araddr_o    (r_araddr),
    .r_rvalid_i    (r_rvalid),
    .r_rready_o    (r_rready),
    .r_rdata_i     (r_rdata),
    .r_rresp_i     (r_rresp),
    .w_req_valid_o (win_req_valid),
    .w_req_ready_i (win_req_ready),
    .w_req_we_o    (win_req_we),
    .w_req_addr_o  (win_req_addr),
    .w_req_wdata_o (win_req_wdata),
    .w_req_wstrb_o (win_req_wstrb),
    .w_rsp_valid_i (win_rsp_valid),
    .w_rsp_rdata_i (win_rsp_rdata),
    .w_rsp_err_i   (win_rsp_err)
  );

  tma_reg_top u_regs (
    .clk            (clk_i),
    .arst_n         (rst_ni),
    .s_axil_awready (r_awready),
    .s_axil_awvalid (r_awvalid),
    .s_axil_awaddr  (r_awaddr),
    .s_axil_awprot  (3'd0),
    .s_axil_wready  (r_wready),
    .s_axil_wvalid  (r_wvalid),
    .s_axil_wdata   (r_wdata),
    .s_axil_wstrb   (r_wstrb),
    .s_axil_bready  (r_bready),
    .s_axil_bvalid  (r_bvalid),
    .s_axil_bresp   (r_bresp),
    .s_axil_arready (r_arready),
    .s_axil_arvalid (r_arvalid),
    .s_axil_araddr  (r_araddr),
    .s_axil_arprot  (3'd0),
    .s_axil_rready  (r_rready),
    .s_axil_rvalid  (r_rvalid),
    .s_axil_rdata   (r_rdata),
    .s_axil_rresp   (r_rresp),
    .hwif_in        (hwif_in),
    .hwif_out       (hwif_out)
  );

  // ---- Control: soft reset, counters, errors, interrupt events ----
  assign intr_test = {hwif_out.INTR_TEST.grp.value,
                      hwif_out.INTR_TEST.mbar_stuck.value, hwif_out.INTR_TEST.mbar.value,
                      hwif_out.INTR_TEST.cplr_high.value, hwif_out.INTR_TEST.cmdr_low.value,
                      hwif_out.INTR_TEST.err.value, hwif_out.INTR_TEST.cpl.value};

  tma_soc_ctrl u_ctrl (
    .clk_i,
    .rst_ni,
    .soft_reset_i  (hwif_out.CTRL.soft_reset.value),
    .cnt_clear_i   (hwif_out.CTRL.cnt_clear.value),
    .err_clear_i   (hwif_out.ERR_CLEAR.clear.value),
    .intr_test_i   (intr_test),
    .drained_i     (drained && !cr_busy && wr_drained),
    .hold_o        (hold),
    .drain_o       (drain),
    .clr_o         (clr),
    .core_rst_no   (core_rst_n),
    .reset_busy_o  (reset_busy),
    .cmd_fire_i    (cmd_valid && cmd_ready),
    .busy_i        (eng_busy),
    .work_i        (win_pending || ring_busy || cmdr_count != '0),
    .cpl_fire_i    (cpl_fire),
    .cpl_i         (cpl),
    .cpl_written_i (fifo_push || cr_written),
    .grp_written_i ((fifo_push && cpl.kind == tma_pkg::CplGroup) || cr_written_grp),
    .cmdr_count_i  (cmdr_count),
    .cmdr_thresh_i (hwif_out.CMDR_THRESH.records.value),
    .cplr_count_i  (cplr_count),
    .cplr_thresh_i (hwif_out.CPLR_THRESH.records.value),
    .cpl_ring_en_i (hwif_out.CTRL.cpl_ring_en.value),
    .mbar_done_i   (|mbar_done),
    .mbar_stuck_i  (|mbar_stuck),
    .idle_o        (idle_long),
    .cnt_cmds_o    (cnt_cmds),
    .cnt_errs_o    (cnt_errs),
    .cnt_bytes_o   (cnt_bytes),
    .cnt_busy_o    (cnt_busy),
    .err_valid_o   (err_valid),
    .err_class_o   (err_class),
    .err_tag_o     (err_tag),
    .err_cta_o     (err_cta),
    .evt_o         (evt)
  );

  // ---- Commands: register window and command ring -> engine ----
  always_comb begin : proc_win_cmd
    win_cmd_in           = '0;
    win_cmd_in.op        = hwif_out.CMD_W0.op.value;
    win_cmd_in.mode      = hwif_out.CMD_W0.mode.value;
    win_cmd_in.redop     = hwif_out.CMD_W0.redop.value;
    win_cmd_in.dim       = hwif_out.CMD_W0.dim.value;
    win_cmd_in.multicast = hwif_out.CMD_W0.multicast.value;
    win_cmd_in.cta_group = hwif_out.CMD_W0.cta_group.value;
    win_cmd_in.tag       = hwif_out.CMD_W0.tag.value;
    win_cmd_in.issuer    = hwif_out.CMD_W0.issuer.value;
    win_cmd_in.dst_cta   = hwif_out.CMD_W0.dst_cta.value;
    win_cmd_in.cta_mask  = hwif_out.CMD_W1.cta_mask.value;
    win_cmd_in.smem_cta    = hwif_out.CMD_W0.smem_cta.value;
    win_cmd_in.mbar_remote = hwif_out.CMD_W0.mbar_remote.value;
    win_cmd_in.mbar_cta    = hwif_out.CMD_W1.mbar_cta.value;
    win_cmd_in.desc_addr = {hwif_out.CMD_W3.desc_addr_hi.value,
                            hwif_out.CMD_W2.desc_addr_lo.value};
    win_cmd_in.coords.v[0] = hwif_out.CMD_W4.coord0.value;
    win_cmd_in.coords.v[1] = hwif_out.CMD_W5.coord1.value;
    win_cmd_in.coords.v[2] = hwif_out.CMD_W6.coord2.value;
    win_cmd_in.coords.v[3] = hwif_out.CMD_W7.coord3.value;
    win_cmd_in.coords.v[4] = hwif_out.CMD_W8.coord4.value;
    win_cmd_in.im2col.v[0] = hwif_out.CMD_W9.im2col0.value;
    win_cmd_in.im2col.v[1] = hwif_out.CMD_W9.im2col1.value;
    win_cmd_in.im2col.v[2] = hwif_out.CMD_W10.im2col2.value;
    win_cmd_in.smem_addr = hwif_out.CMD_W11.smem_addr.value;
    win_cmd_in.mbar_addr = hwif_out.CMD_W12.mbar_addr.value;
  end

  tma_cmd_window u_win (
    .clk_i,
    .rst_ni,
    .clr_i       (clr),
    .win_i       (win_cmd_in),
    .doorbell_i  (hwif_out.CMD_DOORBELL.go.value),
    .pending_o   (win_pending),
    .drop_o      (win_drop),
    .cmd_valid_o (win_valid),
    .cmd_ready_i (win_ready),
    .cmd_o       (win_cmd)
  );

  tma_cmd_ring #(
    .DataBytes (DataBytes)
  ) u_cmd_ring (
    .clk_i,
    .rst_ni,
    .clr_i       (clr),
    .enable_i    (hwif_out.CTRL.enable.value && !hold),
    .base_i      ({hwif_out.CMDR_BASE_HI.addr.value, hwif_out.CMDR_BASE_LO.addr.value[31:6]}),
    .log2_i      (hwif_out.CMDR_SIZE.log2_entries.value),
    .tail_i      (hwif_out.CMDR_TAIL.index.value),
    .head_o      (cmdr_head),
    .count_o     (cmdr_count),
    .busy_o      (ring_busy),
    .bus_err_o   (ring_bus_err),
    .ar_valid_o  (ring_ar_valid),
    .ar_ready_i  (ring_ar_ready),
    .ar_addr_o   (ring_ar_addr),
    .ar_len_o    (ring_ar_len),
    .r_valid_i   (ring_r_valid),
    .r_data_i    (m_axi_rdata_i),
    .r_resp_i    (m_axi_rresp_i),
    .r_last_i    (m_axi_rlast_i),
    .cmd_valid_o (ring_valid),
    .cmd_ready_i (ring_ready),
    .cmd_o       (ring_cmd)
  );

  tma_stream_arb #(
    .NumIn  (2),
    .Width  (tma_pkg::CmdWidth),
    .LockIn (1)
  ) u_cmd_arb (
    .clk_i,
    .rst_ni      (core_rst_n),
    .in_valid_i  ({ring_valid, win_valid}),
    .in_ready_o  (cmd_arb_ready),
    .in_data_i   ({ring_cmd, win_cmd}),
    .out_valid_o (cmd_valid),
    .out_ready_i (cmd_ready),
    .out_data_o  (cmd),
    .out_idx_o   (cmd_arb_idx)
  );
  assign {ring_ready, win_ready} = cmd_arb_ready;

  // ---- Engine ----
  // The engine's newest architecture (tma_pkg::Arch*) from the sm number; CTRL.arch picks one
  // up to it, CTRL.cluster the cluster size (0: the shell's NumCtas CTAs).
  localparam int unsigned EngineArch = (Arch >= 103) ? 32'(tma_pkg::ArchSm103) :
                                       (Arch >= 100) ? 32'(tma_pkg::ArchSm100) :
                                                       32'(tma_pkg::ArchSm90);
  tma_engine #(
    .DataBytes        (DataBytes),
    .NumCtas          (NumCtas),
    .MaxOutstanding   (MaxOutstanding),
    .DescCacheEntries (DescCacheEntries),
    .MaxBurstLen      (MaxBurstLen),
    .RowFifoDepth     (RowFifoDepth),
    .Arch             (EngineArch),
    .PrefetchReads    (PrefetchReads)
  ) u_engine (
    .clk_i,
    .rst_ni          (core_rst_n),
    .cmd_valid_i     (cmd_valid),
    .cmd_ready_o     (cmd_ready),
    .cmd_i           (cmd),
    .desc_inval_i    (hwif_out.CTRL.desc_inval.value),
    .arch_i          (hwif_out.CTRL.arch.value),
    .cluster_i       (hwif_out.CTRL.cluster.value),
    .axi_rd_req_o    (eng_rd_req),
    .axi_rd_rsp_i    (eng_rd_rsp),
    .axi_r_data_i    (m_axi_rdata_i),
    .axi_wr_req_o    (eng_wr_req),
    .axi_wr_rsp_i    (eng_wr_rsp),
    .axi_w_data_o    (eng_w_data),
    .axi_w_strb_o    (eng_w_strb),
    .smem_rd_valid_o (smem_rd_valid),
    .smem_rd_ready_i (smem_rd_ready),
    .smem_rd_o       (smem_rd),
    .smem_rd_rvalid_i(smem_rd_rvalid),
    .smem_rd_rdata_i (smem_rd_rdata),
    .smem_wr_valid_o (smem_wr_valid),
    .smem_wr_ready_i (smem_wr_ready),
    .smem_wr_o       (smem_wr),
    .smem_wr_data_o  (smem_wr_data),
    .smem_wr_strb_o  (smem_wr_strb),
    .cpl_valid_o     (eng_cpl_valid),
    .cpl_ready_i     (eng_cpl_ready),
    .cpl_o           (eng_cpl),
    .bg_cpl_valid_o  (bg_cpl_valid),
    .bg_cpl_ready_i  (bg_cpl_ready),
    .bg_cpl_o        (bg_cpl),
    .busy_o          (eng_busy),
    .err_count_o     (eng_err_count)
  );

  // Completions and bulk async-group completions -> one stream of completion records.
  tma_soc_cpl_merge u_cpl_merge (
    .clk_i,
    .rst_ni      (core_rst_n),
    .cpl_valid_i (eng_cpl_valid),
    .cpl_ready_o (eng_cpl_ready),
    .cpl_i       (eng_cpl),
    .bg_valid_i  (bg_cpl_valid),
    .bg_ready_o  (bg_cpl_ready),
    .bg_i        (bg_cpl),
    .out_valid_o (cpl_valid),
    .out_ready_i (cpl_ready),
    .out_o       (cpl),
    .grp_done_o  (grp_done),
    .grp_err_o   (grp_err)
  );

  // ---- AXI4 manager port ----
  tma_soc_axi #(
    .DataBytes (DataBytes),
    .RingId    (RingId)
  ) u_axi (
    .clk_i,
    .rst_ni,
    .core_rst_ni     (core_rst_n),
    .hold_i          (hold),
    .drain_i         (drain),
    .drained_o       (drained),
    .eng_req_i       (eng_rd_req),
    .eng_rsp_o       (eng_rd_rsp),
    .ring_ar_valid_i (ring_ar_valid),
    .ring_ar_ready_o (ring_ar_ready),
    .ring_ar_addr_i  (ring_ar_addr),
    .ring_ar_len_i   (ring_ar_len),
    .ring_r_valid_o  (ring_r_valid),
    .m_arvalid_o     (m_axi_arvalid_o),
    .m_arready_i     (m_axi_arready_i),
    .m_arid_o        (m_axi_arid_o),
    .m_araddr_o      (m_axi_araddr_o),
    .m_arlen_o       (m_axi_arlen_o),
    .m_arsize_o      (m_axi_arsize_o),
    .m_arburst_o     (m_axi_arburst_o),
    .m_rvalid_i      (m_axi_rvalid_i),
    .m_rready_o      (m_axi_rready_o),
    .m_rid_i         (m_axi_rid_i),
    .m_rresp_i       (m_axi_rresp_i),
    .m_rlast_i       (m_axi_rlast_i)
  );

  // ---- Completions: FIFO registers or completion ring; complete-tx to the mbarriers ----
  assign cr_valid      = cpl_valid && hwif_out.CTRL.cpl_ring_en.value;
  assign fifo_in_valid = cpl_valid && !hwif_out.CTRL.cpl_ring_en.value && !hold;
  assign cpl_ready     = hwif_out.CTRL.cpl_ring_en.value ? cr_ready : fifo_in_ready && !hold;
  assign cpl_fire      = cpl_valid && cpl_ready;
  assign fifo_push     = fifo_in_valid && fifo_in_ready;

  tma_fifo #(
    .Width (tma_pkg::CplWidth + 2),
    .Depth (CplFifoDepth)
  ) u_cpl_fifo (
    .clk_i,
    .rst_ni,
    .clr_i       (clr),
    .in_valid_i  (fifo_in_valid),
    .in_ready_o  (fifo_in_ready),
    .in_data_i   ({grp_done, grp_err, cpl}),
    .out_valid_o (fifo_out_valid),
    .out_ready_i (hwif_out.CPLF_POP.pop.value),
    .out_data_o  (fifo_out_bits),
    .usage_o     (fifo_usage)
  );
  assign {fifo_out_grp_done, fifo_out_grp_err, fifo_out} = fifo_out_bits;

  tma_cpl_ring #(
    .DataBytes (DataBytes)
  ) u_cpl_ring (
    .clk_i,
    .rst_ni,
    .clr_i       (clr),
    .hold_i      (hold),
    .base_i      ({hwif_out.CPLR_BASE_HI.addr.value, hwif_out.CPLR_BASE_LO.addr.value[31:4]}),
    .log2_i      (hwif_out.CPLR_SIZE.log2_entries.value),
    .head_i      (hwif_out.CPLR_HEAD.index.value),
    .tail_o      (cplr_tail),
    .count_o     (cplr_count),
    .full_o      (cr_full),
    .busy_o      (cr_busy),
    .written_o   (cr_written),
    .written_grp_o (cr_written_grp),
    .bus_err_o   (cr_bus_err),
    .cpl_valid_i (cr_valid),
    .cpl_ready_o (cr_ready),
    .cpl_i       (cpl),
    .grp_done_i  (grp_done),
    .grp_err_i   (grp_err),
    .aw_valid_o  (cr_aw_valid),
    .aw_ready_i  (cr_aw_ready),
    .aw_addr_o   (cr_aw_addr),
    .w_valid_o   (cr_w_valid),
    .w_ready_i   (cr_w_ready),
    .w_data_o    (cr_w_data),
    .w_strb_o    (cr_w_strb),
    .b_valid_i   (cr_b_valid),
    .b_ready_o   (cr_b_ready),
    .b_resp_i    (cr_b_resp)
  );

  tma_soc_wr_arb #(
    .DataBytes (DataBytes),
    .RingWrId  (CplId)
  ) u_wr_arb (
    .clk_i,
    .rst_ni,
    .hold_i          (hold),
    .wr_drained_o    (wr_drained),
    .eng_req_i       (eng_wr_req),
    .eng_rsp_o       (eng_wr_rsp),
    .eng_w_data_i    (eng_w_data),
    .eng_w_strb_i    (eng_w_strb),
    .ring_aw_valid_i (cr_aw_valid),
    .ring_aw_ready_o (cr_aw_ready),
    .ring_aw_addr_i  (cr_aw_addr),
    .ring_w_valid_i  (cr_w_valid),
    .ring_w_ready_o  (cr_w_ready),
    .ring_w_data_i   (cr_w_data),
    .ring_w_strb_i   (cr_w_strb),
    .ring_b_valid_o  (cr_b_valid),
    .ring_b_ready_i  (cr_b_ready),
    .ring_b_resp_o   (cr_b_resp),
    .m_awvalid_o     (m_axi_awvalid_o),
    .m_awready_i     (m_axi_awready_i),
    .m_awid_o        (m_axi_awid_o),
    .m_awaddr_o      (m_axi_awaddr_o),
    .m_awlen_o       (m_axi_awlen_o),
    .m_awsize_o      (m_axi_awsize_o),
    .m_awburst_o     (m_axi_awburst_o),
    .m_wvalid_o      (m_axi_wvalid_o),
    .m_wready_i      (m_axi_wready_i),
    .m_wdata_o       (m_axi_wdata_o),
    .m_wstrb_o       (m_axi_wstrb_o),
    .m_wlast_o       (m_axi_wlast_o),
    .m_bvalid_i      (m_axi_bvalid_i),
    .m_bready_o      (m_axi_bready_o),
    .m_bid_i         (m_axi_bid_i),
    .m_bresp_i       (m_axi_bresp_i)
  );

  // ---- Cluster shell ----
  // An MBAR_OP write is held until the mbarrier units take it (a cycle without complete-tx).
  // The operation's code is the register's value from the cycle after the write (swmod
  // pulses in the write's cycle, before the register holds the new value).
  always_ff @(posedge clk_i or negedge core_rst_n) begin : proc_mbar_op
    if (!core_rst_n) begin
      mbar_op_pend_q <= 1'b0;
    end else if (hwif_out.MBAR_OP.op.swmod) begin
      mbar_op_pend_q <= 1'b1;
    end else if (mbar_op_ready) begin
      mbar_op_pend_q <= 1'b0;
    end
  end
  assign mbar_op_valid = mbar_op_pend_q;

  tma_cluster_shell #(
    .DataBytes (DataBytes),
    .NumCtas   (NumCtas),
    .SmemBytes (SmemBytes),
    .MbarSlots (MbarSlots)
  ) u_shell (
    .clk_i,
    .rst_ni          (core_rst_n),
    .smem_wr_valid_i (smem_wr_valid),
    .smem_wr_ready_o (smem_wr_ready),
    .smem_wr_i       (smem_wr),
    .smem_wr_data_i  (smem_wr_data),
    .smem_wr_strb_i  (smem_wr_strb),
    .rd_valid_i      (smem_rd_valid),
    .rd_ready_o      (smem_rd_ready),
    .rd_addr_i       (smem_rd.addr),
    .rd_cta_i        (4'(smem_rd.cta)),
    .rd_rvalid_o     (smem_rd_rvalid),
    .rd_rdata_o      (smem_rd_rdata),
    .req_valid_i     (win_req_valid),
    .req_ready_o     (win_req_ready),
    .req_we_i        (win_req_we),
    .req_addr_i      (win_req_addr),
    .req_wdata_i     (win_req_wdata),
    .req_wstrb_i     (win_req_wstrb),
    .rsp_valid_o     (win_rsp_valid),
    .rsp_rdata_o     (win_rsp_rdata),
    .rsp_err_o       (win_rsp_err),
    .tx_valid_i      (cpl_fire && cpl.kind == tma_pkg::CplTx),
    .tx_cta_i        (cpl.cta),
    .tx_addr_i       (cpl.mbar_addr),
    .tx_bytes_i      (cpl.bytes),
    .op_valid_i      (mbar_op_valid),
    .op_ready_o      (mbar_op_ready),
    .op_i            (hwif_out.MBAR_OP.op.value),
    .op_cta_i        (hwif_out.MBAR_SEL.cta.value),
    .op_slot_i       (hwif_out.MBAR_SEL.slot.value),
    .op_addr_i       (hwif_out.MBAR_ADDR.addr.value),
    .op_arg_i        (hwif_out.MBAR_ARG.value.value),
    .sel_cta_i       (hwif_out.MBAR_SEL.cta.value),
    .sel_slot_i      (hwif_out.MBAR_SEL.slot.value),
    .sel_valid_o     (sel_valid),
    .sel_phase_o     (sel_phase),
    .sel_stuck_o     (sel_stuck),
    .sel_pending_o   (sel_pending),
    .sel_tx_o        (sel_tx),
    .idle_i          (idle_long),
    .done_o          (mbar_done),
    .stuck_o         (mbar_stuck),
    .miss_o          (mbar_miss)
  );

  // ---- Sticky status bits (cleared by soft reset) ----
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_sticky
    if (!rst_ni) begin
      win_drop_q  <= 1'b0;
      ring_err_q  <= 1'b0;
      mbar_miss_q <= 1'b0;
    end else if (clr) begin
      win_drop_q  <= 1'b0;
      ring_err_q  <= 1'b0;
      mbar_miss_q <= 1'b0;
    end else begin
      win_drop_q  <= win_drop_q || win_drop;
      ring_err_q  <= ring_err_q || ring_bus_err || cr_bus_err;
      mbar_miss_q <= mbar_miss_q || mbar_miss;
    end
  end

  // ---- Register inputs ----
  always_comb begin : proc_hwif_in
    hwif_in = '0;
    hwif_in.BUILD0.data_bytes.next    = 8'(DataBytes);
    hwif_in.BUILD0.num_ctas.next      = 5'(NumCtas);
    hwif_in.BUILD0.cache_entries.next = 5'(DescCacheEntries);
    hwif_in.BUILD0.arch.next          = 8'(Arch);
    hwif_in.BUILD1.smem_kib.next      = 16'(SmemBytes / 1024);
    hwif_in.BUILD1.mbar_slots.next    = 4'(MbarSlots);
    hwif_in.BUILD1.cpl_fifo_depth.next = 8'(CplFifoDepth);
    hwif_in.STATUS.busy.next          = eng_busy || win_pending || ring_busy || cr_busy ||
                                        cmdr_count != '0;
    hwif_in.STATUS.reset_busy.next    = reset_busy;
    hwif_in.STATUS.win_pending.next   = win_pending;
    hwif_in.STATUS.ring_busy.next     = ring_busy;
    hwif_in.STATUS.win_drop.next      = win_drop_q;
    hwif_in.STATUS.cpl_ring_full.next = cr_full;
    hwif_in.STATUS.mbar_miss.next     = mbar_miss_q;
    hwif_in.STATUS.ring_bus_err.next  = ring_err_q;
    hwif_in.INTR_STATE.cpl.next        = evt[0];
    hwif_in.INTR_STATE.err.next        = evt[1];
    hwif_in.INTR_STATE.cmdr_low.next   = evt[2];
    hwif_in.INTR_STATE.cplr_high.next  = evt[3];
    hwif_in.INTR_STATE.mbar.next       = evt[4];
    hwif_in.INTR_STATE.mbar_stuck.next = evt[5];
    hwif_in.INTR_STATE.grp.next        = evt[6];
    hwif_in.ERR_STATUS.valid.next     = err_valid;
    hwif_in.ERR_STATUS.err_class.next = err_class;
    hwif_in.ERR_STATUS.tag.next       = err_tag;
    hwif_in.ERR_STATUS.cta.next       = err_cta;
    hwif_in.CNT_CMDS.count.next       = cnt_cmds;
    hwif_in.CNT_ERRS.count.next       = cnt_errs;
    hwif_in.CNT_BYTES_LO.count.next   = cnt_bytes[31:0];
    hwif_in.CNT_BYTES_HI.count.next   = cnt_bytes[63:32];
    hwif_in.CNT_BUSY_LO.count.next    = cnt_busy[31:0];
    hwif_in.CNT_BUSY_HI.count.next    = cnt_busy[63:32];
    hwif_in.CMDR_HEAD.index.next      = cmdr_head;
    hwif_in.CPLR_TAIL.index.next      = cplr_tail;
    hwif_in.CPLF_STATUS.count.next    = 8'(fifo_usage);
    hwif_in.CPLF_STATUS.empty.next    = !fifo_out_valid;
    hwif_in.CPLF_STATUS.full.next     = !fifo_in_ready;
    hwif_in.CPLF_W0.kind.next         = fifo_out_valid ? fifo_out.kind : '0;
    hwif_in.CPLF_W0.grp_done.next     = fifo_out_valid && fifo_out_grp_done;
    hwif_in.CPLF_W0.grp_err.next      = fifo_out_valid && fifo_out_grp_err;
    hwif_in.CPLF_W0.err.next          = fifo_out_valid ? fifo_out.err : '0;
    hwif_in.CPLF_W0.cta.next          = fifo_out_valid ? fifo_out.cta : '0;
    hwif_in.CPLF_W0.tag.next          = fifo_out_valid ? fifo_out.tag : '0;
    hwif_in.CPLF_W1.mbar_addr.next    = fifo_out_valid ? fifo_out.mbar_addr : '0;
    hwif_in.CPLF_W2.bytes.next        = fifo_out_valid ? fifo_out.bytes : '0;
    hwif_in.MBAR_STATE.valid.next     = sel_valid;
    hwif_in.MBAR_STATE.phase.next     = sel_phase;
    hwif_in.MBAR_STATE.stuck.next     = sel_stuck;
    hwif_in.MBAR_STATE.pending.next   = sel_pending;
    hwif_in.MBAR_TX.tx.next           = sel_tx;
    hwif_in.MBAR_DONE_LO.done.next    = mbar_done[31:0];
    hwif_in.MBAR_DONE_HI.done.next    = mbar_done[63:32];
    hwif_in.MBAR_STUCK_LO.stuck.next  = mbar_stuck[31:0];
    hwif_in.MBAR_STUCK_HI.stuck.next  = mbar_stuck[63:32];
  end

  // ---- Interrupt line ----
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_irq
    if (!rst_ni) begin
      irq_o <= 1'b0;
    end else begin
      irq_o <= hwif_out.INTR_STATE.intr;
    end
  end

  logic unused_top;
  assign unused_top = ^{s_axil_awprot_i, s_axil_arprot_i, eng_err_count, cmd_arb_idx,
                        hwif_out.MBAR_DONE_LO.intr, hwif_out.MBAR_DONE_HI.intr,
                        hwif_out.CMDR_BASE_LO.addr.value[5:0], hwif_out.INTR_ENABLE,
                        hwif_out.CPLR_BASE_LO.addr.value[3:0]};

  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64)
  `TMA_ASSERT_INIT(CplFifoDepthLegal_A, CplFifoDepth >= 2 && CplFifoDepth <= 255)
  `TMA_ASSERT_INIT(PrefetchReadsLegal_A, PrefetchReads <= 1)
  `TMA_ASSERT_INIT(CplWidth_A, tma_pkg::CplWidth == $bits(tma_pkg::cpl_t))

endmodule

`default_nettype wire
