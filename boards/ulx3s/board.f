# SPDX-License-Identifier: Apache-2.0
# The ULX3S board top's own files (plain Verilog), in dependency order; the SoC wrapper
# rtl/soc/opentma_axi.v and the core (rtl/tma.f, SystemVerilog) come with them.
rtl/ulx3s_pll.v
rtl/board_uart_phy.v
rtl/board_uartbone.v
rtl/board_axil_xbar.v
rtl/board_gmem.v
rtl/board_csr.v
rtl/board_core.v
rtl/opentma_board_top.v
