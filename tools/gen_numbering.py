#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generates the shared numbering and the RTL stream-struct codecs (Python 3 stdlib only).

Inputs:
  rtl/data/tma_numbering.json   ops, modes, types, error classes, limits, descriptor bits
  rtl/pkg/tma_pkg.sv            its hand-written part: the stream structs (typedef struct packed)

Outputs (checked in; each carries a "generated ... do not edit" banner):
  rtl/pkg/tma_pkg.sv                          two marked blocks: the numbering (from the JSON)
                                              and the struct widths (<Name>Width, from the
                                              parsed structs)
  cmodel/include/tma/autogen/numbering.h      the numbering for C++ (tma::model::num)
  cmodel/include/tma/autogen/numbering_check.h  static_asserts: the model's enums == the JSON
  sim/autogen/tma_structs.h                   a C++ struct per package struct with Pack/Unpack
                                              in Verilator's word layout, and the package's
                                              integer localparams (tma::pkg)

Usage:
  tools/gen_numbering.py            regenerate in place
  tools/gen_numbering.py --check    regenerate into a temporary directory and fail (exit 1,
                                    with a diff) when a checked-in file differs
  tools/gen_numbering.py --out DIR  write the outputs under DIR (same relative paths)
"""

import argparse
import ast
import difflib
import json
import os
import re
import sys
import tempfile
import textwrap

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
JSON_PATH = "rtl/data/tma_numbering.json"
PKG_PATH = "rtl/pkg/tma_pkg.sv"
NUM_H = "cmodel/include/tma/autogen/numbering.h"
CHECK_H = "cmodel/include/tma/autogen/numbering_check.h"
STRUCTS_H = "sim/autogen/tma_structs.h"
OUTPUTS = [PKG_PATH, NUM_H, CHECK_H, STRUCTS_H]

GEN = "tools/gen_numbering.py"
NUM_BEGIN = "  // ---- BEGIN GENERATED numbering"
NUM_END = "  // ---- END GENERATED numbering ----"
WID_BEGIN = "  // ---- BEGIN GENERATED struct widths"
WID_END = "  // ---- END GENERATED struct widths ----"


class GenError(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------

def wrap_comment(text, indent, width=100):
    """Comment lines of at most `width` columns."""
    prefix = " " * indent + "// "
    return [prefix + line for line in textwrap.wrap(text, width - len(prefix))]


def sv_lit(value, width):
    return "%d'd%d" % (width, value)


def camel(struct_name):
    """cpl_info_t -> CplInfo"""
    base = struct_name[:-2] if struct_name.endswith("_t") else struct_name
    return "".join(p[:1].upper() + p[1:] for p in base.split("_") if p)


def cxx_uint(width):
    if width <= 1:
        return "bool"
    for w in (8, 16, 32, 64):
        if width <= w:
            return "uint%d_t" % w
    return None


# ---------------------------------------------------------------------------------------------
# The JSON
# ---------------------------------------------------------------------------------------------

def load_data():
    with open(os.path.join(ROOT, JSON_PATH)) as f:
        data = json.load(f)
    names = set()

    def claim(name):
        if name in names:
            raise GenError("%s: the name %s is defined twice" % (JSON_PATH, name))
        names.add(name)

    for lim in data["limits"]:
        claim(lim["name"])
    for en in data["enums"]:
        claim(en["prefix"] + "Bits")
    claim(data["element_types"]["prefix_desc"] + "Bits")
    claim(data["element_types"]["prefix_model"] + "CodeBits")
    for en in data["enums"]:
        for v in en["values"]:
            claim(en["prefix"] + v[0])
            if v[1] >= (1 << en["width"]):
                raise GenError("%s%s = %d does not fit %d bits" % (en["prefix"], v[0], v[1],
                                                                   en["width"]))
    et = data["element_types"]
    cols = et["columns"]
    et["dicts"] = [dict(zip(cols, r)) for r in et["rows"]]
    for r in et["dicts"]:
        claim(et["prefix_model"] + r["name"])
        if not r["tf32"]:
            claim(et["prefix_desc"] + r["name"])
    sw = data["swizzles"]
    sw["dicts"] = [dict(zip(sw["columns"], r)) for r in sw["rows"]]
    for f in data["descriptor"]["fields"]:
        claim("Desc" + f["name"] + "Lsb")
    for c in data["descriptor"]["constants"]:
        claim("Desc" + c["name"])
    check_descriptor(data)
    return data


def check_descriptor(data):
    """Fields inside the map, no two overlapping (the corners share the box 1..4 bits)."""
    bits = data["limits"]
    nbytes = [x["value"] for x in bits if x["name"] == "DescBytes"][0]
    owner = {}
    for f in data["descriptor"]["fields"]:
        n = f.get("n", 1)
        lo, hi = f["lsb"], f["lsb"] + f["width"] * n
        if hi > nbytes * 8:
            raise GenError("descriptor field %s ends beyond bit %d" % (f["name"], nbytes * 8))
        if f["name"] in ("LowerCorner", "UpperCorner"):
            continue  # im2col reuse of the box 1..4 bits
        for b in range(lo, hi):
            if b in owner:
                raise GenError("descriptor fields %s and %s overlap at bit %d"
                               % (owner[b], f["name"], b))
            owner[b] = f["name"]


# ---------------------------------------------------------------------------------------------
# SV numbering block
# ---------------------------------------------------------------------------------------------

def sv_numbering(data):
    out = [NUM_BEGIN + ": %s from %s." % (GEN, JSON_PATH),
           "  // ---- Do not edit: change the JSON and re-run the generator (docs/descriptor.md). ----"]

    def group(title, rows):
        # rows: (type, name, value, comment)
        out.append("")
        out.extend(wrap_comment(title, 2))
        tw = max(len(r[0]) for r in rows)
        nw = max(len(r[1]) for r in rows)
        code = ["  localparam %s %s = %s;" % (typ.ljust(tw), name.ljust(nw), val)
                for typ, name, val, _ in rows]
        cw = max(len(c) for c in code)
        for c, (_, _, _, com) in zip(code, rows):
            if com and len(c.ljust(cw)) + 4 + len(com) <= 100:
                out.append(c.ljust(cw) + "  // " + com)
            else:
                if com:
                    out.extend(wrap_comment(com, 2))
                out.append(c)

    group("Limits shared by the RTL and the model.",
          [("int unsigned", l["name"], str(l["value"]), l.get("doc", ""))
           for l in data["limits"]])
    group("Field widths of the codes below (<Prefix>Bits).",
          [("int unsigned", en["prefix"] + "Bits", str(en["width"]), "")
           for en in data["enums"]] +
          [("int unsigned", data["element_types"]["prefix_desc"] + "Bits",
            str(data["element_types"]["width_desc"]), "descriptor format code"),
           ("int unsigned", data["element_types"]["prefix_model"] + "CodeBits",
            str(data["element_types"]["width_model"]), "model element-type code")])
    for en in data["enums"]:
        w = en["width"]
        typ = "logic" if w == 1 else "logic [%d:0]" % (w - 1)
        group("%s: %s." % (en["name"], en["doc"]),
              [(typ, en["prefix"] + v[0], sv_lit(v[1], w), "") for v in en["values"]])
    et = data["element_types"]
    wm, wd = et["width_model"], et["width_desc"]
    group("Element types, the model's DType numbering (= CUtensorMapDataType).",
          [("logic [%d:0]" % (wm - 1), et["prefix_model"] + r["name"], sv_lit(r["elem"], wm), "")
           for r in et["dicts"]])
    group("Element types, the descriptor's format code (bits DescTypeLsb; tf32 / tf32.ftz are "
          "DtF32 / DtF32Ftz with the tf32 bit).",
          [("logic [%d:0]" % (wd - 1), et["prefix_desc"] + r["name"], sv_lit(r["dt"], wd), "")
           for r in sorted(et["dicts"], key=lambda r: r["dt"]) if not r["tf32"]])
    rows = []
    for f in data["descriptor"]["fields"]:
        rows.append(("int unsigned", "Desc%sLsb" % f["name"], str(f["lsb"]), f.get("doc", "")))
        rows.append(("int unsigned", "Desc%sW" % f["name"], str(f["width"]), ""))
        if f.get("n", 1) > 1:
            rows.append(("int unsigned", "Desc%sN" % f["name"], str(f["n"]),
                         "entries, entry i at Lsb + i x W"))
    for c in data["descriptor"]["constants"]:
        rows.append(("int unsigned", "Desc" + c["name"], str(c["value"]), c.get("doc", "")))
    group("Descriptor fields: " + data["descriptor"]["doc"], rows)
    out.append("")
    out.append(NUM_END)
    return out


# ---------------------------------------------------------------------------------------------
# Parsing tma_pkg.sv
# ---------------------------------------------------------------------------------------------

def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: " " * 0 + "\n" * m.group(0).count("\n"), text,
                  flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


LIT_RE = re.compile(r"(\d+)?\s*'\s*([sS]?)([dDhHbBoO])\s*([0-9a-fA-F_]+)")


def eval_expr(expr, env, where):
    def lit(m):
        base = {"d": 10, "h": 16, "b": 2, "o": 8}[m.group(3).lower()]
        return str(int(m.group(4).replace("_", ""), base))
    e = LIT_RE.sub(lit, expr)
    e = " ".join(e.replace("$clog2", "clog2").split())
    try:
        tree = ast.parse(e.strip(), mode="eval")
    except SyntaxError:
        raise GenError("%s: cannot evaluate '%s'" % (where, expr.strip()))

    def ev(n):
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, ast.Name):
            if n.id not in env:
                raise GenError("%s: unknown name %s in '%s'" % (where, n.id, expr.strip()))
            return env[n.id]
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -ev(n.operand)
        if isinstance(n, ast.BinOp):
            a, b = ev(n.left), ev(n.right)
            ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
                   ast.Div: lambda: a // b, ast.FloorDiv: lambda: a // b,
                   ast.Mod: lambda: a % b, ast.LShift: lambda: a << b,
                   ast.RShift: lambda: a >> b, ast.Pow: lambda: a ** b}
            for k, f in ops.items():
                if isinstance(n.op, k):
                    return f()
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "clog2"
                and len(n.args) == 1):
            v = ev(n.args[0])
            return max(0, (v - 1).bit_length())
        raise GenError("%s: cannot evaluate '%s'" % (where, expr.strip()))
    return ev(tree)


class Bits:
    def __init__(self, width, signed=False):
        self.width, self.signed = width, signed


class Array:
    """A packed dimension [hi:lo]: `n` elements, element k (C++ index) holds SV index lo + k
    (descending range, element 0 at the least significant end) or lo + k with an ascending
    range (element 0 at the most significant end)."""
    def __init__(self, elem, n, descending):
        self.elem, self.n, self.descending = elem, n, descending
        self.width = elem.width * n


class StructRef:
    def __init__(self, struct):
        self.struct = struct
        self.width = struct.width


class Struct:
    def __init__(self, name, fields, line):
        self.name, self.fields, self.line = name, fields, line  # fields: [(name, type)] MSB first
        self.width = sum(t.width for _, t in fields)


LOCALPARAM_RE = re.compile(
    r"\blocalparam\s+(?P<type>(?:int\s+unsigned|int|integer|logic\s*(?:signed\s*)?"
    r"(?:\[[^\]]*\])?|bit\s*(?:\[[^\]]*\])?)\s+)?(?P<name>\w+)\s*=\s*(?P<expr>[^;]+);")


def parse_package(text):
    """Returns (localparams in order: [(name, type string, value, line)], structs by name in
    order, typedefs by name)."""
    body = strip_comments(text)
    m = re.search(r"\bpackage\s+\w+\s*;(.*)\bendpackage\b", body, re.S)
    if not m:
        raise GenError("%s: no package" % PKG_PATH)
    start = m.start(1)
    src = m.group(1)
    # Function bodies hold no declarations of the package: blank them (keep the line count).
    src = re.sub(r"\bfunction\b.*?\bendfunction\b",
                 lambda x: "\n" * x.group(0).count("\n"), src, flags=re.S)
    src = re.sub(r"^\s*`[^\n]*", "", src, flags=re.M)

    def line_of(pos):
        return body.count("\n", 0, start + pos) + 1

    env = {}
    params = []
    types = {}
    structs = []
    pos = 0
    stmt_re = re.compile(r"\btypedef\b|\blocalparam\b|\bparameter\b")
    while True:
        s = stmt_re.search(src, pos)
        if not s:
            break
        where = "%s:%d" % (PKG_PATH, line_of(s.start()))
        if s.group(0) in ("localparam", "parameter"):
            lm = LOCALPARAM_RE.match(src, s.start()) if s.group(0) == "localparam" else None
            if not lm:
                raise GenError("%s: cannot parse this localparam/parameter" % where)
            name = lm.group("name")
            if name in env:
                raise GenError("%s: %s is defined twice in the package (a hand-written copy of a "
                               "generated name? remove the hand-written one)" % (where, name))
            val = eval_expr(lm.group("expr"), env, where)
            typ = re.sub(r"\s+", " ", (lm.group("type") or "int").strip())
            env[name] = val
            params.append((name, typ, val, line_of(s.start())))
            pos = lm.end()
            continue
        # typedef
        end = find_typedef_end(src, s.start(), where)
        td = src[s.start():end]
        name, typ = parse_typedef(td, env, types, where)
        if name in types:
            raise GenError("%s: type %s is defined twice" % (where, name))
        if isinstance(typ, Struct):
            typ.line = line_of(s.start())
            structs.append(typ)
            types[name] = StructRef(typ)
        else:
            types[name] = typ
        pos = end
    return params, structs, types, env


def find_typedef_end(src, at, where):
    depth = 0
    i = at
    while i < len(src):
        c = src[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == ";" and depth == 0:
            return i + 1
        i += 1
    raise GenError("%s: unterminated typedef" % where)


DIM_RE = re.compile(r"\[([^\]:]+):([^\]]+)\]")


def parse_type(spec, env, types, where):
    """A packed type: logic/bit [signed] [dims]..., or a typedef name with [dims]."""
    spec = spec.strip()
    m = re.match(r"(?:\w+::)?(\w+)\s*(signed|unsigned)?\s*((?:\[[^\]]*\]\s*)*)$", spec)
    if not m:
        raise GenError("%s: cannot parse the type '%s'" % (where, spec))
    base, sign, dims = m.group(1), m.group(2), m.group(3)
    if base in ("logic", "bit", "reg"):
        elem = Bits(1, sign == "signed")
    elif base in ("byte",):
        elem = Bits(8, sign != "unsigned")
    elif base in ("int", "integer"):
        elem = Bits(32, sign != "unsigned")
    elif base in types:
        elem = types[base]
    else:
        raise GenError("%s: unknown type %s" % (where, base))
    ranges = [(eval_expr(a, env, where), eval_expr(b, env, where)) for a, b in DIM_RE.findall(dims)]
    # The last range is the innermost: a range over single bits of logic makes a wider Bits.
    t = elem
    for i, (hi, lo) in enumerate(reversed(ranges)):
        n = abs(hi - lo) + 1
        if i == 0 and isinstance(t, Bits) and t.width == 1:
            t = Bits(n, t.signed)
        else:
            t = Array(t, n, hi >= lo)
    return t


def parse_typedef(td, env, types, where):
    m = re.match(r"typedef\s+struct\s+packed\s*(?:signed|unsigned)?\s*\{(.*)\}\s*(\w+)\s*;$",
                 td, re.S)
    if m:
        fields = []
        for decl in m.group(1).split(";"):
            decl = " ".join(decl.split())
            if not decl:
                continue
            dm = re.match(r"(.*?)\s*(\w+(?:\s*,\s*\w+)*)$", decl)
            # the type is everything before the (comma-separated) names
            names_part = dm.group(2)
            type_part = dm.group(1)
            # "logic [3:0] a, b": names_part may have swallowed only the last name
            parts = [p.strip() for p in decl.split(",")]
            first = re.match(r"(.*?)(\w+)$", parts[0])
            type_part = first.group(1)
            names = [first.group(2)] + parts[1:]
            del names_part
            t = parse_type(type_part, env, types, where)
            for n in names:
                if not re.match(r"^\w+$", n):
                    raise GenError("%s: cannot parse the field '%s'" % (where, decl))
                fields.append((n, t))
        return m.group(2), Struct(m.group(2), fields, 0)
    m = re.match(r"typedef\s+enum\s+(.*?)\{(.*)\}\s*(\w+)\s*;$", td, re.S)
    if m:
        base = m.group(1).strip() or "int"
        return m.group(3), parse_type(base, env, types, where)
    m = re.match(r"typedef\s+(.*?)\s*(\w+)\s*;$", td, re.S)
    if m:
        return m.group(2), parse_type(m.group(1), env, types, where)
    raise GenError("%s: cannot parse the typedef" % where)


# ---------------------------------------------------------------------------------------------
# Rewriting tma_pkg.sv
# ---------------------------------------------------------------------------------------------

def replace_block(text, begin, end, new_lines, what):
    lines = text.split("\n")
    b = [i for i, l in enumerate(lines) if l.startswith(begin)]
    e = [i for i, l in enumerate(lines) if l.startswith(end)]
    if len(b) != 1 or len(e) != 1 or e[0] < b[0]:
        raise GenError("%s: needs exactly one '%s' ... '%s' block (%s)"
                       % (PKG_PATH, begin.strip(), end.strip(), what))
    return "\n".join(lines[:b[0]] + new_lines + lines[e[0] + 1:])


def sv_widths(structs, hand):
    out = [WID_BEGIN + ": %s from the structs above." % GEN,
           "  // ---- Do not edit: the width of each struct, as $bits would give it (Yosys 0.23 "
           "has no",
           "  // ---- $bits of a type in a package). ----"]
    nw = max([len(camel(s.name) + "Width") for s in structs] + [0])
    for s in structs:
        name = camel(s.name) + "Width"
        if name in hand:
            out.append("  // %s: written by hand above (%d bits, checked)" % (name, s.width))
            continue
        code = "  localparam int unsigned %s = %d;" % (name.ljust(nw), s.width)
        out.append(code.ljust(nw + 34) + "  // $bits(%s)" % s.name)
    out.append(WID_END)
    return out


def gen_pkg(data, pkg_text):
    text = replace_block(pkg_text, NUM_BEGIN, NUM_END, sv_numbering(data), "numbering")
    # Parse without the widths block: a width written by hand is checked, not generated.
    bare = replace_block(text, WID_BEGIN, WID_END, [WID_BEGIN, WID_END], "struct widths")
    params, structs, types, env = parse_package(bare)
    hand = {}
    for name, _, val, line in params:
        if name.endswith("Width"):
            hand[name] = (val, line)
    for s in structs:
        name = camel(s.name) + "Width"
        if name in hand and hand[name][0] != s.width:
            raise GenError("%s:%d: %s = %d but %s has %d bits" % (PKG_PATH, hand[name][1], name,
                                                                 hand[name][0], s.name, s.width))
    text = replace_block(text, WID_BEGIN, WID_END, sv_widths(structs, hand), "struct widths")
    params, structs, types, env = parse_package(text)
    check_pkg_matches_json(data, env)
    return text, params, structs


def check_pkg_matches_json(data, env):
    """Every generated name reached the package with its value (a guard on the block itself)."""
    for l in data["limits"]:
        if env.get(l["name"]) != l["value"]:
            raise GenError("package %s != %s" % (l["name"], l["value"]))


# ---------------------------------------------------------------------------------------------
# C++ numbering header and the model checks
# ---------------------------------------------------------------------------------------------

BANNER_CXX = ("// Generated by %s from %s: do not edit.\n"
              "// Change the JSON and re-run the generator; the ctest gen/numbering_up_to_date\n"
              "// fails when this file differs from a fresh run.\n")


def cxx_numbering(data):
    o = ["// SPDX-License-Identifier: Apache-2.0",
         BANNER_CXX % (GEN, JSON_PATH) +
         "//\n// The numbering and descriptor layout the RTL (tma_pkg) and the model share. Names "
         "are the\n// package's with a k prefix (tma_pkg::ErrBusError is kErrBusError).",
         "#ifndef TMA_AUTOGEN_NUMBERING_H_",
         "#define TMA_AUTOGEN_NUMBERING_H_",
         "",
         "#include <cstdint>",
         "",
         "namespace tma::model::num {",
         ""]
    o.append("// ---- Limits ----")
    for l in data["limits"]:
        o.extend(["// " + x for x in textwrap.wrap(l["doc"], 97)])
        o.append("inline constexpr uint32_t k%s = %d;" % (l["name"], l["value"]))
    for en in data["enums"]:
        o.append("")
        o.append("// ---- %s: %s ----" % (en["name"], en["doc"]) if len(en["doc"]) < 70
                 else "// ---- %s ----" % en["name"])
        o.append("inline constexpr int k%sBits = %d;" % (en["prefix"], en["width"]))
        for v in en["values"]:
            o.append("inline constexpr uint8_t k%s%s = %d;" % (en["prefix"], v[0], v[1]))
    et = data["element_types"]
    rows = et["dicts"]
    n = len(rows)
    o.append("")
    o.append("// ---- Element types ----")
    o.extend(["// " + l for l in textwrap.wrap(et["doc"], 97)])
    o.append("inline constexpr int kNumElemTypes = %d;" % n)
    for r in rows:
        o.append("inline constexpr uint8_t k%s%s = %d;" % (et["prefix_model"], r["name"], r["elem"]))
    for r in sorted(rows, key=lambda r: r["dt"]):
        if not r["tf32"]:
            o.append("inline constexpr uint8_t k%s%s = %d;" % (et["prefix_desc"], r["name"], r["dt"]))
    by_elem = sorted(rows, key=lambda r: r["elem"])
    if [r["elem"] for r in by_elem] != list(range(n)):
        raise GenError("element types: the model codes must be 0 .. %d" % (n - 1))
    pk = {v[0]: v[1] for e in data["enums"] if e["prefix"] == "Pk" for v in e["values"]}

    def table(name, typ, key, comment):
        vals = ", ".join(str(int(key(r))) for r in by_elem)
        o.append("// %s" % comment)
        line = "inline constexpr %s %s[kNumElemTypes] = {%s};" % (typ, name, vals)
        if len(line) > 100:
            line = "inline constexpr %s %s[kNumElemTypes] = {\n    %s};" % (typ, name, vals)
        o.append(line)
    o.append("// Tables indexed by the model code (kElem*):")
    table("kElemDt", "uint8_t", lambda r: r["dt"], "descriptor format code")
    table("kElemTf32", "bool", lambda r: r["tf32"], "the descriptor's tf32 bit")
    table("kElemPtx", "uint8_t", lambda r: r["ptx"], "PTX tensormap.replace .elemtype code")
    table("kElemBits", "uint8_t", lambda r: r["bits"], "bits of an element in global memory")
    table("kElemSmemBits", "uint8_t", lambda r: r["smem_bits"],
          "bits of an element in shared memory")
    table("kElemFloat", "bool", lambda r: r["float"], "a floating-point type")
    table("kElemPk", "uint8_t", lambda r: pk[r["pk"]], "packed layout (kPk*)")
    sw = data["swizzles"]["dicts"]
    swz = {v[0]: v[1] for e in data["enums"] if e["prefix"] == "Swz" for v in e["values"]}
    span = {v[0]: v[1] for e in data["enums"] if e["prefix"] == "SwzSpan" for v in e["values"]}
    atom = {v[0]: v[1] for e in data["enums"] if e["prefix"] == "SwzAtom" for v in e["values"]}
    sw = sorted(sw, key=lambda r: swz[r["swz"]])
    if [swz[r["swz"]] for r in sw] != list(range(len(swz))):
        raise GenError("swizzles: one row per Swz code")
    o.append("")
    o.append("// ---- Swizzle encodings, indexed by kSwz* ----")
    o.extend(["// " + l for l in textwrap.wrap(data["swizzles"]["doc"], 97)])
    o.append("inline constexpr int kNumSwizzles = %d;" % len(sw))
    for name, typ, key in (("kSwzSpanCode", "uint8_t", lambda r: span[r["span"]]),
                           ("kSwzAtomCode", "uint8_t", lambda r: atom[r["atom"]]),
                           ("kSwz96BBit", "bool", lambda r: r["b96"]),
                           ("kSwzSpanBytes", "uint32_t", lambda r: r["span_bytes"]),
                           ("kSwzRepeatBytes", "uint32_t", lambda r: r["repeat_bytes"])):
        line = ("inline constexpr %s %s[kNumSwizzles] = {%s};"
                % (typ, name, ", ".join(str(int(key(r))) for r in sw)))
        if len(line) > 100:
            line = line.replace("= {", "= {\n    ")
        o.append(line)
    o.append("")
    o.append("// ---- Descriptor bit positions ----")
    o.extend(["// " + l for l in textwrap.wrap(data["descriptor"]["doc"], 97)])
    for f in data["descriptor"]["fields"]:
        line = "inline constexpr int kDesc%sLsb = %d, kDesc%sW = %d" % (f["name"], f["lsb"],
                                                                        f["name"], f["width"])
        if f.get("n", 1) > 1:
            line += ", kDesc%sN = %d" % (f["name"], f["n"])
        o.append(line + ";")
    for c in data["descriptor"]["constants"]:
        o.append("// " + c["doc"])
        o.append("inline constexpr int kDesc%s = %d;" % (c["name"], c["value"]))
    cl = data["rtl_claims"]
    codes = {en["prefix"]: {v[0]: v[1] for v in en["values"]} for en in data["enums"]}

    def mask(prefix, names, key):
        for n in names:
            if n not in codes[prefix]:
                raise GenError("rtl_claims.%s: %s is not a %s code" % (key, n, prefix))
        return sum(1 << codes[prefix][n] for n in names)
    o.append("")
    o.append("// ---- What the RTL claims to implement (rtl_claims; sim/rtl_support.h) ----")
    o.extend(["// " + l for l in textwrap.wrap(" ".join(cl["doc"]), 97)])
    o.append("// Bit k set: code k (kOp*, kMode*) is claimed.")
    o.append("inline constexpr uint32_t kClaimOpsSm90 = 0x%x;" % mask("Op", cl["ops"], "ops"))
    o.append("inline constexpr uint32_t kClaimOpsSm100 = 0x%x;"
             % mask("Op", cl["ops_sm100"], "ops_sm100"))
    o.append("inline constexpr uint32_t kClaimModesSm90 = 0x%x;"
             % mask("Mode", cl["modes_sm90"], "modes_sm90"))
    o.append("inline constexpr uint32_t kClaimModesSm100 = 0x%x;"
             % mask("Mode", cl["modes_sm100"], "modes_sm100"))
    o.append("inline constexpr bool kClaimCtaGroup2 = %s;" % ("true" if cl["cta_group2"] else
                                                             "false"))
    o.append("// The packed sub-byte types (kPkG8, kPkG12) are claimed by a top built with %s = 1."
             % cl["sub_byte_needs_param"])
    o.append("")
    o.append("}  // namespace tma::model::num")
    o.append("")
    o.append("#endif  // TMA_AUTOGEN_NUMBERING_H_")
    return "\n".join(o) + "\n"


def cxx_checks(data):
    o = ["// SPDX-License-Identifier: Apache-2.0",
         BANNER_CXX % (GEN, JSON_PATH) +
         "//\n// static_asserts that the model's own enums and limits (types.h, encoder.h) equal "
         "the\n// numbering. Included by cmodel/src/types.cc, so the model does not build when "
         "they drift.",
         "#ifndef TMA_AUTOGEN_NUMBERING_CHECK_H_",
         "#define TMA_AUTOGEN_NUMBERING_CHECK_H_",
         "",
         "#include \"tma/autogen/numbering.h\"",
         "#include \"tma/bulk_copy.h\"",
         "#include \"tma/encoder.h\"",
         "#include \"tma/types.h\"",
         "",
         "namespace tma::model {",
         ""]
    count = 0

    def check(model, num):
        nonlocal count
        line = "static_assert(%s == num::%s);" % (model, num)
        if len(line) > 100:
            line = "static_assert(%s ==\n              num::%s);" % (model, num)
        o.append(line)
        count += 1

    for l in data["limits"]:
        if "model" in l:
            check(l["model"], "k" + l["name"])
    for en in data["enums"]:
        if "model" not in en:
            continue
        for v in en["values"]:
            mname = v[2] if len(v) > 2 else "k" + v[0]
            check("static_cast<int>(%s::%s)" % (en["model"], mname), "k%s%s" % (en["prefix"], v[0]))
    et = data["element_types"]
    for r in et["dicts"]:
        check("static_cast<int>(%s::%s)" % (et["model"], r["model"]),
              "k%s%s" % (et["prefix_model"], r["name"]))
    check("kNumDTypes", "kNumElemTypes")
    o.append("")
    o.append("// The number of static_asserts above.")
    o.append("inline constexpr int kNumNumberingChecks = %d;" % count)
    o.append("")
    o.append("}  // namespace tma::model")
    o.append("")
    o.append("#endif  // TMA_AUTOGEN_NUMBERING_CHECK_H_")
    return "\n".join(o) + "\n"


# ---------------------------------------------------------------------------------------------
# C++ struct codecs
# ---------------------------------------------------------------------------------------------

def cxx_type(t):
    if isinstance(t, Bits):
        if t.width > 64:
            return "std::array<uint32_t, %d>" % ((t.width + 31) // 32)
        u = cxx_uint(t.width)
        if t.signed and t.width > 1:
            u = u.replace("uint", "int")
        return u
    if isinstance(t, Array):
        return "std::array<%s, %d>" % (cxx_type(t.elem), t.n)
    return t.struct.name


def emit_words(t, pos, lines, sp, body):
    """A loop over the 32-bit words of a field wider than 64 bits (type t) at bit offset `pos`:
    `body` with {pos} the word's bit offset and {width} its width (the last word may be short)."""
    nw = (t.width + 31) // 32
    lines.append("%sfor (int k = 0; k < %d; ++k)" % (sp, nw))
    lines.append(sp + "  " + body.format(pos="%s + 32 * k" % pos,
                                         width="k == %d ? %d : 32" % (nw - 1,
                                                                       t.width - 32 * (nw - 1))))


