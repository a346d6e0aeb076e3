// SPDX-License-Identifier: Apache-2.0
//
// tma_desc_fetch: reads one 128-byte map over AXI (ID AxiIdDesc, one single-beat burst per
// beat, never across 4 KiB) and tells the descriptor decode which beat carries which chunk.
//
// A start (the intake of a command whose map missed the cache) loads the beat counters; the
// fetch then requests 128 / DataBytes beats (one more when the map does not start a beat) and
// counts the R beats, which it always accepts. Descriptor chunk k (16 bytes) is chunk
// (k + chunk_off) % NumChunks of beat (k + chunk_off) / NumChunks.
//
// Out to the decode: the beat index awaited (beat_idx_o), the chunk offset, and per chunk
// 0..3 a registered flag "this chunk's beat is the one awaited" in two kept copies
// (chunk_wait_o; each copy selects half of that chunk's fields in the decode), formed a cycle
// ahead from the next counters so the beat's valid, which arrives late from the R channel
// register, is the last input of one LUT. Out to the sequencer and the check: the fetch ends
// with the last beat (end_o, with bad_o: a bus error on any beat); ok_o is the last beat
// without error (the check's cycle 0 follows). The check's size product runs from the box
// fields (chunk 3) and needs them a cycle before its cycle 0: where chunk 3 comes in the last
// beat (DataBytes 128 only: a one-beat map, or a map starting in chunk 5..7 of its first beat)
// the fetch ends a cycle after that beat (box_last_q, last_seen_q).

`default_nettype none

`include "tma_assert.svh"

