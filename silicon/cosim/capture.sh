#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Re-captures the co-simulation traces on this machine's Hopper GPU (docs/cosim/capture.md):
# builds silicon/cosim/cosim_capture.cu for sm_90a, runs the GEMM, im2col-convolution and
# split-K kernels, gzips their otma-trace files and checks them with check_trace.py.
#   silicon/cosim/capture.sh [--out DIR] [--kernels "gemm conv splitk"] [--no-hash]
# Writes DIR/{gemm,conv,splitk,gemm_timing}.jsonl.gz, DIR/build.log and DIR/capture.log; the binary goes to
# a temporary folder. Exit status: 0 when every kernel ran, matched its CPU reference and the
# traces reach the acceptance counts.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out=/tmp/otma-cosim
kernels="gemm conv splitk"
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2;;
    --kernels) kernels="$2"; shift 2;;
    --no-hash) extra+=(--no-hash); shift;;
    *) echo "unknown argument $1" >&2; exit 2;;
  esac
done
mkdir -p "$out"
bin="$(mktemp -d)/cosim_capture"
log="$out/capture.log"
: > "$log"
start=$(date +%s.%N)
{ nvcc --version | tail -2; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm --format=csv; } >> "$log" 2>&1
if ! nvcc -gencode=arch=compute_90a,code=sm_90a -std=c++17 -O2 -lineinfo -Xcompiler -Wall,-Wextra \
    -Xptxas -v -o "$bin" "$here/cosim_capture.cu" -lcuda > "$out/build.log" 2>&1; then
  echo "build failed" | tee -a "$log"
  tail -40 "$out/build.log"
  exit 3
fi
built=$(date +%s.%N)
gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/^NVIDIA //; s/ /_/g')"
drv="$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
clk="$(nvidia-smi --query-gpu=clocks.max.sm --format=csv,noheader,nounits | head -1)"
source="silicon:${gpu}:sm_90:${drv}"
rc=0
for k in $kernels; do
  t0=$(date +%s.%N)
  "$bin" --kernel "$k" --out "$out" --source "$source" --driver "$drv" --clk-mhz "$clk" \
    "${extra[@]}" >> "$log" 2>&1
  st=$?
  t1=$(date +%s.%N)
  echo "$k: exit $st, $(awk "BEGIN{print $t1 - $t0}") s" >> "$log"
  [ $st -ne 0 ] && rc=$st
  [ -f "$out/$k.jsonl" ] && gzip -9 -f "$out/$k.jsonl"
done
# Timing capture of the GEMM: no stage hashes, no store sources (docs/cosim/capture.md).
if [ "${#extra[@]}" -eq 0 ] && [[ " $kernels " == *" gemm "* ]]; then
  t0=$(date +%s.%N)
  "$bin" --kernel gemm --name gemm_timing --no-hash --no-src --out "$out" --source "$source" \
    --driver "$drv" --clk-mhz "$clk" >> "$log" 2>&1
  st=$?
  t1=$(date +%s.%N)
  echo "gemm_timing: exit $st, $(awk "BEGIN{print $t1 - $t0}") s" >> "$log"
  [ $st -ne 0 ] && rc=$st
  [ -f "$out/gemm_timing.jsonl" ] && gzip -9 -f "$out/gemm_timing.jsonl"
fi
end=$(date +%s.%N)
echo "build $(awk "BEGIN{print $built - $start}") s, capture $(awk "BEGIN{print $end - $built}") s" >> "$log"
cat "$log"
if ls "$out"/*.jsonl.gz > /dev/null 2>&1; then
  python3 "$here/check_trace.py" "$out"/*.jsonl.gz || { [ $rc -ne 0 ] || rc=1; }
fi
exit $rc
