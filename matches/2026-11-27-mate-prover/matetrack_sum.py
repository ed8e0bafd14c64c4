#!/usr/bin/env python3
"""Adds up the part logs of a matetrack run split by matetrack.sh's PARTS.

    python3 matches/2026-11-27-mate-prover/matetrack_sum.py LOG...

Each LOG is one engine on one part (`<suite>-<nodes>-part<k>-of<n>-<engine>.txt`, matecheck.py's
output with the wall time). Only parts that every engine in the logs finished are added, so
the engines are compared on the same positions; unfinished parts are named. Prints, per
engine: positions, mates found, best mates, each issue matecheck.py reported (with the
number of positions it came from), and the sum of the parts' wall times.
"""

import re
import sys
from collections import defaultdict

NAME = re.compile(r"-part(\d+)-of(\d+)-([^/]+)\.txt$")
ISSUE = re.compile(r"^([A-Za-z][A-Za-z ]+):\s+(\d+)\s+\(from (\d+) FENs\)")


def read(path):
    """The numbers of one finished log, or None if it did not finish."""
    out = {"issues": {}}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            for key, field in (("Total FENs:", "fens"), ("Found mates:", "found"),
                               ("Best mates:", "best")):
                if line.startswith(key):
                    out[field] = int(line.split()[-1])
            m = ISSUE.match(line)
            if m:
                out["issues"][m.group(1)] = (int(m.group(2)), int(m.group(3)))
            if "wall " in line:
                m = re.search(r"wall ([0-9.]+) s", line)
                if m:
                    out["wall"] = float(m.group(1))
    return out if "best" in out else None


def main(paths):
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    logs = defaultdict(dict)  # part -> engine -> numbers
    engines, total = set(), None
    for p in paths:
        m = NAME.search(p)
        if not m:
            print(f"matetrack_sum.py: '{p}' is not a part log", file=sys.stderr)
            return 2
        part, n, engine = int(m.group(1)), int(m.group(2)), m.group(3)
        if total not in (None, n):
            print(f"matetrack_sum.py: logs of {total} and of {n} parts mixed", file=sys.stderr)
            return 2
        total = n
        engines.add(engine)
        numbers = read(p)
        if numbers is not None:
            logs[part][engine] = numbers
    done = sorted(k for k in range(total) if all(e in logs[k] for e in engines))
    missing = [k for k in range(total) if k not in done]
    print(f"parts finished by every engine: {len(done)} of {total}"
          + (f" (missing: {', '.join(map(str, missing))})" if missing else ""))
    for engine in sorted(engines):
        fens = sum(logs[k][engine]["fens"] for k in done)
        found = sum(logs[k][engine]["found"] for k in done)
        best = sum(logs[k][engine]["best"] for k in done)
        wall = sum(logs[k][engine].get("wall", 0.0) for k in done)
        issues = defaultdict(lambda: [0, 0])
        for k in done:
            for key, (count, from_fens) in logs[k][engine]["issues"].items():
                issues[key][0] += count
                issues[key][1] += from_fens
        text = ", ".join(f"{key.lower()} {c} ({f} FENs)" for key, (c, f) in sorted(issues.items()))
        print(f"{engine}: {fens} positions, found {found}, best {best}, "
              f"{text or 'no issues'}, wall {wall:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
