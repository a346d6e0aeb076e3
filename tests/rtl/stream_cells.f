# The stream cells' RTL (paths relative to rtl/, as in rtl/tma.f): the unit tests Verilate only
# these, so they keep building while other parts of rtl/tma.f are being written.
pkg/tma_pkg.sv
common/tma_fifo.sv
common/tma_spill_reg.sv
common/tma_stream_arb.sv
common/tma_dup_reg.sv
