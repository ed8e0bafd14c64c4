#!/usr/bin/env python3
"""Threads=2 over Threads=1, time to depth on bench.epd, several binaries in alternation.

    python3 alternate.py ROUNDS DEPTH "NAME=VALUE ..." BIN1 BIN2 ...

Each round runs `BIN1 bench DEPTH` with Threads=1, then every binary with Threads=2, then
BIN1 with Threads=1 again; a binary's ratio for the round is its Threads=2 time over the mean
of the round's two Threads=1 times (Threads=1 searches the same nodes in every binary
compared here, so one binary's serves all). Prints each round and each binary's mean ratio.
"""

import re
import statistics as st
import subprocess
import sys


def run(binary, threads, depth, opts):
    cmd = [binary, "bench", depth, "-o", f"Threads={threads}"]
    for o in opts:
        cmd += ["-o", o]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=False).stdout
    except OSError as e:
        sys.exit(f"alternate.py: cannot run {binary!r}: {e.strerror}")
    lines = out.strip().splitlines()
    m = re.match(r"(\d+) nodes (\d+) ms", lines[-1] if lines else "")
    if not m:
        sys.exit(f"alternate.py: no bench result from {' '.join(cmd)}")
    return int(m[2])


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    if not (sys.argv[1].isdigit() and int(sys.argv[1]) > 0 and sys.argv[2].isdigit()):
        sys.exit("alternate.py: ROUNDS and DEPTH must be positive whole numbers")
    if any("=" not in o for o in sys.argv[3].split()):
        sys.exit("alternate.py: options must be NAME=VALUE")
    rounds, depth, opts, bins = int(sys.argv[1]), sys.argv[2], sys.argv[3].split(), sys.argv[4:]
    ratios = {b: [] for b in bins}
    for r in range(rounds):
        t1 = run(bins[0], 1, depth, opts)
        t2 = {b: run(b, 2, depth, opts) for b in bins}
        t1b = run(bins[0], 1, depth, opts)
        base = (t1 + t1b) / 2
        line = f"round {r + 1} T1 {t1} ms"
        for b in bins:
            ratios[b].append(t2[b] / base)
            line += f" | {b.split('/')[-1]} {t2[b]} ms {t2[b] / base:.3f}"
        print(line + f" | T1 again {t1b}", flush=True)
    for b in bins:
        v = ratios[b]
        sd = st.stdev(v) if len(v) > 1 else 0.0
        print(f"{b}: mean {st.mean(v):.3f} sd {sd:.3f} n {len(v)} values "
              + " ".join(f"{x:.3f}" for x in v))


if __name__ == "__main__":
    main()
