// SPDX-License-Identifier: Apache-2.0
//
// tma_wr_align: realigns each store row from its shared-memory beats to its global beats, with
// the byte strobes of the write. Row byte b sits at position x = b + s of the row's shared
// beats (s: shared address of row byte 0 mod DataBytes) and at y = b + g of its global beats
// (g: the same for the global address); s and g are multiples of 16. Global beat j (y in
// [j DataBytes, (j + 1) DataBytes)) is a window of the pair {shared beat j + a, shared beat
// j + a - 1} (a = 1 when s > g, else 0) starting u = (a ? 0 : DataBytes) + s - g bytes into
// the lower one. So when s > g and the row spans two or more shared beats, the row's first
// shared beat is taken ahead (one cycle per such row; never at DataBytes 16, where
// s = g = 0). A row with s > g in one shared beat (a narrow row at an odd offset of a wide
// beat, e.g. the 32-byte rows of a 32B-swizzled box at DataBytes 64) has one global beat, the
// window of its one shared beat starting s - g bytes in: that beat is taken with the output
// beat (the window selects above the pair, u = DataBytes + s - g), no cycle ahead. Otherwise
// each output beat takes at most one shared beat: one output beat per cycle, rows back to
// back. Strobes: y in [g, g + len).
// A row's shared beats beyond its last (the pair's upper beat after the row's end) are never
// taken: their bytes are beyond the row.
//
// Streams: row realignments in (wr_al_t, through an input spill register: the fork's queue
// multiplexer and the row's geometry arithmetic are in different cycles), logical shared beats
// in (data), global write beats out (data + strobes), through an output spill register.

`default_nettype none

`include "tma_assert.svh"

