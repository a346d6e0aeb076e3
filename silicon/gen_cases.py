#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Draws golden-case specs (shared/spec/golden-cases.md, everything but `expect`) for the
silicon oracle, and parameter sets for the encoder sweep. Python standard library only.

  gen_cases.py cases   --count N --seed S --out specs.jsonl
  gen_cases.py encoder --count N --seed S --out params.jsonl
  gen_cases.py bulk    --count N --seed S --out specs.jsonl   (non-tensor bulk operations)

Each case carries a "gen" object that the oracle reads and drops: the category (output file),
the fault the silicon findings predict ("illegal_instruction", "misaligned_address",
"launch_failure") with its error class, and whether to keep the full smem hex.
"""
import argparse
import json
import random

DTYPES = ["u8", "u16", "u32", "s32", "u64", "s64", "f16", "f32", "f64", "bf16", "f32.ftz",
          "tf32", "tf32.ftz"]
DT_ENUM = {n: k for k, n in enumerate(DTYPES + ["b4x16", "b4x16_p64", "b6x16_p32"])}
ESIZE = {"u8": 1, "u16": 2, "u32": 4, "s32": 4, "u64": 8, "s64": 8, "f16": 2, "f32": 4,
         "f64": 8, "bf16": 2, "f32.ftz": 4, "tf32": 4, "tf32.ftz": 4}
FLOATS = {"f16", "f32", "f64", "bf16", "f32.ftz", "tf32", "tf32.ftz"}
SWZ = ["none", "32B", "64B", "128B"]
SPAN = {"none": 0, "32B": 32, "64B": 64, "128B": 128}
IL = ["none", "16B", "32B"]
CHUNK = {"16B": 16, "32B": 32}
L2 = ["none", "64B", "128B", "256B"]
REDOPS = ["add", "min", "max", "inc", "dec", "and", "or", "xor"]
# silicon-findings F5: the (redop, type) pairs that execute on sm_90.
RED_OK = {
    "add": ["u32", "s32", "u64", "f32", "f16", "bf16", "f64", "tf32", "f32.ftz"],
    "min": ["u32", "s32", "u64", "s64", "f16", "bf16"],
    "max": ["u32", "s32", "u64", "s64", "f16", "bf16"],
    "inc": ["u32"], "dec": ["u32"],
    "and": ["u32", "s32", "u64"], "or": ["u32", "s32", "u64"], "xor": ["u32", "s32", "u64"],
}
BOX_LIMIT = 233472


def cdiv(a, b):
    return -(-a // b)


def rup(a, b):
    return cdiv(a, b) * b


# ---- encoder rules (silicon-findings 'Encoder rules'), used to keep valid cases valid ----
def encoder_violations(p):
    """p: dict with numeric driver enums (the encoder-sweep format). Returns rule numbers."""
    v = []
    im2col = p["api"] == "im2col"
    dt, r = p["dtype"], p["rank"]
    if not (0 <= dt <= 12):
        v.append(1)
    e = [1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4][dt] if 0 <= dt <= 12 else 1
    if not (1 <= r <= 5) or (im2col and r < 3):
        v.append(2)
        return v
    il, sw = p["interleave"], p["swizzle"]
    if not (0 <= il <= 2):
        v.append(3)
    elif il != 0 and r < 3:
        v.append(3)
    if not (0 <= sw <= 3):
        v.append(4)
    if not (0 <= p["l2_promotion"] <= 3):
        v.append(5)
    if not (0 <= p["oob_fill"] <= 1):
        v.append(5)
    if p["oob_fill"] == 1 and dt not in (6, 7, 8, 9, 10, 11, 12):
        v.append(6)
    align = 32 if il == 2 else 16
    if p["address"] % align:
        v.append(7)
    if any(not (1 <= d <= 1 << 32) for d in p["dims"][:r]):
        v.append(8)
    if any(s % align or s >= 1 << 40 for s in p["strides"][:r - 1]):
        v.append(9)
    if any(not (1 <= s <= 8) for s in p["element_strides"][:r]):
        v.append(10)
    span = {1: 32, 2: 64, 3: 128}.get(sw, 0)
    if not im2col:
        box, es = p["box"][:r], p["element_strides"][:r]
        if any(not (1 <= b <= 256) for b in box):
            v.append(11)
        if (box[0] * e) % 16:
            v.append(12)
        if il == 0 and span and box[0] * e > span:
            v.append(13)
        prod = e
        for b, s in zip(box, es):
            prod *= (b // s) if s else 0
        if prod > BOX_LIMIT:
            v.append(14)
    else:
        lim = {3: 32768, 4: 128, 5: 16}[r]
        lo, up = p["lower"][:r - 2], p["upper"][:r - 2]
        if any(not (-lim <= c < lim) for c in lo + up):
            v.append(15)
        sp = range(0, r - 2) if il != 0 else range(1, r - 1)
        for k, d in enumerate(sp):
            if k < len(lo):
                # measured: the sum dim + upper wraps to 32-bit signed, then is compared with
                # lower (tests/vectors/silicon/encoder/encoder_verdicts.jsonl.gz, docs/silicon-notes.md)
                x = (p["dims"][d] + up[k]) & 0xFFFFFFFF
                if x >= 1 << 31:
                    x -= 1 << 32
                if x <= lo[k]:
                    v.append(16)
                    break
        cpp, ppc = p["channels_per_pixel"], p["pixels_per_column"]
        if not (1 <= cpp <= 256) or (cpp * e) % 16:
            v.append(17)
        if not (1 <= ppc <= 1024):
            v.append(18)
        if il == 0 and span and cpp * e > span:
            v.append(19)
        if cpp * e * ppc > BOX_LIMIT:
            v.append(20)
    return v


def tensor_params(t, api, address=0x7F0000000000):
    r = t["rank"]
    p = {"api": api, "dtype": DT_ENUM[t["dtype"]], "rank": r, "address": address,
         "dims": t["dims"], "strides": t["strides"], "element_strides": t["element_strides"],
         "interleave": IL.index(t["interleave"]),
         "swizzle": SWZ.index(t["swizzle"]) if t["swizzle"] in SWZ else 4,
         "l2_promotion": L2.index(t["l2_promotion"]), "oob_fill": 1 if t["oob_fill"] == "nan" else 0}
    if api == "tiled":
        p["box"] = t["box"]
    else:
        p.update(lower=t["lower"], upper=t["upper"], channels_per_pixel=t["channels_per_pixel"],
                 pixels_per_column=t["pixels_per_column"])
    return p


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.cases = []
        self.ids = {}

    def new_id(self, prefix):
        n = self.ids.get(prefix, 0)
        self.ids[prefix] = n + 1
        return "%s-%05d" % (prefix, n)

    # ---- tensor geometry ----
    def strides_for(self, dims, dim0_bytes, align, pad_prob=0.5):
        rng = self.rng
        s = []
        prev = rup(dim0_bytes, align)
        if rng.random() < pad_prob:
            prev += align * rng.randint(1, 4)
        for k in range(1, len(dims)):
            s.append(prev)
            nxt = prev * dims[k]
            if rng.random() < pad_prob * 0.5:
                nxt += align * rng.randint(1, 3)
            prev = nxt
        return s

    @staticmethod
    def extent(t):
        e = ESIZE[t["dtype"]]
        il = t["interleave"]
        d0 = t["dims"][0] * (e if il == "none" else CHUNK[il])
        return d0 + sum((t["dims"][k] - 1) * t["strides"][k - 1] for k in range(1, t["rank"]))

    def global_for(self, t, fill="splitmix64", align=16, value=None):
        rng = self.rng
        off = rng.choice([0, 0, 0, align, 2 * align, 16 * align, 256])
        if off % align:
            off = 0
        n = rup(off + self.extent(t) + 256, 256)
        g = {"bytes": n, "offset": off, "fill": fill}
        if fill == "const":
            g["value"] = value if value is not None else rng.choice([0, 0xEE, 0x5A])
        else:
            g["seed"] = rng.randrange(1 << 32)
        return g

    def smem_for(self, footprint, dst, fill=None, slack=128):
        rng = self.rng
        n = rup(dst + footprint, 128) + slack
        s = {"bytes": n, "dst": dst}
        fill = fill or rng.choice(["const", "const", "const", "splitmix64"])
        s["fill"] = fill
        if fill == "const":
            s["value"] = rng.choice([0xA5, 0xA5, 0x00, 0xFF, 0x5C])
        else:
            s["seed"] = rng.randrange(1 << 32)
        return s

    def coord(self, dim, span, align_elems=1, kind=None):
        rng = self.rng
        kind = kind or rng.choices(["in", "low", "high", "out", "far"], [60, 12, 14, 10, 4])[0]
        if kind == "in":
            c = rng.randint(0, max(0, dim - span))
        elif kind == "low":
            c = rng.randint(-span + 1, -1) if span > 1 else -1
        elif kind == "high":
            hi = max(0, dim - 1)
            c = rng.randint(min(hi, max(0, dim - span + 1)), hi)
        elif kind == "out":
            c = rng.choice([rng.randint(dim, dim + 40), rng.randint(-span - 40, -span)])
        else:
            c = rng.choice([-1000000, -65536, 1 << 20, (1 << 31) - 4096, -(1 << 31)])
        if align_elems > 1:
            c = (c // align_elems) * align_elems
        return c

    # ---- tile tensors ----
    def tile_tensor(self, rank=None, dtype=None, interleave=None, swizzle=None, max_box_bytes=16384,
                    allow_nan=True, es_max=8):
        rng = self.rng
        for _ in range(1000):
            r = rank or rng.choice([1, 2, 2, 3, 3, 4, 5])
            dt = dtype or rng.choice(DTYPES)
            e = ESIZE[dt]
            il = interleave or ("none" if r < 3 or rng.random() < 0.85 else rng.choice(["16B", "32B"]))
            if il != "none" and r < 3:
                continue
            sw = swizzle or rng.choice(SWZ)
            span = SPAN[sw]
            if il == "none":
                maxrow = min(256 * e, span if span else 256 * e, 512)
                rows = [b for b in range(16, maxrow + 1, 16) if (b // e) <= 256 and b % e == 0]
                if not rows:
                    continue
                rowb = rng.choice(rows)
                box0 = rowb // e
            else:
                step = max(1, 16 // e)
                box0 = step * rng.randint(1, max(1, 16 // step))
            box = [box0] + [rng.choice([1, 1, 2, 3, 4, 5, 7, 8, 13, 16]) for _ in range(r - 1)]
            es = [1] * r
            for k in range(r):
                if rng.random() < 0.3:
                    es[k] = rng.randint(1, es_max)
            # dims
            dims = []
            for k in range(r):
                if k == 0:
                    base = box0 if il == "none" else cdiv(box0, 1)
                    dims.append(rng.randint(1, max(2, base * 2 + 7)))
                else:
                    dims.append(rng.randint(1, max(2, box[k] * es[k] + 5)))
            t = {"dtype": dt, "rank": r, "dims": dims, "strides": [],
                 "element_strides": es, "interleave": il, "swizzle": sw,
                 "l2_promotion": rng.choice(L2),
                 "oob_fill": "nan" if (allow_nan and dt in FLOATS and rng.random() < 0.4) else "zero",
                 "box": box}
            align = 32 if il == "32B" else 16
            d0b = dims[0] * (e if il == "none" else CHUNK[il])
            t["strides"] = self.strides_for(dims, d0b, align)
            if self.extent(t) > 900000:
                continue
            if self.tile_smem_bytes(t) > max_box_bytes:
                continue
            if encoder_violations(tensor_params(t, "tiled")):
                continue
            return t
        raise RuntimeError("no tile tensor")

    @staticmethod
    def tile_rows(t, upper=False):
        r = t["rank"]
        n = 1
        for k in range(1, r):
            if t["interleave"] != "none" and k == r - 2 and not upper:
                continue
            n *= cdiv(t["box"][k], t["element_strides"][k])
        return n

    @staticmethod
    def tile_rowbytes(t):
        e = ESIZE[t["dtype"]]
        if t["interleave"] == "none":
            return t["box"][0] * e
        return cdiv(t["box"][0], t["element_strides"][0]) * CHUNK[t["interleave"]]

    def tile_smem_bytes(self, t):
        rowb = self.tile_rowbytes(t)
        span = SPAN.get(t["swizzle"], 128)
        pitch = max(rowb, span) if span else rowb
        return self.tile_rows(t, upper=True) * pitch

    def tile_coords(self, t, kinds=None):
        e = ESIZE[t["dtype"]]
        c = []
        for k in range(t["rank"]):
            if k == 0:
                if t["interleave"] == "none":
                    span, al = t["box"][0], max(1, 16 // e)
                else:
                    span, al = (cdiv(t["box"][0], t["element_strides"][0]) - 1) * t["element_strides"][0] + 1, 1
            else:
                span, al = (cdiv(t["box"][k], t["element_strides"][k]) - 1) * t["element_strides"][k] + 1, 1
            c.append(self.coord(t["dims"][k], span, al, kinds[k] if kinds else None))
        return c

    def hexflag(self, total):
        return total <= 512 or (self.rng.random() < 0.22 and total <= 24576)

    def emit(self, case, category, fault=None, error=None, hexbytes=None):
        gen = {"category": category}
        if fault:
            gen["fault"] = fault
            gen["error"] = error
        elif error:
            gen["error"] = error
        if hexbytes is not None:
            gen["hex"] = self.hexflag(hexbytes)
        case["gen"] = gen
        self.cases.append(case)

    # ---- case builders ----
    def tile_load(self, prefix="tile", category="tile", t=None, coords=None, dst=None, cta=False,
                  fault=None, error=None, gfill="splitmix64", sfill=None):
        rng = self.rng
        t = t or self.tile_tensor()
        coords = coords if coords is not None else self.tile_coords(t)
        dst = dst if dst is not None else 128 * rng.randint(0, 7)
        r = t["rank"]
        slack = 128 if t["interleave"] == "none" else 1024
        sm = self.smem_for(self.tile_smem_bytes(t), dst, fill=sfill, slack=slack)
        ptx = "cp.async.bulk.tensor.%dd.shared::%s.global.tile.mbarrier::complete_tx::bytes" % (
            r, "cta" if cta else "cluster")
        case = {"id": self.new_id(prefix), "ptx": ptx, "op": "load", "mode": "tile", "tensor": t,
                "coords": coords,
                "global": self.global_for(t, gfill, 32 if t["interleave"] == "32B" else 16),
                "smem": sm}
        self.emit(case, category, fault, error, sm["bytes"])
        return case

    def im2col_tensor(self, rank=None, dtype=None, interleave=None, max_bytes=16384):
        rng = self.rng
        for _ in range(2000):
            r = rank or rng.choice([3, 4, 4, 5])
            dt = dtype or rng.choice(DTYPES)
            e = ESIZE[dt]
            il = interleave or ("none" if rng.random() < 0.85 else rng.choice(["16B", "32B"]))
            sw = rng.choice(SWZ)
            span = SPAN[sw]
            lim = {3: 32768, 4: 128, 5: 16}[r]
            step = max(1, 16 // e)
            maxc = min(256, (span // e) if (span and il == "none") else 256, 256 // e * 2)
            cpps = [c for c in range(step, maxc + 1, step)]
            if not cpps:
                continue
            cpp = rng.choice(cpps[:8])
            ppc = rng.choice([1, 2, 3, 5, 8, 13, 16, 24, 32, 47, 64, 100])
            # dims: C, spatial..., N (interleave: W(chunks), spatial..., Cgroups, N)
            dims = [0] * r
            if il == "none":
                dims[0] = rng.randint(1, cpp * 2 + 3)
                for k in range(1, r - 1):
                    dims[k] = rng.randint(1, 9)
            else:
                for k in range(0, r - 2):
                    dims[k] = rng.randint(1, 9)
                dims[r - 2] = rng.randint(1, 4)
            dims[r - 1] = rng.randint(1, 3)
            lower = [max(-lim, rng.randint(-3, 1)) for _ in range(r - 2)]
            upper = [min(lim - 1, rng.randint(-3, 2)) for _ in range(r - 2)]
            es = [rng.randint(1, 3) if rng.random() < 0.4 else 1 for _ in range(r)]
            t = {"dtype": dt, "rank": r, "dims": dims, "strides": [], "element_strides": es,
                 "interleave": il, "swizzle": sw, "l2_promotion": rng.choice(L2),
                 "oob_fill": "nan" if (dt in FLOATS and rng.random() < 0.4) else "zero",
                 "lower": lower, "upper": upper, "channels_per_pixel": cpp,
                 "pixels_per_column": ppc}
            align = 32 if il == "32B" else 16
            d0b = dims[0] * (e if il == "none" else CHUNK[il])
            t["strides"] = self.strides_for(dims, d0b, align)
            if self.extent(t) > 900000 or self.im2col_smem_bytes(t) > max_bytes:
                continue
            if encoder_violations(tensor_params(t, "im2col")):
                continue
            return t
        raise RuntimeError("no im2col tensor")

    @staticmethod
    def im2col_smem_bytes(t):
        e = ESIZE[t["dtype"]]
        rowb = t["channels_per_pixel"] * e if t["interleave"] == "none" else CHUNK[t["interleave"]]
        span = SPAN[t["swizzle"]]
        return t["pixels_per_column"] * (max(rowb, span) if span else rowb)

    @staticmethod
    def spatial_dims(t):
        r = t["rank"]
        return list(range(0, r - 2)) if t["interleave"] != "none" else list(range(1, r - 1))

    def im2col_coords(self, t, outside=None):
        """outside: index into the spatial dims whose start pixel is put outside the box (F4)."""
        rng = self.rng
        r, e = t["rank"], ESIZE[t["dtype"]]
        c = [0] * r
        sp = self.spatial_dims(t)
        for k, d in enumerate(sp):
            lo, hi = t["lower"][k], t["dims"][d] - 1 + t["upper"][k]
            if outside == k:
                c[d] = rng.choice([lo - rng.randint(1, 3), hi + rng.randint(1, 3)])
            else:
                c[d] = rng.randint(lo, hi)
        if t["interleave"] == "none":
            step = max(1, 16 // e)
            c[0] = step * rng.choice([0, 0, 0, 1, 2, rng.randint(0, 20), -1])
        else:
            c[r - 2] = rng.randint(-1, t["dims"][r - 2])
        c[r - 1] = rng.choice([0, 0, rng.randint(0, t["dims"][r - 1] - 1), t["dims"][r - 1], -1])
        lim = {3: 65535, 4: 255, 5: 31}[r]
        offs = [min(lim, rng.choice([0, 0, 1, 2, 3, rng.randint(0, 6)])) for _ in range(r - 2)]
        return c, offs

    def im2col_load(self, prefix="im2col", category="im2col", t=None, outside=None, dst=None,
                    fault=None, error=None, cta=False):
        rng = self.rng
        t = t or self.im2col_tensor()
        coords, offs = self.im2col_coords(t, outside)
        dst = dst if dst is not None else 128 * rng.randint(0, 7)
        slack = 128 if t["interleave"] == "none" else 1024
        sm = self.smem_for(self.im2col_smem_bytes(t), dst, slack=slack)
        r = t["rank"]
        ptx = "cp.async.bulk.tensor.%dd.shared::%s.global.im2col.mbarrier::complete_tx::bytes" % (
            r, "cta" if cta else "cluster")
        case = {"id": self.new_id(prefix), "ptx": ptx, "op": "load", "mode": "im2col",
                "tensor": t, "coords": coords, "im2col": offs,
                "global": self.global_for(t, "splitmix64", 32 if t["interleave"] == "32B" else 16),
                "smem": sm}
        self.emit(case, category, fault, error, sm["bytes"])
        return case

    def multicast(self, im2col=False, ctas=None, mask=None, fault=None, error=None, prefix="mc"):
        rng = self.rng
        ctas = ctas or rng.choice([2, 2, 4, 4, 8, 16])
        if mask is None:
            mask = rng.randint(1, (1 << ctas) - 1)
        issuer = rng.randint(0, ctas - 1)
        if im2col:
            case = self.im2col_load(prefix=prefix, category="multicast",
                                    t=self.im2col_tensor(max_bytes=4096), fault=fault, error=error)
        else:
            case = self.tile_load(prefix=prefix, category="multicast",
                                  t=self.tile_tensor(max_box_bytes=4096), fault=fault, error=error)
        case["ptx"] += ".multicast::cluster"
        case["cluster"] = {"ctas": ctas, "issuer": issuer, "cta_mask": mask, "cta_group": 1}
        case["gen"]["hex"] = self.hexflag(case["smem"]["bytes"] * ctas)
        return case

    def store(self, prefix="store", category="store", op="store", redop=None, dtype=None,
              neg=False, fault=None, error=None, fills=None, interleave=None, swizzle=None):
        rng = self.rng
        dts = dtype
        t = self.tile_tensor(dtype=dts, max_box_bytes=4096, allow_nan=True,
                             interleave=interleave, swizzle=swizzle)
        c = self.tile_coords(t, kinds=[rng.choice(["in", "in", "high", "out"]) for _ in range(t["rank"])])
        c = [abs(x) if x < 0 else x for x in c]
        e = ESIZE[t["dtype"]]
        if t["interleave"] == "none":
            al = max(1, 16 // e)
            c[0] = (c[0] // al) * al
        if neg:
            k = rng.randrange(t["rank"])
            al = max(1, 16 // e) if (k == 0 and t["interleave"] == "none") else 1
            c[k] = -al * rng.randint(1, 3)
        dst = 128 * rng.randint(0, 7)
        slack = 128 if t["interleave"] == "none" else 1024
        gfill, sfill = fills or ("const", "splitmix64")
        sm = self.smem_for(self.tile_smem_bytes(t), dst, fill=sfill, slack=slack)
        r = t["rank"]
        if op == "store":
            ptx = "cp.async.bulk.tensor.%dd.global.shared::cta.tile.bulk_group" % r
        else:
            ptx = "cp.reduce.async.bulk.tensor.%dd.global.shared::cta.%s.tile.bulk_group" % (r, redop)
        case = {"id": self.new_id(prefix), "ptx": ptx, "op": op}
        if op == "reduce":
            case["redop"] = redop
        case.update({"mode": "tile", "tensor": t, "coords": c,
                     "global": self.global_for(t, gfill, 32 if t["interleave"] == "32B" else 16),
                     "smem": sm})
        self.emit(case, category, fault, error)
        return case

    def prefetch(self, im2col=False, fault=None, error=None, outside=None, misalign=False):
        rng = self.rng
        if im2col:
            t = self.im2col_tensor()
            coords, offs = self.im2col_coords(t, outside)
        else:
            t = self.tile_tensor()
            coords, offs = self.tile_coords(t), None
        if misalign:
            e = ESIZE[t["dtype"]]
            coords[0] = coords[0] + rng.randint(1, 16 // e - 1)
        r = t["rank"]
        case = {"id": self.new_id("prefetch"),
                "ptx": "cp.async.bulk.prefetch.tensor.%dd.L2.global.%s" % (r, "im2col" if im2col else "tile"),
                "op": "prefetch", "mode": "im2col" if im2col else "tile", "tensor": t,
                "coords": coords}
        if im2col:
            case["im2col"] = offs
        case["global"] = self.global_for(t, "splitmix64", 32 if t["interleave"] == "32B" else 16)
        case["smem"] = {"bytes": 0, "dst": 0, "fill": "const", "value": 0}
        self.emit(case, "faults" if fault else "prefetch", fault, error)
        return case


def set_values_fill(case, seed_rng):
    case["global"]["fill"] = "values"
    case["global"].pop("value", None)
    case["global"]["seed"] = seed_rng.randrange(1 << 32)
    case["smem"]["fill"] = "values"
    case["smem"].pop("value", None)
    case["smem"]["seed"] = seed_rng.randrange(1 << 32)


def gen_cases(count, seed):
    g = Gen(seed)
    rng = g.rng
    scale = count / 10600.0

    def n(x):
        return max(1, int(round(x * scale)))

    # ---- directed: findings F1-F6 / D1-D10, open questions ----
    # D1 fully-OOB and partly-OOB boxes.
    for kinds in (["out", "in"], ["in", "out"], ["far", "far"], ["low", "low"], ["high", "high"]):
        for _ in range(n(8)):
            t = g.tile_tensor(rank=2)
            g.tile_load("dir-D1", t=t, coords=g.tile_coords(t, kinds))
    # D2 NaN fill for every float type, OOB coords.
    for dt in sorted(FLOATS):
        for _ in range(n(8)):
            t = g.tile_tensor(dtype=dt, allow_nan=True)
            t["oob_fill"] = "nan"
            g.tile_load("dir-D2", t=t, coords=g.tile_coords(t, ["high"] * t["rank"]))
    # D3 tf32 rounding (ties: low 13 bits == 0x1000 appear in ~1/8192 random elements).
    for dt in ("tf32", "tf32.ftz"):
        for _ in range(n(60)):
            t = g.tile_tensor(rank=2, dtype=dt, swizzle="none", max_box_bytes=16384)
            t["box"] = [64, 16]
            t["element_strides"] = [1, 1]
            t["dims"] = [64 + rng.randint(0, 8), 16 + rng.randint(0, 4)]
            t["strides"] = g.strides_for(t["dims"], t["dims"][0] * 4, 16)
            case = g.tile_load("dir-D3-tf32", t=t, coords=[0, 0], sfill="const")
            case["gen"]["hex"] = rng.random() < 0.3
    # D4 element strides, es[0] != 1.
    for _ in range(n(40)):
        t = g.tile_tensor(rank=rng.choice([2, 3]))
        t["element_strides"] = [rng.randint(2, 8)] + [rng.randint(1, 8) for _ in range(t["rank"] - 1)]
        if not encoder_violations(tensor_params(t, "tiled")) and g.tile_smem_bytes(t) < 65536:
            g.tile_load("dir-D4", t=t)
    # D5 interleave 16B/32B tile loads, incl. 32B interleave with non-32B swizzle (open).
    for il in ("16B", "32B"):
        for sw in SWZ:
            for _ in range(n(12)):
                t = g.tile_tensor(rank=rng.choice([3, 4, 5]), interleave=il, swizzle=sw)
                g.tile_load("dir-D5-%s-%s" % (il, sw), t=t)
    # D6 swizzle with narrow rows and every 128-B destination phase.
    for sw in ("32B", "64B", "128B"):
        for dst in range(8):
            for _ in range(n(3)):
                t = g.tile_tensor(rank=2, swizzle=sw)
                g.tile_load("dir-D6", t=t, dst=128 * dst)
    # .shared::cta destination.
    for _ in range(n(60)):
        g.tile_load("cta-dst", cta=True)
    for _ in range(n(20)):
        g.im2col_load("cta-dst-im2col", category="im2col", cta=True)
    # D7 stores with partly out-of-bounds boxes in dim 0 (granules), swizzled stores, interleaved.
    for _ in range(n(80)):
        c = g.store(prefix="dir-D7")
        t = c["tensor"]
        e = ESIZE[t["dtype"]]
        if t["interleave"] == "none":
            al = max(1, 16 // e)
            c["coords"][0] = max(0, ((t["dims"][0] - t["box"][0] // 2) // al) * al)
    for sw in ("32B", "64B", "128B"):
        for _ in range(n(25)):
            g.store(prefix="dir-store-swz", swizzle=sw)
    for il in ("16B", "32B"):
        for _ in range(n(25)):
            g.store(prefix="dir-store-il", interleave=il)
    # D8 im2col strided / wrap, interleaved im2col.
    for _ in range(n(60)):
        t = g.im2col_tensor()
        t["element_strides"] = [1] + [rng.randint(2, 3) for _ in range(t["rank"] - 1)]
        if not encoder_violations(tensor_params(t, "im2col")):
            g.im2col_load("dir-D8", t=t)
    for il in ("16B", "32B"):
        for _ in range(n(30)):
            g.im2col_load("dir-D8-il", t=g.im2col_tensor(interleave=il))
    # D9 reductions: inc/dec on small values (const fills) and every supported pair.
    for op in ("inc", "dec"):
        for gv, sv in ((0, 0), (5, 5), (3, 5), (7, 0), (9, 7), (4, 7), (0xFF, 0x01)):
            c = g.store(prefix="dir-D9", category="reduce", op="reduce", redop=op, dtype="u32",
                        fills=("const", "const"))
            c["global"]["value"] = gv
            c["smem"]["value"] = sv
    # Reductions on tf32 / f32.ftz / f32 with denormals (random bits contain denormals, NaN).
    for dt in ("tf32", "f32.ftz", "f32", "tf32.ftz", "f64"):
        for _ in range(n(12)):
            g.store(prefix="dir-red-denorm", category="reduce", op="reduce", redop="add", dtype=dt,
                    fills=("splitmix64", "splitmix64"))
    # Swizzled / narrow-row reductions.
    for sw in ("32B", "64B", "128B"):
        for _ in range(n(15)):
            g.store(prefix="dir-red-swz", category="reduce", op="reduce", redop="add", dtype="u32",
                    swizzle=sw, fills=("splitmix64", "splitmix64"))
    # D10 multicast with the issuer outside the mask; clusters of 8 and 16.
    for ctas in (2, 4, 8, 16):
        for _ in range(n(10)):
            issuer_out = g.multicast(ctas=ctas, prefix="dir-D10")
            cl = issuer_out["cluster"]
            cl["cta_mask"] &= ~(1 << cl["issuer"])
            if cl["cta_mask"] == 0:
                cl["cta_mask"] = 1 << ((cl["issuer"] + 1) % ctas)

    # ---- faults ----
    for _ in range(n(60)):  # F1 tile loads
        t = g.tile_tensor(interleave="none")
        e = ESIZE[t["dtype"]]
        if e >= 16:
            continue
        c = g.tile_coords(t)
        if 16 // e <= 1:
            continue
        c[0] += rng.randint(1, 16 // e - 1)
        g.tile_load("F1-load", category="faults", t=t, coords=c, fault="illegal_instruction",
                    error="misaligned_coordinate")
    for _ in range(n(20)):  # F1 im2col (channel coordinate)
        t = g.im2col_tensor(interleave="none")
        e = ESIZE[t["dtype"]]
        if e >= 16 or 16 // e <= 1:
            continue
        case = g.im2col_load("F1-im2col", category="faults", t=t, fault="illegal_instruction",
                             error="misaligned_coordinate")
        case["coords"][0] += rng.randint(1, 16 // e - 1)
    for op in ("store", "reduce"):  # F1 stores / reductions
        for _ in range(n(15)):
            c = g.store(prefix="F1-" + op, category="faults", op=op,
                        redop="add" if op == "reduce" else None,
                        dtype=rng.choice(["u8", "u16", "u32", "f16"]) if op == "store" else "u32",
                        fault="illegal_instruction", error="misaligned_coordinate")
            e = ESIZE[c["tensor"]["dtype"]]
            if c["tensor"]["interleave"] != "none" or 16 // e <= 1:
                c["gen"] = {"category": op}
                continue
            c["coords"][0] += rng.randint(1, 16 // e - 1)
    for _ in range(n(50)):  # F2 misaligned smem
        off = rng.choice([16, 32, 48, 64, 80, 96, 112, 144, 200 - 200 % 16])
        kind = rng.choice(["load", "load", "store", "reduce", "im2col"])
        if kind == "load":
            g.tile_load("F2-load", category="faults", dst=off, fault="misaligned_address",
                        error="misaligned")
        elif kind == "im2col":
            g.im2col_load("F2-im2col", category="faults", dst=off, fault="misaligned_address",
                          error="misaligned")
        else:
            c = g.store(prefix="F2-" + kind, category="faults", op=kind,
                        redop="add" if kind == "reduce" else None,
                        dtype="u32" if kind == "reduce" else None,
                        fault="misaligned_address", error="misaligned")
            c["smem"]["dst"] = off
            c["smem"]["bytes"] = rup(c["smem"]["bytes"] + off, 128)
    for op in ("store", "reduce"):  # F3 negative coordinates
        for _ in range(n(25)):
            g.store(prefix="F3-" + op, category="faults", op=op,
                    redop="add" if op == "reduce" else None,
                    dtype="u32" if op == "reduce" else None, neg=True,
                    fault="illegal_instruction", error="invalid_coordinate")
    for _ in range(n(40)):  # F4 im2col start pixel outside the box
        t = g.im2col_tensor()
        k = rng.randrange(t["rank"] - 2)
        g.im2col_load("F4-load", category="faults", t=t, outside=k, fault="illegal_instruction",
                      error="invalid_coordinate")
    for _ in range(n(10)):
        c = g.multicast(im2col=True, prefix="F4-mc")
        t = c["tensor"]
        c["coords"], c["im2col"] = g.im2col_coords(t, rng.randrange(t["rank"] - 2))
        c["gen"].update(category="faults", fault="illegal_instruction", error="invalid_coordinate")
    for _ in range(n(10)):
        t_case = g.prefetch(im2col=True, fault="illegal_instruction", error="invalid_coordinate",
                            outside=0)
    for _ in range(n(12)):  # prefetch with a misaligned inner coordinate (open question)
        c = g.prefetch(im2col=False, misalign=True, fault="illegal_instruction",
                       error="misaligned_coordinate")
        if c["tensor"]["interleave"] != "none" or ESIZE[c["tensor"]["dtype"]] >= 16:
            c["gen"] = {"category": "prefetch"}
    bad = []  # F5 unsupported reductions
    for op in REDOPS:
        for dt in DTYPES:
            if dt not in RED_OK[op]:
                bad.append((op, dt))
    for op, dt in bad:
        for _ in range(max(1, n(3))):
            fills = ("values", "values") if dt in FLOATS else ("splitmix64", "splitmix64")
            c = g.store(prefix="F5", category="faults", op="reduce", redop=op, dtype=dt,
                        fault="illegal_instruction", error="unsupported_reduction",
                        fills=("splitmix64", "splitmix64"))
            if dt in FLOATS:
                set_values_fill(c, rng)
    for ctas in (2, 4, 8):  # F6 mask bits beyond the cluster
        for _ in range(n(3)):
            c = g.multicast(ctas=ctas, prefix="F6")
            c["cluster"]["cta_mask"] |= 1 << rng.randint(ctas, 15)
            c["gen"].update(category="faults", fault="launch_failure", error="invalid_instruction")
    for _ in range(n(60)):  # invalid descriptors
        t = g.tile_tensor()
        what = rng.choice(["box0", "box256", "swz_atom", "es0", "stride", "nan_int", "swz_span"])
        e = ESIZE[t["dtype"]]
        if what == "box0" and e < 16:
            t["box"][0] = max(1, 16 // e) + (1 if e < 16 else 0)
            if (t["box"][0] * e) % 16 == 0:
                t["box"][0] += 1
        elif what == "box256":
            t["box"][-1] = 257
        elif what == "swz_atom":
            t["swizzle"] = rng.choice(["128B_atom_32B", "128B_atom_32B_flip_8B", "128B_atom_64B"])
        elif what == "es0":
            t["element_strides"][-1] = 9
        elif what == "stride" and t["rank"] > 1:
            t["strides"][0] += 8
        elif what == "nan_int":
            t["dtype"] = rng.choice(["u8", "u32", "s64"])
            t["oob_fill"] = "nan"
            t["box"][0] = 16
        else:
            t["interleave"] = "none"
            t["swizzle"] = "32B"
            t["box"][0] = max(1, 64 // ESIZE[t["dtype"]])
        if t["swizzle"] in SWZ and not encoder_violations(tensor_params(t, "tiled")):
            continue
        g.tile_load("desc", category="faults", t=t, error="invalid_descriptor")

    # ---- random bulk ----
    for _ in range(n(4300)):
        g.tile_load()
    for _ in range(n(1400)):
        g.im2col_load()
    for _ in range(n(600)):
        g.multicast(im2col=False)
    for _ in range(n(260)):
        g.multicast(im2col=True)
    for _ in range(n(850)):
        g.store()
    for _ in range(n(1100)):
        op = rng.choice(REDOPS)
        dt = rng.choice(RED_OK[op])
        if dt in FLOATS:
            c = g.store(prefix="reduce", category="reduce", op="reduce", redop=op, dtype=dt)
            set_values_fill(c, rng)
        else:
            g.store(prefix="reduce", category="reduce", op="reduce", redop=op, dtype=dt,
                    fills=("splitmix64", "splitmix64"))
    for _ in range(n(250)):
        g.prefetch(im2col=False)
    for _ in range(n(120)):
        g.prefetch(im2col=True)
    return g.cases


def pad_to_rank(p):
    """Pads the arrays to what the driver reads for this rank, with the oracle's fillers."""
    r = p["rank"]
    if not 1 <= r <= 5:
        return
    for key, n, fill in (("dims", r, 1), ("strides", r - 1, 16), ("box", r, 1),
                         ("element_strides", r, 1), ("lower", r - 2, 0), ("upper", r - 2, 0)):
        if key in p:
            p[key] = (list(p[key]) + [fill] * n)[:max(n, 0)] if len(p[key]) < n else p[key]