def emit_array(t, expr, pos, lines, ind, depth, emit_elem):
    """A loop over the elements of the packed array `expr` (type t) at bit offset `pos`; each
    element's code comes from emit_elem (emit_put or emit_get). Element i is SV index i."""
    sp = " " * ind
    i = "i%d" % depth
    off = ("%s * %s" % (t.elem.width, i)) if t.descending else \
          ("%d * (%d - %s)" % (t.elem.width, t.n - 1, i))
    lines.append("%sfor (int %s = 0; %s < %d; ++%s)" % (sp, i, i, t.n, i))
    sub = []
    emit_elem(t.elem, "%s[%s]" % (expr, i), "%s + %s" % (pos, off), sub, ind + 2, depth + 1)
    if len(sub) > 1:
        lines[-1] += " {"
        lines.extend(sub)
        lines.append(sp + "}")
    else:
        lines.extend(sub)


def emit_put(t, expr, pos, lines, ind, depth=0):
    """Code that writes `expr` (of type t) at bit offset `pos` (a C++ expression)."""
    sp = " " * ind
    if isinstance(t, Bits):
        if t.width > 64:
            emit_words(t, pos, lines, sp, "detail::Put(w, {pos}, {width}, %s[k]);" % expr)
        else:
            lines.append("%sdetail::Put(w, %s, %d, static_cast<uint64_t>(%s));"
                         % (sp, pos, t.width, expr))
    elif isinstance(t, Array):
        emit_array(t, expr, pos, lines, ind, depth, emit_put)
    else:
        lines.append("%sPackAt(%s, w, %s);" % (sp, expr, pos))