module tma_desc_fetch #(
  parameter  int unsigned DataBytes = 16,
  localparam int unsigned SizeLog2  = $clog2(DataBytes),
  localparam int unsigned NumChunks = DataBytes / 16
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  start_i,        // a command that misses is taken now
  input  logic [63:4]           start_addr_i,   // its map address (the command stream's)
  input  logic                  fetching_i,     // the sequencer is in its Fetch state
  // AXI4 AR (ID AxiIdDesc) and the R beats of that ID
  output logic                  ar_valid_o,
  input  logic                  ar_ready_i,
  output tma_pkg::ar_t          ar_o,
  input  logic                  r_valid_i,
  input  logic                  r_err_i,
  // To the decode
  output logic [3:0]            beat_idx_o,     // the beat awaited
  output logic [2:0]            chunk_off_o,    // the map's first chunk inside its first beat
  output logic [7:0]            chunk_wait_o,   // chunk k's beat is awaited: copies 2k, 2k+1
  // End of the fetch
  output logic                  end_o,          // the last beat arrives
  output logic                  bad_o,          // ... and the fetch saw a bus error
  output logic                  ok_o            // the last beat arrives, no bus error
);

  localparam int unsigned ChunkLog2 = SizeLog2 - 4;

  function automatic logic [3:0] beats_of(input logic [2:0] off);
    beats_of = 4'((tma_pkg::DescBytes / DataBytes) + ((off != 3'd0) ? 1 : 0));
  endfunction

  logic [2:0]  start_off;                  // chunk offset of the map being taken
  logic [2:0]  chunk_off_q;
  logic [3:0]  beats;                      // beats of this map
  logic [3:0]  ar_cnt_d, ar_cnt_q;         // beats requested
  logic [3:0]  beat_d, beat_q;             // beats received
  logic        bus_err_d, bus_err_q;       // a beat of this fetch had an error
  logic        last_beat_q;                // the beat awaited is the last one

  assign start_off = 3'(start_addr_i[6:4] & 3'(NumChunks - 1));
  assign beats     = beats_of(chunk_off_q);

  assign ar_valid_o = fetching_i && (ar_cnt_q < beats);

  always_comb begin : proc_cnt
    ar_cnt_d  = ar_cnt_q;
    beat_d    = beat_q;
    bus_err_d = bus_err_q;
    if (fetching_i) begin
      if (ar_valid_o && ar_ready_i) ar_cnt_d = ar_cnt_q + 1'b1;
      if (r_valid_i) begin
        beat_d = beat_q + 1'b1;
        if (r_err_i) bus_err_d = 1'b1;
      end
    end
    if (start_i) begin
      ar_cnt_d  = '0;
      beat_d    = '0;
      bus_err_d = 1'b0;
    end
  end

  // Beat address: the map's first beat + ar_cnt x DataBytes as a 12-bit low part and a high
  // part that steps when the low part wraps (the map crosses a 4 KiB boundary at most once).
  logic [63:0] start_base;
  logic [11:0] ar_lo_d, ar_lo_q;
  logic [51:0] ar_hi_d, ar_hi_q;
  assign start_base = {start_addr_i[63:SizeLog2], SizeLog2'(0)};
  always_comb begin : proc_ar_addr
    logic [12:0] lo_sum;
    lo_sum  = {1'b0, ar_lo_q} + 13'(DataBytes);
    ar_lo_d = ar_lo_q;
    ar_hi_d = ar_hi_q;
    if (!ar_valid_o) begin        // (loaded before the fetch; only Fetch steps it)
      ar_lo_d = start_base[11:0];
      ar_hi_d = start_base[63:12];
    end else if (ar_ready_i) begin
      ar_lo_d = lo_sum[11:0];
      if (lo_sum[12]) ar_hi_d = ar_hi_q + 52'd1;
    end
  end
  assign ar_o.addr = {ar_hi_q, ar_lo_q};
  assign ar_o.len  = 8'd0;
  assign ar_o.pf   = 1'b0;

  assign beat_idx_o  = beat_q;
  assign chunk_off_o = chunk_off_q;
  // The box fields' chunk comes in the last beat: the fetch ends a cycle after it.
  logic box_last_q;    // of the map being fetched
  logic last_seen_q;   // its last beat arrived in the previous cycle
  if (NumChunks == 8) begin : gen_box_last
    logic [3:0] box_pos;   // chunk 3's position in the beats of the map being taken
    assign box_pos = 4'd3 + {1'b0, start_off};
    always_ff @(posedge clk_i or negedge rst_ni) begin : proc_box_last
      if (!rst_ni) begin
        box_last_q  <= 1'b0;
        last_seen_q <= 1'b0;
      end else begin
        if (start_i) box_last_q <= (box_pos >> ChunkLog2) + 4'd1 == beats_of(start_off);
        last_seen_q <= !start_i && fetching_i && r_valid_i && last_beat_q && box_last_q;
      end
    end
  end else begin : gen_no_box_last
    assign box_last_q  = 1'b0;
    assign last_seen_q = 1'b0;
  end
  assign end_o       = fetching_i && ((r_valid_i && last_beat_q && !box_last_q) || last_seen_q);
  assign bad_o       = r_err_i || bus_err_q;
  assign ok_o        = end_o && !bus_err_q && !r_err_i;

  // Chunk k's beat is awaited: at the start if it is in beat 0; while fetching, a beat moves
  // the wait to the next beat (none after the last).
  for (genvar k = 0; k < 4; k++) begin : gen_chunk_wait
    logic [3:0] kpos_s, kpos_c;   // chunk k's position: of the map being taken / fetched
    logic       w_start, w_beat, w_hold;
    logic [1:0] wait_k;
    assign kpos_s  = 4'(k) + {1'b0, start_off};
    assign kpos_c  = 4'(k) + {1'b0, chunk_off_q};
    assign w_start = start_i && (kpos_s >> ChunkLog2) == 4'd0;
    assign w_beat  = !last_beat_q && (kpos_c >> ChunkLog2) == beat_q + 4'd1;
    assign w_hold  = (kpos_c >> ChunkLog2) == beat_q;
    tma_dup_reg #(.Copies (2)) u_wait (
      .clk_i, .rst_ni,
      .d_i (w_start || (fetching_i && (r_valid_i ? w_beat : w_hold))),
      .q_o (wait_k)
    );
    assign chunk_wait_o[2*k +: 2] = wait_k;
    `TMA_ASSERT_COPY(ChunkWait_A, wait_k, {2{fetching_i && w_hold}})
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_regs
    if (!rst_ni) begin
      chunk_off_q <= '0;
      ar_cnt_q    <= '0;
      beat_q      <= '0;
      bus_err_q   <= 1'b0;
      last_beat_q <= (beats_of(3'd0) == 4'd1);  // its definition at beat 0, offset 0
      ar_lo_q     <= '0;
      ar_hi_q     <= '0;
    end else begin
      if (start_i) chunk_off_q <= start_off;
      ar_cnt_q    <= ar_cnt_d;
      beat_q      <= beat_d;
      bus_err_q   <= bus_err_d;
      last_beat_q <= (beat_d + 1'b1 == beats_of(start_i ? start_off : chunk_off_q));
      ar_lo_q     <= ar_lo_d;
      ar_hi_q     <= ar_hi_d;
    end
  end

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_STABLE(ArHeld_A, ar_valid_o, ar_ready_i, ar_o)
  `TMA_ASSERT_NEVER(UnexpectedDescBeat_A, r_valid_i && !fetching_i)
  `TMA_ASSERT_COPY(LastBeatFlag_A, last_beat_q, (beat_q + 1'b1 == beats))

endmodule

`default_nettype wire
