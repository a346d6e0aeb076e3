#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the silicon oracle, draws case specs, runs them on this machine's Hopper GPU and
# writes the measured golden cases (per-category jsonl.gz) plus the encoder verdicts.
#   silicon/run_oracle.sh --count 200 --out /tmp/x [--seed 1] [--jobs 8] [--encoder 0] [--bulk 0]
# --bulk N adds N non-tensor bulk cases (cp.async.bulk, cp.reduce.async.bulk, prefetch.L2);
# --count 0 --bulk N measures those alone.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
count=200; seed=1; out=/tmp/tma-oracle; jobs=8; encoder=0; bulk=0
while [ $# -gt 0 ]; do
  case "$1" in
    --count) count="$2"; shift 2;;
    --seed) seed="$2"; shift 2;;
    --out) out="$2"; shift 2;;
    --jobs) jobs="$2"; shift 2;;
    --encoder) encoder="$2"; shift 2;;
    --bulk) bulk="$2"; shift 2;;
    *) echo "unknown argument $1" >&2; exit 2;;
  esac
done
mkdir -p "$out/raw"
bin="$out/raw/tma_oracle"
flags=(-gencode=arch=compute_90a,code=sm_90a -std=c++17 -O2 -Xcompiler -Wall,-Wextra -lcuda)
# The cp.reduce.async.bulk pairs ptxas refuses are probed one by one and left out (their
# cases come back as anomalies naming the instruction), so one refused pair costs no others.
red_skip=()
build() {
  nvcc "${flags[@]}" "$@" "${red_skip[@]}" -o "$bin" "$here/tma_oracle.cu"
}
if ! build -DTMA_HAVE_SHARED_CTA_DST 2>"$out/raw/build.log"; then
  cat "$out/raw/build.log" >&2
  probe() {  # $1 = G or C, $2 = pair index, $3 = pair count: build with only that pair
    local all=$(( (1 << $3) - 1 )) one=$(( 1 << $2 ))
    nvcc "${flags[@]}" -DTMA_HAVE_SHARED_CTA_DST -DTMA_RED_SKIP_G=$(( $1 == G ? all & ~one : (1 << 27) - 1 ))ull \
      -DTMA_RED_SKIP_C=$(( $1 == C ? all & ~one : (1 << 12) - 1 ))ull -o "$out/raw/probe.$1.$2" \
      "$here/tma_oracle.cu" >"$out/raw/probe.$1.$2.log" 2>&1
  }
  G=1; C=2
  skip_g=0; skip_c=0
  for i in $(seq 0 26); do probe G "$i" 27 & done; wait
  for i in $(seq 0 11); do probe C "$i" 12 & done; wait
  for i in $(seq 0 26); do [ -x "$out/raw/probe.G.$i" ] || skip_g=$(( skip_g | (1 << i) )); done
  for i in $(seq 0 11); do [ -x "$out/raw/probe.C.$i" ] || skip_c=$(( skip_c | (1 << i) )); done
  rm -f "$out"/raw/probe.[GC].*[0-9]
  echo "cp.reduce.async.bulk pairs left out: global mask $skip_g, shared::cluster mask $skip_c" >&2
  red_skip=(-DTMA_RED_SKIP_G=${skip_g}ull -DTMA_RED_SKIP_C=${skip_c}ull)
  if ! build -DTMA_HAVE_SHARED_CTA_DST 2>>"$out/raw/build.log"; then
    echo "build with .shared::cta destinations failed; building without" >&2
    build
  fi
fi
gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/^NVIDIA //; s/ /_/g')"
drv="$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
source="silicon:${gpu}:sm_90:${drv}"
echo "source: $source"
"$bin" info
: > "$out/raw/specs.jsonl"
if [ "$count" -gt 0 ]; then
  python3 "$here/gen_cases.py" cases --count "$count" --seed "$seed" --out "$out/raw/specs.jsonl"
fi
if [ "$bulk" -gt 0 ]; then
  python3 "$here/gen_cases.py" bulk --count "$bulk" --seed "$seed" --out "$out/raw/bulk_specs.jsonl"
  cat "$out/raw/bulk_specs.jsonl" >> "$out/raw/specs.jsonl"
fi
pids=()
for ((i = 0; i < jobs; i++)); do
  "$bin" run --in "$out/raw/specs.jsonl" --out "$out/raw/cases.$i.jsonl" \
    --anom "$out/raw/anomalies.$i.jsonl" --notes "$out/raw/notes.$i.txt" \
    --source "$source" --shard "$i" --nshards "$jobs" 2>"$out/raw/run.$i.log" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
cat "$out"/raw/run.*.log
cat "$out"/raw/anomalies.*.jsonl > "$out/anomalies.jsonl" || true
cat "$out"/raw/notes.*.txt > "$out/notes.txt" || true
python3 "$here/collect.py" --specs "$out/raw/specs.jsonl" --results "$out"/raw/cases.*.jsonl \
  --outdir "$out"
if [ "$encoder" -gt 0 ]; then
  python3 "$here/gen_cases.py" encoder --count "$encoder" --seed "$seed" --out "$out/raw/enc_params.jsonl"
  "$bin" encode --in "$out/raw/enc_params.jsonl" --out "$out/raw/encoder_verdicts.jsonl"
  mkdir -p "$out/encoder" && gzip -9 -c "$out/raw/encoder_verdicts.jsonl" > "$out/encoder/encoder_verdicts.jsonl.gz"
fi
echo "anomalies: $(wc -l < "$out/anomalies.jsonl")  notes: $(wc -l < "$out/notes.txt")"
