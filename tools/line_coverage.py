#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/line_coverage.py: per-file line coverage of the RTL from an lcov file.

  tools/line_coverage.py INFO [--waivers FILE] [--markdown] [--min PCT]

INFO is the lcov tracefile `tools/regress --coverage` writes (verilator_coverage
--write-info of every run's coverage.dat, merged). For every file under rtl/ it counts the
instrumented lines (DA records; a line counted by several points is hit when any is) and those
hit, takes out the waived lines (FILE, default tests/line_coverage_waivers.txt: one waiver a
line, `rtl/path.sv:LINE[-LINE] reason`; `#` comments) and prints a table: file, lines, hit,
waived, missed, percent (hit / (lines - waived)), then the total. Waivers name lines that no
legal stimulus reaches (each with its reason); a waiver of a line that is hit, or that is not
instrumented, is reported (the list must stay true). --markdown prints the table as Markdown
(docs/verification.md). --min PCT: exit 1 when the total is below PCT.
Exit: 0 ok, 1 below --min or a stale waiver, 2 usage or input error.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def die(msg):
    print("line_coverage: " + msg, file=sys.stderr)
    sys.exit(2)


def read_info(path):
    """{file relative to the repo: {line: hits}} of the rtl/ files in an lcov tracefile."""
    files = {}
    cur = None
    try:
        with open(path) as fh:
            for raw in fh:
                line = raw.strip()
                if line.startswith("SF:"):
                    f = os.path.normpath(line[3:])
                    if os.path.isabs(f):
                        f = os.path.relpath(f, ROOT)
                    cur = files.setdefault(f, {}) if f.startswith("rtl" + os.sep) else None
                elif line.startswith("DA:") and cur is not None:
                    ln, hits = line[3:].split(",")[:2]
                    cur[int(ln)] = max(cur.get(int(ln), 0), int(hits))
                elif line == "end_of_record":
                    cur = None
    except OSError as e:
        die("%s: %s" % (path, e))
    return files


def read_waivers(path):
    """[(file, first, last, reason)] of a waiver list."""
    out = []
    if not os.path.exists(path):
        return out
    with open(path) as fh:
        for n, raw in enumerate(fh, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            m = re.match(r"(\S+?):(\d+)(?:-(\d+))?\s+(.+)$", line)
            if not m:
                die("%s:%d: want `rtl/path.sv:LINE[-LINE] reason`" % (path, n))
            first = int(m[2])
            out.append((os.path.normpath(m[1]), first, int(m[3] or first), m[4]))
    return out


def main():
    ap = argparse.ArgumentParser(description="per-file RTL line coverage from an lcov file")
    ap.add_argument("info")
    ap.add_argument("--waivers", default=os.path.join(ROOT, "tests", "line_coverage_waivers.txt"))
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--min", type=float, default=None)
    a = ap.parse_args()
    files = read_info(a.info)
    if not files:
        die("%s holds no rtl/ file" % a.info)
    waived = {}
    stale = []
    for f, lo, hi, why in read_waivers(a.waivers):
        lines = files.get(f, {})
        for ln in range(lo, hi + 1):
            if ln not in lines:
                continue
            if lines[ln] > 0:
                stale.append("%s:%d is waived (%s) but hit %d times" % (f, ln, why, lines[ln]))
                continue
            waived.setdefault(f, set()).add(ln)
    rows = []
    tot = [0, 0, 0]
    for f in sorted(files):
        lines = files[f]
        n = len(lines)
        hit = sum(1 for h in lines.values() if h > 0)
        w = len(waived.get(f, ()))
        rows.append((f, n, hit, w, n - hit - w))
        tot[0] += n
        tot[1] += hit
        tot[2] += w

    def pct(n, hit, w):
        return 100.0 * hit / (n - w) if n - w else 100.0

    total = pct(*tot)
    if a.markdown:
        print("| file | lines | hit | waived | missed | % |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for f, n, hit, w, miss in rows:
            print("| `%s` | %d | %d | %d | %d | %.1f |" % (f, n, hit, w, miss, pct(n, hit, w)))
        print("| total | %d | %d | %d | %d | %.1f |" % (tot[0], tot[1], tot[2],
                                                      tot[0] - tot[1] - tot[2], total))
    else:
        print("%-44s %6s %6s %6s %6s %6s" % ("file", "lines", "hit", "waived", "missed", "%"))
        for f, n, hit, w, miss in rows:
            print("%-44s %6d %6d %6d %6d %6.1f" % (f, n, hit, w, miss, pct(n, hit, w)))
        print("%-44s %6d %6d %6d %6d %6.1f" % ("total", tot[0], tot[1], tot[2],
                                              tot[0] - tot[1] - tot[2], total))
    for s in stale:
        print("line_coverage: stale waiver: " + s, file=sys.stderr)
    if stale or (a.min is not None and total < a.min):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