# ---- encoder sweep parameter sets ----
def gen_encoder(count, seed):
    rng = random.Random(seed)
    g = Gen(seed + 1)
    out = []
    base_addr = 0x7F5A00000000
    for k in range(count):
        im2col = rng.random() < 0.35
        t = g.im2col_tensor() if im2col else g.tile_tensor(max_box_bytes=200000)
        # widen the geometry: big dims, big strides, big boxes
        if rng.random() < 0.3:
            t["dims"] = [rng.choice([1, 7, 64, 1000, 65536, 1 << 31, 1 << 32]) for _ in t["dims"]]
        if rng.random() < 0.2 and t["rank"] > 1:
            al = 32 if t["interleave"] == "32B" else 16
            t["strides"] = [al * rng.randint(1, 1 << 20) for _ in t["strides"]]
        p = tensor_params(t, "im2col" if im2col else "tiled",
                          base_addr + 256 * rng.randint(0, 1 << 20))
        muts = []
        if rng.random() < 0.75:
            for _ in range(rng.choice([1, 1, 2])):
                m = rng.choice(["dtype", "rank", "interleave", "swizzle", "l2", "oob", "address",
                                "dim", "stride", "es", "box", "cpp", "ppc", "corner", "nullptr"])
                muts.append(m)
                r = p["rank"]
                if m == "dtype":
                    p["dtype"] = rng.randint(0, 17)
                elif m == "rank":
                    p["rank"] = rng.choice([0, 1, 2, 3, 4, 5, 6])
                elif m == "interleave":
                    p["interleave"] = rng.randint(0, 3)
                elif m == "swizzle":
                    p["swizzle"] = rng.randint(0, 7)
                elif m == "l2":
                    p["l2_promotion"] = rng.randint(0, 4)
                elif m == "oob":
                    p["oob_fill"] = rng.randint(0, 2)
                elif m == "address":
                    p["address"] += rng.choice([4, 8, 16, 32, 48])
                elif m == "nullptr":
                    p["address"] = 0
                elif m == "dim":
                    p["dims"] = list(p["dims"])
                    p["dims"][rng.randrange(len(p["dims"]))] = rng.choice([0, (1 << 32) + 1, 1 << 32, 3])
                elif m == "stride" and p["strides"]:
                    p["strides"] = list(p["strides"])
                    p["strides"][rng.randrange(len(p["strides"]))] = rng.choice(
                        [8, 24, 1 << 40, (1 << 40) - 16, 48, 0])
                elif m == "es":
                    p["element_strides"] = list(p["element_strides"])
                    p["element_strides"][rng.randrange(len(p["element_strides"]))] = rng.choice([0, 9, 8, 3])
                elif m == "box" and not im2col:
                    p["box"] = list(p["box"])
                    p["box"][rng.randrange(len(p["box"]))] = rng.choice([0, 257, 256, 3, 200, 5])
                elif m == "cpp" and im2col:
                    p["channels_per_pixel"] = rng.choice([0, 1, 3, 8, 64, 256, 257, 512])
                elif m == "ppc" and im2col:
                    p["pixels_per_column"] = rng.choice([0, 1, 1024, 1025, 700])
                elif m == "corner" and im2col:
                    key = rng.choice(["lower", "upper"])
                    p[key] = list(p[key])
                    p[key][rng.randrange(len(p[key]))] = rng.choice([-32769, -129, -17, 16, 127, 128, 32767, -5])
        pad_to_rank(p)
        p["id"] = "enc-%05d" % k
        p["set"] = "random"
        p["mutations"] = muts
        p["inferred_rule_violations"] = encoder_violations(p) if 1 <= p["rank"] <= 5 else [2]
        out.append(p)
    return out


