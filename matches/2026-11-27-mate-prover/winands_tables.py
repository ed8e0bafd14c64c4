#!/usr/bin/env python3
"""The tables of winands.sh's logs, in the layout of Winands 2004, Tables 4.x/5.x: per
memory setting and algorithm, the positions solved (a mate proven) out of the total, and on
the positions that all five solved with that memory, the moves made, the time and the memory
held at most (sum of the per-position peaks, and the largest).

    python3 matches/2026-11-27-mate-prover/winands_tables.py matches/2026-11-27-mate-prover/winands
"""
import os
import re
import sys

ALGOS = ["pn", "pn2", "pds", "pds-pn", "dfpn"]
LINE = re.compile(r"^(.*?)\s+(pn|pn2|pds|pds-pn|dfpn)\s+found (\S+)\s+shortest \S+\s+expected \S+\s+(\d+) nodes\s+(\d+) ms\s+(\d+) KiB\s+(\S+)")


def read(path):
    rows = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = LINE.match(line)
            if m:
                pid, _, found, nodes, ms, kib, verdict = m.groups()
                rows[pid] = (found != "-", int(nodes), int(ms), int(kib), verdict)
    return rows


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    for mem in ("full", "small"):
        runs = {}
        for a in ALGOS:
            p = os.path.join(d, f"{a}-{mem}.txt")
            if os.path.exists(p):
                runs[a] = read(p)
        if not runs:
            continue
        ids = set.intersection(*(set(r) for r in runs.values()))
        common = [i for i in ids if all(r[i][0] for r in runs.values())]
        wrong = {a: sum(1 for v in r.values() if v[4] == "WRONG") for a, r in runs.items()}
        print(f"\n### Memory: {mem} ({len(ids)} positions; {len(common)} solved by all)\n")
        print("| algorithm | solved | wrong | moves (all solved) | time (all solved) | memory, sum of peaks (all solved) | memory, largest (any position) |")
        print("|---|---|---|---|---|---|---|")
        for a, r in runs.items():
            solved = sum(1 for v in r.values() if v[0])
            nodes = sum(r[i][1] for i in common)
            ms = sum(r[i][2] for i in common)
            kib = sum(r[i][3] for i in common)
            top = max((v[3] for v in r.values()), default=0)
            print(f"| {a} | {solved} / {len(r)} | {wrong[a]} | {nodes:,} | {ms / 1000:.1f} s | "
                  f"{kib / 1024:.1f} MiB | {top / 1024:.1f} MiB |")


if __name__ == "__main__":
    main()
