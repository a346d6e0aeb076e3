// SPDX-License-Identifier: Apache-2.0
//
// tma_job_pos: the walker dims' positions of a command (tma_job_setup's operand stages): per
// walker dim d its start position, restart position and last position, its stride, whether it
// is spatial, and the instruction checks' start-pixel operands, registered every cycle from
// the command and map registers in two stages.
//
// Stage 1 (valid from W1B, the second cycle the command and map registers hold the command):
// walker dim d's tensor coordinate (gather4: coords[d], each a row of tensor dim 1), kind,
// im2col offset (im2col: on every spatial dim; im2col::w and ::128: wOffset on W only) and
// stride, the im2col lower corners and dim - 1 + upper corner of the spatial dims (bounds_o).
// Stage 2 (valid from W2; W2 writes them into the job register and they are the MAC's
// operands): the start position (the coordinate; spatial: plus the offset), the restart
// position (the coordinate; spatial: the lower corner plus the offset) and the last position
// (the coordinate plus the box; spatial: dim - 1 + upper + offset; N: no wrap).
// spatial_w_o: the spatial flags of the job the MACs write back into (whether an astart sum is
// also the dim's alo), loaded in W1 from the map register, so they hold from W1B (the first
// write-back) until the next command's W1.

`default_nettype none

`include "tma_assert.svh"

