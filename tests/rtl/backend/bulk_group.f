# The bulk async-group unit's RTL (paths relative to rtl/, as in rtl/tma.f).
pkg/tma_pkg.sv
common/tma_dup_reg.sv
common/tma_spill_reg.sv
backend/tma_bulk_group.sv
