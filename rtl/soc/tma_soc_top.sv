// SPDX-License-Identifier: Apache-2.0
//
// tma_soc_top: the OpenTMA engine as an SoC peripheral (docs/soc.md has the block diagram):
// instances and wiring only.
//   s_axil   AXI4-Lite subordinate: registers (tma_regs.rdl) at 0x0, the cluster shell's
//            shared-memory window at 0x100000 (tma_soc_axil)
//   m_axi    one AXI4 manager to global memory: the engine's reads, the command ring
//            fetcher's reads, the completion ring writer's writes (tma_soc_axi)
//   irq_o    level interrupt: |(INTR_STATE & INTR_ENABLE)
// Commands come from the register window or the command ring in memory (tma_soc_cmd_src),
// arbitrated into tma_engine; completions go to the mbarrier units of the cluster shell
// (complete-tx) and, merged with the engine's bulk async-group completions, to the completion
// FIFO registers or the completion ring (tma_soc_cpl_path, CTRL.cpl_ring_en). The engine writes
// the shell's shared memories (tma_cluster_shell) and its store path reads them. tma_soc_ctrl
// holds the CSR glue: soft reset, counters, first error, interrupt, sticky status, MBAR_OP.
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
  parameter  int unsigned StoreClipElem    = 0,       // tma_engine's PTX readings (0: silicon's)
  parameter  int unsigned BulkSizeStrict   = 0,
  parameter  int unsigned StorePath        = 1,       // tma_engine: 0 no write direction (stores,
                                                      // reductions, bulk writes: unsupported)
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
  logic        win_drop_q, ring_err_q, mbar_miss_q;
  // commands
  tma_pkg::cmd_t win_cmd_in, cmd;
  logic        win_pending, win_drop, ring_busy, ring_bus_err;
  logic [16:0] cmdr_head, cmdr_count;
  logic        ring_ar_valid, ring_ar_ready, ring_r_valid;
  logic [63:0] ring_ar_addr;
  logic [7:0]  ring_ar_len;
  logic        cmd_valid, cmd_ready;
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
  logic [15:0]          eng_err_count;
  // completion records (engine completions and group completions merged) and where they go
  logic                 cpl_fire, cpl_written, grp_written;
  tma_pkg::cpl_t        cpl;
  logic                 fifo_out_valid, fifo_full, fifo_out_grp_done, fifo_out_grp_err;
  tma_pkg::cpl_t        fifo_out;
  logic [FifoUw-1:0]    fifo_usage;
  logic                 cr_full, cr_busy, cr_bus_err;
  logic [16:0]          cplr_tail, cplr_count;
  // shell
  logic                 mbar_op_valid, mbar_op_ready, mbar_miss;
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

  // ---- Host port: registers and the shell window ----
  tma_soc_host u_host (
    .clk_i,
    .rst_ni,
    .s_axil_awvalid_i,
    .s_axil_awready_o,
    .s_axil_awaddr_i,
    .s_axil_wvalid_i,
    .s_axil_wready_o,
    .s_axil_wdata_i,
    .s_axil_wstrb_i,
    .s_axil_bvalid_o,
    .s_axil_bready_i,
    .s_axil_bresp_o,
    .s_axil_arvalid_i,
    .s_axil_arready_o,
    .s_axil_araddr_i,
    .s_axil_rvalid_o,
    .s_axil_rready_i,
    .s_axil_rdata_o,
    .s_axil_rresp_o,
    .regs_i          (hwif_in),
    .regs_o          (hwif_out),
    .win_cmd_o       (win_cmd_in),
    .win_req_valid_o (win_req_valid),
    .win_req_ready_i (win_req_ready),
    .win_req_we_o    (win_req_we),
    .win_req_addr_o  (win_req_addr),
    .win_req_wdata_o (win_req_wdata),
    .win_req_wstrb_o (win_req_wstrb),
    .win_rsp_valid_i (win_rsp_valid),
    .win_rsp_rdata_i (win_rsp_rdata),
    .win_rsp_err_i   (win_rsp_err)
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
    .cpl_written_i (cpl_written),
    .grp_written_i (grp_written),
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
    .evt_o         (evt),
    .intr_i        (hwif_out.INTR_STATE.intr),
    .irq_o,
    .win_drop_i    (win_drop),
    .bus_err_i     (ring_bus_err || cr_bus_err),
    .mbar_miss_i   (mbar_miss),
    .win_drop_o    (win_drop_q),
    .bus_err_o     (ring_err_q),
    .mbar_miss_o   (mbar_miss_q),
    .mbar_op_write_i (hwif_out.MBAR_OP.op.swmod),
    .mbar_op_ready_i (mbar_op_ready),
    .mbar_op_valid_o (mbar_op_valid)
  );

  // ---- Commands: register window and command ring -> engine ----
  tma_soc_cmd_src #(
    .DataBytes (DataBytes)
  ) u_cmd_src (
    .clk_i,
    .rst_ni,
    .core_rst_ni    (core_rst_n),
    .clr_i          (clr),
    .hold_i         (hold),
    .win_i          (win_cmd_in),
    .doorbell_i     (hwif_out.CMD_DOORBELL.go.value),
    .win_pending_o  (win_pending),
    .win_drop_o     (win_drop),
    .enable_i       (hwif_out.CTRL.enable.value),
    .ring_base_i    ({hwif_out.CMDR_BASE_HI.addr.value, hwif_out.CMDR_BASE_LO.addr.value[31:6]}),
    .ring_log2_i    (hwif_out.CMDR_SIZE.log2_entries.value),
    .ring_tail_i    (hwif_out.CMDR_TAIL.index.value),
    .ring_head_o    (cmdr_head),
    .ring_count_o   (cmdr_count),
    .ring_busy_o    (ring_busy),
    .ring_bus_err_o (ring_bus_err),
    .ar_valid_o     (ring_ar_valid),
    .ar_ready_i     (ring_ar_ready),
    .ar_addr_o      (ring_ar_addr),
    .ar_len_o       (ring_ar_len),
    .r_valid_i      (ring_r_valid),
    .r_data_i       (m_axi_rdata_i),
    .r_resp_i       (m_axi_rresp_i),
    .r_last_i       (m_axi_rlast_i),
    .cmd_valid_o    (cmd_valid),
    .cmd_ready_i    (cmd_ready),
    .cmd_o          (cmd)
  );

  // ---- Engine ----
  // The engine's newest architecture (tma_pkg::Arch*) from the sm number; CTRL.arch picks one
  // up to it, CTRL.cluster the cluster size (0: the shell's NumCtas CTAs).
  localparam int unsigned EngineArch = (Arch >= 103) ? 32'(tma_pkg::ArchSm103) :
                                       (Arch >= 100) ? 32'(tma_pkg::ArchSm100) :
                                                       32'(tma_pkg::ArchSm90);
  tma_soc_engine #(
    .DataBytes        (DataBytes),
    .NumCtas          (NumCtas),
    .MaxOutstanding   (MaxOutstanding),
    .DescCacheEntries (DescCacheEntries),
    .MaxBurstLen      (MaxBurstLen),
    .RowFifoDepth     (RowFifoDepth),
    .Arch             (EngineArch),
    .PrefetchReads    (PrefetchReads),
    .StoreClipElem    (StoreClipElem),
    .BulkSizeStrict   (BulkSizeStrict),
    .StorePath        (StorePath)
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

  // Completions and bulk async-group completions -> completion records -> FIFO or ring.
  tma_soc_cpl_path #(
    .DataBytes    (DataBytes),
    .CplFifoDepth (CplFifoDepth)
  ) u_cpl_path (
    .clk_i,
    .rst_ni,
    .core_rst_ni     (core_rst_n),
    .clr_i           (clr),
    .hold_i          (hold),
    .eng_valid_i     (eng_cpl_valid),
    .eng_ready_o     (eng_cpl_ready),
    .eng_i           (eng_cpl),
    .bg_valid_i      (bg_cpl_valid),
    .bg_ready_o      (bg_cpl_ready),
    .bg_i            (bg_cpl),
    .cpl_fire_o      (cpl_fire),
    .cpl_o           (cpl),
    .written_o       (cpl_written),
    .written_grp_o   (grp_written),
    .ring_en_i       (hwif_out.CTRL.cpl_ring_en.value),
    .pop_i           (hwif_out.CPLF_POP.pop.value),
    .fifo_valid_o    (fifo_out_valid),
    .fifo_full_o     (fifo_full),
    .fifo_usage_o    (fifo_usage),
    .fifo_head_o     (fifo_out),
    .fifo_grp_done_o (fifo_out_grp_done),
    .fifo_grp_err_o  (fifo_out_grp_err),
    .ring_base_i     ({hwif_out.CPLR_BASE_HI.addr.value, hwif_out.CPLR_BASE_LO.addr.value[31:4]}),
    .ring_log2_i     (hwif_out.CPLR_SIZE.log2_entries.value),
    .ring_head_i     (hwif_out.CPLR_HEAD.index.value),
    .ring_tail_o     (cplr_tail),
    .ring_count_o    (cplr_count),
    .ring_full_o     (cr_full),
    .ring_busy_o     (cr_busy),
    .ring_bus_err_o  (cr_bus_err),
    .aw_valid_o      (cr_aw_valid),
    .aw_ready_i      (cr_aw_ready),
    .aw_addr_o       (cr_aw_addr),
    .w_valid_o       (cr_w_valid),
    .w_ready_i       (cr_w_ready),
    .w_data_o        (cr_w_data),
    .w_strb_o        (cr_w_strb),
    .b_valid_i       (cr_b_valid),
    .b_ready_o       (cr_b_ready),
    .b_resp_i        (cr_b_resp)
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

  // ---- Engine writes and completion ring writes -> m_axi AW/W/B ----
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
    hwif_in.CPLF_STATUS.full.next     = fifo_full;
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

  logic unused_top;
  assign unused_top = ^{s_axil_awprot_i, s_axil_arprot_i, eng_err_count,
                        hwif_out.MBAR_DONE_LO.intr, hwif_out.MBAR_DONE_HI.intr,
                        hwif_out.CMDR_BASE_LO.addr.value[5:0], hwif_out.INTR_ENABLE,
                        hwif_out.CPLR_BASE_LO.addr.value[3:0],
                        // the command window's fields: tma_soc_host reads them (win_cmd_in)
                        hwif_out.CMD_W0, hwif_out.CMD_W1, hwif_out.CMD_W2, hwif_out.CMD_W3,
                        hwif_out.CMD_W4, hwif_out.CMD_W5, hwif_out.CMD_W6, hwif_out.CMD_W7,
                        hwif_out.CMD_W8, hwif_out.CMD_W9, hwif_out.CMD_W10, hwif_out.CMD_W11,
                        hwif_out.CMD_W12};

  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64)
  `TMA_ASSERT_INIT(PrefetchReadsLegal_A, PrefetchReads <= 1)

endmodule

`default_nettype wire
