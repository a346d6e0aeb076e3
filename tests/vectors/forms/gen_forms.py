#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes seed_forms.jsonl: one golden case for every load and prefetch form of the seeds, on
every architecture the engine knows (Python 3 stdlib only; re-running leaves the file as is).

The forms, from the syntax blocks of ../../../../shared/seeds/001_cd298048cf4fd0ee.txt
(cp.async.bulk.tensor, global -> shared::cta and global -> shared::cluster) and
000_8306342d57e5fce0.txt (cp.async.bulk.prefetch.tensor):
  load:     .dim x .dst {.shared::cta, .shared::cluster} x .load_mode {.tile, .tile::gather4,
            .im2col, .im2col::w, .im2col::w::128} x {.multicast::cluster (shared::cluster
            only)} x {none, .cta_group::1, .cta_group::2}
  prefetch: .dim x .load_mode {.tile, .tile::gather4, .im2col, .im2col::w, .im2col::w::128}
(.L2::cache_hint changes no result and is left out). Dims: tile 1..5, gather4 2 (its four
rows are one 2-D box), im2col and im2col::w* 3..5 (PTX: im2col needs at least 3 dims).

Each form gets a small map whose box lies inside the tensor, so the expectation is the PTX
text's: on sm_100a / sm_103a every form is legal and a load signals its complete-tx (rows x
row bytes per destination CTA; shared memory is not compared: the other hand cases do that);
on sm_90 the forms the seeds give to sm_100 only (tile::gather4, im2col::w, im2col::w::128,
.cta_group::2) are `unsupported`, except im2col::w*, whose map (cuTensorMapEncodeIm2colWide, an
sm_100 encoder) is already refused: `invalid_descriptor`.

