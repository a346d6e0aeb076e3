// SPDX-License-Identifier: Apache-2.0
//
// tma_sim_top: flat-port wrapper of tma_engine for Verilator C++ and SystemC benches; the
// ports are exactly those of docs/DUT_INTERFACE (brief) / docs/interfaces.md.

`default_nettype none

`include "tma_assert.svh"

module tma_sim_top #(
  parameter  int unsigned DataBytes        = 16,
  parameter  int unsigned NumCtas          = 16,
  parameter  int unsigned MaxOutstanding   = 512,
  parameter  int unsigned DescCacheEntries = 4,
  parameter  int unsigned AddrWidth        = 64,
  parameter  int unsigned AxiIdWidth       = 4,
  parameter  int unsigned MaxBurstLen      = 16,
  parameter  int unsigned RowFifoDepth     = 512,
  parameter  int unsigned SubByte          = (DataBytes <= 32) ? 1 : 0,   // tma_engine
  parameter  int unsigned StoreClipElem    = 0,                            // tma_engine
  parameter  int unsigned MaxWrOutstanding = 512,                          // tma_engine
  parameter  int unsigned WrWatchdog       = 4096,                         // tma_engine
  parameter  int unsigned RdWatchdog       = 4096,                         // tma_engine
  parameter  int unsigned Arch             = 2,                            // tma_engine
  parameter  int unsigned BulkSizeStrict   = 0,                            // tma_engine
  parameter  int unsigned PrefetchReads    = 1,                            // tma_engine
  parameter  int unsigned AtomicReduce     = 0,                            // tma_engine
  parameter  int unsigned StorePath        = 1,                            // tma_engine
  localparam int unsigned DW               = DataBytes * 8
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Command stream
  input  logic                  cmd_valid_i,
  output logic                  cmd_ready_o,
  input  logic [1:0]            cmd_op_i,
  input  logic [2:0]            cmd_mode_i,
  input  logic [2:0]            cmd_redop_i,
  input  logic [2:0]            cmd_dim_i,
  input  logic [63:0]           cmd_desc_addr_i,
  input  logic [159:0]          cmd_coords_i,
  input  logic [47:0]           cmd_im2col_i,
  input  logic [31:0]           cmd_smem_addr_i,
  input  logic [31:0]           cmd_mbar_addr_i,
  input  logic                  cmd_multicast_i,
  input  logic [15:0]           cmd_cta_mask_i,
  input  logic [3:0]            cmd_issuer_i,
  input  logic [3:0]            cmd_dst_cta_i,
  input  logic [1:0]            cmd_cta_group_i,
  input  logic                  cmd_smem_cta_i,
  input  logic                  cmd_mbar_remote_i,
  input  logic [3:0]            cmd_mbar_cta_i,
  input  logic [7:0]            cmd_tag_i,
  input  logic                  desc_inval_i,
  input  logic [1:0]            arch_i,
  input  logic [3:0]            cluster_i,
  // AXI4 master: read address / data
  output logic                  m_axi_arvalid_o,
  input  logic                  m_axi_arready_i,
  output logic [AxiIdWidth-1:0] m_axi_arid_o,
  output logic [AddrWidth-1:0]  m_axi_araddr_o,
  output logic [7:0]            m_axi_arlen_o,
  output logic [2:0]            m_axi_arsize_o,
  output logic [1:0]            m_axi_arburst_o,
  output logic [3:0]            m_axi_arcache_o,   // tma_pkg::AxiCache*
  input  logic                  m_axi_rvalid_i,
  output logic                  m_axi_rready_o,
  input  logic [AxiIdWidth-1:0] m_axi_rid_i,
  input  logic [DW-1:0]         m_axi_rdata_i,
  input  logic [1:0]            m_axi_rresp_i,
  input  logic                  m_axi_rlast_i,
  // AXI4 master: write address / data / response
  output logic                  m_axi_awvalid_o,
  input  logic                  m_axi_awready_i,
  output logic [AxiIdWidth-1:0] m_axi_awid_o,
  output logic [AddrWidth-1:0]  m_axi_awaddr_o,
  output logic [7:0]            m_axi_awlen_o,
  output logic [2:0]            m_axi_awsize_o,
  output logic [1:0]            m_axi_awburst_o,
  output logic [5:0]            m_axi_awatop_o,    // AXI5 AWATOP (0 unless AtomicReduce)
  output logic                  m_axi_wvalid_o,
  input  logic                  m_axi_wready_i,
  output logic [DW-1:0]         m_axi_wdata_o,
  output logic [DataBytes-1:0]  m_axi_wstrb_o,
  output logic                  m_axi_wlast_o,
  input  logic                  m_axi_bvalid_i,
  output logic                  m_axi_bready_o,
  input  logic [AxiIdWidth-1:0] m_axi_bid_i,
  input  logic [1:0]            m_axi_bresp_i,
  // Shared-memory write port
  output logic                  smem_wr_valid_o,
  input  logic                  smem_wr_ready_i,
  output logic [31:0]           smem_wr_addr_o,
  output logic [DW-1:0]         smem_wr_data_o,
  output logic [DataBytes-1:0]  smem_wr_strb_o,
  output logic [15:0]           smem_wr_cta_mask_o,
  // Shared-memory read port (the stores' source)
  output logic                  smem_rd_valid_o,
  input  logic                  smem_rd_ready_i,
  output logic [31:0]           smem_rd_addr_o,
  output logic [3:0]            smem_rd_cta_o,
  input  logic                  smem_rd_rvalid_i,
  input  logic [DW-1:0]         smem_rd_rdata_i,
  // Completion stream
  output logic                  cpl_valid_o,
  input  logic                  cpl_ready_i,
  output logic [1:0]            cpl_kind_o,
  output logic [3:0]            cpl_cta_o,
  output logic [31:0]           cpl_mbar_addr_o,
  output logic [31:0]           cpl_bytes_o,
  output logic [3:0]            cpl_error_o,
  output logic [7:0]            cpl_tag_o,
  // Bulk async-group completions (tma_pkg::bg_cpl_t)
  output logic                  bg_cpl_valid_o,
  input  logic                  bg_cpl_ready_i,
  output logic [3:0]            bg_cpl_issuer_o,
  output logic [7:0]            bg_cpl_seq_o,
  output logic                  bg_cpl_done_o,
  output logic                  bg_cpl_err_o,
  // Status
  output logic                  busy_o,
  output logic [15:0]           err_count_o
);

  tma_pkg::cmd_t        cmd;
  tma_pkg::axi_rd_req_t axi_rd_req;
  tma_pkg::axi_rd_rsp_t axi_rd_rsp;
  tma_pkg::smem_wr_t    smem_wr;
  tma_pkg::axi_wr_req_t axi_wr_req;
  tma_pkg::axi_wr_rsp_t axi_wr_rsp;
  tma_pkg::smem_rd_t    smem_rd;
  tma_pkg::cpl_t        cpl;
  tma_pkg::bg_cpl_t     bg_cpl;

  always_comb begin : proc_cmd
    cmd           = '0;
    cmd.op        = cmd_op_i;
    cmd.mode      = cmd_mode_i;
    cmd.redop     = cmd_redop_i;
    cmd.dim       = cmd_dim_i;
    cmd.desc_addr = cmd_desc_addr_i;
    cmd.coords    = cmd_coords_i;
    cmd.im2col    = cmd_im2col_i;
    cmd.smem_addr = cmd_smem_addr_i;
    cmd.mbar_addr = cmd_mbar_addr_i;
    cmd.multicast = cmd_multicast_i;
    cmd.cta_mask  = cmd_cta_mask_i;
    cmd.issuer    = cmd_issuer_i;
    cmd.dst_cta   = cmd_dst_cta_i;
    cmd.cta_group = cmd_cta_group_i;
    cmd.smem_cta  = cmd_smem_cta_i;
    cmd.mbar_remote = cmd_mbar_remote_i;
    cmd.mbar_cta  = cmd_mbar_cta_i;
    cmd.tag       = cmd_tag_i;
  end

  tma_engine #(
    .DataBytes        (DataBytes),
    .NumCtas          (NumCtas),
    .MaxOutstanding   (MaxOutstanding),
    .DescCacheEntries (DescCacheEntries),
    .MaxBurstLen      (MaxBurstLen),
    .RowFifoDepth     (RowFifoDepth),
    .SubByte          (SubByte),
    .StoreClipElem    (StoreClipElem),
    .MaxWrOutstanding (MaxWrOutstanding),
    .WrWatchdog       (WrWatchdog),
    .RdWatchdog       (RdWatchdog),
    .Arch             (Arch),
    .BulkSizeStrict   (BulkSizeStrict),
    .PrefetchReads    (PrefetchReads),
    .AtomicReduce     (AtomicReduce),
    .StorePath        (StorePath)
  ) u_engine (
    .clk_i,
    .rst_ni,
    .cmd_valid_i,
    .cmd_ready_o,
    .cmd_i              (cmd),
    .desc_inval_i,
    .arch_i,
    .cluster_i,
    .axi_rd_req_o       (axi_rd_req),
    .axi_rd_rsp_i       (axi_rd_rsp),
    .axi_r_data_i       (m_axi_rdata_i),
    .axi_wr_req_o       (axi_wr_req),
    .axi_wr_rsp_i       (axi_wr_rsp),
    .axi_w_data_o       (m_axi_wdata_o),
    .axi_w_strb_o       (m_axi_wstrb_o),
    .smem_wr_valid_o,
    .smem_wr_ready_i,
    .smem_wr_o          (smem_wr),
    .smem_wr_data_o,
    .smem_wr_strb_o,
    .smem_rd_valid_o,
    .smem_rd_ready_i,
    .smem_rd_o          (smem_rd),
    .smem_rd_rvalid_i,
    .smem_rd_rdata_i,
    .cpl_valid_o,
    .cpl_ready_i,
    .cpl_o              (cpl),
    .bg_cpl_valid_o,
    .bg_cpl_ready_i,
    .bg_cpl_o           (bg_cpl),
    .busy_o,
    .err_count_o
  );

  // AXI4 read channels: the engine's request / response pair as flat ports.
  assign m_axi_arvalid_o = axi_rd_req.ar_valid;
  assign m_axi_arid_o    = AxiIdWidth'(axi_rd_req.ar_id);
  assign m_axi_araddr_o  = AddrWidth'(axi_rd_req.ar_addr);
  assign m_axi_arlen_o   = axi_rd_req.ar_len;
  assign m_axi_arsize_o  = axi_rd_req.ar_size;
  assign m_axi_arburst_o = axi_rd_req.ar_burst;
  assign m_axi_arcache_o = axi_rd_req.ar_cache;
  assign m_axi_rready_o  = axi_rd_req.r_ready;

  always_comb begin : proc_axi_rd_rsp
    axi_rd_rsp          = '0;
    axi_rd_rsp.ar_ready = m_axi_arready_i;
    axi_rd_rsp.r_valid  = m_axi_rvalid_i;
    axi_rd_rsp.r_id     = 4'(m_axi_rid_i);
    axi_rd_rsp.r_resp   = m_axi_rresp_i;
    axi_rd_rsp.r_last   = m_axi_rlast_i;
  end

  assign smem_wr_addr_o     = smem_wr.addr;
  assign smem_wr_cta_mask_o = smem_wr.cta_mask;

  assign cpl_kind_o      = cpl.kind;
  assign cpl_cta_o       = cpl.cta;
  assign cpl_mbar_addr_o = cpl.mbar_addr;
  assign cpl_bytes_o     = cpl.bytes;
  assign cpl_error_o     = cpl.err;
  assign cpl_tag_o       = cpl.tag;
  assign bg_cpl_issuer_o = bg_cpl.issuer;
  assign bg_cpl_seq_o    = bg_cpl.seq;
  assign bg_cpl_done_o   = bg_cpl.done;
  assign bg_cpl_err_o    = bg_cpl.err;

  // AXI4 write channels: the engine's request / response pair as flat ports.
  assign m_axi_awvalid_o = axi_wr_req.aw_valid;
  assign m_axi_awid_o    = AxiIdWidth'(axi_wr_req.aw_id);
  assign m_axi_awaddr_o  = AddrWidth'(axi_wr_req.aw_addr);
  assign m_axi_awlen_o   = axi_wr_req.aw_len;
  assign m_axi_awsize_o  = axi_wr_req.aw_size;
  assign m_axi_awburst_o = axi_wr_req.aw_burst;
  assign m_axi_awatop_o  = axi_wr_req.aw_atop;
  assign m_axi_wvalid_o  = axi_wr_req.w_valid;
  assign m_axi_wlast_o   = axi_wr_req.w_last;
  assign m_axi_bready_o  = axi_wr_req.b_ready;

  always_comb begin : proc_axi_wr_rsp
    axi_wr_rsp          = '0;
    axi_wr_rsp.aw_ready = m_axi_awready_i;
    axi_wr_rsp.w_ready  = m_axi_wready_i;
    axi_wr_rsp.b_valid  = m_axi_bvalid_i;
    axi_wr_rsp.b_id     = 4'(m_axi_bid_i);
    axi_wr_rsp.b_resp   = m_axi_bresp_i;
  end

  assign smem_rd_addr_o = smem_rd.addr;
  assign smem_rd_cta_o  = smem_rd.cta;

  `TMA_ASSERT_INIT(AddrWidthLegal_A, AddrWidth >= 32 && AddrWidth <= 64)
  `TMA_ASSERT_INIT(AxiIdWidthLegal_A, AxiIdWidth >= 1 && AxiIdWidth <= 4)

endmodule

`default_nettype wire
