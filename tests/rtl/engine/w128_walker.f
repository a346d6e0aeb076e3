# The im2col::w::128 walker's RTL (paths relative to rtl/, as in rtl/tma.f), for its unit test.
pkg/tma_pkg.sv
common/tma_dup_reg.sv
common/tma_spill_reg.sv
midend/tma_row_resolve.sv
midend/tma_w128_start.sv
midend/tma_w128_walker.sv