The ctest rtl/seed_forms replays the file through the RTL with --fail-on-skip: a form the RTL
answers `unsupported` where the seeds make it legal is a SKIP and fails the test.
"""

import json
import os
import sys

ARCHS = ("sm_90", "sm_100a", "sm_103a")
E = 2  # u16


def tensor(mode, r):
    """A u16 map of rank r for the mode whose box or column stays inside the tensor."""
    if mode in ("tile", "tile::gather4"):
        dims = [32, 8, 4, 4, 2][:r]
        box = [16, 2, 2, 1, 1][:r]
        if mode == "tile::gather4":
            box = [16, 1]
        strides = []
        s = dims[0] * E
        for d in range(1, r):
            strides.append(s)
            s *= dims[d]
        return {"dtype": "u16", "rank": r, "dims": dims, "strides": strides,
                "element_strides": [1] * r, "interleave": "none", "swizzle": "none",
                "l2_promotion": "none", "oob_fill": "zero", "box": box}, s
    # im2col family: C 16 (32-byte pixels), W 8, H / D 4, N 2
    dims = [16, 8, 4, 4, 2][:r - 1] + [2]
    strides = []
    s = dims[0] * E
    for d in range(1, r):
        strides.append(s)
        s *= dims[d]
    wide = mode.startswith("im2col::w")
    t = {"dtype": "u16", "rank": r, "dims": dims, "strides": strides,
         "element_strides": [1] * r, "interleave": "none",
         "swizzle": "64B" if wide else "none", "l2_promotion": "none", "oob_fill": "zero",
         "channels_per_pixel": 16, "pixels_per_column": 4}
    if wide:
        t["lower"], t["upper"] = [0], [0]
        t["wide_mode"] = "w128" if mode.endswith("::128") else "w"
    else:
        t["lower"], t["upper"] = [0] * (r - 2), [0] * (r - 2)
    return t, s


def rows_and_bytes(mode, t, im2col):
    """Rows of the box and shared bytes of a row (PTX / tensor-semantics 3, 5, 6, 7)."""
    if mode == "tile":
        rows = 1
        for b in t["box"][1:]:
            rows *= b
        return rows, t["box"][0] * E
    if mode == "tile::gather4":
        return 4, t["box"][0] * E
    row = t["channels_per_pixel"] * E
    if mode == "im2col":
        return t["pixels_per_column"], row
    if mode == "im2col::w":
        return t["pixels_per_column"] + im2col[0], row
    return 128 + 4 * im2col[0], row  # im2col::w::128: four groups of 32 plus wHalo each


def forms():
    for mode in ("tile", "tile::gather4", "im2col", "im2col::w", "im2col::w::128"):
        dims = {"tile": range(1, 6), "tile::gather4": [2]}.get(mode, range(3, 6))
        for r in dims:
            for op in ("load", "prefetch"):
                if op == "prefetch":
                    yield op, mode, r, None, False, 0
                    continue
                for dst in ("cta", "cluster"):
                    for mc in ((False,) if dst == "cta" else (False, True)):
                        for cg in (0, 1, 2):
                            yield op, mode, r, dst, mc, cg


def case(arch, op, mode, r, dst, mc, cg):
    t, gbytes = tensor(mode, r)
    if mode == "tile::gather4":
        coords = [0, 1, 3, 5, 7]
    else:
        coords = [0] * r
    im2col = None
    if mode == "im2col":
        im2col = [0] * (r - 2)
    elif mode.startswith("im2col::w"):
        im2col = [1, 0]  # wHalo 1, wOffset 0
    name = mode.replace("::", "-")
    cid = "form-%s-%s-%dd" % (op, name, r)
    if op == "load":
        cid += "-%s%s-cg%d" % (dst, "-mcast" if mc else "", cg)
    cid += "-" + arch
    m = "" if mode == "tile" else "." + mode
    if op == "load":
        ptx = "cp.async.bulk.tensor.%dd.shared::%s.global%s.mbarrier::complete_tx::bytes%s%s" % (
            r, dst, m, ".multicast::cluster" if mc else "", ".cta_group::%d" % cg if cg else "")
    else:
        ptx = "cp.async.bulk.prefetch.tensor.%dd.L2.global%s" % (r, m)
    c = {"id": cid, "source": "hand", "ptx": ptx, "op": op, "mode": mode, "tensor": t,
         "coords": coords}
    if im2col is not None:
        c["im2col"] = im2col
    ctas = 2 if op == "load" and dst == "cluster" else 1
    if op == "load" and dst == "cluster":
        cl = {"ctas": 2, "issuer": 0}
        if mc:
            cl["cta_mask"] = 3
        if cg:
            cl["cta_group"] = cg
        c["cluster"] = cl
    elif op == "load" and cg:
        c["cluster"] = {"ctas": 1, "issuer": 0, "cta_group": cg}
    c["global"] = {"bytes": (gbytes + 255) // 256 * 256, "offset": 0, "fill": "splitmix64",
                   "seed": 7}
    rows, row_bytes = rows_and_bytes(mode, t, im2col)
    pitch = max(row_bytes, 64) if t["swizzle"] == "64B" else row_bytes
    if op == "load":
        c["smem"] = {"bytes": (rows * pitch + 1023) // 1024 * 1024, "dst": 0, "fill": "const",
                     "value": 165}
        if dst == "cta":
            c["smem_space"] = "cta"
    c["arch"] = arch
    sm100_only = mode in ("tile::gather4", "im2col::w", "im2col::w::128") or cg == 2
    if arch == "sm_90" and mode.startswith("im2col::w"):
        c["expect"] = {"error": "invalid_descriptor"}
    elif arch == "sm_90" and sm100_only:
        c["expect"] = {"error": "unsupported"}
    elif op == "prefetch":
        c["expect"] = {"global_diff": []}
    else:
        tx = rows * row_bytes
        c["expect"] = {"complete_tx_bytes": [tx] * ctas if ctas > 1 and mc else tx}
    return c


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "seed_forms.jsonl")
    n = 0
    with open(out, "w") as f:
        for arch in ARCHS:
            for form in forms():
                f.write(json.dumps(case(arch, *form), separators=(",", ":")) + "\n")
                n += 1
    print("%s: %d cases" % (os.path.basename(out), n))


if __name__ == "__main__":
    main()
