// SPDX-License-Identifier: Apache-2.0
//
// tma_desc_fetch_tb: test top of the descriptor fetch, decode and check, wired as tma_frontend
// wires them (the fetch's beat and chunk signals into the decode; the fetch's ok into the
// check's start), so their unit test drives the sequencer's start / fetching and the AXI
// slave, and reads the decoded fields and the checked map. Simulation only.

`default_nettype none

module tma_desc_fetch_tb #(
  parameter int unsigned DataBytes = 16
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      start_i,
  input  logic [63:4]               start_addr_i,
  input  logic                      fetching_i,
  output logic                      ar_valid_o,
  input  logic                      ar_ready_i,
  output tma_pkg::ar_t              ar_o,
  input  logic                      r_valid_i,
  input  logic [DataBytes*8-1:0]    r_data_i,
  input  logic                      r_err_i,
  output logic                      end_o,
  output logic                      bad_o,
  output logic                      ok_o,
  output tma_pkg::desc_fields_t     fields_o,
  output tma_pkg::desc_chk_fields_t chk_o,
  output logic                      chk_busy_o,
  output logic                      map_valid_o,
  output tma_pkg::map_t             map_o
);

  logic [3:0] beat_idx;
  logic [2:0] chunk_off;
  logic [7:0] chunk_wait;
  logic       map_valid_next;

  tma_desc_fetch #(.DataBytes (DataBytes)) u_fetch (
    .clk_i, .rst_ni,
    .start_i, .start_addr_i, .fetching_i,
    .ar_valid_o, .ar_ready_i, .ar_o,
    .r_valid_i, .r_err_i,
    .beat_idx_o   (beat_idx),
    .chunk_off_o  (chunk_off),
    .chunk_wait_o (chunk_wait),
    .end_o, .bad_o, .ok_o
  );

  tma_desc_decode #(.DataBytes (DataBytes)) u_decode (
    .clk_i, .rst_ni,
    .start_i, .fetching_i,
    .r_valid_i, .r_data_i,
    .beat_idx_i   (beat_idx),
    .chunk_off_i  (chunk_off),
    .chunk_wait_i (chunk_wait),
    .fields_o,
    .chk_o
  );

  tma_desc_check u_check (
    .clk_i, .rst_ni,
    .start_i          (ok_o),
    .fields_i         (fields_o),
    .chk_i            (chk_o),
    .busy_o           (chk_busy_o),
    .map_valid_o,
    .map_valid_next_o (map_valid_next),
    .map_o
  );

  logic unused_bits;
  assign unused_bits = map_valid_next;

endmodule

`default_nettype wire