def emit_get(t, expr, pos, lines, ind, depth=0):
    sp = " " * ind
    if isinstance(t, Bits):
        if t.width > 64:
            emit_words(t, pos, lines, sp,
                       "%s[k] = static_cast<uint32_t>(detail::Get(w, {pos}, {width}));" % expr)
        elif t.width == 1:
            lines.append("%s%s = detail::Get(w, %s, 1) != 0;" % (sp, expr, pos))
        elif t.signed:
            lines.append("%s%s = static_cast<%s>(detail::SignExtend(detail::Get(w, %s, %d), %d));"
                         % (sp, expr, cxx_type(t), pos, t.width, t.width))
        else:
            lines.append("%s%s = static_cast<%s>(detail::Get(w, %s, %d));"
                         % (sp, expr, cxx_type(t), pos, t.width))
    elif isinstance(t, Array):
        emit_array(t, expr, pos, lines, ind, depth, emit_get)
    else:
        lines.append("%sUnpackAt(w, %s, &%s);" % (sp, pos, expr))


def emit_fields(s, ref, lines, emit):
    """Each field of struct s from the most significant down: emit (emit_put or emit_get) with
    the field's C++ expression (`ref` % name) and its bit offset."""
    lsb = s.width
    for fname, t in s.fields:
        lsb -= t.width
        emit(t, ref % fname, "pos + %d" % lsb, lines, 2)


