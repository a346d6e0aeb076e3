# tma_frontend (paths relative to rtl/): its test Verilates only these.
pkg/tma_pkg.sv
common/tma_dup_reg.sv
frontend/tma_cmd_intake.sv
frontend/tma_desc_cache.sv
frontend/tma_desc_fetch.sv
frontend/tma_desc_decode.sv
frontend/tma_desc_check.sv
frontend/tma_instr_check.sv
backend/tma_red_atop.sv
frontend/tma_job_pos.sv
frontend/tma_job_setup.sv
frontend/tma_addr_mac.sv
frontend/tma_frontend_seq.sv
frontend/tma_frontend.sv
