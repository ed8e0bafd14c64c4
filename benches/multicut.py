#!/usr/bin/env python3
"""Multi-cut (Winands 2004 ch. 6: MC-C, MC-A) against the plain search on bench.epd.

Runs `nosce bench D -o MultiCut=...` for every setting and depth and prints a Markdown table:
total nodes (exact: one thread, tables cleared before each position), nodes relative to
`MultiCut=off` at the same depth (and null-move setting), wall time, and the positions whose
best move differs from `off`. Winands measured the node reduction at fixed depth the same way
(§6.5.1–6.5.2), with and without null move (Table 6.1): `--null-move both` adds the rows
without it (`NullMove=false`).

    python3 benches/multicut.py --engine target/release/nosce --depths 11,13
    python3 benches/multicut.py --depths 9,11 --null-move both

`--table61 C,M,R` (repeatable) prints Winands's Table 6.1 instead: the nodes without and with
MC-A (at the given C, M, R; MC-A alone is the option's `all-only`) in his four settings — no other
forward pruning of his kind (neither null move nor MC-C; nosce's LMR, futility, late-move
and reverse futility pruning stay on), only null move, only MC-C, null move and MC-C.

    python3 benches/multicut.py --depths 7,9,11 --table61 2,10,2 --table61 2,6,3

Each (depth, setting) is searched once per run: the baselines the tables share are reused.
"""

import argparse
import functools
import re
import subprocess

SETTINGS = ["off"] + [
    f"{mode} c={c} m={m} r={r}"
    for mode in ("cut", "all")
    for (c, m, r) in ((2, 10, 2), (2, 6, 3), (3, 10, 3), (1, 4, 3))
]


@functools.cache
def bench(engine, depth, setting, null_move):
    out = subprocess.run(
        [engine, "bench", str(depth), "-o", f"MultiCut={setting}", "-o", f"NullMove={null_move}"],
        capture_output=True, text=True, check=True,
    )
    out = out.stdout + out.stderr
    moves = re.findall(r"bestmove (\S+)", out)
    total = re.search(r"(\d+) nodes (\d+) ms \(depth", out)
    return int(total.group(1)), int(total.group(2)), moves


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="target/release/nosce")
    ap.add_argument("--depths", default="11,13")
    ap.add_argument("--null-move", choices=["on", "off", "both"], default="on")
    ap.add_argument("--table61", metavar="C,M,R", action="append", type=cmr)
    args = ap.parse_args()
    if args.table61:
        for c, m, r in args.table61:
            table61(args, c, m, r)
        return
    nulls = {"on": ["on"], "off": ["off"], "both": ["on", "off"]}[args.null_move]
    print("| depth | null move | MultiCut | nodes | vs off | ms | other best move |")
    print("|---:|---|---|---:|---:|---:|---:|")
    for depth in map(int, args.depths.split(",")):
        for null in nulls:
            base = None
            for setting in SETTINGS:
                nodes, ms, moves = bench(args.engine, depth, setting, null)
                if base is None:
                    base = (nodes, moves)
                diff = sum(a != b for a, b in zip(moves, base[1]))
                print(f"| {depth} | {null} | `{setting}` | {nodes} | {nodes / base[0]:.3f} | "
                      f"{ms} | {diff} of {len(moves)} |", flush=True)


def cmr(text):
    """C,M,R as three positive integers, for argparse."""
    try:
        c, m, r = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not C,M,R (three integers)") from None
    if not 1 <= c <= m <= 64 or not 0 <= r <= 8:
        raise argparse.ArgumentTypeError(f"'{text}': need 1 <= C <= M <= 64, 0 <= R <= 8")
    return c, m, r


def table61(args, c, m, r):
    cmr = f"c={c} m={m} r={r}"
    quadrants = [
        ("no null move, no MC-C", "off", "off", f"all-only {cmr}"),
        ("only null move", "on", "off", f"all-only {cmr}"),
        ("only MC-C", "off", f"cut {cmr}", f"all {cmr}"),
        ("null move and MC-C", "on", f"cut {cmr}", f"all {cmr}"),
    ]
    print(f"\nMC-A with (C, M, R) = ({c}, {m}, {r}); nodes on bench.epd, one thread, tables "
          "cleared before each position\n")
    print("| setting | d | no MC-A | MC-A | % |")
    print("|---|---:|---:|---:|---:|")
    for name, null, without, with_ in quadrants:
        for depth in map(int, args.depths.split(",")):
            a = bench(args.engine, depth, without, null)[0]
            b = bench(args.engine, depth, with_, null)[0]
            print(f"| {name} | {depth} | {a:,} | {b:,} | {100 * b / a:.1f} |", flush=True)


if __name__ == "__main__":
    main()
