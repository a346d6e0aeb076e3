# tma_cmd_ctrl and its reference (paths relative to rtl/): the unit test Verilates only these.
pkg/tma_pkg.sv
common/tma_dup_reg.sv
frontend/tma_addr_mac.sv
frontend/tma_cmd_ctrl.sv
../tests/rtl/engine/tma_cmd_ctrl_ref.sv
