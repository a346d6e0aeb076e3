#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/fuzz/run_fuzz.sh: build and run the libFuzzer harnesses (tests/fuzz/README.md).
#   run_fuzz.sh build BUILD_DIR                 configure (clang) and build the four harnesses
#   run_fuzz.sh run BUILD_DIR HARNESS ARGS...   run one on a scratch copy of its corpus; ARGS
#                                               go to libFuzzer (e.g. -max_total_time=60)
# Fails on any crash, sanitizer report, hang (-timeout 10 s per input), allocation over
# -malloc_limit_mb (512) or memory over -rss_limit_mb (2048). The repo's corpus is read, never
# written: new inputs go to BUILD_DIR/corpus/HARNESS, findings to BUILD_DIR/findings/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cmd=${1:?usage: run_fuzz.sh build|run BUILD_DIR [HARNESS ARGS...]}
build=${2:?usage: run_fuzz.sh build|run BUILD_DIR [HARNESS ARGS...]}
case "$cmd" in
  build)
    command -v clang++ >/dev/null || { echo "run_fuzz.sh: clang++ missing (tools/bootstrap)"; exit 2; }
    cmake -S "$here" -B "$build" -DCMAKE_CXX_COMPILER=clang++ >/dev/null
    cmake --build "$build" -j "${TMA_JOBS:-$(nproc)}"
    ;;
  run)
    h=${3:?harness: descriptor, ptx, golden or encoder}
    shift 3
    exe="$build/fuzz_$h"
    [ -x "$exe" ] || { echo "run_fuzz.sh: $exe missing (run_fuzz.sh build $build)"; exit 2; }
    mkdir -p "$build/corpus/$h" "$build/findings/$h"
    cd "$build/findings/$h"
    "$exe" -timeout=10 -malloc_limit_mb=512 -rss_limit_mb=2048 -print_final_stats=1 \
      "$@" "$build/corpus/$h" "$here/corpus/$h"
    ;;
  *)
    echo "run_fuzz.sh: unknown command $cmd"; exit 2 ;;
esac
