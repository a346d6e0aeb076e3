// SPDX-License-Identifier: Apache-2.0
//
// tma_wr_red: the write data of the store direction, through the reduction ALU. Per row (in
// row order, from tma_wr_fork) it takes the row's global beats from tma_wr_align (the new
// data, with the write's strobes) and, for a reduction row, as many beats of the row's global
// bytes read back (the old data, AXI ID AxiIdRed, same addresses), and hands each beat to
// tma_red_alu: a reduction beat is reduced where its strobes are set (read-modify-write), a
// store beat passes (old = new, mask 0: the ALU returns it unchanged), so stores and
// reductions leave in order at the ALU's latency. The strobes and a read-error flag travel as
// the ALU's user bits. A reduction row done at the memory (AXI5 AtomicStore, tma_wr_fork's
// AtomicReduce) arrives as a store row (red = 0: no old data, the ALU passes it); for the CLR
// form of and (inv) its data goes out inverted (mem & ~~s).
//
// Atomicity: the engine reads, reduces and writes back; nothing stops another manager from
// writing between the read and the write. tma_wr_fork starts a reduction only when the store
// direction is empty, so it is atomic against the engine's own earlier stores and reductions,
// not against other writers (docs/differences.md).
//
// Streams: rows in (wr_red_t), new beats in (data + strobes), old beats in (data + error),
// write beats out (data + strobes + error).

`default_nettype none

`include "tma_assert.svh"

module tma_wr_red #(
  parameter  int unsigned DataBytes = 16,
  localparam int unsigned DW        = DataBytes * 8
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Rows (from tma_wr_fork)
  input  logic                  row_valid_i,
  output logic                  row_ready_o,
  input  tma_pkg::wr_red_t      row_i,
  // New data: the row's global beats (from tma_wr_align)
  input  logic                  new_valid_i,
  output logic                  new_ready_o,
  input  logic [DW-1:0]         new_data_i,
  input  logic [DataBytes-1:0]  new_strb_i,
  // Old data: the reduction row's global beats read back (from tma_rd_engine, ID AxiIdRed)
  input  logic                  old_valid_i,
  output logic                  old_ready_o,
  input  logic [DW-1:0]         old_data_i,
  input  logic                  old_err_i,
  // Write beats (to tma_wr_engine)
  output logic                  out_valid_o,
  input  logic                  out_ready_i,
  output logic [DW-1:0]         out_data_o,
  output logic [DataBytes-1:0]  out_strb_o,
  output logic                  out_err_o,
  // Status
  output logic                  busy_o
);

  localparam int unsigned CntW = tma_pkg::BeatCntW;

  logic                             active_q, red_q;
  logic [tma_pkg::RedBits-1:0]      redop_q;
  logic [tma_pkg::ElemCodeBits-1:0] elem_q;
  logic [CntW-1:0]                  left_q;
  logic                             inv_q;       // AtomicStore CLR: the data goes out inverted
  logic [DW-1:0]                    pass_data;   // a store row's data through the ALU
  logic                             bmask_en_q;  // the row's byte mask (a bulk .cp_mask)
  logic [15:0]                      bmask_q;
  logic [DataBytes-1:0]             new_strb;    // the new beat's strobes under the mask
  logic                             alu_valid, alu_ready, alu_fire, row_done;

  assign new_strb    = new_strb_i & (bmask_en_q ? {(DataBytes / 16){bmask_q}} : '1);
  assign pass_data   = inv_q ? ~new_data_i : new_data_i;

  assign alu_valid   = active_q && new_valid_i && (!red_q || old_valid_i);
  assign alu_fire    = alu_valid && alu_ready;
  assign row_done    = alu_fire && left_q == CntW'(1);
  assign row_ready_o = !active_q || row_done;
  assign new_ready_o = active_q && alu_ready && (!red_q || old_valid_i);
  assign old_ready_o = active_q && red_q && alu_ready && new_valid_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_row
    if (!rst_ni) begin
      active_q <= 1'b0;
      red_q    <= 1'b0;
      redop_q  <= '0;
      elem_q   <= '0;
      left_q   <= '0;
      inv_q    <= 1'b0;
      bmask_en_q <= 1'b0;
      bmask_q    <= '0;
    end else if (row_valid_i && row_ready_o) begin
      active_q <= 1'b1;
      red_q    <= row_i.red;
      redop_q  <= row_i.redop;
      elem_q   <= row_i.elem;
      left_q   <= row_i.nbeats;
      inv_q    <= row_i.inv;
      bmask_en_q <= row_i.bmask_en;
      bmask_q    <= row_i.bmask;
    end else if (alu_fire) begin
      active_q <= !row_done;
      left_q   <= left_q - 1'b1;
    end
  end

  logic [DataBytes-1:0] unused_mask;
  logic                 alu_busy;

  tma_red_alu #(
    .DataBytes (DataBytes),
    .UserWidth (DataBytes + 1)
  ) u_alu (
    .clk_i,
    .rst_ni,
    .in_valid_i  (alu_valid),
    .in_ready_o  (alu_ready),
    .in_redop_i  (redop_q),
    .in_elem_i   (elem_q),
    .in_old_i    (red_q ? old_data_i : pass_data),
    .in_new_i    (new_data_i),
    .in_mask_i   (red_q ? new_strb : '0),
    .in_user_i   ({new_strb, red_q && old_err_i}),
    .out_valid_o (out_valid_o),
    .out_ready_i (out_ready_i),
    .out_data_o  (out_data_o),
    .out_mask_o  (unused_mask),
    .out_user_o  ({out_strb_o, out_err_o}),
    .busy_o      (alu_busy)
  );

  assign busy_o = active_q || alu_busy;

  logic unused_bits;
  assign unused_bits = ^unused_mask;

  // ---- Assertions ----
  `TMA_ASSERT_INIT(WrRedWidth_A, tma_pkg::WrRedWidth == $bits(tma_pkg::wr_red_t))
  `TMA_ASSERT_IMPLY(RowBeats_A, row_valid_i, row_i.nbeats != '0)
  // Old data comes only for a reduction row.
  `TMA_ASSERT_IMPLY(OldForRed_A, old_valid_i && old_ready_o, red_q)
  `TMA_ASSERT_IMPLY(InvNotRed_A, row_valid_i && row_i.inv, !row_i.red)

endmodule

`default_nettype wire
