#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the silicon oracle, draws case specs, runs them on this machine's Hopper GPU and
# writes the measured golden cases (per-category jsonl.gz) plus the encoder verdicts.
#   silicon/run_oracle.sh --count 200 --out /tmp/x [--seed 1] [--jobs 8] [--encoder 0]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
count=200; seed=1; out=/tmp/tma-oracle; jobs=8; encoder=0
while [ $# -gt 0 ]; do
  case "$1" in
    --count) count="$2"; shift 2;;
    --seed) seed="$2"; shift 2;;
    --out) out="$2"; shift 2;;
    --jobs) jobs="$2"; shift 2;;
    --encoder) encoder="$2"; shift 2;;
    *) echo "unknown argument $1" >&2; exit 2;;
  esac
done
mkdir -p "$out/raw"
bin="$out/raw/tma_oracle"
flags=(-gencode=arch=compute_90a,code=sm_90a -std=c++17 -O2 -Xcompiler -Wall,-Wextra -lcuda)
if ! nvcc "${flags[@]}" -DTMA_HAVE_SHARED_CTA_DST -o "$bin" "$here/tma_oracle.cu" 2>"$out/raw/build.log"; then
  echo "build with .shared::cta destinations failed; building without" >&2
  cat "$out/raw/build.log" >&2
  nvcc "${flags[@]}" -o "$bin" "$here/tma_oracle.cu"
fi
gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/^NVIDIA //; s/ /_/g')"
drv="$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
source="silicon:${gpu}:sm_90:${drv}"
echo "source: $source"
"$bin" info
python3 "$here/gen_cases.py" cases --count "$count" --seed "$seed" --out "$out/raw/specs.jsonl"
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
