#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Regression tests of the tools against bad input (docs/verification.md, "Robustness").

One test per class of hole, each run as its own ctest (tests/tools/CMakeLists.txt):
  cli_robust.py CLASS --tma PATH [--tma-rtl PATH] [--regress PATH] [--vectors DIR]
Every check runs the tool as a subprocess and asserts its exit status (0 pass, 1 mismatch,
2 usage or input error; never a signal), a message, and for the memory classes the peak
memory of the child. The expected outcomes are the documented behaviour, not the tools' output.
"""
import argparse
import gzip
import json
import os
import resource
import subprocess
import sys
import tempfile
import zlib

FAILS = []
MAP = {"tensor": {"dtype": "u16", "rank": 2, "dims": [200, 50], "strides": [400],
                  "box": [64, 8]}}
MiB = 1 << 20


def run(cmd, want_rc, want_text=None, max_rss_mib=None, timeout=120):
    """Runs cmd; records a failure unless rc == want_rc and want_text is in its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=timeout, errors="replace")
    except subprocess.TimeoutExpired:
        FAILS.append("%s: ran past %d s" % (" ".join(cmd)[:200], timeout))
        return ""
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB, the largest child
    short = " ".join(cmd)[:200]
    if p.returncode != want_rc:
        FAILS.append("%s: exit %d, expected %d\n%s" % (short, p.returncode, want_rc,
                                                       p.stdout[-800:]))
    elif want_text is not None and want_text not in p.stdout:
        FAILS.append("%s: output lacks %r\n%s" % (short, want_text, p.stdout[-800:]))
    if max_rss_mib is not None and rss > before and rss > max_rss_mib * 1024:
        FAILS.append("%s: peak memory %d MiB, limit %d MiB" % (short, rss // 1024, max_rss_mib))
    return p.stdout


def base_case(vectors):
    with open(os.path.join(vectors, "hand", "tile.jsonl")) as f:
        return json.loads(f.readline())


def write_cases(d, name, cases):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        for c in cases:
            f.write(json.dumps(c) + "\n")
    return path


def t_exec_cta_mask(a, d):
    """tma exec: multicast ctaMask 0, wider than 16 bits, .cta_group::2 with huge registers."""
    m = os.path.join(d, "map.json")
    with open(m, "w") as f:
        json.dump(MAP, f)
    mc = ("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
          ".multicast::cluster [%r1], [%rd1, {%r2, %r3}], [%r4], %rs1;")
    for v, text in (("0", "ctaMask 0 names no destination CTA"),
                    ("0x10000", "ctaMask is a 16-bit operand"),
                    ("0x1ffff", "ctaMask is a 16-bit operand"),
                    ("0x7fffffffffffffff", "ctaMask is a 16-bit operand")):
        run([a.tma, "exec", "--map", m, "--ptx", mc, "--set",
             "r1=0,r2=0,r3=0,r4=1024,rs1=" + v], 1, text)
    run([a.tma, "exec", "--map", m, "--coords", "0,0", "--mask", "0"], 1,
        "ctaMask 0 names no destination CTA")
    run([a.tma, "exec", "--map", m, "--coords", "0,0", "--mask", "70000"], 2)
    cg2 = ("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
           ".multicast::cluster.cta_group::2 [%r1], [%rd1, {%r2, %r3}], [%r4], %rs1;")
    for regs in ("r1=0x7fffffffffffffff,r4=66560", "r1=256,r4=0x7fffffffffffffff",
                 "r1=0x100000000000,r4=1024"):
        run([a.tma, "exec", "--map", m, "--arch", "sm_100a", "--window", "65536", "--ptx", cg2,
             "--set", regs + ",r2=0,r3=0,rs1=7"], 1, "beyond the 16 CTAs of a cluster")


def t_long_id(a, d):
    """A 30,000-character case id: an input error, not a stack overflow in std::regex."""
    c = base_case(a.vectors)
    c["id"] = "x" * 30000
    bad = write_cases(d, "longid.jsonl", [c])
    c["id"] = "y" * 1024  # the longest id accepted, through a user --filter regex
    c["ptx"] = ".tensor." * 4000 + c["ptx"]  # long ptx text: the .Nd scan is not a regex
    ok = write_cases(d, "okid.jsonl", [c])
    for tool in [a.tma] + ([a.tma_rtl] if a.tma_rtl else []):
        run([tool, "run", bad], 2, "case id of 30000 characters (at most 1024)")
        run([tool, "run", ok], 0)
        run([tool, "run", ok, "--filter", ".*y$"], 0)


def t_size_limits(a, d):
    """Declared sizes over the limit: a clear error before any allocation."""
    c = base_case(a.vectors)
    cases = []
    big = dict(c, id="global-1e12", **{"global": dict(c["global"], bytes=10 ** 12)})
    gib = dict(c, id="global-1gib", **{"global": dict(c["global"], bytes=1 << 30)})
    smem = dict(c, id="smem-16x1gib", cluster={"ctas": 16, "issuer": 0},
                smem=dict(c["smem"], bytes=1 << 30))
    for case, text in ((big, "global.bytes 1000000000000, more than the limit"),
                       (gib, "global.bytes 1073741824, more than the limit"),
                       (smem, "17179869184 shared bytes, more than the limit")):
        path = write_cases(d, case["id"] + ".jsonl", [case])
        for tool in [a.tma] + ([a.tma_rtl] if a.tma_rtl else []):
            run([tool, "run", path], 2, text, max_rss_mib=200)
    # The limit is an option: a small one refuses an ordinary case, the default accepts it.
    tile = os.path.join(a.vectors, "hand", "tile.jsonl")
    run([a.tma, "run", tile, "--max-case-bytes", "1000"], 2, "(--max-case-bytes raises it)")
    run([a.tma, "run", tile, "--max-line-bytes", "100"], 2, "line longer than the limit of 100")
    if a.tma_rtl:
        run([a.tma_rtl, "run", tile, "--max-case-bytes", "1000"], 2, "--max-case-bytes")
    m = os.path.join(d, "map.json")
    with open(m, "w") as f:
        json.dump(MAP, f)
    for opt in (["--smem-bytes", "4000000000"], ["--window", "4000000000"],
                ["--global-bytes", str(10 ** 12)], ["--smem-bytes", "200000000", "--ctas", "16"]):
        run([a.tma, "exec", "--map", m, "--coords", "0,0"] + opt, 2, "more than the limit",
            max_rss_mib=200)
    # A bulk copy whose shared window would be sized from its address (3.9 GiB).
    bulk = ("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
            "[%r1], [%rd1], %r2, [%r3];")
    run([a.tma, "exec", "--ptx", bulk, "--set", "r1=0xF0000000,rd1=0x10000000,r2=16,r3=0"], 2,
        "more than the limit", max_rss_mib=200)


def t_gzip_blank(a, d):
    """A gzip file of 2 GiB of blank lines: read in bounded memory, reported as no case."""
    member = gzip.compress(b"\n" * (16 * MiB), compresslevel=9)
    path = os.path.join(d, "blank.jsonl.gz")
    with open(path, "wb") as f:
        for _ in range(128):  # concatenated gzip members: 2 GiB of '\n' once inflated
            f.write(member)
    run([a.tma, "run", path], 1, "no case ran", max_rss_mib=200, timeout=600)
    # A case after the blank lines is found, and an error after 2^31 lines has its line number.
    with open(path, "ab") as f:
        f.write(gzip.compress(b"\n" * 2 + b"{not json\n"))
    run([a.tma, "run", path], 2, ":2147483651: not valid JSON", max_rss_mib=200, timeout=600)
    small = os.path.join(d, "small.jsonl.gz")
    with open(small, "wb") as f:
        f.write(member)
        f.write(gzip.compress((json.dumps(base_case(a.vectors)) + "\n").encode()))
    run([a.tma, "run", small], 0, "1 case(s) run", max_rss_mib=200)


def t_junit_write_error(a, d):
    """A JUnit report that cannot be written (a full disk) is an error, exit 2."""
    tile = os.path.join(a.vectors, "hand", "tile.jsonl")
    run([a.tma, "run", tile, "--junit", "/dev/full"], 2, "cannot write /dev/full")
    if a.tma_rtl:
        run([a.tma_rtl, "run", tile, "--junit", "/dev/full"], 2, "cannot write /dev/full")


def t_exit_codes(a, d):
    """0 pass, 1 mismatch, 2 usage or input error (never CLI11's 100+)."""
    tile = os.path.join(a.vectors, "hand", "tile.jsonl")
    run([a.tma], 2, "A subcommand is required")
    run([a.tma, "--bogus"], 2)
    run([a.tma, "run"], 2)
    run([a.tma, "run", os.path.join(d, "missing.jsonl")], 2)
    run([a.tma, "run", tile, "--bogus"], 2)
    run([a.tma, "exec", "--map"], 2)
    run([a.tma, "--help"], 0)
    run([a.tma, "run", tile], 0)
    run([a.tma, "run", tile, "--filter", "(unclosed"], 2, "bad --filter regex")
    c = base_case(a.vectors)
    c["expect"] = {"error": "bus_error"}  # a wrong expectation: a mismatch, exit 1
    run([a.tma, "run", write_cases(d, "wrong.jsonl", [c])], 1, "FAIL")
    if a.tma_rtl:
        run([a.tma_rtl], 2)
        run([a.tma_rtl, "run"], 2)
        run([a.tma_rtl, "run", tile, "--bogus"], 2)


def t_numeric_options(a, d):
    """Numbers that do not parse, are negative, wrap or are out of range: exit 2."""
    m = os.path.join(d, "map.json")
    with open(m, "w") as f:
        json.dump(MAP, f)
    ex = [a.tma, "exec", "--map", m, "--coords", "0,0"]
    for opt in (["--issuer", "20"], ["--ctas", "-1"], ["--ctas", "17"], ["--ctas", "abc"],
                ["--ctas", "99999999999"], ["--global-offset", "-16"], ["--arch", "sm_999"],
                ["--dst-cta", "16"], ["--mask", "-2"], ["--window", "0"], ["--dst", "-1"],
                ["--global-bytes", "-5"], ["--expect-tx", "-3"], ["--max-case-bytes", "0"]):
        run(ex + opt, 2)
    run(ex + ["--arch", "sm_100a"], 0, "result: ok")
    # A register + offset that overflows 64 bits is refused (it wrapped to 0x8000000000000007).
    run([a.tma, "exec", "--ptx", "cp.async.bulk.prefetch.L2.global [%rd1+8], 16;", "--set",
         "rd1=0x7fffffffffffffff"], 1, "register + offset overflows 64 bits")
    if a.tma_rtl:
        tile = os.path.join(a.vectors, "hand", "tile.jsonl")
        for opt in (["--limit", "abc"], ["--limit", "-5"], ["--limit", "0"], ["--limit=12x"],
                    ["--sample", "0"], ["--sample", "-1"], ["--data-bytes", "48"],
                    ["--data-bytes", "abc"], ["--limit"], ["--max-case-bytes", "-1"],
                    ["--filterX", "a"], ["--shard", "3/3"], ["--shard", "1/0"],
                    ["--shard", "-1/2"], ["--shard", "2"], ["--shard", "a/b"], ["--shard"]):
            run([a.tma_rtl, "run", tile] + opt, 2)


def t_shard(a, d):
    """--shard K/N for K = 0..N-1 replays each case of a file exactly once."""
    if not a.tma_rtl:
        return
    tile = os.path.join(a.vectors, "hand", "tile.jsonl")

    def case_ids(extra):
        out = run([a.tma_rtl, "run", tile, "-v"] + extra, 0)
        return sorted(l.split()[1] for l in out.splitlines() if l.startswith(("PASS ", "SKIP ")))

    whole = case_ids([])
    parts = [case_ids(["--shard", f"{k}/3"]) for k in range(3)]
    if not whole or sorted(sum(parts, [])) != whole or any(not p for p in parts):
        FAILS.append(f"--shard: {[len(p) for p in parts]} cases in the shards, "
                     f"{len(whole)} in the file")


def t_regress_args(a, d):
    """tools/regress: --seeds 0 and an output folder that is a file are usage errors."""
    base = [sys.executable, a.regress, "--no-bootstrap", "--no-build"]
    run(base + ["--seeds", "0"], 2, "must be at least 1")
    run(base + ["--seeds", "-3"], 2, "must be at least 1")
    run(base + ["--golden-sample", "0"], 2, "must be at least 1")
    run(base + ["--jobs", "0"], 2, "must be at least 1")
    f = os.path.join(d, "a_file")
    open(f, "w").close()
    run(base + ["--build", f], 2, "is a file, not a folder")


def t_nothing_checked(a, d):
    """A replay that checked no case fails (every case skipped, or none selected)."""
    tile = os.path.join(a.vectors, "hand", "tile.jsonl")
    run([a.tma, "run", tile, "--filter", "^no-such-id$"], 1, "no case ran")
    if a.tma_rtl:
        # Packed sub-byte loads on the DataBytes 64 top, which is built without the unpacker
        # (SubByte = 0): every selected case is skipped.
        sub = os.path.join(a.vectors, "hand", "subbyte.jsonl")
        run([a.tma_rtl, "run", sub, "--data-bytes", "64", "--filter", "^sb-b4x16p64"], 1,
            "no case was checked")


TESTS = {k[2:]: v for k, v in globals().items() if k.startswith("t_")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("test", choices=sorted(TESTS))
    ap.add_argument("--tma", required=True)
    ap.add_argument("--tma-rtl")
    ap.add_argument("--regress")
    ap.add_argument("--vectors", required=True)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        TESTS[a.test](a, d)
    for f in FAILS:
        print("FAIL: " + f)
    print("%s: %s" % (a.test, "FAIL" if FAILS else "PASS"))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
