#!/usr/bin/env python3
"""How many opponent-model probes and root moves run at once with `Threads=N` (issue 14's
"probe parallelism"): searches every position of `bench.epd` to a fixed depth through UCI
and reads the engine's `info string om threads N probes in flight mean P max PM root moves
in flight mean R max RM root phases Z % of the time` line.

    python3 benches/in_flight.py --engine target/release/nosce --threads 2 --depth 11 \\
        -o OM_Mode=om -o OM_SpeculationDepth=2 -o OM_Search=depth=4

Prints the mean over the positions of each search's probes in flight (the probes' summed
time over the search's time), the largest `max`, the share of searches whose probes ever
overlapped, and the same for root moves in flight over the root phases (the iterations' OM
searches of the root moves, after our own α-β pass) with the phases' share of the time.
Standard library only.
"""

import argparse
import pathlib
import re
import subprocess
import sys

LINE = re.compile(r"info string om threads (\d+) probes in flight mean ([\d.]+) max (\d+) "
                  r"root moves in flight mean ([\d.]+) max (\d+) root phases (\d+) %")


def positions():
    epd = pathlib.Path(__file__).resolve().parent.parent / "bench.epd"
    out = []
    for line in epd.read_text().splitlines():
        fields = line.split()
        if len(fields) >= 6 and not line.startswith("#"):
            out.append(" ".join(fields[:6]))
        elif len(fields) >= 4 and not line.startswith("#"):
            out.append(" ".join(fields[:4]) + " 0 1")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default="target/release/nosce")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--depth", type=int, default=11)
    ap.add_argument("-o", "--option", action="append", default=[], help="NAME=VALUE")
    args = ap.parse_args()
    bad = [o for o in args.option if "=" not in o or not o.split("=", 1)[0]]
    if bad:
        sys.exit(f"in_flight.py: options must be NAME=VALUE, got {bad}")
    if args.threads < 2 or args.depth < 1:
        sys.exit("in_flight.py: --threads must be at least 2 and --depth at least 1")
    try:
        eng = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True, bufsize=1)
    except OSError as e:
        sys.exit(f"in_flight.py: cannot start the engine {args.engine!r}: {e}")

    def send(s):
        eng.stdin.write(s + "\n")
        eng.stdin.flush()

    def until(prefix):
        lines = []
        while True:
            line = eng.stdout.readline()
            if not line:
                sys.exit(f"engine exited; last lines: {lines[-5:]}")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    send("uci")
    until("uciok")
    for o in [f"Threads={args.threads}"] + args.option:
        name, value = o.split("=", 1)
        send(f"setoption name {name} value {value}")
    means, maxes, overlapped, roots, phases = [], [], 0, [], []
    for fen in positions():
        send("ucinewgame")
        send(f"position fen {fen}")
        send("isready")
        until("readyok")
        send(f"go depth {args.depth}")
        found = [LINE.search(line) for line in until("bestmove")]
        found = [m for m in found if m]
        if not found:
            sys.exit(f"no 'om threads' line for {fen} (OM_Mode set, Threads > 1?)")
        mean, peak = float(found[-1].group(2)), int(found[-1].group(3))
        roots.append(float(found[-1].group(4)))
        phases.append(int(found[-1].group(6)))
        means.append(mean)
        maxes.append(peak)
        overlapped += peak > 1
    send("quit")
    eng.wait()
    print(f"{' '.join(args.option)} Threads={args.threads} depth {args.depth}: "
          f"{len(means)} positions, probes in flight mean {sum(means) / len(means):.2f} "
          f"(per search {min(means):.2f}-{max(means):.2f}), max {max(maxes)}, "
          f"overlapping in {overlapped}/{len(means)} searches; root moves in flight mean "
          f"{sum(roots) / len(roots):.2f} during root phases of {sum(phases) / len(phases):.0f} % "
          f"of the time")


if __name__ == "__main__":
    main()
