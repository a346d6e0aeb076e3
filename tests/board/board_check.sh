#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Conformance and bit-level checks of the ULX3S board top (boards/ulx3s/, docs/board.md):
#   1. Icarus Verilog reads the board top and opentma_axi.v as Verilog-2005 (-g2005; -i: the
#      SystemVerilog core and the ECP5 PLL primitive are not read);
#   2. Yosys reads them without -sv and elaborates the board top over the core (read with -sv)
#      and the ECP5 cell library (EHXPLLL, DP16KD), hierarchy -check;
#   3. Verilator -Wall lints the board top (PLL bypassed) over the core;
#   4. the board shell (board_shell_tb.v: UARTBone frames on the UART pins, the engine replaced
#      by a stub) passes at 4 clocks per bit and at 33 (3 Mbaud at 100 MHz);
#   5. the PLL's divisors for SysMhz 20, 30, 50 and 100 are those `yowasp-ecppll -i 25 -o
#      SysMhz` prints (CLKI_DIV / CLKFB_DIV / CLKOP_DIV), and a SysMhz that is not a multiple
#      of 5 fails elaboration.
# Exit 0 only when all pass.
set -uo pipefail
cd "$(dirname "$0")/../.."
B=boards/ulx3s/rtl
mapfile -t board < <(grep -v -e '^\s*#' -e '^\s*$' boards/ulx3s/board.f | sed 's|^|boards/ulx3s/|')
mapfile -t core < <(grep -v -e '^\s*#' -e '^\s*$' rtl/tma.f | sed 's|^|rtl/|')
W=rtl/soc/opentma_axi.v
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

iverilog -g2005 -i -o /dev/null -s opentma_board_top "${board[@]}" "$W" ||
  { echo "board: iverilog -g2005 failed"; fail=1; }

out=$(yosys -q -p "read_verilog -lib +/ecp5/cells_bb.v +/ecp5/cells_sim.v; read_verilog ${board[*]} $W; \
  read_verilog -sv -Irtl/include ${core[*]}; hierarchy -check -top opentma_board_top; proc; \
  check -assert" 2>&1) || { echo "board: yosys failed"; echo "$out" | tail -20; fail=1; }

out=$(verilator --lint-only -Wall -Irtl/include rtl/lint/tma.vlt "${core[@]}" "$W" "${board[@]}" \
      --top-module opentma_board_top -GUsePll=0 2>&1)
if [ -n "$out" ]; then echo "board: verilator findings"; echo "$out" | head -20; fail=1; fi

for cpb in 4 33; do
  if iverilog -g2005 -P board_shell_tb.CPB=$cpb -o "$tmp/tb$cpb" -s board_shell_tb \
       tests/board/board_shell_tb.v tests/board/stub_tma_soc_top.v "${board[@]}" "$W"; then
    vvp -n "$tmp/tb$cpb" | tee "$tmp/log$cpb" | grep -E '^(PASS|FAIL)'
    grep -q '^PASS' "$tmp/log$cpb" || { echo "board: shell test failed at $cpb clocks/bit"; fail=1; }
  else
    echo "board: shell test did not build"; fail=1
  fi
done
# expected: yowasp-ecppll -i 25 -o MHZ (CLKI_DIV CLKFB_DIV CLKOP_DIV)
for spec in "20 5 4 30" "30 5 6 20" "50 1 2 12" "100 1 4 6"; do
  read -r mhz idiv fdiv odiv <<< "$spec"
  got=$(yosys -p "read_verilog -lib +/ecp5/cells_bb.v; read_verilog $B/ulx3s_pll.v; \
    chparam -set SysMhz $mhz ulx3s_pll; hierarchy -top ulx3s_pll; dump t:EHXPLLL" 2>&1 |
    awk '/parameter .*\\CLKI_DIV /{i=$NF} /parameter .*\\CLKFB_DIV /{f=$NF}
         /parameter .*\\CLKOP_DIV /{o=$NF} END{print i, f, o}')
  [ "$got" = "$idiv $fdiv $odiv" ] ||
    { echo "board: PLL at $mhz MHz: CLKI/CLKFB/CLKOP_DIV $got, ecppll: $idiv $fdiv $odiv"; fail=1; }
done
if yosys -q -p "read_verilog -lib +/ecp5/cells_bb.v; read_verilog $B/ulx3s_pll.v; \
     chparam -set SysMhz 33 ulx3s_pll; hierarchy -check -top ulx3s_pll" > /dev/null 2>&1
then echo "board: the PLL took SysMhz 33"; fail=1; fi

((fail)) || echo "board: OK (iverilog -g2005, yosys without -sv, verilator -Wall, shell at 4 and 33 clocks/bit, PLL divisors)"
exit $fail
