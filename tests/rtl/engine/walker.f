# The N-D walker's RTL (paths relative to rtl/, as in rtl/tma.f): its unit test Verilates only
# these, so it keeps building while the other engine files are being rewritten.
pkg/tma_pkg.sv
common/tma_dup_reg.sv
common/tma_spill_reg.sv
midend/tma_walk_start.sv
midend/tma_nd_walker.sv
