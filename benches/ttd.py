#!/usr/bin/env python3
"""Time to depth of the opponent-model driver against plain α-β on bench.epd.

Runs `nosce bench D -o NAME=VALUE ...` for every configuration and depth, and prints a
Markdown table of node counts (exact: tables are cleared and loaded before each position)
and times relative to α-β at the same depth. This is the README's "What opponent modelling
costs" table and the issue's time-to-depth goal (OM s=2 ≤ 1.5×, s=4 ≤ 2.5×; Donkers 2003
§5.4.4 reports that OMCRAFTY lost about one ply).

    python3 benches/ttd.py --engine target/release/nosce --depths 9,11,13

A configuration that would run for long at high depth (β-pruning against a model that
searches as deep as we do) is only run up to its `max_depth`; `--only NAME` runs one row.
Times are wall-clock on one thread: run on an idle machine, or read the node columns.

With `--threads N` every row is run with `Threads=1` and `Threads=N` instead, and the table
gives the wall-clock time to depth of N threads over one thread (the OM driver's parallel
root, `src/search/om/parallel.rs`), measured in the same run:

    python3 benches/ttd.py --threads 2 --depths 9,11 --only "depth-4"
"""

import argparse
import re
import subprocess
import sys

OM = ["OM_Mode=om"]

# (row label, options, deepest depth worth running)
CONFIGS = [
    ("α-β (`OM_Mode=off`)", ["OM_Mode=off"], 99),
    ("OM s=2, `self` (default: bounded-sum, B = 0)", OM + ["OM_SpeculationDepth=2"], 99),
    ("OM s=4, `self` (default: bounded-sum, B = 0)", OM + ["OM_SpeculationDepth=4"], 99),
    ("OM s=2, `self`, `OM_Search=bound=20`",
     OM + ["OM_SpeculationDepth=2", "OM_Search=bound=20"], 99),
    ("OM s=2, depth-4 opponent (`OM_Search=depth=4`)",
     OM + ["OM_SpeculationDepth=2", "OM_Search=depth=4"], 99),
    ("OM s=4, depth-4 opponent (`OM_Search=depth=4`)",
     OM + ["OM_SpeculationDepth=4", "OM_Search=depth=4"], 99),
    ("OM s=2, `self`, β-pruning only (`OM_Search=bound=off`)",
     OM + ["OM_SpeculationDepth=2", "OM_Search=bound=off"], 9),
    ("OM s=2, `self`, β-pruning, `OM_Search=bound=off root=margin margin=50`",
     OM + ["OM_SpeculationDepth=2", "OM_Search=bound=off root=margin margin=50"], 9),
    ("OM s=2, `material` at our depth", OM + ["OM_SpeculationDepth=2", "OM_OpponentTypes=material:1"], 9),
    ("PrOM s=2, two depth-4 types (`self:0.5:depth=4,material:0.5:depth=4`)",
     ["OM_Mode=prom", "OM_SpeculationDepth=2", "OM_OpponentTypes=self:0.5:depth=4,material:0.5:depth=4"], 99),
]

LAST = re.compile(r"^(\d+) nodes (\d+) ms \(depth (\d+)\)$")


def run(engine, depth, options):
    cmd = [engine, "bench", str(depth)]
    for o in options:
        cmd += ["-o", o]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    except OSError as e:
        sys.exit(f"ttd.py: cannot run {engine!r}: {e.strerror} (build it with `cargo build --release`)")
    if out.returncode != 0:
        sys.exit(f"ttd.py: {' '.join(cmd)} failed:\n{out.stderr}")
    for line in reversed(out.stdout.splitlines()):
        m = LAST.match(line.strip())
        if m:
            return int(m.group(1)), int(m.group(2))
    sys.exit(f"ttd.py: no summary line from {' '.join(cmd)}:\n{out.stdout[-500:]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default="target/release/nosce")
    ap.add_argument("--depths", default="9,11", help="comma-separated bench depths")
    ap.add_argument("--only", help="run only rows whose label contains this text (α-β always runs)")
    ap.add_argument("--threads", type=int, default=0,
                    help="compare Threads=N with Threads=1 for every row instead")
    args = ap.parse_args()
    try:
        depths = [int(d) for d in args.depths.split(",")]
    except ValueError:
        sys.exit(f"ttd.py: --depths must be comma-separated integers, got {args.depths!r}")
    if any(d < 1 or d > 64 for d in depths):
        sys.exit("ttd.py: depths must be between 1 and 64")
    configs = [c for i, c in enumerate(CONFIGS) if i == 0 or not args.only or args.only in c[0]]
    if args.only and len(configs) == 1:
        labels = "\n  ".join(c[0] for c in CONFIGS[1:])
        sys.exit(f"ttd.py: no row matches --only {args.only!r}; rows:\n  {labels}")
    if args.threads:
        if args.threads < 2:
            sys.exit("ttd.py: --threads must be at least 2")
        threads_table(args.engine, configs, depths, args.threads)
        return
    results = {}
    for label, options, max_depth in configs:
        for d in depths:
            if d <= max_depth:
                results[(label, d)] = run(args.engine, d, options)
                n, ms = results[(label, d)]
                print(f"  {label} depth {d}: {n} nodes {ms} ms", file=sys.stderr)
    base = configs[0][0]
    head = "| configuration | " + " | ".join(f"depth {d}" for d in depths) + " |"
    print(head)
    print("|---|" + "---|" * len(depths))
    for label, _, _ in configs:
        cells = []
        for d in depths:
            r = results.get((label, d))
            if r is None:
                cells.append("")
            elif label == base:
                cells.append(f"{r[0]:,} nodes, {r[1] / 1000:.1f} s")
            else:
                bn, bms = results[(base, d)]
                cells.append(f"{r[0] / bn:.2f}× (time {r[1] / max(bms, 1):.2f}×)")
        print(f"| {label} | " + " | ".join(cells) + " |")


def threads_table(engine, configs, depths, threads):
    """Time to depth with `threads` threads over one thread, per row and depth."""
    print("| configuration | " + " | ".join(f"depth {d}" for d in depths) + " |")
    print("|---|" + "---|" * len(depths))
    for label, options, max_depth in configs:
        cells = []
        for d in depths:
            if d > max_depth:
                cells.append("")
                continue
            n1, ms1 = run(engine, d, options + ["Threads=1"])
            nn, msn = run(engine, d, options + [f"Threads={threads}"])
            print(f"  {label} depth {d}: 1 thread {n1} nodes {ms1} ms, "
                  f"{threads} threads {nn} nodes {msn} ms", file=sys.stderr)
            cells.append(f"{msn / max(ms1, 1):.2f}× ({ms1 / 1000:.1f} s → {msn / 1000:.1f} s, "
                         f"nodes {nn / max(n1, 1):.2f}×)")
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
