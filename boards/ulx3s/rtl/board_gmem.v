// SPDX-License-Identifier: Apache-2.0
//
// board_gmem: the board's global memory, GmemBytes of block RAM (one port, DataBytes wide, byte
// enables; address, enables and write data come from flops and the read data passes two
// registers, so a read takes three clocks: the RAM spans the whole device, its inputs fan out
// far and its outputs come from far) shared by two subordinate ports:
//   * the engine's AXI4 port (INCR bursts of the bus width, IDs returned): a read burst and a
//     write burst proceed side by side, as AXI4 lets a manager rely on (a stalled R channel
//     never holds writes back); the engine address A is RAM byte A - base_i; a beat with a byte
//     at or past limit_i (or below base_i) is answered SLVERR, reads as zero and writes
//     nothing (the window the host sets per case: as the golden replay's flat buffer, outside
//     is a bus error);
//   * the host's AXI4-Lite port (32-bit): RAM byte (address mod 2^28), SLVERR past GmemBytes.
// Each clock the RAM port serves an engine write beat, else a host access, else an engine
// read beat. A host access is first taken into a request register (address, data, byte
// enables and the window verdict), so the port's arbitration sees only flops and the engine's
// W valid: one LUT level from the grant to the RAM's input flops.

`default_nettype none

module board_gmem #(
  parameter DataBytes = 16,
  parameter GmemBytes = 262144,  // power of two
  // 1: the RAM as ECP5 DP16KD blocks of 16K x 1 with their output register (REGMODE OUTREG;
  // Yosys infers them without it), for GmemBytes / DataBytes = 16384 words; 0: inferred
  // (simulation, other sizes: the default bitstream's 131072 bytes). The same two-register
  // read either way.
  parameter UseEbr    = 0
) (
  input  wire                   clk_i,
  input  wire                   rst_ni,
  // Window (host-set, board CSRs)
  input  wire [63:0]            base_i,
  input  wire [31:0]            limit_i,
  output reg                    bus_err_o,  // a beat answered SLVERR
  // Engine AXI4 subordinate
  input  wire [3:0]             e_arid_i,
  input  wire [63:0]            e_araddr_i,
  input  wire [7:0]             e_arlen_i,
  input  wire                   e_arvalid_i,
  output wire                   e_arready_o,
  output wire [3:0]             e_rid_o,
  output wire [DataBytes*8-1:0] e_rdata_o,
  output wire [1:0]             e_rresp_o,
  output wire                   e_rlast_o,
  output wire                   e_rvalid_o,
  input  wire                   e_rready_i,
  input  wire [3:0]             e_awid_i,
  input  wire [63:0]            e_awaddr_i,
  input  wire [7:0]             e_awlen_i,
  input  wire                   e_awvalid_i,
  output wire                   e_awready_o,
  input  wire [DataBytes*8-1:0] e_wdata_i,
  input  wire [DataBytes-1:0]   e_wstrb_i,
  input  wire                   e_wlast_i,
  input  wire                   e_wvalid_i,
  output wire                   e_wready_o,
  output wire [3:0]             e_bid_o,
  output wire [1:0]             e_bresp_o,
  output wire                   e_bvalid_o,
  input  wire                   e_bready_i,
  // Host AXI4-Lite subordinate
  input  wire [31:0]            h_awaddr_i,
  input  wire                   h_awvalid_i,
  output wire                   h_awready_o,
  input  wire [31:0]            h_wdata_i,
  input  wire [3:0]             h_wstrb_i,
  input  wire                   h_wvalid_i,
  output wire                   h_wready_o,
  output reg  [1:0]             h_bresp_o,
  output wire                   h_bvalid_o,
  input  wire                   h_bready_i,
  input  wire [31:0]            h_araddr_i,
  input  wire                   h_arvalid_i,
  output wire                   h_arready_o,
  output reg  [31:0]            h_rdata_o,
  output reg  [1:0]             h_rresp_o,
  output wire                   h_rvalid_o,
  input  wire                   h_rready_i
);

  localparam DW    = DataBytes * 8;
  localparam OffW  = $clog2(DataBytes);   // byte-in-beat bits
  localparam Words = GmemBytes / DataBytes;
  localparam AW    = $clog2(Words);

  // ---- The RAM (inputs from the flops ram_*_q; ram_out_w two clocks after the address) ----
  reg  [AW-1:0]        ram_addr, ram_addr_q;
  reg  [DataBytes-1:0] ram_we, ram_we_q;
  reg  [DW-1:0]        ram_wdata, ram_wdata_q;
  wire [DW-1:0]        ram_out_w;
  integer              i;

  always @(posedge clk_i) begin
    ram_addr_q  <= ram_addr;
    ram_wdata_q <= ram_wdata;
  end

  generate
    if (UseEbr != 0 && Words == 16384) begin : g_ebr
      genvar b;
      for (b = 0; b < DW; b = b + 1) begin : g_bit
        DP16KD #(
          .DATA_WIDTH_A (1),
          .DATA_WIDTH_B (1),
          .REGMODE_A    ("OUTREG"),
          .WRITEMODE_A  ("NORMAL")
        ) u_ebr (
          .CLKA  (clk_i),
          .CEA   (1'b1),
          .OCEA  (1'b1),
          .WEA   (ram_we_q[b / 8]),
          .RSTA  (1'b0),
          .CSA2  (1'b0), .CSA1 (1'b0), .CSA0 (1'b0),
          .ADA13 (ram_addr_q[13]), .ADA12 (ram_addr_q[12]), .ADA11 (ram_addr_q[11]),
          .ADA10 (ram_addr_q[10]), .ADA9 (ram_addr_q[9]), .ADA8 (ram_addr_q[8]),
          .ADA7 (ram_addr_q[7]), .ADA6 (ram_addr_q[6]), .ADA5 (ram_addr_q[5]),
          .ADA4 (ram_addr_q[4]), .ADA3 (ram_addr_q[3]), .ADA2 (ram_addr_q[2]),
          .ADA1 (ram_addr_q[1]), .ADA0 (ram_addr_q[0]),
          .DIA0  (ram_wdata_q[b]),
          .DOA0  (ram_out_w[b]),
          .CLKB  (1'b0),
          .CEB   (1'b0),
          .OCEB  (1'b0),
          .WEB   (1'b0),
          .RSTB  (1'b0)
        );
      end
    end else begin : g_infer
      reg [DW-1:0] mem [0:Words-1];
      reg [DW-1:0] rd_q, rd2_q;
      always @(posedge clk_i) begin
        for (i = 0; i < DataBytes; i = i + 1) begin
          if (ram_we_q[i]) mem[ram_addr_q][8*i +: 8] <= ram_wdata_q[8*i +: 8];
        end
        rd_q  <= mem[ram_addr_q];
        rd2_q <= rd_q;
      end
      assign ram_out_w = rd2_q;
    end
  endgenerate

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ram_we_q <= {DataBytes{1'b0}};
    else ram_we_q <= ram_we;
  end

  // ---- The window: a beat at RAM byte offset o (o = address - base_i) lies in it when
  // o + DataBytes <= limit_i and o + DataBytes <= GmemBytes. The bound limit_i - DataBytes
  // is kept in a register (limit_i is a host setting, written before the case's commands), so
  // each beat's check is one compare, without an adder in front of the RAM's write enables.
  reg  [32:0] wlim_q;   // limit_i - DataBytes; negative (bit 32): no beat fits
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) wlim_q <= {33{1'b1}};
    else wlim_q <= {1'b0, limit_i} - DataBytes;
  end

  function in_window(input [63:0] o);
    in_window = o[63:32] == 32'd0 && !wlim_q[32] && o[31:0] <= wlim_q[31:0] &&
                o[31:0] <= GmemBytes - DataBytes;
  endfunction

  // ---- Write burst machine (the burst ends with the W beat marked WLAST) ----
  localparam [1:0] WIdle = 2'd0, WOff = 2'd1, WData = 2'd2, WResp = 2'd3;
  reg [1:0]  wst_q;
  reg [3:0]  wid_q;
  reg [63:0] waddr_q, woff_q;
  reg        werr_q;
  wire        win_w  = in_window(woff_q);
  wire        wbeat_w = wst_q == WData && e_wvalid_i;   // a W beat takes the port

  assign e_awready_o = wst_q == WIdle;
  assign e_wready_o  = wst_q == WData;
  assign e_bvalid_o  = wst_q == WResp;
  assign e_bid_o     = wid_q;
  assign e_bresp_o   = werr_q ? 2'b10 : 2'b00;

  // ---- Host machine: HIdle takes a request into the h*_q registers, HReq waits for the port
  localparam [2:0] HIdle = 3'd0, HRd1 = 3'd1, HRd2 = 3'd2, HROut = 3'd3, HB = 3'd4,
                   HRd3 = 3'd5, HReq = 3'd6;
  reg [2:0]  hst_q;
  reg [OffW-3:0] hlane_q;   // the 32-bit lane of the host's word
  reg            hwr_q;     // the request is a write
  reg [AW-1:0]   hword_q;   // its RAM word
  reg [DW-1:0]   hwdata_q;  // its data in every lane
  reg [DataBytes-1:0] hwe_q;  // its byte enables (none for a read or outside the RAM)
  wire       host_wr_w   = h_awvalid_i && h_wvalid_i;
  wire       host_take_w = hst_q == HIdle && (host_wr_w || h_arvalid_i);
  wire       host_go_w   = hst_q == HReq && !wbeat_w;   // the request has the RAM port
  wire [27:0] h_off_w  = host_wr_w ? h_awaddr_i[27:0] : h_araddr_i[27:0];
  wire        h_in_w   = {4'b0000, h_off_w} < GmemBytes;

  assign h_awready_o = host_take_w && host_wr_w;
  assign h_wready_o  = host_take_w && host_wr_w;
  assign h_arready_o = host_take_w && !host_wr_w;
  assign h_bvalid_o  = hst_q == HB;
  assign h_rvalid_o  = hst_q == HROut;

  // ---- Read burst machine, an 8-entry R FIFO and the three beats in flight ----
  localparam [1:0] RIdle = 2'd0, ROff = 2'd1, RData = 2'd2, RDrain = 2'd3;
  reg [1:0]      rst_q;
  reg [3:0]      rid_q;
  reg [7:0]      rleft_q;
  reg [63:0]     raddr_q, roff_q;
  reg [DW+2:0]   rf_q [0:7];   // {last, resp, data}
  reg [3:0]      rf_cnt_q;
  reg [2:0]      rf_rd_q;
  reg            fl1_q, fl1_err_q, fl1_last_q, fl2_q, fl2_err_q, fl2_last_q;
  reg            fl3_q, fl3_err_q, fl3_last_q;
  wire           rin_w     = in_window(roff_q);
  wire           r_pop_w   = rf_cnt_q != 4'd0 && e_rready_i;
  wire           r_issue_w = rst_q == RData && !wbeat_w && !host_go_w &&
                             (rf_cnt_q + {3'b000, fl1_q} + {3'b000, fl2_q} +
                              {3'b000, fl3_q}) < 4'd8;
  wire [DW+2:0]  rf_head_w = rf_q[rf_rd_q];
  wire [2:0]     rf_wr_w   = rf_rd_q + rf_cnt_q[2:0];

  assign e_arready_o = rst_q == RIdle;
  assign e_rvalid_o  = rf_cnt_q != 4'd0;
  assign e_rdata_o   = rf_head_w[DW-1:0];
  assign e_rresp_o   = rf_head_w[DW+1:DW];
  assign e_rlast_o   = rf_head_w[DW+2];
  assign e_rid_o     = rid_q;

  // ---- The RAM port: a write beat, else a host access, else a read beat ----
  always @(*) begin
    ram_addr  = roff_q[AW+OffW-1:OffW];
    ram_we    = {DataBytes{1'b0}};
    ram_wdata = e_wdata_i;
    if (wbeat_w) begin
      ram_addr = woff_q[AW+OffW-1:OffW];
      if (win_w) ram_we = e_wstrb_i;
    end else if (host_go_w) begin
      ram_addr  = hword_q;
      ram_wdata = hwdata_q;
      ram_we    = hwe_q;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wst_q      <= WIdle;
      wid_q      <= 4'd0;
      waddr_q    <= 64'd0;
      woff_q     <= 64'd0;
      werr_q     <= 1'b0;
      hst_q      <= HIdle;
      hlane_q    <= {(OffW - 2){1'b0}};
      hwr_q      <= 1'b0;
      hword_q    <= {AW{1'b0}};
      hwdata_q   <= {DW{1'b0}};
      hwe_q      <= {DataBytes{1'b0}};
      h_bresp_o  <= 2'b00;
      h_rdata_o  <= 32'd0;
      h_rresp_o  <= 2'b00;
      rst_q      <= RIdle;
      rid_q      <= 4'd0;
      rleft_q    <= 8'd0;
      raddr_q    <= 64'd0;
      roff_q     <= 64'd0;
      rf_cnt_q   <= 4'd0;
      rf_rd_q    <= 3'd0;
      for (i = 0; i < 8; i = i + 1) rf_q[i] <= {(DW + 3){1'b0}};
      fl1_q      <= 1'b0;
      fl1_err_q  <= 1'b0;
      fl1_last_q <= 1'b0;
      fl2_q      <= 1'b0;
      fl2_err_q  <= 1'b0;
      fl2_last_q <= 1'b0;
      fl3_q      <= 1'b0;
      fl3_err_q  <= 1'b0;
      fl3_last_q <= 1'b0;
      bus_err_o  <= 1'b0;
    end else begin
      bus_err_o <= (wbeat_w && !win_w) || (r_issue_w && !rin_w);

      // Writes
      case (wst_q)
        WIdle: begin
          if (e_awvalid_i) begin
            wid_q   <= e_awid_i;
            waddr_q <= {e_awaddr_i[63:OffW], {OffW{1'b0}}};
            werr_q  <= 1'b0;
            wst_q   <= WOff;
          end
        end
        WOff: begin
          woff_q <= waddr_q - base_i;
          wst_q  <= WData;
        end
        WData: begin
          if (e_wvalid_i) begin
            woff_q <= woff_q + DataBytes;
            if (!win_w) werr_q <= 1'b1;
            if (e_wlast_i) wst_q <= WResp;
          end
        end
        default: if (e_bready_i) wst_q <= WIdle;
      endcase

      // Host accesses
      case (hst_q)
        HIdle: begin
          if (host_take_w) begin
            hlane_q  <= h_off_w[OffW-1:2];
            hwr_q    <= host_wr_w;
            hword_q  <= h_off_w[AW+OffW-1:OffW];
            hwdata_q <= {(DataBytes / 4){h_wdata_i}};
            hwe_q    <= host_wr_w && h_in_w ?
                        {{(DataBytes - 4){1'b0}}, h_wstrb_i} << (4 * h_off_w[OffW-1:2]) :
                        {DataBytes{1'b0}};
            if (host_wr_w) h_bresp_o <= h_in_w ? 2'b00 : 2'b10;
            else h_rresp_o <= h_in_w ? 2'b00 : 2'b10;
            hst_q <= HReq;
          end
        end
        HReq: if (host_go_w) hst_q <= hwr_q ? HB : HRd1;
        HRd1: hst_q <= HRd2;  // the address flop, the RAM's registered read, the data flop
        HRd2: hst_q <= HRd3;
        HRd3: begin
          h_rdata_o <= h_rresp_o == 2'b00 ? ram_out_w[32*hlane_q +: 32] : 32'd0;
          hst_q     <= HROut;
        end
        HROut: if (h_rready_i) hst_q <= HIdle;
        default: if (h_bready_i) hst_q <= HIdle;
      endcase

      // Reads: a beat issued three clocks ago enters the FIFO; the head leaves on rready.
      fl1_q      <= r_issue_w;
      fl1_err_q  <= !rin_w;
      fl1_last_q <= rleft_q == 8'd0;
      fl2_q      <= fl1_q;
      fl2_err_q  <= fl1_err_q;
      fl2_last_q <= fl1_last_q;
      fl3_q      <= fl2_q;
      fl3_err_q  <= fl2_err_q;
      fl3_last_q <= fl2_last_q;
      if (fl3_q) begin
        rf_q[rf_wr_w] <=
            {fl3_last_q, fl3_err_q ? 2'b10 : 2'b00, fl3_err_q ? {DW{1'b0}} : ram_out_w};
      end
      if (r_pop_w) rf_rd_q <= rf_rd_q + 1'b1;
      rf_cnt_q <= rf_cnt_q + {3'b000, fl3_q} - {3'b000, r_pop_w};
      case (rst_q)
        RIdle: begin
          if (e_arvalid_i) begin
            rid_q   <= e_arid_i;
            rleft_q <= e_arlen_i;
            raddr_q <= {e_araddr_i[63:OffW], {OffW{1'b0}}};
            rst_q   <= ROff;
          end
        end
        ROff: begin
          roff_q <= raddr_q - base_i;
          rst_q  <= RData;
        end
        RData: begin
          if (r_issue_w) begin
            roff_q  <= roff_q + DataBytes;
            rleft_q <= rleft_q - 1'b1;
            if (rleft_q == 8'd0) rst_q <= RDrain;
          end
        end
        default: if (rf_cnt_q == 4'd0 && !fl1_q && !fl2_q && !fl3_q) rst_q <= RIdle;
      endcase
    end
  end

  wire unused_w = &{1'b0, h_awaddr_i[31:28], h_araddr_i[31:28], e_araddr_i[OffW-1:0],
                    e_awaddr_i[OffW-1:0], h_off_w[1:0], e_awlen_i};

endmodule

`default_nettype wire
