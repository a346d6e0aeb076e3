#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Conformance of the Verilog-2001 wrapper rtl/soc/opentma_axi.v (docs/soc.md):
#   1. Icarus Verilog reads it as Verilog-2005 (-g2005; -i: the SystemVerilog core is not read);
#   2. Yosys reads it without -sv and elaborates it over the core (read with -sv);
#   3. Verilator -Wall lints it as top over the core;
#   4. the ports Vivado infers as interfaces are all there: aclk, aresetn, irq and the full
#      s_axil (AXI4-Lite) and m_axi (AXI4) signal sets.
# Exit 0 only when all four pass.
set -uo pipefail
cd "$(dirname "$0")/../.."
W=rtl/soc/opentma_axi.v
mapfile -t core < <(grep -v -e '^\s*#' -e '^\s*$' rtl/tma.f | sed 's|^|rtl/|')
fail=0

iverilog -g2005 -i -o /dev/null "$W" || { echo "wrapper: iverilog -g2005 failed"; fail=1; }

out=$(yosys -q -p "read_verilog $W; read_verilog -sv -Irtl/include ${core[*]}; \
  hierarchy -check -top opentma_axi; proc; check -assert" 2>&1) ||
  { echo "wrapper: yosys failed"; echo "$out" | tail -20; fail=1; }

out=$(verilator --lint-only -Wall -Irtl/include rtl/lint/tma.vlt "${core[@]}" "$W" \
      --top-module opentma_axi 2>&1)
if [ -n "$out" ]; then echo "wrapper: verilator findings"; echo "$out" | head -20; fail=1; fi

ports=$(sed -n '/^module opentma_axi/,/^);/p' "$W" | grep -oE '\b(aclk|aresetn|irq|s_axil_[a-z]+|m_axi_[a-z]+)\b' | sort -u)
want="aclk aresetn irq"
for s in awaddr awprot awvalid awready wdata wstrb wvalid wready bresp bvalid bready \
         araddr arprot arvalid arready rdata rresp rvalid rready; do want+=" s_axil_$s"; done
for s in awid awaddr awlen awsize awburst awlock awcache awprot awqos awvalid awready \
         wdata wstrb wlast wvalid wready bid bresp bvalid bready \
         arid araddr arlen arsize arburst arlock arcache arprot arqos arvalid arready \
         rid rdata rresp rlast rvalid rready; do want+=" m_axi_$s"; done
for p in $want; do
  grep -qx "$p" <<<"$ports" || { echo "wrapper: port $p missing"; fail=1; }
done
n=$(wc -w <<<"$want")
((fail)) || echo "wrapper: OK (iverilog -g2005, yosys without -sv, verilator -Wall, $n interface ports)"
exit $fail
