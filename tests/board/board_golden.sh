#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Golden cases on the Verilated ULX3S board top over its pty, driven by the unchanged firmware
# through `tma run --engine board --link uart:PTY` (docs/board.md):
#   board_golden.sh BIN_DIR SIM [tma run args: FILE... --filter / --sample ...]
# Starts BIN_DIR/SIM (tma-board-sim or tma-board-sim-bit), reads the pty it prints, runs the
# cases, then stops the simulation with SIGTERM. Exit 0 only when the replay passes (0 fail)
# and the simulation saw no RTL assertion failure (the AXI protocol checkers bound to the
# board's buses among them).
set -uo pipefail
bin=$1; sim=$2; shift 2
log=$(mktemp)
"$bin/$sim" >"$log" 2>&1 &
pid=$!
pty=""
for _ in $(seq 1 200); do
  pty=$(sed -n 's/^tma-board-sim: pty \([^ ]*\).*/\1/p' "$log")
  [ -n "$pty" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$pty" ]; then
  echo "board_golden: $sim printed no pty"; cat "$log"; kill "$pid" 2>/dev/null; exit 1
fi
"$bin/tma" run --engine board --link "uart:$pty" "$@"
rc=$?
kill -TERM "$pid"
wait "$pid"
simrc=$?
cat "$log"
rm -f "$log"
if [ $simrc -ne 0 ]; then echo "board_golden: the simulation reported assertion failures"; fi
[ $rc -eq 0 ] && [ $simrc -eq 0 ]
