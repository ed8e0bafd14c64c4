#!/usr/bin/env python3
"""Cross-check nosce's exact-table DTM against Gaviota tables (KQvKR, KQvK, KRvK).

Part of the endgame-table tests (Donkers 2003 section 5.4 and Appendix B use DTM and
Thompson's DTC for KQKR). The Rust side dumps random positions with our DTM, one
`fen;dtm` line each: plies, positive if the side to move wins, negative if it loses, 0 for
draws and for a mated side to move -- the convention of python-chess's `probe_dtm`.

    python3 tests/gaviota_check.py                 # 10,000 positions via `cargo run --release -- tb dump`
    python3 tests/gaviota_check.py --count 100000
    python3 tests/gaviota_check.py --dump FILE     # positions written by the Rust test

Exit status: 0 all agree, 1 mismatches or errors, 77 skipped (python-chess or tables missing).
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

SKIP = 77
CRATE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=10000, help="positions to sample (default 10000)")
    ap.add_argument("--seed", type=int, default=1, help="sampling seed (default 1)")
    ap.add_argument("--dump", help="read `fen;dtm` lines from this file instead of running cargo")
    ap.add_argument("--gaviota", help="Gaviota directory (default $GAVIOTA_PATH or tables/gaviota)")
    ap.add_argument("--generator", default="cargo run --quiet --release -- tb dump",
                    help="command that writes the dump; gets --count/--seed/--out appended")
    args = ap.parse_args()

    try:
        import chess
        import chess.gaviota
    except ImportError:
        print("SKIPPED: python-chess is not installed (pip install chess)")
        return SKIP

    directory = args.gaviota or os.environ.get("GAVIOTA_PATH") or os.path.join(CRATE, "tables", "gaviota")
    if not os.path.isdir(directory):
        print(f"SKIPPED: no Gaviota tables at {directory}")
        return SKIP

    if args.dump:
        with open(args.dump) as f:
            lines = f.read().splitlines()
    else:
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "dump.txt")
            cmd = args.generator.split() + ["--count", str(args.count), "--seed", str(args.seed), "--out", out]
            subprocess.run(cmd, cwd=CRATE, check=True)
            with open(out) as f:
                lines = f.read().splitlines()

    start = time.time()
    mismatches = []
    checked = 0
    with chess.gaviota.open_tablebase(directory) as tb:
        for line in lines:
            if not line.strip():
                continue
            fen, ours = line.rsplit(";", 1)
            ours = int(ours)
            board = chess.Board(fen)
            try:
                theirs = tb.probe_dtm(board)
            except (KeyError, chess.gaviota.MissingTableError) as e:
                mismatches.append(f"{fen}: gaviota has no value ({e})")
                continue
            checked += 1
            if theirs != ours:
                mismatches.append(f"{fen}: ours {ours}, gaviota {theirs}")
    for m in mismatches[:20]:
        print("MISMATCH", m)
    print(f"gaviota_check: {checked} positions compared, {len(mismatches)} mismatches, "
          f"{time.time() - start:.1f} s")
    return 1 if mismatches or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