module tma_job_pos (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  tma_pkg::cmd_t         cmd_i,
  input  tma_pkg::map_t         map_i,
  // The command's mode decodes (registered beside the command register)
  input  logic                  gat_i,          // tile::gather4 / tile::scatter4
  input  logic                  wmode_i,        // im2col::w
  input  logic                  w128_i,         // im2col::w::128
  input  logic                  i2c_i,          // im2col (offsets on every spatial dim)
  // The job setup's steps (W1; the others for assertions: the stages hold while read)
  input  logic                  w1_go_i,
  input  logic                  w1b_i,
  input  logic                  w2_i,
  input  logic                  mac_i,
  // Stage 2: start, restart and last position of walker dim d (entry d; valid from W2)
  output tma_pkg::dim34_t       coord_o,
  output tma_pkg::dim34_t       lo_o,
  output tma_pkg::dim34_t       hi_o,
  // Stage 1: stride of walker dim d (units of 16 bytes), the start-pixel operands
  output tma_pkg::dim36_t       stride_o,
  output tma_pkg::walk_bounds_t bounds_o,
  output logic [tma_pkg::MaxDims-1:0] spatial_w_o
);

  localparam int unsigned MaxDims = tma_pkg::MaxDims;

  tma_pkg::desc_fields_t mf;
  tma_pkg::map_derived_t md;
  assign mf = map_i.fields;
  assign md = map_i.derived;

  // ---- Stage 1 ----
  logic [33:0] lower_q [MaxDims-2];    // im2col lower corners
  logic [33:0] upper   [MaxDims-2];    // ... upper corners
  logic [31:0] walk_coord_d [MaxDims]; // the tensor coordinate of walker dim d
  logic [31:0] walk_coord_q [MaxDims];
  logic [33:0] coord_sx [MaxDims];     // walk_coord_q sign-extended
  logic [33:0] far_d [MaxDims];        // spatial: dim - 1 + upper (stage 2 adds the offset)
  logic [33:0] far_q [MaxDims];
  logic [MaxDims-1:0] spatial_d, spatial_q;   // walker dim d is spatial (restarts at a corner)
  logic [MaxDims-1:0] spatial_w_q;
  logic [2:0]  kind_d [MaxDims];
  logic [2:0]  kind_q [MaxDims];
  logic [33:0] off_d  [MaxDims];
  logic [33:0] off_q  [MaxDims];
  logic [35:0] stride_d [MaxDims];
  logic [35:0] stride_q [MaxDims];
  // ---- Stage 2 ----
  logic [33:0] pos_coord_d [MaxDims];
  logic [33:0] pos_coord_q [MaxDims];
  logic [33:0] pos_lo_d [MaxDims];
  logic [33:0] pos_lo_q [MaxDims];
  logic [33:0] pos_hi_d [MaxDims];
  logic [33:0] pos_hi_q [MaxDims];

  always_comb begin : proc_stage1
    logic [2:0]  td;
    logic [31:0] sdim;
    for (int k = 0; k < MaxDims - 2; k++) begin
      upper[k] = tma_pkg::im2col_corner(mf.box_hi, md.is_rank3, md.is_rank4, k, 1'b1);
    end
    walk_coord_d[0] = '0;
    kind_d[0]       = tma_pkg::WalkNone;
    off_d[0]        = '0;
    stride_d[0]     = '0;
    far_d[0]        = '0;
    spatial_d       = '0;
    for (int d = 1; d < MaxDims; d++) begin
      // (gather4: each select is a mux between two constant indices; an index computed into
      // the 3- or 36-bit fields would elaborate as an index x width multiply, which synthesis
      // maps to a multiplier block on the command's path)
      td              = gat_i ? 3'(d) : md.walk_tdim[d-1];
      walk_coord_d[d] = cmd_i.coords.v[td];
      kind_d[d]       = gat_i ? tma_pkg::WalkTile : md.walk_kind[d-1];
      off_d[d]        = (d < MaxDims - 1 && i2c_i) ? 34'(cmd_i.im2col.v[2'(d-1)]) : 34'd0;
      if (wmode_i || w128_i) off_d[d] = (d == 1) ? 34'(cmd_i.im2col.v[1]) : 34'd0;
      stride_d[d]     = gat_i ? md.walk_stride[0] : md.walk_stride[d-1];
      spatial_d[d]    = kind_d[d] == tma_pkg::WalkSpatial;
      // spatial dims (gated by spatial_q where used): tensor dim il ? d - 1 : d
      sdim            = md.is_il ? mf.dim_m1[d-1] : mf.dim_m1[d];
      far_d[d]        = (d < MaxDims - 1) ? 34'(sdim) + upper[d-1] : 34'd0;
    end
    for (int d = 0; d < MaxDims; d++) coord_sx[d] = 34'(signed'(walk_coord_q[d]));
  end

  always_comb begin : proc_stage2
    for (int d = 0; d < MaxDims; d++) begin
      pos_coord_d[d] = '0;
      pos_lo_d[d]    = '0;
      pos_hi_d[d]    = '0;
      if (d >= 1) begin
        unique case (kind_q[d])
          tma_pkg::WalkTile, tma_pkg::WalkChunk: begin
            pos_coord_d[d] = coord_sx[d];
            pos_lo_d[d]    = coord_sx[d];
            pos_hi_d[d]    = coord_sx[d] + 34'(md.walk_box_m1[d-1]);
          end
          tma_pkg::WalkSpatial: begin
            pos_coord_d[d] = coord_sx[d] + off_q[d];
            if (d < MaxDims - 1) pos_lo_d[d] = lower_q[d-1] + off_q[d];
            if (d < MaxDims - 1) pos_hi_d[d] = far_q[d] + off_q[d];
          end
          tma_pkg::WalkN: begin
            pos_coord_d[d] = coord_sx[d];
            pos_lo_d[d]    = coord_sx[d];
            pos_hi_d[d]    = {1'b0, {33{1'b1}}};
          end
          default: ;
        endcase
      end
    end
  end

  always_comb begin : proc_out
    for (int d = 0; d < MaxDims; d++) begin
      coord_o.v[d]         = pos_coord_q[d];
      lo_o.v[d]            = pos_lo_q[d];
      hi_o.v[d]            = pos_hi_q[d];
      stride_o.v[d]        = stride_q[d];
      bounds_o.coord.v[d]  = coord_sx[d];
      bounds_o.upper.v[d]  = far_q[d];
    end
    bounds_o.spatial            = spatial_q;
    spatial_w_o                 = spatial_w_q;
    bounds_o.lower.v[0]         = '0;
    bounds_o.lower.v[MaxDims-1] = '0;
    for (int k = 0; k < MaxDims - 2; k++) bounds_o.lower.v[k+1] = lower_q[k];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_regs
    if (!rst_ni) begin
      for (int k = 0; k < MaxDims - 2; k++) lower_q[k] <= '0;
      spatial_q   <= '0;
      spatial_w_q <= '0;
      for (int d = 0; d < MaxDims; d++) begin
        walk_coord_q[d] <= '0;
        far_q[d]        <= '0;
        kind_q[d]       <= tma_pkg::WalkNone;
        off_q[d]        <= '0;
        stride_q[d]     <= '0;
        pos_coord_q[d]  <= '0;
        pos_lo_q[d]     <= '0;
        pos_hi_q[d]     <= '0;
      end
    end else begin
      for (int k = 0; k < MaxDims - 2; k++) begin
        lower_q[k] <= tma_pkg::im2col_corner(mf.box_hi, md.is_rank3, md.is_rank4, k, 1'b0);
      end
      spatial_q <= spatial_d;
      if (w1_go_i) spatial_w_q <= spatial_d;
      for (int d = 0; d < MaxDims; d++) begin
        walk_coord_q[d] <= walk_coord_d[d];
        far_q[d]        <= far_d[d];
        kind_q[d]       <= kind_d[d];
        off_q[d]        <= off_d[d];
        stride_q[d]     <= stride_d[d];
        pos_coord_q[d]  <= pos_coord_d[d];
        pos_lo_q[d]     <= pos_lo_d[d];
        pos_hi_q[d]     <= pos_hi_d[d];
      end
    end
  end

  logic unused_bits;
  assign unused_bits = ^{cmd_i, map_i, mf, md, upper[0][33:32], kind_q[0], off_q[0],
                         spatial_q[0]};

  // ---- Assertions ----
  // the stages hold their inputs' values from the step that first reads them
  `TMA_ASSERT_NEVER(Stage1Regs_A, (w1b_i || w2_i || mac_i) &&
                                  (kind_q != kind_d || off_q != off_d || stride_q != stride_d))
  `TMA_ASSERT_NEVER(SpatialW_A, (w1b_i || w2_i || mac_i) && spatial_w_q != spatial_q)
  `TMA_ASSERT_NEVER(Stage2Regs_A, (w2_i || mac_i) &&
                                  (pos_coord_q != pos_coord_d || pos_lo_q != pos_lo_d ||
                                   pos_hi_q != pos_hi_d))

endmodule

`default_nettype wire
