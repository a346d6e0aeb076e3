// SPDX-License-Identifier: Apache-2.0
//
// tma_desc_decode: decodes the 16-byte chunks of a fetched map, as their beats arrive, into
// the map's fields (tma_pkg::desc_fields_t) and the fields only its checks read
// (tma_pkg::desc_chk_fields_t), and flags any reserved bit that is set.
//
// Chunk k's fields load in every cycle that waits for its beat (chunk_wait_i, kept copies from
// the fetch, one per half of the chunk's fields), not only with the beat's valid, so r_valid_i
// does not reach the enables: until the beat arrives they hold don't-care data, which the beat
// overwrites (the fetch's beat index advances only with it, and nothing reads the fields
// before the fetch ends). The reserved-bit test is one registered flag per 32-bit quarter of
// each chunk; the sticky flag takes their OR a cycle later, so the wide OR of a beat and the
// sticky flag's update are in different cycles (the check reads it from its cycle 1, two
// cycles after the last beat). The outputs hold until the next fetch starts.

`default_nettype none

`include "tma_assert.svh"

module tma_desc_decode #(
  parameter  int unsigned DataBytes = 16,
  localparam int unsigned SizeLog2  = $clog2(DataBytes),
  localparam int unsigned NumChunks = DataBytes / 16
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic                       start_i,       // a fetch starts (clears the sticky flag)
  input  logic                       fetching_i,
  // Beats from the fetch
  input  logic                       r_valid_i,
  input  logic [DataBytes*8-1:0]     r_data_i,
  input  logic [3:0]                 beat_idx_i,
  input  logic [2:0]                 chunk_off_i,
  input  logic [7:0]                 chunk_wait_i,
  // The map
  output tma_pkg::desc_fields_t      fields_o,
  output tma_pkg::desc_chk_fields_t  chk_o
);

  localparam int unsigned ChunkLog2 = SizeLog2 - 4;

  // The map as it sits in this beat: chunk k is chunk (k + chunk_off) % NumChunks of the beat.
  logic [tma_pkg::DescBytes*8-1:0] desc;
  logic [7:0]                      in_beat;   // chunk k is in the beat awaited
  for (genvar k = 0; k < 8; k++) begin : gen_chunk
    logic [3:0] kpos, kch;
    assign kpos               = 4'(k) + {1'b0, chunk_off_i};
    assign kch                = kpos & 4'(NumChunks - 1);
    assign desc[128*k +: 128] = r_data_i[32'(kch) * 128 +: 128];
    assign in_beat[k]         = (kpos >> ChunkLog2) == beat_idx_i;
  end

  // Reserved (must-be-zero) bits of the map (docs/descriptor.md): every bit outside the fields.
  function automatic logic [1023:0] rsv_mask();
    rsv_mask = '1;
    rsv_mask[tma_pkg::DescAddressLsb +: tma_pkg::DescAddressW]             = '0;
    rsv_mask[tma_pkg::DescModeLsb]                                   = 1'b0;
    rsv_mask[tma_pkg::DescRankLsb +: tma_pkg::DescRankW]             = '0;
    rsv_mask[tma_pkg::DescTypeLsb +: tma_pkg::DescTypeW]             = '0;
    rsv_mask[tma_pkg::DescInterleaveLsb +: tma_pkg::DescInterleaveW]                 = '0;
    rsv_mask[tma_pkg::DescSwizzleSpanLsb +: tma_pkg::DescSwizzleSpanW]             = '0;
    rsv_mask[tma_pkg::DescOobFillLsb]                                   = 1'b0;
    rsv_mask[tma_pkg::DescTf32Lsb]                                   = 1'b0;
    rsv_mask[tma_pkg::DescL2PromotionLsb +: tma_pkg::DescL2PromotionW]                 = '0;
    rsv_mask[tma_pkg::DescSwizzleAtomLsb +: tma_pkg::DescSwizzleAtomW]             = '0;
    rsv_mask[tma_pkg::DescIm2colWideLsb]                                   = 1'b0;
    rsv_mask[tma_pkg::DescWideModeLsb]                                     = 1'b0;
    rsv_mask[tma_pkg::DescSwizzle96BLsb]                                  = 1'b0;
    rsv_mask[tma_pkg::DescStrideLoLsb +: 4 * tma_pkg::DescStrideLoW] = '0;
    rsv_mask[tma_pkg::DescStrideHiLsb +: 4 * tma_pkg::DescStrideHiW] = '0;
    rsv_mask[tma_pkg::DescDimLsb +: 5 * tma_pkg::DescDimW]           = '0;
    rsv_mask[tma_pkg::DescElemStrideLsb +: 5 * tma_pkg::DescElemStrideW]             = '0;
    rsv_mask[tma_pkg::DescBox0Lsb +: tma_pkg::DescBox1W]              = '0;
    rsv_mask[tma_pkg::DescBox1Lsb +: (tma_pkg::DescBox1W * tma_pkg::DescBox1N)]             = '0;
    rsv_mask[tma_pkg::DescPixelsPerColumnLsb +: tma_pkg::DescPixelsPerColumnW]               = '0;
    rsv_mask[tma_pkg::DescBoxBytesLsb +: tma_pkg::DescBoxBytesW]     = '0;
    rsv_mask[tma_pkg::DescSwizzleRepeatLsb +: tma_pkg::DescSwizzleRepeatW]   = '0;
  endfunction

  tma_pkg::desc_fields_t     fields_d, fields_q;
  tma_pkg::desc_chk_fields_t chk_d, chk_q;
  logic [31:0]               rsv_d, rsv_q;   // bit 4 k + quarter: set in chunk k's quarter

  // Chunk k's fields, half h, load while its beat is awaited.
  function automatic logic wait_for(input logic [7:0] w, input int k, input int h);
    wait_for = w[2 * k + h];
  endfunction

  always_comb begin : proc_fields
    logic [1023:0] rsv;
    fields_d = fields_q;
    rsv      = desc & rsv_mask();
    if (wait_for(chunk_wait_i, 0, 0)) fields_d.addr = desc[tma_pkg::DescAddressLsb +: 64];
    if (wait_for(chunk_wait_i, 0, 1)) begin
      fields_d.im2col   = desc[tma_pkg::DescModeLsb];
      fields_d.rank_m1  = desc[tma_pkg::DescRankLsb +: tma_pkg::DescRankW];
      fields_d.dtype    = desc[tma_pkg::DescTypeLsb +: tma_pkg::DescTypeW];
      fields_d.il       = desc[tma_pkg::DescInterleaveLsb +: tma_pkg::DescInterleaveW];
      fields_d.fill_nan = desc[tma_pkg::DescOobFillLsb];
      fields_d.tf32     = desc[tma_pkg::DescTf32Lsb];
      if (desc[tma_pkg::DescSwizzle96BLsb]) begin
        fields_d.swz = tma_pkg::Swz96B;
      end else if (desc[tma_pkg::DescSwizzleSpanLsb +: 2] == tma_pkg::SwzSpan128B) begin
        fields_d.swz = tma_pkg::Swz128B + 3'(desc[tma_pkg::DescSwizzleAtomLsb +: 2]);
      end else begin
        fields_d.swz = {1'b0, desc[tma_pkg::DescSwizzleSpanLsb +: 2]};
      end
      fields_d.stride[0][31:0] = desc[tma_pkg::DescStrideLoLsb +: 32];
    end
    if (wait_for(chunk_wait_i, 1, 0)) begin
      for (int i = 1; i < 3; i++) begin
        fields_d.stride[i][31:0] = desc[tma_pkg::DescStrideLoLsb + 32 * i +: 32];
      end
    end
    if (wait_for(chunk_wait_i, 1, 1)) begin
      fields_d.stride[3][31:0] = desc[tma_pkg::DescStrideLoLsb + 32 * 3 +: 32];
      for (int i = 0; i < 4; i++) begin
        fields_d.stride[i][35:32] = desc[tma_pkg::DescStrideHiLsb + 4 * i +: 4];
      end
    end
    if (wait_for(chunk_wait_i, 2, 0)) begin
      for (int i = 0; i < 2; i++) fields_d.dim_m1[i] = desc[tma_pkg::DescDimLsb + 32 * i +: 32];
    end
    if (wait_for(chunk_wait_i, 2, 1)) begin
      for (int i = 2; i < 4; i++) fields_d.dim_m1[i] = desc[tma_pkg::DescDimLsb + 32 * i +: 32];
    end
    if (wait_for(chunk_wait_i, 3, 0)) begin
      fields_d.dim_m1[4] = desc[tma_pkg::DescDimLsb + 32 * 4 +: 32];
      for (int i = 0; i < 5; i++) fields_d.es_m1[i] = desc[tma_pkg::DescElemStrideLsb + 3 * i +: 3];
    end
    if (wait_for(chunk_wait_i, 3, 1)) begin
      fields_d.box0_m1 = desc[tma_pkg::DescBox0Lsb +: tma_pkg::DescBox1W];
      fields_d.box_hi  = desc[tma_pkg::DescBox1Lsb +: (tma_pkg::DescBox1W * tma_pkg::DescBox1N)];
      fields_d.ppc_m1  = desc[tma_pkg::DescPixelsPerColumnLsb +: tma_pkg::DescPixelsPerColumnW];
    end
    // The check-only fields load while their chunk's beat is awaited (as above); the reserved
    // flags take valid beats only.
    chk_d     = chk_q;
    chk_d.rsv = chk_q.rsv || (rsv_q != '0);
    rsv_d     = '0;
    if (fetching_i) begin
      if (in_beat[tma_pkg::DescSwizzleSpanLsb / 128]) begin
        chk_d.span  = desc[tma_pkg::DescSwizzleSpanLsb +: tma_pkg::DescSwizzleSpanW];
        chk_d.atom  = desc[tma_pkg::DescSwizzleAtomLsb +: tma_pkg::DescSwizzleAtomW];
        chk_d.wide  = desc[tma_pkg::DescIm2colWideLsb];
        chk_d.wide_mode = desc[tma_pkg::DescWideModeLsb];
        chk_d.swz96 = desc[tma_pkg::DescSwizzle96BLsb];
      end
      if (in_beat[tma_pkg::DescBoxBytesLsb / 128]) begin
        chk_d.box_bytes  = desc[tma_pkg::DescBoxBytesLsb +: tma_pkg::DescBoxBytesW];
        chk_d.swz_repeat = desc[tma_pkg::DescSwizzleRepeatLsb +: tma_pkg::DescSwizzleRepeatW];
      end
      for (int k = 0; k < 8; k++) begin
        for (int q = 0; q < 4; q++) begin
          rsv_d[4 * k + q] = in_beat[k] && r_valid_i && (rsv[128 * k + 32 * q +: 32] != '0);
        end
      end
    end
    if (start_i) chk_d.rsv = 1'b0;
  end

  assign fields_o = fields_q;
  assign chk_o    = chk_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_regs
    if (!rst_ni) begin
      fields_q <= '0;
      chk_q    <= '0;
      rsv_q    <= '0;
    end else begin
      fields_q <= fields_d;
      chk_q    <= chk_d;
      rsv_q    <= rsv_d;
    end
  end

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DescFieldsWidth_A,
                   tma_pkg::DescFieldsWidth == $bits(tma_pkg::desc_fields_t))
  `TMA_ASSERT_INIT(DescChkFieldsWidth_A,
                   tma_pkg::DescChkFieldsWidth == $bits(tma_pkg::desc_chk_fields_t))
  // The reserved-bit flags of a fetch are folded into the sticky flag before the next one.
`ifndef SYNTHESIS
  logic fetching_prev_q;   // fetching_i a cycle ago
  always_ff @(posedge clk_i) begin : proc_fetching_prev
    fetching_prev_q <= fetching_i;
  end
  `TMA_ASSERT_NEVER(RsvFlagsIdle_A, !fetching_i && !fetching_prev_q && rsv_q != '0)
`endif

endmodule

`default_nettype wire