def cxx_param_type(typ, val):
    m = re.match(r"(?:logic|bit)\s*(?:signed\s*)?\[(\d+):(\d+)\]", typ)
    if m:
        return cxx_uint(int(m.group(1)) - int(m.group(2)) + 1).replace("bool", "uint8_t")
    if typ in ("logic", "bit"):
        return "uint8_t"
    if typ == "int unsigned":
        return "uint32_t"
    if val < -(1 << 31) or val >= (1 << 31):
        return "int64_t"
    return "int32_t"


def cxx_structs(params, structs):
    o = ["// SPDX-License-Identifier: Apache-2.0",
         "// Generated by %s from %s: do not edit. Re-run the generator\n"
         "// after changing the package; the ctest gen/numbering_up_to_date fails when this file\n"
         "// differs from a fresh run." % (GEN, PKG_PATH),
         "//",
         "// The package tma_pkg in C++ (namespace tma::pkg, the package's names):",
         "//  - its integer localparams (OpLoad, ErrBusError, MaxDims, CmdWidth, ...);",
         "//  - one struct per `typedef struct packed`, fields in declaration order (the first is",
         "//    the most significant), each the smallest unsigned type that holds it (bool for one",
         "//    bit, std::array<uint32_t, n> beyond 64 bits); a packed array dimension [N-1:0] is a",
         "//    std::array whose element i is SV index i; T::kBits is $bits(T), T::kWords its words;",
         "//  - Pack(const T&, uint32_t* words) / Unpack(const uint32_t* words, T*) in Verilator's",
         "//    layout of a wide port (VlWide: bit n is bit n % 32 of word n / 32); Pack writes",
         "//    T::kWords words, unused high bits 0. PackU64 / UnpackU64 for structs of <= 64 bits",
         "//    (Verilator's CData/SData/IData/QData ports).",
         "// Use: `tma::pkg::Pack(cmd, dut->cmd_i.data())`, `tma::pkg::Unpack(dut->job_o.data(), &job)`.",
         "// Include as \"sim/autogen/tma_structs.h\" (CMake: link tma_pkg_structs, sim/CMakeLists.txt):",
         "// the harness library (sim/), the tests and the benches share it.",
         "#ifndef TMA_SIM_AUTOGEN_TMA_STRUCTS_H_",
         "#define TMA_SIM_AUTOGEN_TMA_STRUCTS_H_",
         "",
         "#include <array>",
         "#include <cstdint>",
         "",
         "namespace tma::pkg {",
         "",
         "// ---- Integer localparams of the package ----"]
    for name, typ, val, _ in params:
        ct = cxx_param_type(typ, val)
        o.append("inline constexpr %s %s = %d;" % (ct, name, val))
    o += ["",
          "namespace detail {",
          "// Bits [pos, pos + width) of a little-endian word array, width 1..64.",
          "inline void Put(uint32_t* w, int pos, int width, uint64_t v) {",
          "  while (width > 0) {",
          "    const int sh = pos & 31;",
          "    const int n = width < 32 - sh ? width : 32 - sh;",
          "    const uint32_t m = (n == 32 ? ~0u : ((1u << n) - 1u)) << sh;",
          "    w[pos >> 5] = (w[pos >> 5] & ~m) | ((static_cast<uint32_t>(v) << sh) & m);",
          "    v >>= n;",
          "    pos += n;",
          "    width -= n;",
          "  }",
          "}",
          "inline uint64_t Get(const uint32_t* w, int pos, int width) {",
          "  uint64_t v = 0;",
          "  for (int got = 0; got < width;) {",
          "    const int sh = pos & 31;",
          "    const int n = width - got < 32 - sh ? width - got : 32 - sh;",
          "    const uint64_t bits = (w[pos >> 5] >> sh) & (n == 32 ? ~0u : ((1u << n) - 1u));",
          "    v |= bits << got;",
          "    got += n;",
          "    pos += n;",
          "  }",
          "  return v;",
          "}",
          "inline int64_t SignExtend(uint64_t v, int width) {",
          "  const uint64_t sign = uint64_t{1} << (width - 1);",
          "  return static_cast<int64_t>((v ^ sign) - sign);",
          "}",
          "}  // namespace detail",
          ""]
    for s in structs:
        o.append("// tma_pkg::%s, %d bits." % (s.name, s.width))
        o.append("struct %s {" % s.name)
        for fname, t in s.fields:
            o.append("  %s %s{};" % (cxx_type(t), fname))
        o.append("  static constexpr int kBits = %d;" % s.width)
        o.append("  static constexpr int kWords = %d;" % ((s.width + 31) // 32))
        o.append("};")
        cmp = " &&\n         ".join("a.%s == b.%s" % (f, f) for f, _ in s.fields)
        o.append("inline bool operator==(const %s& a, const %s& b) {" % (s.name, s.name))
        o.append("  return %s;" % cmp)
        o.append("}")
        o.append("inline bool operator!=(const %s& a, const %s& b) {" % (s.name, s.name))
        o.append("  return !(a == b);")
        o.append("}")
        o.append("inline void PackAt(const %s& s, uint32_t* w, int pos) {" % s.name)
        emit_fields(s, "s.%s", o, emit_put)
        o.append("}")
        o.append("inline void UnpackAt(const uint32_t* w, int pos, %s* s) {" % s.name)
        emit_fields(s, "s->%s", o, emit_get)
        o.append("}")
        o.append("")
    o += ["// ---- Whole structs ----",
          "template <class T>",
          "void Pack(const T& s, uint32_t* words) {",
          "  for (int i = 0; i < T::kWords; ++i)",
          "    words[i] = 0;",
          "  PackAt(s, words, 0);",
          "}",
          "template <class T>",
          "void Unpack(const uint32_t* words, T* s) {",
          "  UnpackAt(words, 0, s);",
          "}",
          "template <class T>",
          "T Unpack(const uint32_t* words) {",
          "  T s;",
          "  UnpackAt(words, 0, &s);",
          "  return s;",
          "}",
          "template <class T>",
          "std::array<uint32_t, T::kWords> Pack(const T& s) {",
          "  std::array<uint32_t, T::kWords> w{};",
          "  PackAt(s, w.data(), 0);",
          "  return w;",
          "}",
          "template <class T>",
          "uint64_t PackU64(const T& s) {",
          "  static_assert(T::kBits <= 64, \"a wide struct: use Pack\");",
          "  uint32_t w[2] = {0, 0};",
          "  PackAt(s, w, 0);",
          "  return w[0] | static_cast<uint64_t>(w[1]) << 32;",
          "}",
          "template <class T>",
          "T UnpackU64(uint64_t v) {",
          "  static_assert(T::kBits <= 64, \"a wide struct: use Unpack\");",
          "  const uint32_t w[2] = {static_cast<uint32_t>(v), static_cast<uint32_t>(v >> 32)};",
          "  return Unpack<T>(w);",
          "}",
          "",
          "}  // namespace tma::pkg",
          "",
          "#endif  // TMA_SIM_AUTOGEN_TMA_STRUCTS_H_"]
    return "\n".join(o) + "\n"


# ---------------------------------------------------------------------------------------------

def generate():
    data = load_data()
    with open(os.path.join(ROOT, PKG_PATH)) as f:
        pkg_text = f.read()
    pkg, params, structs = gen_pkg(data, pkg_text)
    return {
        PKG_PATH: pkg,
        NUM_H: cxx_numbering(data),
        CHECK_H: cxx_checks(data),
        STRUCTS_H: cxx_structs(params, structs),
    }


def write_all(files, out_root):
    """Writes each file whose text differs from what is there (an unchanged file keeps its
    time stamp, so a build does not re-Verilate every model after a run that changed nothing);
    returns the files written."""
    written = []
    for rel, text in files.items():
        path = os.path.join(out_root, rel)
        try:
            with open(path) as f:
                if f.read() == text:
                    continue
        except FileNotFoundError:
            pass
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        written.append(rel)
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--check", action="store_true",
                   help="regenerate into a temporary directory; exit 1 on any difference")
    g.add_argument("--out", help="write the outputs under this directory")
    args = ap.parse_args()
    try:
        files = generate()
    except GenError as e:
        print("gen_numbering: error: %s" % e, file=sys.stderr)
        return 2
    if args.out:
        write_all(files, args.out)
        return 0
    if not args.check:
        written = write_all(files, ROOT)
        for rel in written:
            print("gen_numbering: wrote %s" % rel)
        if not written:
            print("gen_numbering: %d generated files up to date" % len(files))
        return 0
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        write_all(files, tmp)
        for rel in OUTPUTS:
            with open(os.path.join(tmp, rel)) as f:
                fresh = f.read()
            try:
                with open(os.path.join(ROOT, rel)) as f:
                    have = f.read()
            except FileNotFoundError:
                have = ""
            if fresh != have:
                bad += 1
                sys.stdout.writelines(difflib.unified_diff(
                    have.splitlines(True), fresh.splitlines(True),
                    "checked-in/" + rel, "generated/" + rel))
    if bad:
        print("gen_numbering: %d of %d generated files differ from a fresh run of %s: edit %s "
              "(or the package's structs) and run %s, never the generated text"
              % (bad, len(OUTPUTS), GEN, JSON_PATH, GEN))
        return 1
    print("gen_numbering: %d generated files up to date" % len(OUTPUTS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