# ---- non-tensor bulk operations (cp.async.bulk, cp.reduce.async.bulk, prefetch.L2) ----
# The redOp x type table of cp.reduce.async.bulk (seed 004 lines 338-349), per destination.
# The order is the oracle's BULK_RED_* lists (tma_oracle.cu): keep them in step.
BULK_RED_GLOBAL = [("and", "b32"), ("and", "b64"), ("or", "b32"), ("or", "b64"),
                   ("xor", "b32"), ("xor", "b64"), ("add", "u32"), ("add", "s32"),
                   ("add", "u64"), ("add", "f32"), ("add", "f64"), ("add", "f16"),
                   ("add", "bf16"), ("inc", "u32"), ("dec", "u32"), ("min", "u32"),
                   ("min", "s32"), ("min", "u64"), ("min", "s64"), ("min", "f16"),
                   ("min", "bf16"), ("max", "u32"), ("max", "s32"), ("max", "u64"),
                   ("max", "s64"), ("max", "f16"), ("max", "bf16")]
BULK_RED_CLUSTER = [("and", "b32"), ("or", "b32"), ("xor", "b32"), ("add", "u32"),
                    ("add", "s32"), ("add", "u64"), ("inc", "u32"), ("dec", "u32"),
                    ("min", "u32"), ("min", "s32"), ("max", "u32"), ("max", "s32")]
