#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/testplan.py: the testplan (tests/testplan.hjson) -- check it, render it.

  tools/testplan.py check [--build DIR]
      Fails (exit 1) when a testpoint names a test that no ctest of DIR (default build) matches
      (exact names or fnmatch patterns), or when a row of docs/architecture.md's feature list
      (a tma_* block of the engine block diagram, a row of "Which issue builds what") is in no
      testpoint's `features`. Needs a complete build (`ctest -N` lists a test executable that
      was not built as <exe>_NOT_BUILT).
  tools/testplan.py render [--junit FILE...] [--out docs/testplan.md]
      Writes the testplan as Markdown, each testpoint with its status from the JUnit files
      (ctest --output-junit, tools/regress's junit.xml): pass (N) when every matching test
      that ran passed, FAIL when one failed, "not run" when none ran; the names with no
      result are listed.
Exit: 0 ok, 1 check failed, 2 usage or input error.
"""
import argparse
import fnmatch
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLAN = os.path.join(ROOT, "tests", "testplan.hjson")
ARCH = os.path.join(ROOT, "docs", "architecture.md")


class HjsonError(Exception):
    pass


def parse_hjson(text):
    """The hjson subset of the testplan: objects, arrays, unquoted keys, "strings",
    '''multi-line strings''', bare words (to the end of the line or a , ] }), // and #
    comments, commas optional between members."""
    pos = 0
    n = len(text)

    def skip():
        nonlocal pos
        while pos < n:
            if text[pos] in " \t\r\n,":
                pos += 1
            elif text.startswith("//", pos) or text[pos] == "#":
                while pos < n and text[pos] != "\n":
                    pos += 1
            else:
                break

    def where():
        return "line %d" % (text.count("\n", 0, pos) + 1)

    def value():
        nonlocal pos
        skip()
        if pos >= n:
            raise HjsonError("unexpected end of the file")
        c = text[pos]
        if c == "{":
            pos += 1
            obj = {}
            while True:
                skip()
                if pos < n and text[pos] == "}":
                    pos += 1
                    return obj
                m = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").match(text, pos)
                if not m:
                    raise HjsonError("%s: expected a key" % where())
                key = m.group(0)
                pos = m.end()
                skip()
                if pos >= n or text[pos] != ":":
                    raise HjsonError("%s: expected ':' after %s" % (where(), key))
                pos += 1
                if key in obj:
                    raise HjsonError("%s: key %s twice" % (where(), key))
                obj[key] = value()
        if c == "[":
            pos += 1
            arr = []
            while True:
                skip()
                if pos < n and text[pos] == "]":
                    pos += 1
                    return arr
                arr.append(value())
        if text.startswith("'''", pos):
            end = text.find("'''", pos + 3)
            if end < 0:
                raise HjsonError("%s: ''' string without its end" % where())
            s = " ".join(text[pos + 3:end].split())
            pos = end + 3
            return s
        if c == '"':
            m = re.compile(r'"((?:[^"\\\n]|\\.)*)"').match(text, pos)
            if not m:
                raise HjsonError("%s: bad string" % where())
            pos = m.end()
            return m.group(1).replace('\\"', '"').replace("\\\\", "\\")
        m = re.compile(r"[^,\]}\n]+").match(text, pos)
        pos = m.end()
        return m.group(0).strip()

    v = value()
    skip()
    if pos != n:
        raise HjsonError("%s: text after the top-level object" % where())
    return v


def load_plan():
    try:
        with open(PLAN) as f:
            plan = parse_hjson(f.read())
    except (OSError, HjsonError) as e:
        print("testplan: %s: %s" % (os.path.relpath(PLAN, ROOT), e), file=sys.stderr)
        sys.exit(2)
    for tp in plan.get("testpoints", []):
        for key in ("name", "desc", "stage", "tests", "features", "covergroups"):
            if key not in tp:
                print("testplan: testpoint %s has no %s" % (tp.get("name", "?"), key),
                      file=sys.stderr)
                sys.exit(2)
        if tp["stage"] not in ("V1", "V2", "V3"):
            print("testplan: testpoint %s: stage %s (V1, V2 or V3)" % (tp["name"], tp["stage"]),
                  file=sys.stderr)
            sys.exit(2)
    return plan


def architecture_features():
    """The feature list of docs/architecture.md: the tma_* blocks of the engine block diagram
    and "issue N" for each row of "Which issue builds what"."""
    with open(ARCH) as f:
        text = f.read()
    diagram = text.split("## Engine block diagram", 1)[1].split("\n## ", 1)[0]
    blocks = sorted(set(re.findall(r"\b(tma_[a-z0-9_]+?)(?:\.sv)?\b", diagram)))
    blocks = [b for b in blocks if b != "tma_pkg" and b != "tma_bind"]
    issues = text.split("## Which issue builds what", 1)[1]
    rows = ["issue %s" % m for m in re.findall(r"^\|[^|\n]+\|\s*(\d+)\b", issues, re.M)]
    return blocks + rows


def ctest_names(build):
    p = subprocess.run(["ctest", "--test-dir", build, "-N"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        print("testplan: ctest -N in %s failed:\n%s" % (build, p.stdout[-1000:]), file=sys.stderr)
        sys.exit(2)
    return re.findall(r"^\s*Test\s+#\d+: (\S+)", p.stdout, re.M)


def cmd_check(a):
    plan = load_plan()
    names = ctest_names(a.build)
    not_built = [x for x in names if x.endswith("_NOT_BUILT")]
    errors = []
    cgs = {c["name"] for c in plan.get("covergroups", [])}
    for tp in plan["testpoints"]:
        for t in tp["tests"]:
            if not any(fnmatch.fnmatchcase(x, t) for x in names):
                errors.append("testpoint %s: no ctest matches %s" % (tp["name"], t))
        for c in tp["covergroups"]:
            if c not in cgs:
                errors.append("testpoint %s: covergroup %s is not declared" % (tp["name"], c))
    covered = {f for tp in plan["testpoints"] for f in tp["features"]}
    for f in architecture_features():
        if f not in covered:
            errors.append("docs/architecture.md: %s is in no testpoint's features" % f)
    for e in errors:
        print("testplan: " + e)
    if errors and not_built:
        print("testplan: (the build lacks %d test executable(s): %s; build everything first)" %
              (len(not_built), ", ".join(not_built[:5])))
    print("testplan: %d testpoints, %d test references, %d ctests, %d features: %s" % (
        len(plan["testpoints"]), sum(len(tp["tests"]) for tp in plan["testpoints"]), len(names),
        len(architecture_features()), "FAIL" if errors else "ok"))
    return 1 if errors else 0


def junit_results(files):
    """{test name: "pass" | "fail" | "skip"} from JUnit files; a name may be a ctest name or,
    for tools/regress, tb/<test>/seedN and golden/<case>."""
    res = {}
    for path in files:
        try:
            root = ET.parse(path).getroot()
        except (OSError, ET.ParseError) as e:
            print("testplan: %s: %s" % (path, e), file=sys.stderr)
            sys.exit(2)
        for tc in root.iter("testcase"):
            name = tc.get("name", "")
            cls = tc.get("classname", "")
            if cls.startswith("tb."):  # tools/regress: classname tb.<test>, name seedN
                name = "tb/rtl/" + cls[3:]
            status = "pass"
            if tc.find("failure") is not None or tc.find("error") is not None:
                status = "fail"
            elif tc.find("skipped") is not None or tc.get("status") in ("notrun", "disabled"):
                status = "skip"
            prev = res.get(name)
            res[name] = "fail" if "fail" in (prev, status) else (
                "pass" if "pass" in (prev, status) else status)
    return res


def cmd_render(a):
    plan = load_plan()
    res = junit_results(a.junit or [])
    lines = ["# OpenTMA testplan", "",
             "Generated by `tools/testplan.py render` from `tests/testplan.hjson` (edit that, "
             "not this file) and the JUnit results of the last run: " +
             (", ".join("`%s`" % os.path.relpath(j, ROOT) for j in a.junit)
              if a.junit else "none given") + ".",
             "Stages follow OpenTitan: V1 basic function, V2 every feature and error, V3 "
             "stress, robustness and sign-off. `ctest testplan/tests_exist` checks that every "
             "test named here exists and that every row of docs/architecture.md's feature "
             "list is in a testpoint.", "",
             "| testpoint | stage | status | tests | covergroups | features |",
             "| --- | --- | --- | --- | --- | --- |"]
    counts = {}
    for tp in plan["testpoints"]:
        matched = {}
        unrun = []  # patterns no result matched
        for t in tp["tests"]:
            hit = False
            for name, st in res.items():
                if fnmatch.fnmatchcase(name, t):
                    matched[name] = st
                    hit = True
            if not hit:
                unrun.append(t)
        npass = sum(v == "pass" for v in matched.values())
        nfail = sum(v == "fail" for v in matched.values())
        if not tp["tests"]:
            status = "planned (no test)"
        elif nfail:
            status = "**FAIL** (%d/%d)" % (npass, npass + nfail)
        elif npass:
            status = "pass (%d)" % npass
        else:
            status = "not run"
        if unrun and (npass or nfail):
            status += "; not run: " + ", ".join("`%s`" % t for t in unrun)
        counts[status.split(" ")[0]] = counts.get(status.split(" ")[0], 0) + 1
        lines.append("| `%s` | %s | %s | %s | %s | %s |" % (
            tp["name"], tp["stage"], status,
            ", ".join("`%s`" % t for t in tp["tests"]) or "-",
            ", ".join("`%s`" % c for c in tp["covergroups"]) or "-",
            ", ".join(tp["features"])))
    lines += ["", "Summary: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())), "",
              "## Testpoints", ""]
    for tp in plan["testpoints"]:
        lines += ["### `%s` (%s)" % (tp["name"], tp["stage"]), "", tp["desc"], ""]
    lines += ["## Covergroups", ""]
    for c in plan.get("covergroups", []):
        lines += ["* `%s`: %s" % (c["name"], c["desc"])]
    try:
        with open(a.out, "w") as f:
            f.write("\n".join(lines) + "\n")
    except OSError as e:
        print("testplan: cannot write %s: %s" % (a.out, e.strerror), file=sys.stderr)
        return 2
    print("testplan: wrote %s (%s)" % (os.path.relpath(a.out, ROOT),
                                       ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check")
    c.add_argument("--build", default=os.path.join(ROOT, "build"))
    r = sub.add_parser("render")
    r.add_argument("--junit", nargs="*")
    r.add_argument("--out", default=os.path.join(ROOT, "docs", "testplan.md"))
    a = ap.parse_args()
    return cmd_check(a) if a.cmd == "check" else cmd_render(a)


if __name__ == "__main__":
    sys.exit(main())
