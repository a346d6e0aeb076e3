// SPDX-License-Identifier: Apache-2.0
//
// tma_load_path: the engine's load direction behind the walkers (tensor and bulk loads,
// prefetches, completion-only markers), instances and wires only, in data-path order
// (docs/architecture.md):
//   tma_row_fork     rows -> aligner row entries, read requests, unpack items and command
//                    completion information (with their FIFOs)
//   tma_burst_split  read requests -> AXI4 bursts (to the engine's read engine)
//   tma_unpack       packed sub-byte beats -> shared-memory layout (SubByte)
//   tma_row_aligner  row entries + global beats -> logical shared-memory beats
//   tma_smem_wr      swizzle, shared-memory write port, command end
// Its finished commands go to the engine's completion unit (done_*).

`default_nettype none

module tma_load_path #(
  parameter  int unsigned DataBytes    = 16,   // 16, 32, 64 or 128
  parameter  int unsigned NumCtas      = 16,   // 1 .. 16
  parameter  int unsigned MaxBurstLen  = 16,   // beats per AXI4 burst, 1 .. 256
  parameter  int unsigned RowFifoDepth = 512,  // rows between walker and aligner, >= 2
  parameter  int unsigned SubByte      = 1,    // 1: the packed sub-byte unpacker
  localparam int unsigned DW           = DataBytes * 8
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Rows of loads, prefetches and markers
  input  logic                  row_valid_i,
  output logic                  row_ready_o,
  input  tma_pkg::row_t         row_i,
  // Data read bursts to the read engine, their beats back (in request order)
  output logic                  ar_valid_o,
  input  logic                  ar_ready_i,
  output tma_pkg::ar_t          ar_o,
  input  logic                  beat_valid_i,
  output logic                  beat_ready_o,
  input  logic [DW-1:0]         beat_data_i,
  input  logic                  beat_err_i,
  // Shared-memory write port
  output logic                  smem_valid_o,
  input  logic                  smem_ready_i,
  output tma_pkg::smem_wr_t     smem_o,
  output logic [DW-1:0]         smem_data_o,
  output logic [DataBytes-1:0]  smem_strb_o,
  // Finished commands
  output logic                  done_valid_o,
  input  logic                  done_ready_i,
  output tma_pkg::cpl_info_t    done_o,
  // A row or a command is inside
  output logic                  busy_o
);

  // ---- Streams between the blocks ----
  // row fork -> aligner, burst splitter, unpacker, write port
  logic                 al_row_valid, al_row_ready;
  tma_pkg::al_row_t     al_row;
  logic                 rd_req_valid, rd_req_ready;
  tma_pkg::rd_req_t     rd_req;
  logic                 up_row_valid, up_row_ready;
  tma_pkg::up_row_t     up_row;
  logic                 info_valid, info_ready;
  tma_pkg::cpl_info_t   info;
  // unpacker -> aligner (data beats in the shared-memory layout)
  logic                 al_beat_valid, al_beat_ready, al_beat_err;
  logic [DW-1:0]        al_beat_data;
  // aligner -> write port
  logic                 smem_beat_valid, smem_beat_ready;
  tma_pkg::smem_beat_t  smem_beat;
  logic [DW-1:0]        smem_beat_data;
  logic [DataBytes-1:0] smem_beat_strb;
  // block status
  logic fork_busy, split_busy, unpack_busy, al_busy, wr_busy;

  tma_row_fork #(
    .DataBytes    (DataBytes),
    .NumCtas      (NumCtas),
    .RowFifoDepth (RowFifoDepth),
    .SubByte      (SubByte)
  ) u_fork (
    .clk_i,
    .rst_ni,
    .row_valid_i    (row_valid_i),
    .row_ready_o    (row_ready_o),
    .row_i          (row_i),
    .al_row_valid_o (al_row_valid),
    .al_row_ready_i (al_row_ready),
    .al_row_o       (al_row),
    .rd_req_valid_o (rd_req_valid),
    .rd_req_ready_i (rd_req_ready),
    .rd_req_o       (rd_req),
    .up_row_valid_o (up_row_valid),
    .up_row_ready_i (up_row_ready),
    .up_row_o       (up_row),
    .info_valid_o   (info_valid),
    .info_ready_i   (info_ready),
    .info_o         (info),
    .busy_o         (fork_busy)
  );

  tma_burst_split #(
    .DataBytes   (DataBytes),
    .MaxBurstLen (MaxBurstLen)
  ) u_split (
    .clk_i,
    .rst_ni,
    .req_valid_i (rd_req_valid),
    .req_ready_o (rd_req_ready),
    .req_i       (rd_req),
    .ar_valid_o  (ar_valid_o),
    .ar_ready_i  (ar_ready_i),
    .ar_o        (ar_o),
    .busy_o      (split_busy)
  );

  // Sub-byte unpacker (docs/rtl-unpack.md): one unpack item per read, in read order; the data
  // beats pass through it. Without it the data beats go straight to the aligner.
  if (SubByte != 0) begin : gen_unpack
    tma_unpack #(
      .DataBytes (DataBytes)
    ) u_unpack (
      .clk_i,
      .rst_ni,
      .row_valid_i    (up_row_valid),
      .row_ready_o    (up_row_ready),
      .row_mode_i     (up_row.pk),
      .row_goff_i     (up_row.goff[$clog2(DataBytes)-1:0]),
      .row_in_beats_i (up_row.in_beats),
      .row_units_i    (up_row.units),
      .in_valid_i     (beat_valid_i),
      .in_ready_o     (beat_ready_o),
      .in_data_i      (beat_data_i),
      .in_err_i       (beat_err_i),
      .out_valid_o    (al_beat_valid),
      .out_ready_i    (al_beat_ready),
      .out_data_o     (al_beat_data),
      .out_err_o      (al_beat_err),
      .busy_o         (unpack_busy)
    );
    logic unused_up_row;
    assign unused_up_row = ^up_row.goff;   // (its bits above log2(DataBytes) are zero)
  end else begin : gen_no_unpack
    assign up_row_ready  = 1'b1;
    assign al_beat_valid = beat_valid_i;
    assign beat_ready_o  = al_beat_ready;
    assign al_beat_data  = beat_data_i;
    assign al_beat_err   = beat_err_i;
    assign unpack_busy   = 1'b0;
    logic unused_up_row;
    assign unused_up_row = ^{up_row_valid, up_row};
  end

  tma_row_aligner #(
    .DataBytes (DataBytes)
  ) u_aligner (
    .clk_i,
    .rst_ni,
    .row_valid_i  (al_row_valid),
    .row_ready_o  (al_row_ready),
    .row_i        (al_row),
    .beat_valid_i (al_beat_valid),
    .beat_ready_o (al_beat_ready),
    .beat_data_i  (al_beat_data),
    .beat_err_i   (al_beat_err),
    .out_valid_o  (smem_beat_valid),
    .out_ready_i  (smem_beat_ready),
    .out_o        (smem_beat),
    .out_data_o   (smem_beat_data),
    .out_strb_o   (smem_beat_strb),
    .busy_o       (al_busy)
  );

  tma_smem_wr #(
    .DataBytes (DataBytes),
    .NumCtas   (NumCtas)
  ) u_smem_wr (
    .clk_i,
    .rst_ni,
    .beat_valid_i (smem_beat_valid),
    .beat_ready_o (smem_beat_ready),
    .beat_i       (smem_beat),
    .beat_data_i  (smem_beat_data),
    .beat_strb_i  (smem_beat_strb),
    .info_valid_i (info_valid),
    .info_ready_o (info_ready),
    .info_i       (info),
    .smem_valid_o (smem_valid_o),
    .smem_ready_i (smem_ready_i),
    .smem_o       (smem_o),
    .smem_data_o  (smem_data_o),
    .smem_strb_o  (smem_strb_o),
    .done_valid_o (done_valid_o),
    .done_ready_i (done_ready_i),
    .done_o       (done_o),
    .busy_o       (wr_busy)
  );

  assign busy_o = fork_busy || split_busy || unpack_busy || al_busy || wr_busy;

endmodule

`default_nettype wire