BULK_TBYTES = {"b32": 4, "u32": 4, "s32": 4, "b64": 8, "u64": 8, "s64": 8, "f16": 2,
               "bf16": 2, "f32": 4, "f64": 8}
BULK_FLOATS = {"f16", "bf16", "f32", "f64"}
SMEM_WIN_MAX = 232448 - 1024 - 64


def bulk_size(rng):
    """Multiples of 16 from 16 B to 64 KiB, log-uniform."""
    return 16 * max(1, min(4096, int(2 ** rng.uniform(0, 12))))


def gen_bulk(count, seed):
    rng = random.Random(seed ^ 0xB01C)
    out = []
    # Every reduction pair at least twice, the rest spread over the copy directions.
    plan = []
    for k in range(len(BULK_RED_GLOBAL)):
        plan += [("red_g", k)] * 2
    for k in range(len(BULK_RED_CLUSTER)):
        plan += [("red_c", k)] * 2
    kinds = ["g2s_cta", "g2s", "g2s_mc", "s2c", "s2g", "prefetch", "bad", "red_nocluster"]
    weights = [3, 3, 4, 4, 4, 1, 1.5, 0.3]
    while len(plan) < count:
        plan.append((rng.choices(kinds, weights)[0], 0))
    for n, (kind, k) in enumerate(plan[:max(count, len(plan))]):
        size = bulk_size(rng)
        c = {"id": "bulk-%05d" % n, "gen": {"category": "bulk"}}
        b = {"size": size}
        ctas, issuer, mask, dst_cta = 1, 0, None, None
        gfill = {"fill": "splitmix64", "seed": rng.getrandbits(32)}
        sfill = {"fill": "splitmix64", "seed": rng.getrandbits(32)}
        align = lambda: 16 * rng.randrange(0, 64)
        # A reduction to shared::cluster in a launch without a cluster traps on sm_90
        # (docs/silicon-notes.md): the valid cases always run in a cluster of 2..4.
        if kind in ("g2s_mc", "s2c", "red_c") or (kind == "g2s" and rng.random() < 0.6):
            ctas = rng.choice([2, 3, 4]) if kind != "g2s_mc" else rng.choice([2, 3, 4])
            issuer = rng.randrange(ctas)
        if kind == "red_c" or kind == "s2c" or kind == "g2s":
            dst_cta = rng.randrange(ctas)
            if kind == "s2c":
                while dst_cta == issuer:
                    dst_cta = rng.randrange(ctas)
        if kind == "g2s_mc":
            mask = rng.randrange(1, 1 << ctas)
        if kind in ("g2s_cta", "g2s", "g2s_mc"):
            b["dir"] = "shared::cta.global" if kind == "g2s_cta" else "shared::cluster.global"
            b["src"] = align()
            b["dst"] = align()
            c["op"] = "load"
            gbytes, win = b["src"] + size, b["dst"] + size
        elif kind == "prefetch":
            b["dir"] = "L2.global"
            b["src"] = align()
            c["op"] = "prefetch"
            gbytes, win = b["src"] + size, 0
        elif kind == "s2g":
            b["dir"] = "global.shared::cta"
            b["src"], b["dst"] = align(), align()
            c["op"] = "store"
            gbytes, win = b["dst"] + size + 16 * rng.randrange(0, 8), b["src"] + size
        elif kind == "s2c":
            b["dir"] = "shared::cluster.shared::cta"
            b["src"], b["dst"] = align(), align()
            c["op"] = "store"
            gbytes, win = 256, max(b["src"], b["dst"]) + size
        elif kind in ("red_g", "red_c"):
            op, ty = (BULK_RED_GLOBAL if kind == "red_g" else BULK_RED_CLUSTER)[k]
            size = 16 * max(1, size // 64)
            b["size"] = size
            c["op"] = "reduce"
            c["redop"] = op
            b["type"] = ty
            if op == "add" and ty in ("f16", "bf16"):
                b["noftz"] = True
            b["src"] = align()
            if kind == "red_g":
                b["dir"] = "global.shared::cta"
                b["dst"] = align()
                gbytes, win = b["dst"] + size, b["src"] + size
            else:
                b["dir"] = "shared::cluster.shared::cta"
                if dst_cta == issuer:  # same window: keep source and destination apart
                    b["dst"] = rup(b["src"] + size, 16) + align()
                else:
                    b["dst"] = align()
                gbytes, win = 256, max(b["src"], b["dst"]) + size
            if ty in BULK_FLOATS:
                gfill = {"fill": "values", "seed": rng.getrandbits(32)}
                sfill = {"fill": "values", "seed": rng.getrandbits(32)}
        elif kind == "red_nocluster":  # measured: illegal instruction fault
            op, ty = BULK_RED_CLUSTER[rng.randrange(len(BULK_RED_CLUSTER))]
            size = 16 * rng.randrange(1, 16)
            b.update(size=size, type=ty, dir="shared::cluster.shared::cta", src=align())
            b["dst"] = rup(b["src"] + size, 16) + align()
            c["op"], c["redop"] = "reduce", op
            c["dst_cta"] = 0
            gbytes, win = 256, b["dst"] + size
            c["gen"]["error"] = "invalid_instruction"
            c["gen"]["fault"] = "illegal_instruction"
        else:  # bad: misaligned size or operand; silicon decides whether it traps
            what = rng.choice(["size", "size", "gsrc", "sdst", "ssrc", "gdst"])
            if what in ("size", "gsrc", "sdst") and rng.random() < 0.6:
                b["dir"], c["op"] = "shared::cta.global", "load"
            else:
                b["dir"], c["op"] = "global.shared::cta", "store"
            b["src"], b["dst"] = align(), align()
            b["size"] = size = 16 * rng.randrange(1, 64)
            if what == "size":
                b["size"] = size = size - rng.choice([1, 4, 8])
            elif what in ("gsrc", "ssrc"):
                b["src"] += rng.choice([4, 8])
            else:
                b["dst"] += rng.choice([4, 8])
            gbytes = max(b["src"], b["dst"]) + size + 32
            win = max(b["src"], b["dst"]) + size + 32
            c["gen"]["error"] = "invalid_instruction" if what == "size" else "misaligned"
            c["gen"]["fault"] = "misaligned_address"
        c["bulk"] = b
        if ctas > 1:
            cl = {"ctas": ctas, "issuer": issuer}
            if mask is not None:
                cl["cta_mask"] = mask
            c["cluster"] = cl
        if dst_cta is not None and mask is None and (ctas > 1 or kind == "red_c"):
            c["dst_cta"] = dst_cta
        c["global"] = dict(bytes=rup(max(gbytes, 256), 256), offset=0, **gfill)
        win = rup(max(win, 16), 16)
        if win > SMEM_WIN_MAX:
            continue
        smem_off = b.get("dst" if c["op"] == "load" else "src", 0)
        if c["op"] != "prefetch":
            c["smem"] = dict(bytes=win, dst=smem_off, **sfill)
        if c["op"] == "load" and win * ctas > 4096 and rng.random() > 0.1:
            c["gen"]["hex"] = False
        out.append(c)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["cases", "encoder", "bulk"])
    ap.add_argument("--count", type=int, default=10600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if a.what == "cases":
        items = gen_cases(a.count, a.seed)
    elif a.what == "bulk":
        items = gen_bulk(a.count, a.seed)
    else:
        items = gen_encoder(a.count, a.seed)
    if a.what in ("cases", "bulk"):
        rng = random.Random(a.seed ^ 0x5EED)
        rng.shuffle(items)  # spread fault cases over the shards
    with open(a.out, "w") as f:
        for c in items:
            f.write(json.dumps(c, separators=(",", ":")) + "\n")
    print("wrote %d %s to %s" % (len(items), a.what, a.out))


if __name__ == "__main__":
    main()
