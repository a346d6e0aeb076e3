# The frontend blocks tested alone (paths relative to rtl/, as in rtl/tma.f): their unit tests
# Verilate only these.
pkg/tma_pkg.sv
common/tma_dup_reg.sv
frontend/tma_desc_cache.sv
frontend/tma_desc_fetch.sv
frontend/tma_desc_decode.sv
frontend/tma_desc_check.sv
frontend/tma_addr_mac.sv
../tests/rtl/frontend/tma_desc_fetch_tb.sv