module tma_wr_align #(
  parameter  int unsigned DataBytes = 16,   // 16, 32, 64 or 128
  localparam int unsigned DW        = DataBytes * 8,
  localparam int unsigned SizeLog2  = $clog2(DataBytes),
  localparam int unsigned Groups    = DataBytes / 16
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Row realignments (from tma_wr_fork)
  input  logic                  row_valid_i,
  output logic                  row_ready_o,
  input  tma_pkg::wr_al_t       row_i,
  // Logical shared-memory beats (from tma_smem_rd)
  input  logic                  beat_valid_i,
  output logic                  beat_ready_o,
  input  logic [DW-1:0]         beat_data_i,
  // Global write beats (to tma_wr_engine)
  output logic                  out_valid_o,
  input  logic                  out_ready_i,
  output logic [DW-1:0]         out_data_o,
  output logic [DataBytes-1:0]  out_strb_o,
  // Status
  output logic                  busy_o
);

  localparam int unsigned RbW  = tma_pkg::RowBytesW;
  localparam int unsigned CntW = tma_pkg::BeatCntW;

  // ---- Input spill register of the row realignments ----
  logic            row_valid, row_ready;
  tma_pkg::wr_al_t row;

  tma_spill_reg #(
    .Width  (tma_pkg::WrAlWidth),
    .Bypass (0)
  ) u_row (
    .clk_i,
    .rst_ni,
    .in_valid_i  (row_valid_i),
    .in_ready_o  (row_ready_o),
    .in_data_i   (row_i),
    .out_valid_o (row_valid),
    .out_ready_i (row_ready),
    .out_data_o  (row)
  );

  // ---- Row state ----
  logic            active_q;
  logic            pre_q;         // the row's first shared beat is still to be taken ahead
  logic            first_q;       // the next output beat is the row's first
  logic [CntW-1:0] out_left_q;    // output beats left, >= 1 while active
  logic [CntW-1:0] in_left_q;     // shared beats not yet taken
  logic [3:0]      u16_q;         // window start in 16-byte groups, 0 .. 2 Groups - 1
  logic [SizeLog2-1:0] g_q;       // first valid byte of the first beat
  logic [SizeLog2-1:0] e_q;       // last valid byte of the last beat: (g + len - 1) mod DB
  logic [DW-1:0]   prev_q;        // the pair's lower shared beat
  logic            in_nz_q;       // in_left_q != 0
  logic            out_one_q;     // out_left_q == 1: the row's last output beat

  // The new row's geometry
  logic [RbW:0]        s_end, g_end;   // s + len + DB - 1, g + len + DB - 1
  logic [SizeLog2-1:0] s_b, g_b;
  logic                ahead;          // s > g
  logic                one_in;         // the row has one shared beat
  logic [3:0]          u16_d;

  assign s_b   = SizeLog2'({row.s16, 4'd0});
  assign g_b   = SizeLog2'({row.g16, 4'd0});
  assign s_end = (RbW + 1)'(s_b) + (RbW + 1)'(row.len) + (RbW + 1)'(DataBytes - 1);
  assign g_end = (RbW + 1)'(g_b) + (RbW + 1)'(row.len) + (RbW + 1)'(DataBytes - 1);
  assign ahead  = row.s16 > row.g16;
  assign one_in = (s_end >> SizeLog2) == (RbW + 1)'(1);
  // s > g: the window starts s - g into the lower beat (shared beat j, taken ahead), or, for
  // a row of one shared beat, s - g into the upper beat (that beat, taken with the output).
  assign u16_d  = (ahead && !one_in) ? 4'(row.s16 - row.g16) :
                  4'(Groups) + 4'(row.s16) - 4'(row.g16);

  // ---- Output beat ----
  logic            need_in;       // this output beat takes a shared beat
  logic            take_pre;      // the row's first shared beat is taken ahead now
  logic            out_valid, out_ready, out_fire, row_done;
  logic [3*DW-1:0] pair;         // {zeros, shared beat j + a, shared beat j + a - 1}
  logic [DW-1:0]   cur, shifted;
  logic [DataBytes-1:0] strb;

  assign need_in   = in_nz_q;
  assign take_pre  = active_q && pre_q && beat_valid_i;
  assign out_valid = active_q && !pre_q && (!need_in || beat_valid_i);
  assign out_fire  = out_valid && out_ready;
  assign row_done  = out_fire && out_one_q;
  assign row_ready    = !active_q || row_done;
  assign beat_ready_o = take_pre || (out_fire && need_in);
  assign cur       = need_in ? beat_data_i : '0;
  assign pair      = {{DW{1'b0}}, cur, prev_q};

  always_comb begin : proc_shift
    shifted = pair[DW-1:0];
    for (int unsigned k = 0; k < 2 * Groups; k++) begin
      if (u16_q == 4'(k)) shifted = pair[k*128 +: DW];
    end
    for (int unsigned b = 0; b < DataBytes; b++) begin
      strb[b] = (!first_q || SizeLog2'(b) >= g_q) &&
                (!out_one_q || SizeLog2'(b) <= e_q);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_state
    if (!rst_ni) begin
      active_q   <= 1'b0;
      pre_q      <= 1'b0;
      first_q    <= 1'b0;
      out_left_q <= '0;
      in_left_q  <= '0;
      u16_q      <= '0;
      g_q        <= '0;
      e_q        <= '0;
      in_nz_q    <= 1'b0;
      out_one_q  <= 1'b0;
    end else begin
      if (row_valid && row_ready) begin
        active_q   <= 1'b1;
        pre_q      <= ahead && !one_in;
        first_q    <= 1'b1;
        out_left_q <= CntW'(g_end >> SizeLog2);
        in_left_q  <= CntW'(s_end >> SizeLog2);
        in_nz_q    <= CntW'(s_end >> SizeLog2) != '0;
        out_one_q  <= CntW'(g_end >> SizeLog2) == CntW'(1);
        u16_q      <= u16_d;
        g_q        <= g_b;
        e_q        <= SizeLog2'(g_end);   // (g + len - 1) mod DB (g_end is that + DB)
      end else begin
        if (row_done) active_q <= 1'b0;
        if (take_pre) begin
          pre_q     <= 1'b0;
          in_left_q <= in_left_q - 1'b1;
          in_nz_q   <= in_left_q != CntW'(1);
        end
        if (out_fire) begin
          first_q    <= 1'b0;
          out_left_q <= out_left_q - 1'b1;
          out_one_q  <= out_left_q == CntW'(2);
          if (need_in) begin
            in_left_q <= in_left_q - 1'b1;
            in_nz_q   <= in_left_q != CntW'(1);
          end
        end
      end
    end
  end

  // The pair's lower beat: every shared beat taken (ahead or with an output beat), and the
  // zeros of an output beat that takes none. Its enable does not wait for a new row's take:
  // a row's first output beat reads prev_q only where its strobes are off (window bytes below
  // g - s), or after a beat taken ahead.
  always_ff @(posedge clk_i) begin : proc_prev
    if (take_pre || out_fire) begin
      prev_q <= cur;
    end
  end

  // ---- Output spill register ----
  logic out_reg_valid;

  tma_spill_reg #(
    .Width  (DW + DataBytes),
    .Bypass (0)
  ) u_out (
    .clk_i,
    .rst_ni,
    .in_valid_i  (out_valid),
    .in_ready_o  (out_ready),
    .in_data_i   ({shifted, strb}),
    .out_valid_o (out_reg_valid),
    .out_ready_i (out_ready_i),
    .out_data_o  ({out_data_o, out_strb_o})
  );
  assign out_valid_o = out_reg_valid;

  assign busy_o = active_q || out_reg_valid || row_valid;

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_INIT(WrAlWidth_A, tma_pkg::WrAlWidth == $bits(tma_pkg::wr_al_t))
  `TMA_ASSERT_IMPLY(RowLen_A, row_valid, row.len != '0)
  `TMA_ASSERT_IMPLY(RowGroups_A, row_valid, 32'(row.s16) < Groups && 32'(row.g16) < Groups)
  // A beat is taken only for an active row (no stray shared beats between rows).
  `TMA_ASSERT_IMPLY(BeatForRow_A, beat_valid_i && beat_ready_o, active_q)
  `TMA_ASSERT_COPY(InNzCopy_A, in_nz_q, in_left_q != '0)
  `TMA_ASSERT_COPY(OutOneCopy_A, out_one_q, out_left_q == CntW'(1))
  // Every shared beat of a row is taken before its last output beat leaves.
  `TMA_ASSERT_IMPLY(RowInTaken_A, row_done, in_left_q <= CntW'(1))
  `TMA_ASSERT_IMPLY(OutStrobes_A, out_valid_o, out_strb_o != '0)
  `TMA_ASSERT_STABLE(OutHeld_A, out_valid_o, out_ready_i, {out_data_o, out_strb_o})

endmodule

`default_nettype wire
