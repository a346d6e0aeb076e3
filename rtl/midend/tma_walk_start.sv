// SPDX-License-Identifier: Apache-2.0
//
// tma_walk_start: row 0 of the job on the walker's job input (tma_nd_walker's P stage loads it
// when it takes the job). Per walker dim d = 1..4: the start position (coord), the address
// contribution at the start (astart; gaddr joins dim 4's, whose low half's carry stays
// pending), and the wrap flags and wrap distances one step ahead at the start and at the
// restart position (w = coord + es > hi, zz = coord + 2 es - hi - 1; wlo, zzlo at lo).
// The wrap values (a 3:2 level and a 36-bit add each) are registered every cycle, so their
// carry chains end in flops instead of in P's selects. This needs the walker's job timing
// rule (docs/interfaces.md, "Walker job timing"): coord, lo, hi and es hold their values in
// the cycle before job_valid_i rises and while it is high, so the flops hold the job's values
// whenever P loads it (JobZFresh_A).

`default_nettype none

`include "tma_assert.svh"

module tma_walk_start (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  // Fields of the job on the walker's input (job_valid_i only for the timing check)
  input  logic                        job_valid_i,
  input  tma_pkg::dim34_t             coord_i,
  input  tma_pkg::dim34_t             lo_i,
  input  tma_pkg::dim34_t             hi_i,
  input  tma_pkg::dim4_t              es_i,
  input  tma_pkg::dim64_t             astart_i,
  input  logic [63:0]                 gaddr_i,
  // Row 0: positions and address contributions (this cycle's job fields)
  output tma_pkg::dim34_t             pos_o,
  output tma_pkg::dim64_t             acc_o,
  output logic [tma_pkg::MaxDims-1:0] accp_o,    // pending carry of acc's low half
  // Row 0: wrap values, registered (of the job fields one cycle earlier)
  output tma_pkg::dim36_t             zz_q_o,    // at coord
  output tma_pkg::dim36_t             zzlo_q_o,  // at lo
  output logic [tma_pkg::MaxDims-1:0] w_q_o,     // at coord
  output logic [tma_pkg::MaxDims-1:0] wlo_q_o    // at lo
);

  localparam int unsigned MaxDims = tma_pkg::MaxDims;

  tma_pkg::dim36_t    zz_d, zzlo_d;
  logic [MaxDims-1:0] w_d, wlo_d;
  logic [35:0] za, zb, zc, zs, z2;    // 3-operand adds x + es + ~hi: one 3:2 level, one add
  logic [34:0] zm;
  logic [33:0] ic, ih, il;            // coord, hi, lo of dim d (loop temporaries)
  logic [35:0] izt;                   // z of row 0 (its sign: the wrap flag)
  logic [63:0] ia;                    // astart[4]
  logic [32:0] ilo;                   // its low half plus gaddr's, with the carry

  always_comb begin : proc_start
    pos_o  = '0;
    zz_d   = '0;
    zzlo_d = '0;
    w_d    = '0;
    wlo_d  = '0;
    acc_o  = '0;
    accp_o = '0;
    za  = '0;
    zb  = '0;
    zc  = '0;
    zs  = '0;
    z2  = '0;
    zm  = '0;
    ic  = '0;
    ih  = '0;
    il  = '0;
    izt = '0;
    for (int d = 1; d < MaxDims; d++) begin
      ic = coord_i.v[d];
      ih = hi_i.v[d];
      il = lo_i.v[d];
      pos_o.v[d] = coord_i.v[d];
      // z = x + es + ~hi (the wrap flag is z >= 0) and zz = x + 2 es + ~hi, for x = coord and
      // x = lo: each one 3:2 level and one add
      zb = 36'(es_i.v[d]);
      z2 = {zb[34:0], 1'b0};
      zc = ~{{2{ih[33]}}, ih};
      za = {{2{ic[33]}}, ic};
      zs = za ^ zb ^ zc;
      zm = 35'((za & zb) | (za & zc) | (zb & zc));
      izt = zs + {zm, 1'b0};
      w_d[d] = !izt[35];
      zs = za ^ z2 ^ zc;
      zm = 35'((za & z2) | (za & zc) | (z2 & zc));
      zz_d.v[d] = zs + {zm, 1'b0};
      za = {{2{il[33]}}, il};
      zs = za ^ zb ^ zc;
      zm = 35'((za & zb) | (za & zc) | (zb & zc));
      izt = zs + {zm, 1'b0};
      wlo_d[d] = !izt[35];
      zs = za ^ z2 ^ zc;
      zm = 35'((za & z2) | (za & zc) | (z2 & zc));
      zzlo_d.v[d] = zs + {zm, 1'b0};
      acc_o.v[d] = astart_i.v[d];
    end
    // gaddr joins a[4]: two 32-bit adds, the low half's carry pending
    ia  = astart_i.v[MaxDims-1];
    ilo = 33'(ia[31:0]) + 33'(gaddr_i[31:0]);
    acc_o.v[MaxDims-1] = {ia[63:32] + gaddr_i[63:32], ilo[31:0]};
    accp_o[MaxDims-1]  = ilo[32];
  end

  always_ff @(posedge clk_i) begin : proc_wrap_q
    zz_q_o   <= zz_d;
    zzlo_q_o <= zzlo_d;
    w_q_o    <= w_d;
    wlo_q_o  <= wlo_d;
  end

  // Dim 0 of the per-dim fields is not a walker dim.
  logic unused_dim0;
  assign unused_dim0 = ^{coord_i.v[0], lo_i.v[0], hi_i.v[0], es_i.v[0], astart_i.v[0],
                         izt[34:0]};

  // ---- Assertions ----
  `TMA_ASSERT_INIT(MaxDims_A, MaxDims == 5)
  // The registered wrap values are those of the job on the input whenever it is valid.
  `TMA_ASSERT_IMPLY(JobZFresh_A, job_valid_i,
                    zz_q_o == zz_d && zzlo_q_o == zzlo_d && w_q_o == w_d && wlo_q_o == wlo_d)

endmodule

`default_nettype wire
