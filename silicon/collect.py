#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Splits the oracle's measured cases into per-category files (jsonl.gz) using the categories
the generator recorded, and prints a summary. Standard library only.

  collect.py --specs specs.jsonl --results cases.jsonl --outdir DIR
"""
import argparse
import collections
import gzip
import json
import os


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--specs", required=True)
    ap.add_argument("--results", required=True, nargs="+")
    ap.add_argument("--outdir", required=True)
    a = ap.parse_args()
    cat = {}
    for line in open(a.specs):
        d = json.loads(line)
        cat[d["id"]] = d["gen"]["category"]
    files = collections.defaultdict(list)
    for path in a.results:
        for line in open(path):
            line = line.strip()
            if not line:
                continue
            d = json.loads(line)
            c = cat.get(d["id"], "misc")
            if c == "bulk":  # non-tensor bulk cases, errors included, stay in one file
                pass
            elif "error" in d.get("expect", {}):
                c = "faults"
            elif c == "faults":  # predicted to fault but executed: file it with its kind
                c = {"store": "store", "reduce": "reduce", "prefetch": "prefetch"}.get(
                    d["op"], "multicast" if "cluster" in d else d.get("mode", "tile"))
            files[c].append(line)
    os.makedirs(a.outdir, exist_ok=True)
    total = 0
    for c, lines in sorted(files.items()):
        lines.sort(key=lambda l: json.loads(l)["id"])
        with gzip.open(os.path.join(a.outdir, c + ".jsonl.gz"), "wt", compresslevel=9) as f:
            for l in lines:
                f.write(l + "\n")
        hexn = sum(1 for l in lines if "smem" in json.loads(l)["expect"])
        print("%-10s %6d cases (%d with smem hex)" % (c, len(lines), hexn))
        total += len(lines)
    print("total %d" % total)


if __name__ == "__main__":
    main()
