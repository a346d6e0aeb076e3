# OpenTMA RTL file list, dependency ordered, paths relative to rtl/.
# Read by CMake (cmake/TmaVerilate.cmake), tools/lint and the synthesis flow (synth/).
# ---- packages ----
pkg/tma_pkg.sv
# ---- common cells ----
common/tma_fifo.sv
common/tma_fifo_ram.sv
common/tma_dup_reg.sv
common/tma_spill_reg.sv
common/tma_stream_arb.sv
# ---- frontend ----
frontend/tma_cmd_intake.sv
frontend/tma_desc_cache.sv
frontend/tma_desc_fetch.sv
frontend/tma_desc_decode.sv
frontend/tma_desc_check.sv
frontend/tma_instr_check.sv
frontend/tma_job_pos.sv
frontend/tma_job_setup.sv
frontend/tma_addr_mac.sv
frontend/tma_frontend_seq.sv
frontend/tma_frontend.sv
# ---- midend ----
midend/tma_walk_start.sv
midend/tma_nd_walker.sv
midend/tma_row_resolve.sv
midend/tma_gather_walker.sv
midend/tma_w128_start.sv
midend/tma_w128_walker.sv
midend/tma_row_fork.sv
midend/tma_burst_split.sv
midend/tma_bulk_rows.sv
midend/tma_row_merge.sv
# ---- backend ----
backend/tma_rd_watchdog.sv
backend/tma_rd_engine.sv
backend/tma_unpack.sv
backend/tma_row_aligner.sv
backend/tma_swizzle.sv
backend/tma_smem_wr.sv
backend/tma_cpl_unit.sv
backend/tma_red_atop.sv
backend/tma_red_int.sv
backend/tma_red_fadd.sv
backend/tma_red_alu.sv
backend/tma_wr_fork.sv
backend/tma_smem_rd.sv
backend/tma_wr_align.sv
backend/tma_wr_red.sv
backend/tma_wr_engine.sv
backend/tma_atop_split.sv
backend/tma_bulk_group.sv
backend/tma_s2s_copy.sv
# ---- top ----
top/tma_cmd_reg.sv
top/tma_walkers.sv
top/tma_load_path.sv
top/tma_store_path.sv
top/tma_finish.sv
top/tma_engine.sv
top/tma_sim_top.sv
# ---- SoC top (rtl/soc/, docs/soc.md): generated register block and record codecs ----
autogen/tma_reg_pkg.sv
autogen/tma_reg_top.sv
autogen/tma_cmd_rec_dec.sv
autogen/tma_cpl_rec_enc.sv
# ---- SoC top (rtl/soc/) ----
soc/tma_smem_bank.sv
soc/tma_mbar_unit.sv
soc/tma_cluster_shell.sv
soc/tma_soc_axil.sv
soc/tma_cmd_window.sv
soc/tma_cmd_ring.sv
soc/tma_cpl_ring.sv
soc/tma_soc_cpl_merge.sv
soc/tma_soc_axi.sv
soc/tma_soc_wr_arb.sv
soc/tma_soc_ctrl.sv
soc/tma_soc_host.sv
soc/tma_soc_cmd_src.sv
soc/tma_soc_cpl_path.sv
soc/tma_soc_engine.sv
soc/tma_soc_top.sv
