# OpenTMA protocol checkers (paths relative to rtl/), bound into the RTL from outside.
# Simulation only: cmake/TmaVerilate.cmake Verilates them after rtl/tma.f and tools/lint lints
# them; the synthesis flow reads rtl/tma.f alone.
sva/tma_stream_sva.sv
sva/tma_axi_rd_sva.sv
sva/tma_axi_wr_sva.sv
sva/tma_axil_sva.sv
sva/tma_bind.sv
