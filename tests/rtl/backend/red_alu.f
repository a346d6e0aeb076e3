# The reduction ALU's RTL (paths relative to rtl/, as in rtl/tma.f): the package, the spill
# register it ends in and its blocks.
pkg/tma_pkg.sv
common/tma_dup_reg.sv
common/tma_spill_reg.sv
common/tma_fifo_ram.sv
backend/tma_red_atop.sv
backend/tma_red_int.sv
backend/tma_red_fadd.sv
backend/tma_red_alu.sv
