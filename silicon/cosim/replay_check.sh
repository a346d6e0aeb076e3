#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds silicon/cosim/replay_check.cc against the C++ model (cmodel/src, compiled into
# build/cosim-model/) and replays the given otma-trace files through it.
#   silicon/cosim/replay_check.sh [TRACE.jsonl.gz ...]   (default: tests/vectors/cosim/*.jsonl.gz)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
obj="$root/build/cosim-model"
mkdir -p "$obj"
srcs=(types descriptor encoder tensormap_replace swizzle element traversal tensor_copy reduce
      bulk_group memory mbarrier bulk_copy ptx)
for f in "${srcs[@]}"; do
  if [ ! -f "$obj/$f.o" ] || [ "$root/cmodel/src/$f.cc" -nt "$obj/$f.o" ]; then
    echo "$f"
  fi
done | xargs -r -P2 -I{} g++ -std=c++17 -O2 -I"$root/cmodel/include" -c "$root/cmodel/src/{}.cc" -o "$obj/{}.o"
ar rcs "$obj/libtma_cmodel_cosim.a" $(printf "$obj/%s.o " "${srcs[@]}")
g++ -std=c++17 -O2 -Wall -Wextra -I"$root/cmodel/include" -I"$root/silicon/cosim" \
  -o "$obj/replay_check" "$root/silicon/cosim/replay_check.cc" "$obj/libtma_cmodel_cosim.a" -lz
if [ $# -eq 0 ]; then
  set -- "$root"/tests/vectors/cosim/*.jsonl.gz
fi
exec "$obj/replay_check" "$@"
