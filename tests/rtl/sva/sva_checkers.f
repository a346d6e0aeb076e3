# The protocol checkers of rtl/sva/ with a top that drives their ports (paths relative to rtl/).
pkg/tma_pkg.sv
sva/tma_stream_sva.sv
sva/tma_axi_rd_sva.sv
sva/tma_axi_wr_sva.sv
sva/tma_axil_sva.sv
../tests/rtl/sva/tma_sva_tb.sv
