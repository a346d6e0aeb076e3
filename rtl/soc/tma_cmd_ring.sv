// SPDX-License-Identifier: Apache-2.0
//
// tma_cmd_ring: the command ring fetcher (docs/soc.md). Software writes 64-byte records
// (soc_records.cmd) at base + 64 x (index mod entries) and advances the tail register; while
// the ring holds a record (tail != head) and the engine is enabled, the fetcher reads the
// record at head in one AXI4 burst, decodes it (tma_cmd_rec_dec) and offers it as a command;
// head advances when the command is taken. Indices run mod 2 x entries, so head == tail is
// empty and a difference of `entries` is full. A record read with an error response is
// dropped (bus_err_o pulses) and head advances past it. clr_i (soft reset) empties the ring:
// head := tail, and abandons the fetch in progress (the top drains its AXI4 traffic first).

`default_nettype none

`include "tma_assert.svh"

module tma_cmd_ring #(
  parameter  int unsigned DataBytes = 16,
  localparam int unsigned DW        = DataBytes * 8,
  localparam int unsigned Beats     = 64 / DataBytes
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 clr_i,
  // Ring registers
  input  logic                 enable_i,
  input  logic [63:6]          base_i,     // 64-byte aligned
  input  logic [3:0]           log2_i,
  input  logic [16:0]          tail_i,
  output logic [16:0]          head_o,
  output logic [16:0]          count_o,    // records in the ring
  output logic                 busy_o,
  output logic                 bus_err_o,
  // AXI4 read (one burst of Beats beats, ID chosen by the top)
  output logic                 ar_valid_o,
  input  logic                 ar_ready_i,
  output logic [63:0]          ar_addr_o,
  output logic [7:0]           ar_len_o,
  input  logic                 r_valid_i,
  input  logic [DW-1:0]        r_data_i,
  input  logic [1:0]           r_resp_i,
  input  logic                 r_last_i,
  // Command out
  output logic                 cmd_valid_o,
  input  logic                 cmd_ready_i,
  output tma_pkg::cmd_t        cmd_o
);

  typedef enum logic [1:0] { RingIdle, RingAr, RingData, RingCmd } ring_state_e;

  ring_state_e    state_d, state_q;
  logic [16:0]    head_d, head_q, mask2, pos;
  logic [511:0]   rec_d, rec_q;
  logic           err_d, err_q;
  logic [7:0]     beat_d, beat_q;

  assign mask2   = (17'd2 << log2_i) - 17'd1;
  assign pos     = head_q & (mask2 >> 1);
  assign count_o = (tail_i - head_q) & mask2;

  always_comb begin : proc_next
    state_d = state_q;
    head_d  = head_q;
    rec_d   = rec_q;
    err_d   = err_q;
    beat_d  = beat_q;
    unique case (state_q)
      RingIdle: begin
        if (enable_i && count_o != '0) begin
          state_d = RingAr;
          err_d   = 1'b0;
          beat_d  = '0;
        end
      end
      RingAr: if (ar_ready_i) state_d = RingData;
      RingData: begin
        if (r_valid_i) begin
          for (int b = 0; b < Beats; b++) begin
            if (beat_q == 8'(b)) rec_d[b*DW +: DW] = r_data_i;
          end
          beat_d = beat_q + 8'd1;
          err_d  = err_q || r_resp_i != tma_pkg::AxiRespOkay;
          if (r_last_i) begin
            if (err_d) begin
              state_d = RingIdle;
              head_d  = (head_q + 17'd1) & mask2;
            end else begin
              state_d = RingCmd;
            end
          end
        end
      end
      RingCmd: begin
        if (cmd_ready_i) begin
          state_d = RingIdle;
          head_d  = (head_q + 17'd1) & mask2;
        end
      end
      default: state_d = RingIdle;
    endcase
    if (clr_i) begin
      state_d = RingIdle;
      head_d  = tail_i & mask2;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_state
    if (!rst_ni) begin
      state_q <= RingIdle;
      head_q  <= '0;
      rec_q   <= '0;
      err_q   <= 1'b0;
      beat_q  <= '0;
    end else begin
      state_q <= state_d;
      head_q  <= head_d;
      rec_q   <= rec_d;
      err_q   <= err_d;
      beat_q  <= beat_d;
    end
  end

  tma_cmd_rec_dec u_dec (
    .rec_i (rec_q),
    .cmd_o
  );

  assign head_o      = head_q;
  assign busy_o      = state_q != RingIdle;
  assign bus_err_o   = state_q == RingData && r_valid_i && r_last_i && err_d && !clr_i;
  assign ar_valid_o  = state_q == RingAr;
  assign ar_addr_o   = {base_i, 6'd0} + {41'd0, pos, 6'd0};
  assign ar_len_o    = 8'(Beats - 1);
  assign cmd_valid_o = state_q == RingCmd;

  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes >= 4 && DataBytes <= 64)
  `TMA_ASSERT_STABLE_FLUSH(ArHeld_A, ar_valid_o, ar_ready_i, ar_addr_o, clr_i)
  `TMA_ASSERT_STABLE_FLUSH(CmdHeld_A, cmd_valid_o, cmd_ready_i, cmd_o, clr_i)
  `TMA_ASSERT_IMPLY(BeatsInRecord_A, state_q == RingData && r_valid_i,
                    32'(beat_q) < Beats && r_last_i == (32'(beat_q) == Beats - 1))

endmodule

`default_nettype wire
