// SPDX-License-Identifier: Apache-2.0
//
// board_gmem: the board's global memory, GmemBytes of block RAM (one port, DataBytes wide, byte
// enables, registered read) shared by two subordinate ports:
//   * the engine's AXI4 port (INCR bursts of the bus width, IDs returned, one beat per cycle);
//     the engine address A is RAM byte A - base_i; a beat with a byte at or past limit_i (or
//     below base_i) is answered SLVERR, reads it as zero and writes nothing (the window the
//     host sets per case: as the golden replay's flat buffer, outside is a bus error);
//   * the host's AXI4-Lite port (32-bit): RAM byte (address mod 2^28), SLVERR past GmemBytes.
// One transaction at a time: a host access, an engine read burst or an engine write burst; the
// host goes first when both wait (its accesses are single words and rare).

`default_nettype none

module board_gmem #(
  parameter DataBytes = 16,
  parameter GmemBytes = 262144   // power of two
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

  localparam [3:0] SIdle = 4'd0, SHostRd = 4'd1, SHostRdOut = 4'd2, SHostB = 4'd3,
                   SEOff = 4'd4, SERd = 4'd5, SEWr = 4'd6, SEnd = 4'd7;

  // ---- The RAM ----
  reg  [DW-1:0]        mem [0:Words-1];
  reg  [DW-1:0]        ram_rdata_q;
  reg  [AW-1:0]        ram_addr;
  reg  [DataBytes-1:0] ram_we;
  reg  [DW-1:0]        ram_wdata;
  integer              i;

  always @(posedge clk_i) begin
    for (i = 0; i < DataBytes; i = i + 1) begin
      if (ram_we[i]) mem[ram_addr][8*i +: 8] <= ram_wdata[8*i +: 8];
    end
    ram_rdata_q <= mem[ram_addr];
  end

  // ---- Transaction state ----
  reg [3:0]  state_q;
  reg        is_wr_q;      // the engine burst is a write
  reg [3:0]  id_q;
  reg [7:0]  left_q;       // beats left to issue (read) / accept (write), minus one
  reg [63:0] addr_q;       // engine burst start (bus-width aligned)
  reg [63:0] off_q;        // RAM byte offset of the next beat
  reg        werr_q;       // a write beat of the burst was out of the window
  reg [31:0] haddr_q;

  wire host_wr_w = h_awvalid_i && h_wvalid_i;
  wire host_rd_w = h_arvalid_i;
  wire idle_w    = state_q == SIdle;
  wire host_go_w = idle_w && (host_wr_w || host_rd_w);
  wire ear_go_w  = idle_w && !host_go_w && e_arvalid_i;
  wire eaw_go_w  = idle_w && !host_go_w && !e_arvalid_i && e_awvalid_i;

  assign h_awready_o = host_go_w && host_wr_w;
  assign h_wready_o  = host_go_w && host_wr_w;
  assign h_arready_o = host_go_w && !host_wr_w;
  assign h_bvalid_o  = state_q == SHostB;
  assign h_rvalid_o  = state_q == SHostRdOut;
  assign e_arready_o = ear_go_w;
  assign e_awready_o = eaw_go_w;

  wire [27:0]    h_off_w  = host_wr_w ? h_awaddr_i[27:0] : h_araddr_i[27:0];
  wire           h_in_w   = h_off_w < GmemBytes;
  wire [AW-1:0]  h_word_w = h_off_w[AW+OffW-1:OffW];
  // The beat [off_q, off_q + DataBytes) inside the window and the RAM (off_q is unsigned: an
  // address below base_i wraps to a huge offset).
  wire [32:0]    beat_end_w = {1'b0, off_q[31:0]} + DataBytes;
  wire           beat_in_w  = off_q[63:32] == 32'd0 && beat_end_w <= {1'b0, limit_i} &&
                              beat_end_w <= GmemBytes;

  // ---- Read data FIFO (2 entries) and the read in flight ----
  reg [DW+3-1:0] rf_q [0:1];   // {last, resp, data}
  reg [1:0]      rf_cnt_q;
  reg            rf_rd_q;      // head entry index
  reg            fl_q, fl_err_q, fl_last_q;
  wire           r_pop_w   = rf_cnt_q != 2'd0 && e_rready_i;
  wire           r_issue_w = state_q == SERd && ({1'b0, rf_cnt_q} + {2'b00, fl_q}) < 3'd2;
  wire [DW+2:0]  rf_head_w = rf_q[rf_rd_q];

  assign e_rvalid_o = rf_cnt_q != 2'd0;
  assign e_rdata_o  = rf_head_w[DW-1:0];
  assign e_rresp_o  = rf_head_w[DW+1:DW];
  assign e_rlast_o  = rf_head_w[DW+2];
  assign e_rid_o    = id_q;
  assign e_wready_o = state_q == SEWr;
  assign e_bvalid_o = state_q == SEnd && is_wr_q;
  assign e_bid_o    = id_q;
  assign e_bresp_o  = werr_q ? 2'b10 : 2'b00;

  // RAM port: the host access, an engine read beat or an engine write beat.
  always @(*) begin
    ram_addr  = off_q[AW+OffW-1:OffW];
    ram_we    = {DataBytes{1'b0}};
    ram_wdata = e_wdata_i;
    if (host_go_w) begin
      ram_addr  = h_word_w;
      ram_wdata = {(DataBytes / 4){h_wdata_i}};
      if (host_wr_w && h_in_w) begin
        ram_we = {{(DataBytes - 4){1'b0}}, h_wstrb_i} << (4 * h_off_w[OffW-1:2]);
      end
    end else if (state_q == SEWr && e_wvalid_i && beat_in_w) begin
      ram_we = e_wstrb_i;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= SIdle;
      is_wr_q   <= 1'b0;
      id_q      <= 4'd0;
      left_q    <= 8'd0;
      addr_q    <= 64'd0;
      off_q     <= 64'd0;
      werr_q    <= 1'b0;
      haddr_q   <= 32'd0;
      h_bresp_o <= 2'b00;
      h_rdata_o <= 32'd0;
      h_rresp_o <= 2'b00;
      rf_cnt_q  <= 2'd0;
      rf_rd_q   <= 1'b0;
      rf_q[0]   <= {(DW + 3){1'b0}};
      rf_q[1]   <= {(DW + 3){1'b0}};
      fl_q      <= 1'b0;
      fl_err_q  <= 1'b0;
      fl_last_q <= 1'b0;
      bus_err_o <= 1'b0;
    end else begin
      bus_err_o <= 1'b0;
      // Read data: the beat read last cycle enters the FIFO; the head leaves on rready.
      fl_q <= r_issue_w;
      if (r_issue_w) begin
        fl_err_q  <= !beat_in_w;
        fl_last_q <= left_q == 8'd0;
        bus_err_o <= !beat_in_w;
      end
      if (fl_q) begin
        rf_q[rf_rd_q ^ rf_cnt_q[0]] <=
            {fl_last_q, fl_err_q ? 2'b10 : 2'b00, fl_err_q ? {DW{1'b0}} : ram_rdata_q};
      end
      if (r_pop_w) rf_rd_q <= !rf_rd_q;
      rf_cnt_q <= rf_cnt_q + fl_q - r_pop_w;

      case (state_q)
        SIdle: begin
          if (host_go_w) begin
            haddr_q <= {4'd0, h_off_w};
            if (host_wr_w) begin
              h_bresp_o <= h_in_w ? 2'b00 : 2'b10;
              state_q   <= SHostB;
            end else begin
              h_rresp_o <= h_in_w ? 2'b00 : 2'b10;
              state_q   <= SHostRd;
            end
          end else if (ear_go_w) begin
            is_wr_q <= 1'b0;
            id_q    <= e_arid_i;
            left_q  <= e_arlen_i;
            addr_q  <= {e_araddr_i[63:OffW], {OffW{1'b0}}};
            state_q <= SEOff;
          end else if (eaw_go_w) begin
            is_wr_q <= 1'b1;
            id_q    <= e_awid_i;
            left_q  <= e_awlen_i;
            addr_q  <= {e_awaddr_i[63:OffW], {OffW{1'b0}}};
            werr_q  <= 1'b0;
            state_q <= SEOff;
          end
        end
        SHostRd: begin  // the RAM's registered read of the word
          h_rdata_o <= h_rresp_o == 2'b00 ? ram_rdata_q[32*haddr_q[OffW-1:2] +: 32] : 32'd0;
          state_q   <= SHostRdOut;
        end
        SHostRdOut: if (h_rready_i) state_q <= SIdle;
        SHostB: if (h_bready_i) state_q <= SIdle;
        SEOff: begin
          off_q   <= addr_q - base_i;
          state_q <= is_wr_q ? SEWr : SERd;
        end
        SERd: begin
          if (r_issue_w) begin
            off_q  <= off_q + DataBytes;
            left_q <= left_q - 1'b1;
            if (left_q == 8'd0) state_q <= SEnd;  // waits for the FIFO to drain (below)
          end
        end
        SEWr: begin
          if (e_wvalid_i) begin
            off_q  <= off_q + DataBytes;
            if (!beat_in_w) begin
              werr_q    <= 1'b1;
              bus_err_o <= 1'b1;
            end
            if (e_wlast_i) state_q <= SEnd;
          end
        end
        SEnd: begin
          // A write burst ends with its B; a read burst (no B) when its last beat has left.
          if (is_wr_q ? e_bready_i : (rf_cnt_q == 2'd0 && !fl_q)) state_q <= SIdle;
        end
        default: state_q <= SIdle;
      endcase
    end
  end

  wire unused_w = &{1'b0, haddr_q[31:OffW], haddr_q[1:0], e_araddr_i[OffW-1:0], e_awaddr_i[OffW-1:0], h_awaddr_i[31:28], h_araddr_i[31:28]};

endmodule

`default_nettype wire
