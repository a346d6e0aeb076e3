#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""global_lsr.py: put the board's high-fanout flop resets on the ECP5's global network.

nextpnr-ecp5 promotes only clocks to the primary clock network, so the engine's synchronous
reset (one LUT inverting the synchronised reset, 11,193 flops' LSR in the load90 board, and a
second one with the SoC's soft reset, 4,307) is routed through the general fabric: one net
spanning every slice of the design, among the most congested in router2's heat maps. The
primary network reaches each slice's LSR as well as its clock: nextpnr routes a DCCA's output
to any logic-tile pin on one of the 8 globals that may drive fabric. This pass
inserts a DCCA (the global buffer) between the driver of every net with at least MIN_FANOUT
flop LSR pins and those pins; nextpnr then routes the DCCA's output on a global, the only
cost one global of the 8 that may drive fabric (the clock uses another).

Works on a Yosys JSON netlist after synth_ecp5 (TRELLIS_FF cells); idempotent (a net already
driven by a DCCA is left alone).

  boards/ulx3s/global_lsr.py IN.json OUT.json [--min-fanout N]
"""

import argparse
import collections
import json
import sys

DEFAULT_MIN_FANOUT = 1000
MAX_GLOBALS = 6     # of the 8 fabric-capable globals: one is the clock, one spare


def top_module(netlist):
    tops = [m for m, v in netlist["modules"].items() if v.get("attributes", {}).get("top")]
    if len(tops) != 1:
        raise ValueError(f"expected one top module, found {len(tops)}")
    return netlist["modules"][tops[0]]


def promote(netlist, min_fanout=DEFAULT_MIN_FANOUT):
    """Insert DCCA cells in place; returns [(net name, LSR pins)] of the promoted nets."""
    mod = top_module(netlist)
    cells, nets = mod["cells"], mod["netnames"]
    lsr_pins = collections.defaultdict(list)    # bit -> [(cell, index in LSR)]
    dcca_driven = set()
    top_bit = 0                                  # the highest bit number in use
    for name, cell in cells.items():
        for bits in cell["connections"].values():
            top_bit = max([top_bit] + [b for b in bits if isinstance(b, int)])
        if cell["type"] == "TRELLIS_FF":
            for i, bit in enumerate(cell["connections"].get("LSR", [])):
                if isinstance(bit, int):
                    lsr_pins[bit].append((name, i))
        elif cell["type"] == "DCCA":
            dcca_driven.update(b for b in cell["connections"].get("CLKO", []) if isinstance(b, int))
    wanted = sorted(((b, p) for b, p in lsr_pins.items()
                     if len(p) >= min_fanout and b not in dcca_driven),
                    key=lambda bp: -len(bp[1]))[:MAX_GLOBALS]
    bit_name = {b: None for b, _ in wanted}      # the shortest net name of each wanted bit
    for name, net in nets.items():
        for bit in net["bits"]:
            if isinstance(bit, int):
                top_bit = max(top_bit, bit)
                if bit in bit_name and (bit_name[bit] is None or len(name) < len(bit_name[bit])):
                    bit_name[bit] = name
    next_bit = top_bit + 1
    promoted = []
    for bit, pins in wanted:
        glb = next_bit
        next_bit += 1
        label = bit_name[bit] or f"bit{bit}"
        cells[f"$global_lsr${label}"] = {
            "hide_name": 1, "type": "DCCA", "parameters": {}, "attributes": {},
            "port_directions": {"CLKI": "input", "CE": "input", "CLKO": "output"},
            "connections": {"CLKI": [bit], "CE": ["1"], "CLKO": [glb]},
        }
        nets[f"$global_lsr${label}$glb"] = {"hide_name": 1, "bits": [glb], "attributes": {}}
        for cell, i in pins:
            cells[cell]["connections"]["LSR"][i] = glb
        promoted.append((label, len(pins)))
    return promoted


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--min-fanout", type=int, default=DEFAULT_MIN_FANOUT)
    args = ap.parse_args()
    with open(args.inp) as f:
        netlist = json.load(f)
    for label, n in promote(netlist, args.min_fanout):
        print(f"global_lsr: {label}: {n} LSR pins on a DCCA")
    with open(args.out, "w") as f:
        json.dump(netlist, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
