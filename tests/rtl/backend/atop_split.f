# The AXI5 AtomicStore splitter's RTL (paths relative to rtl/, as in rtl/tma.f).
pkg/tma_pkg.sv
common/tma_fifo.sv
backend/tma_atop_split.sv
