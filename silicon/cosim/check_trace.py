#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks otma-trace v1 files (docs/cosim/trace-format.md) and counts what the co-simulation
acceptance check A2 asks of them (shared/research/cosim.md §6).

  check_trace.py TRACE.jsonl[.gz] ...  [--no-thresholds]

Per file it checks that the header comes first and is version 1; that every buffer's
`init_sha256` equals the SHA-256 of the contents regenerated from its `init` fill; that every
TMA record carries 128 raw descriptor bytes equal to its tensor map's in the header; that every
store / reduce source hash equals the SHA-256 of its `src_hex`; that for every mbarrier phase
of every CTA the bytes the loads deliver to it (its own loads plus the multicasts of the CTAs of
its cluster whose mask names it) equal the `expect_tx` the CTA armed; that every wait has a
stage hash; that the stage a wait hashes contains every load of its phase; and that there is a
`final` record per buffer. Over all files it counts operations and compares them with the A2
thresholds. Exit status: 0 all good, 1 a check failed or a threshold was missed, 2 usage.
Standard library only.
"""
import argparse
import collections
import gzip
import hashlib
import json
import struct
import sys

THRESHOLDS = [
    ("tma_ops", 2000, "captured TMA operations"),
    ("multicast_loads", 200, "multicast loads"),
    ("oob_ops", 100, "operations with out-of-bounds bytes"),
    ("stores", 50, "TMA stores"),
    ("store_groups", 10, "bulk groups holding stores"),
    ("im2col_loads", 200, "im2col loads"),
    ("reductions", 50, "TMA reductions"),
]

MASK64 = (1 << 64) - 1
ESIZE = {"u8": 1, "u16": 2, "u32": 4, "s32": 4, "u64": 8, "s64": 8, "f16": 2, "f32": 4,
         "f64": 8, "bf16": 2, "tf32": 4}


def splitmix64(x):
    z = (x + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def encode_int(v, dtype):
    """A small integer as the element type's little-endian bytes (exact)."""
    if dtype == "bf16":
        return struct.pack("<I", struct.unpack("<I", struct.pack("<f", float(v)))[0])[2:]
    if dtype == "f32":
        return struct.pack("<f", float(v))
    if dtype == "f16":
        return struct.pack("<e", float(v))
    fmt = {"u8": "<B", "u16": "<H", "u32": "<I", "s32": "<i", "u64": "<Q", "s64": "<q"}[dtype]
    return struct.pack(fmt, v)


