#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the seed corpora of the libFuzzer harnesses into tests/fuzz/corpus/<harness>/.

  descriptor  the 128-byte maps the H100 driver wrote (tests/vectors/silicon/encoder: the first
              verdict of each (api, type, rank mod 3, accepted), accepted ones)
  encoder     the same verdicts' parameters in fuzz_encoder.cc's input layout
  ptx         the seeds' PTX example statements (tests/cmodel/data/seed_examples.txt), each
              behind an 8-byte register seed
  golden      every hand-written golden case (tests/vectors/hand/*.jsonl), one per file
Deterministic; run it to rebuild the seeds. The harnesses' runs add what they find elsewhere
(run_fuzz.sh); a minimized merge of those finds is kept in the same folders.
"""
import glob
import gzip
import hashlib
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def put(harness, data):
    d = os.path.join(HERE, "corpus", harness)
    os.makedirs(d, exist_ok=True)
    name = "seed-" + hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def encoder_input(v):
    api = {"tiled": 0, "im2col": 1}[v["api"]]
    b = struct.pack("<BBBB", api, 0, v["dtype"], v["rank"])
    b += struct.pack("<Q", v["address"] & (2 ** 64 - 1))
    dims = (v["dims"] + [1] * 5)[:5]
    strides = (v["strides"] + [0] * 4)[:4]
    for x in dims:
        b += struct.pack("<QB", x & (2 ** 64 - 1), 0)
    for x in strides:
        b += struct.pack("<QB", x & (2 ** 64 - 1), 0)
    box = (v.get("box") or [1] * 5) + [1] * 5
    for x in box[:5]:
        b += struct.pack("<H", x % 300)
    for x in (v["element_strides"] + [1] * 5)[:5]:
        b += struct.pack("<B", x % 10)
    lower = (v.get("lower") or []) + [0] * 3
    upper = (v.get("upper") or []) + [0] * 3
    for lo, up in zip(lower[:3], upper[:3]):
        b += struct.pack("<bb", max(-128, min(127, lo)), max(-128, min(127, up)))
    b += struct.pack("<HH", v.get("channels_per_pixel", 0) % 600,
                     v.get("pixels_per_column", 0) % 1100)
    b += struct.pack("<BBBBB", v["interleave"], v["swizzle"], v["l2_promotion"], v["oob_fill"], 0)
    return b


def main():
    for old in glob.glob(os.path.join(HERE, "corpus", "*", "seed-*")):
        os.remove(old)
    seen = set()
    with gzip.open(os.path.join(ROOT, "tests/vectors/silicon/encoder/encoder_verdicts.jsonl.gz"),
                   "rt") as f:
        for line in f:
            v = json.loads(line)
            key = (v["api"], v["dtype"], v["rank"] % 3, v["accepted"])
            if key in seen:
                continue
            seen.add(key)
            put("encoder", encoder_input(v))
            if v["accepted"] and v.get("descriptor"):
                put("descriptor", bytes.fromhex(v["descriptor"]))
    with open(os.path.join(ROOT, "tests/cmodel/data/seed_examples.txt")) as f:
        for i, line in enumerate(f):
            if line.startswith("#") or "\t" not in line:
                continue
            text = line.rstrip("\n").split("\t", 1)[1]
            put("ptx", struct.pack("<Q", i * 0x9E3779B97F4A7C15 % 2 ** 64) + text.encode())
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/vectors/hand/*.jsonl"))):
        with open(path, "rb") as f:
            for line in f:
                if line.strip() and not line.startswith(b"#"):
                    put("golden", line)
    for h in ("descriptor", "encoder", "ptx", "golden"):
        print("%s: %d files" % (h, len(os.listdir(os.path.join(HERE, "corpus", h)))))


if __name__ == "__main__":
    main()
