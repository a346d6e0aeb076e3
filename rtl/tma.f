# OpenTMA RTL file list, dependency ordered, paths relative to rtl/.
# Read by CMake (cmake/TmaVerilate.cmake), tools/lint and the synthesis flow (synth/).
# ---- packages ----
pkg/tma_pkg.sv
# ---- common stream cells (issue 2) ----
common/tma_fifo.sv
common/tma_fifo_ram.sv
common/tma_spill_reg.sv
common/tma_stream_arb.sv
common/tma_dup_reg.sv
# ---- engine (issue 6) ----
engine/tma_swizzle.sv
engine/tma_unpack.sv
engine/tma_nd_walker.sv
engine/tma_burst_split.sv
engine/tma_row_aligner.sv
engine/tma_cmd_ctrl.sv
engine/tma_cpl_unit.sv
engine/tma_engine.sv
engine/tma_sim_top.sv
