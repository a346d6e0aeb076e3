#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""plot_perf.py: draws docs/perf_engine.svg from the CSV of bench/engine_perf.

Usage: python3 bench/plot_perf.py perf.csv docs/perf_engine.svg
       python3 bench/plot_perf.py --table perf.csv [CONFIG...]

One panel per (configuration, memory latency, mode group): sustained shared-memory write
efficiency (bytes/cycle over DataBytes, in %) against the box size (log scale), one line per
mode and swizzle; the first group holds tile, im2col and tile_packed, the second the sm_100
modes gather4, im2col_w and im2col_w128 (their panels only where the CSV has them); a panel's
title gives the configuration, DataBytes, MaxOutstanding / RowFifoDepth and the memory latency.
--table prints the docs/performance.md table instead (Markdown): per configuration
(default: every one in the file), memory latency and row width (mode and swizzle), the
efficiency at each box size and the first-AR latency; where the box cannot fill whole beats
(column limit_efficiency below 1: rows not adjacent in global memory and narrower than the bus,
bench/engine_perf.cc LimitEfficiency) the cell adds [N]: the efficiency in % of that physical
limit. Python standard library only.
"""

import csv
import math
import sys

COLORS = {"none": "#1f77b4", "32B": "#ff7f0e", "64B": "#2ca02c", "128B": "#d62728",
          "128B_atom_32B": "#9467bd", "128B_atom_32B_flip_8B": "#8c564b",
          "128B_atom_64B": "#e377c2", "96B": "#17becf"}
DASH = {"tile": "", "im2col": "6,3", "tile_packed": "2,2",
        "gather4": "", "im2col_w": "6,3", "im2col_w128": "2,2"}
GROUPS = (("tile", "im2col", "tile_packed"), ("gather4", "im2col_w", "im2col_w128"))
GROUP_TITLES = ("tile / im2col / packed", "gather4 / im2col::w / w::128")
PANEL_W, PANEL_H = 360, 240
MARGIN_L, MARGIN_R, MARGIN_T, MARGIN_B = 56, 16, 40, 44


def esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


ROW_BYTES = {"none": 128, "32B": 32, "64B": 64, "128B": 128, "128B_atom_32B": 128,
             "128B_atom_32B_flip_8B": 128, "128B_atom_64B": 128, "96B": 96}
# Modes whose rows are not ROW_BYTES[swizzle]: the row bytes as text.
ROW_TEXT = {"gather4": "box/4", "im2col_w128": "box/128"}
PACKED_ROW = {"none": 16}  # tile_packed: 16-byte rows without swizzle, the span with one


def cell(r):
    """One table cell: the efficiency in %, and [% of the physical limit] where that is < 1."""
    eff = float(r["efficiency"])
    text = f"{100.0 * eff:.1f}"
    limit = float(r.get("limit_efficiency") or 0)
    if 0 < limit < 0.995:
        text += f" [{100.0 * eff / limit:.0f}]"
    return text


def table(rows, configs):
    """The Markdown table of docs/performance.md (see the module docstring)."""
    sizes = sorted({int(r["box_bytes"]) for r in rows})
    head = ["config", "DataBytes", "mem latency", "mode", "row bytes (swizzle)"]
    head += [f"{s // 1024} KiB" if s >= 1024 else f"{s} B" for s in sizes]
    head += ["first AR (cycles)"]
    out = ["| " + " | ".join(head) + " |",
           "| " + " | ".join(["---"] * 5 + ["---:"] * (len(sizes) + 1)) + " |"]
    for cfg in configs:
        for lat in sorted({int(r["mem_latency"]) for r in rows if r["config"] == cfg}):
            for mode in ("tile", "im2col", "store_tile", "store_im2col_no_offs", "tile_packed",
                         "gather4", "im2col_w", "im2col_w128"):
                for swz in ("none", "128B", "64B", "32B", "128B_atom_32B", "128B_atom_32B_flip_8B",
                            "128B_atom_64B", "96B"):
                    sel = {int(r["box_bytes"]): r for r in rows
                           if r["config"] == cfg and int(r["mem_latency"]) == lat and
                           r["mode"] == mode and r["swizzle"] == swz}
                    if not sel:
                        continue
                    any_row = next(iter(sel.values()))
                    row = ROW_TEXT.get(mode, str(PACKED_ROW.get(swz, ROW_BYTES[swz])
                                                 if mode == "tile_packed" else ROW_BYTES[swz]))
                    cells = [cfg, any_row["data_bytes"], str(lat), mode, f"{row} ({swz})"]
                    cells += [cell(sel[s]) if s in sel else "" for s in sizes]
                    lats = sorted({int(r["latency_first_ar"]) for r in sel.values()})
                    cells.append("/".join(str(x) for x in lats))
                    out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def main(argv):
    if len(argv) >= 3 and argv[1] == "--table":
        with open(argv[2], newline="") as f:
            rows = list(csv.DictReader(f))
        configs = argv[3:] or list(dict.fromkeys(r["config"] for r in rows))
        print(table(rows, configs))
        return 0
    if len(argv) != 3:
        print(__doc__)
        return 2
    with open(argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    panels = []
    for r in rows:
        for gi, group in enumerate(GROUPS):
            key = (r["config"], int(r["mem_latency"]), gi)
            if r["mode"] in group and key not in panels:
                panels.append(key)
    order = list(dict.fromkeys(k[:2] for k in panels))
    panels.sort(key=lambda k: (order.index(k[:2]), k[2]))
    sizes = sorted({int(r["box_bytes"]) for r in rows})
    lo, hi = math.log2(sizes[0]), math.log2(sizes[-1])
    cols = 4
    nrows = (len(panels) + cols - 1) // cols
    cell_w = PANEL_W + MARGIN_L + MARGIN_R
    cell_h = PANEL_H + MARGIN_T + MARGIN_B
    width, height = cols * cell_w + 190, nrows * cell_h + 30
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="18" text-anchor="middle" font-size="14">OpenTMA engine: '
        f"sustained shared-memory write efficiency vs box size</text>",
    ]
    for idx, (cfg, lat, gi) in enumerate(panels):
        ox = (idx % cols) * cell_w + MARGIN_L
        oy = (idx // cols) * cell_h + MARGIN_T + 20

        def px(size, ox=ox):
            return ox + (math.log2(size) - lo) / (hi - lo) * PANEL_W

        def py(eff, oy=oy):
            return oy + PANEL_H - eff / 100.0 * PANEL_H

        out.append(f'<rect x="{ox}" y="{oy}" width="{PANEL_W}" height="{PANEL_H}" '
                   f'fill="none" stroke="#888"/>')
        sample = next(r for r in rows if r["config"] == cfg)
        title = (f"{cfg}: {sample['data_bytes']} B, {sample['max_outstanding']}/"
                 f"{sample['row_fifo']}, latency {lat}, {GROUP_TITLES[gi]}")
        out.append(f'<text x="{ox + PANEL_W / 2}" y="{oy - 8}" text-anchor="middle" '
                   f'font-size="10">{esc(title)}</text>')
        for pct in range(0, 101, 20):
            y = py(pct)
            out.append(f'<line x1="{ox}" y1="{y}" x2="{ox + PANEL_W}" y2="{y}" '
                       f'stroke="#ddd"/>')
            out.append(f'<text x="{ox - 4}" y="{y + 4}" text-anchor="end">{pct}%</text>')
        for goal, label in ((95, "95%"), (90, "90%")):
            y = py(goal)
            out.append(f'<line x1="{ox}" y1="{y}" x2="{ox + PANEL_W}" y2="{y}" '
                       f'stroke="#999" stroke-dasharray="2,2"/>')
        for s in sizes:
            x = px(s)
            label = f"{s // 1024}K" if s >= 1024 else str(s)
            out.append(f'<text x="{x}" y="{oy + PANEL_H + 14}" text-anchor="middle">'
                       f"{label}</text>")
        out.append(f'<text x="{ox + PANEL_W / 2}" y="{oy + PANEL_H + 30}" '
                   f'text-anchor="middle">box bytes</text>')
        for mode in GROUPS[gi]:
            for swz, color in COLORS.items():
                pts = sorted((int(r["box_bytes"]), 100.0 * float(r["efficiency"]))
                             for r in rows
                             if r["config"] == cfg and int(r["mem_latency"]) == lat and
                             r["mode"] == mode and r["swizzle"] == swz)
                if not pts:
                    continue
                path = " ".join(f"{px(s):.1f},{py(e):.1f}" for s, e in pts)
                dash = f' stroke-dasharray="{DASH[mode]}"' if DASH[mode] else ""
                out.append(f'<polyline points="{path}" fill="none" stroke="{color}" '
                           f'stroke-width="1.5"{dash}/>')
    lx = cols * cell_w + 10
    ly = MARGIN_T + 30
    for i, (swz, color) in enumerate(COLORS.items()):
        out.append(f'<line x1="{lx}" y1="{ly + 16 * i}" x2="{lx + 24}" y2="{ly + 16 * i}" '
                   f'stroke="{color}" stroke-width="2"/>')
        out.append(f'<text x="{lx + 30}" y="{ly + 16 * i + 4}">swizzle {swz}</text>')
    for i, mode in enumerate(GROUPS[0] + GROUPS[1]):
        y = ly + 16 * (len(COLORS) + i + 1 + i // len(GROUPS[0]))
        dash = f' stroke-dasharray="{DASH[mode]}"' if DASH[mode] else ""
        out.append(f'<line x1="{lx}" y1="{y}" x2="{lx + 24}" y2="{y}" stroke="black" '
                   f'stroke-width="1.5"{dash}/>')
        out.append(f'<text x="{lx + 30}" y="{y + 4}">{mode}</text>')
    out.append("</svg>")
    with open(argv[2], "w") as f:
        f.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
