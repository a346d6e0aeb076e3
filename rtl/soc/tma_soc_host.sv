// SPDX-License-Identifier: Apache-2.0
//
// tma_soc_host: the SoC top's host port (docs/soc.md "Address map"): the AXI4-Lite subordinate
// split by tma_soc_axil into the register block (tma_reg_top, PeakRDL-regblock from
// tma_regs.rdl: 0x000000 - 0x0003FF) and the cluster shell's shared-memory window
// (0x100000 - 0x1FFFFF, win_req_* / win_rsp_*); any other address answers SLVERR. The
// registers' values leave as regs_o (hwif_out) and come in as regs_i (hwif_in); the register
// command window's fields (CMD_W0 .. CMD_W12, a command-ring record's words) are read by name
// into a command (win_cmd_o).
// Stream in: s_axil; stream out: the register values and the shell window's requests.

`default_nettype none

module tma_soc_host (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  // AXI4-Lite subordinate
  input  logic                        s_axil_awvalid_i,
  output logic                        s_axil_awready_o,
  input  logic [20:0]                 s_axil_awaddr_i,
  input  logic                        s_axil_wvalid_i,
  output logic                        s_axil_wready_o,
  input  logic [31:0]                 s_axil_wdata_i,
  input  logic [3:0]                  s_axil_wstrb_i,
  output logic                        s_axil_bvalid_o,
  input  logic                        s_axil_bready_i,
  output logic [1:0]                  s_axil_bresp_o,
  input  logic                        s_axil_arvalid_i,
  output logic                        s_axil_arready_o,
  input  logic [20:0]                 s_axil_araddr_i,
  output logic                        s_axil_rvalid_o,
  input  logic                        s_axil_rready_i,
  output logic [31:0]                 s_axil_rdata_o,
  output logic [1:0]                  s_axil_rresp_o,
  // Register values
  input  tma_reg_pkg::tma_regs__in_t  regs_i,
  output tma_reg_pkg::tma_regs__out_t regs_o,
  output tma_pkg::cmd_t               win_cmd_o,
  // Shared-memory window requests (32-bit words)
  output logic                        win_req_valid_o,
  input  logic                        win_req_ready_i,
  output logic                        win_req_we_o,
  output logic [19:0]                 win_req_addr_o,
  output logic [31:0]                 win_req_wdata_o,
  output logic [3:0]                  win_req_wstrb_o,
  input  logic                        win_rsp_valid_i,
  input  logic [31:0]                 win_rsp_rdata_i,
  input  logic                        win_rsp_err_i
);

  // register block AXI4-Lite
  logic        r_awvalid, r_awready, r_wvalid, r_wready, r_bvalid, r_bready;
  logic        r_arvalid, r_arready, r_rvalid, r_rready;
  logic [9:0]  r_awaddr, r_araddr;
  logic [31:0] r_wdata, r_rdata;
  logic [3:0]  r_wstrb;
  logic [1:0]  r_bresp, r_rresp;

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
    .w_req_valid_o (win_req_valid_o),
    .w_req_ready_i (win_req_ready_i),
    .w_req_we_o    (win_req_we_o),
    .w_req_addr_o  (win_req_addr_o),
    .w_req_wdata_o (win_req_wdata_o),
    .w_req_wstrb_o (win_req_wstrb_o),
    .w_rsp_valid_i (win_rsp_valid_i),
    .w_rsp_rdata_i (win_rsp_rdata_i),
    .w_rsp_err_i   (win_rsp_err_i)
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
    .hwif_in        (regs_i),
    .hwif_out       (regs_o)
  );

  always_comb begin : proc_win_cmd
    win_cmd_o           = '0;
    win_cmd_o.op        = regs_o.CMD_W0.op.value;
    win_cmd_o.mode      = regs_o.CMD_W0.mode.value;
    win_cmd_o.redop     = regs_o.CMD_W0.redop.value;
    win_cmd_o.dim       = regs_o.CMD_W0.dim.value;
    win_cmd_o.multicast = regs_o.CMD_W0.multicast.value;
    win_cmd_o.cta_group = regs_o.CMD_W0.cta_group.value;
    win_cmd_o.tag       = regs_o.CMD_W0.tag.value;
    win_cmd_o.issuer    = regs_o.CMD_W0.issuer.value;
    win_cmd_o.dst_cta   = regs_o.CMD_W0.dst_cta.value;
    win_cmd_o.cta_mask  = regs_o.CMD_W1.cta_mask.value;
    win_cmd_o.smem_cta    = regs_o.CMD_W0.smem_cta.value;
    win_cmd_o.mbar_remote = regs_o.CMD_W0.mbar_remote.value;
    win_cmd_o.mbar_cta    = regs_o.CMD_W1.mbar_cta.value;
    win_cmd_o.desc_addr = {regs_o.CMD_W3.desc_addr_hi.value,
                            regs_o.CMD_W2.desc_addr_lo.value};
    win_cmd_o.coords.v[0] = regs_o.CMD_W4.coord0.value;
    win_cmd_o.coords.v[1] = regs_o.CMD_W5.coord1.value;
    win_cmd_o.coords.v[2] = regs_o.CMD_W6.coord2.value;
    win_cmd_o.coords.v[3] = regs_o.CMD_W7.coord3.value;
    win_cmd_o.coords.v[4] = regs_o.CMD_W8.coord4.value;
    win_cmd_o.im2col.v[0] = regs_o.CMD_W9.im2col0.value;
    win_cmd_o.im2col.v[1] = regs_o.CMD_W9.im2col1.value;
    win_cmd_o.im2col.v[2] = regs_o.CMD_W10.im2col2.value;
    win_cmd_o.smem_addr = regs_o.CMD_W11.smem_addr.value;
    win_cmd_o.mbar_addr = regs_o.CMD_W12.mbar_addr.value;
  end

endmodule

`default_nettype wire