def generate(buf):
    """Regenerates a buffer's initial contents from its `init` fill."""
    init, n = buf["init"], buf["bytes"]
    kind = init["fill"]
    if kind == "const":
        return bytes([init["value"]]) * n
    if kind == "splitmix64":
        s = init["seed"]
        return bytes(splitmix64(s + i) & 0xFF for i in range(n))
    if kind == "ints":
        s, lo, hi = init["seed"], init["lo"], init["hi"]
        es = ESIZE[buf["dtype"]]
        table = {v: encode_int(v, buf["dtype"]) for v in range(lo, hi + 1)}
        span = hi - lo + 1
        out = bytearray()
        for i in range(n // es):
            out += table[splitmix64(s + i) % span + lo]
        out += bytes(n - len(out))
        return bytes(out)
    raise ValueError("fill %r not generated here" % kind)


def off(addr):
    """The CTA-relative offset of a shared address: in a cluster launch the addresses a CTA sees
    carry its %cluster_ctarank in bits 24 and up (docs/cosim/trace-format.md)."""
    return addr & 0xFFFFFF


def check_file(path, totals, verbose):
    errors = []
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        recs = [json.loads(line) for line in f if line.strip()]
    if not recs or recs[0].get("rec") != "header":
        return ["%s: the first record is not a header" % path]
    h = recs[0]
    if h.get("format") != "otma-trace" or h.get("version") != 1:
        errors.append("header: not otma-trace v1")
    for b in h["buffers"]:
        try:
            got = hashlib.sha256(generate(b)).hexdigest()
            if got != b["init_sha256"]:
                errors.append("buffer %s: regenerated fill hash %s != init_sha256" % (b["name"], got))
        except ValueError as e:
            errors.append("buffer %s: %s" % (b["name"], e))
    functional = h.get("capture", {}).get("stage_hash", True)
    tdesc = {t["name"]: t["desc"] for t in h["tensors"]}
    cluster = h["cluster"][0] * h["cluster"][1] * h["cluster"][2]
    n = collections.Counter()
    armed = {}                              # (cta, mbar, phase) -> expect_tx
    delivered = collections.Counter()       # (cta, mbar, phase) -> bytes
    load_ranges = collections.defaultdict(list)
    cta_of = {}                             # (cluster_id, rank) -> cta
    groups = set()
    finals = set()
    waits = []
    for r in recs[1:]:
        kind = r["rec"]
        n["rec_" + kind] += 1
        if kind == "cta":
            cta_of[(tuple(r["cluster_id"]), r["rank"])] = tuple(r["cta"])
        elif kind == "arm":
            key = (tuple(r["cta"]), off(r["mbar_addr"]), r["phase"])
            if key in armed:
                errors.append("phase armed twice: %s" % (key,))
            armed[key] = r["expect_tx"]
        elif kind == "wait":
            waits.append(r)
            if "stage_sha256" not in r:
                n["waits_without_hash"] += 1
        elif kind == "final":
            finals.add(r["buffer"])
        elif kind == "tma":
            n["tma_ops"] += 1
            if len(r.get("desc", "")) != 256 or r["desc"] != tdesc.get(r["tensor_name"]):
                errors.append("seq %d: descriptor bytes differ from the header's" % r["seq"])
            if r.get("oob_bytes", 0) > 0:
                n["oob_ops"] += 1
            op = r["op"]
            if op == "load":
                n["loads"] += 1
                mask = r.get("cluster", {}).get("cta_mask")
                if mask is not None:
                    n["multicast_loads"] += 1
                if r["mode"] == "im2col":
                    n["im2col_loads"] += 1
                dests = [r["rank"]] if mask is None else [k for k in range(16) if mask >> k & 1]
                for d in dests:
                    cta = tuple(r["cta"]) if d == r["rank"] else ("rank", tuple(r["cluster_id"]), d)
                    delivered[(cta, off(r["mbar_addr"]), r["phase"])] += r["bytes"]
                    load_ranges[(cta, off(r["mbar_addr"]), r["phase"])].append(
                        (off(r["smem_addr"]), off(r["smem_addr"]) + r["bytes"]))
            elif op in ("store", "reduce"):
                n["stores" if op == "store" else "reductions"] += 1
                groups.add((tuple(r["cta"]), r["warp"], r["group"]))
                if op == "store" and functional:
                    totals["_store_group_keys"].add((path, tuple(r["cta"]), r["warp"], r["group"]))
                src = r.get("src_hex")
                if src is None:
                    n["stores_without_src"] += 1
                elif hashlib.sha256(bytes.fromhex(src)).hexdigest() != r["src_sha256"]:
                    errors.append("seq %d: src_sha256 is not the hash of src_hex" % r["seq"])
                elif len(src) != 2 * r["bytes"]:
                    errors.append("seq %d: src_hex length != bytes" % r["seq"])
    # Multicast deliveries were keyed by (cluster, rank): map them to CTAs.
    resolved = collections.Counter()
    resolved_ranges = collections.defaultdict(list)
    for key, v in delivered.items():
        cta = key[0]
        if cta and cta[0] == "rank":
            cta = cta_of.get((cta[1], cta[2]), cta)
        resolved[(cta, key[1], key[2])] += v
        resolved_ranges[(cta, key[1], key[2])] += load_ranges[key]
    for key, tx in armed.items():
        if resolved.get(key, 0) != tx:
            errors.append("CTA %s mbarrier %d phase %d: expect_tx %d, loads deliver %d"
                          % (key[0], key[1], key[2], tx, resolved.get(key, 0)))
    for key in resolved:
        if key not in armed:
            errors.append("CTA %s mbarrier %d phase %d: loads deliver %d to an unarmed phase"
                          % (key[0], key[1], key[2], resolved[key]))
    for w in waits:
        key = (tuple(w["cta"]), off(w["mbar_addr"]), w["phase"])
        lo, hi = off(w["stage_addr"]), off(w["stage_addr"]) + w["stage_bytes"]
        for a, b in resolved_ranges.get(key, []):
            if a < lo or b > hi:
                errors.append("wait on %s: a load writes [%d, %d) outside the stage" % (key, a, b))
        if key not in armed:
            errors.append("wait on %s: phase never armed" % (key,))
    for b in h["buffers"]:
        if b["name"] not in finals:
            errors.append("no final record for buffer %s" % b["name"])
    if functional and n["waits_without_hash"]:
        errors.append("%d waits without a stage hash" % n["waits_without_hash"])
    if functional and n["stores_without_src"]:
        errors.append("%d stores / reductions without src_hex" % n["stores_without_src"])
    n["store_groups_all"] = len(groups)
    counted = ("tma_ops", "multicast_loads", "oob_ops", "stores", "im2col_loads", "reductions",
               "loads") if functional else ()
    for k in counted:
        totals[k] += n[k]
    if functional:
        totals["waits"] += len(waits)
        totals["phases"] += len(armed)
    line = ("" if functional else "(timing capture, not counted) ") + "%s: kernel %s, %d records: %d TMA ops (%d loads, %d multicast, %d im2col, %d stores, " \
           "%d reductions, %d with OOB bytes), %d waits, %d armed phases, %d bulk groups" % (
               path, h.get("kernel"), len(recs), n["tma_ops"], n["loads"], n["multicast_loads"],
               n["im2col_loads"], n["stores"], n["reductions"], n["oob_ops"], len(waits),
               len(armed), len(groups))
    print(line)
    if verbose:
        print("  header capture:", json.dumps(h.get("capture", {})))
    return ["%s: %s" % (path, e) for e in errors]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("traces", nargs="+")
    ap.add_argument("--no-thresholds", action="store_true",
                    help="check the files only, not the A2 counts")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    totals = collections.Counter()
    totals["_store_group_keys"] = set()
    errors = []
    for p in a.traces:
        errors += check_file(p, totals, a.verbose)
    totals["store_groups"] = len(totals["_store_group_keys"])
    ok = not errors
    for e in errors[:50]:
        print("ERROR", e)
    if len(errors) > 50:
        print("ERROR ... %d more" % (len(errors) - 50))
    print("%-40s %8s %8s" % ("A2 count", "traces", "needed"))
    for key, need, what in THRESHOLDS:
        got = totals[key]
        miss = got < need
        print("%-40s %8d %8d%s" % (what, got, need, "  MISSED" if miss else ""))
        if miss and not a.no_thresholds:
            ok = False
    print("consistency: %d armed phases, complete-tx sums %s; %d waits" % (
        totals["phases"], "checked" if not errors else "see errors", totals["waits"]))
    print("check_trace: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
