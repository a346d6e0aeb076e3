# The back-end blocks' RTL (paths relative to rtl/, as in rtl/tma.f): the package, the common
# cells and the blocks under test. The unit tests Verilate only these, so they keep building
# while the front end and the top are being rewritten.
pkg/tma_pkg.sv
common/tma_fifo.sv
common/tma_fifo_ram.sv
common/tma_spill_reg.sv
common/tma_stream_arb.sv
common/tma_dup_reg.sv
midend/tma_row_fork.sv
backend/tma_row_aligner.sv
backend/tma_cpl_unit.sv
backend/tma_wr_align.sv
