#!/usr/bin/env python3
"""What OM_Mode=auto's search costs in depth against plain α-β, paired on the same positions.

Replays the first --games games of a PGN and, at nosce's moves between plies 10 and 60
(every other move of its own), runs each binary for a fixed movetime and records the depth it
reports. `PATH:ab` runs α-β; plain `PATH` runs OM_Mode=auto with a copy of the profile file
--profile (so that the fit starts with its evidence, as in a match; UCI_Opponent names the
profile's opponent). Prints each binary's mean depth and mean weight, and each one's paired
mean depth difference from the first.

With an `engine` model, e.g. gnuchess modelling gnuchess (match 13's games and profile):
    python3 benches/hedge_cost.py --pgn matches/2026-11-24-match13-gnuchess/A13-ab.pgn \
        --profile matches/2026-11-24-match13-gnuchess/profile-B-after.txt \
        --opponent "none none computer GNU Chess 6.2.7" \
        --option OM_OpponentEngine=./gnuchess-uci --option OM_OpponentTypes=engine:1:depth=5 \
        --binaries target/release/nosce:ab,target/release/nosce --ms 150 --games 16

Example (the pilot at UCI_Elo 2050 and its profile):
    python3 benches/hedge_cost.py --pgn matches/2026-11-23-pilot/A3-ab.pgn \
        --profile matches/2026-11-23-pilot/profile-after-pilot3.txt \
        --opponent "none 2050 computer Stockfish 15.1" \
        --binaries target/release/nosce:ab,target/release/nosce --ms 200 --games 8
"""

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile

import chess
import chess.engine
import chess.pgn


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pgn", required=True)
    ap.add_argument("--profile", required=True, help="a profile file (nosce-profile text)")
    ap.add_argument("--opponent", required=True, help="UCI_Opponent value naming the profile's opponent")
    ap.add_argument("--binaries", required=True, help="comma-separated PATH or PATH:ab")
    ap.add_argument("--ms", type=int, default=200)
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="a UCI option for the OM_Mode=auto binaries (repeatable), e.g. "
                         "OM_OpponentEngine=./gnuchess-uci")
    args = ap.parse_args()
    try:
        with open(args.pgn, encoding="utf-8") as f:
            games = [g for g in (chess.pgn.read_game(f) for _ in range(args.games)) if g is not None]
        profile_text = open(args.profile, encoding="utf-8").read()
    except OSError as e:
        sys.exit(f"hedge_cost.py: {e}")
    m = re.search(r"^key (.*)$", profile_text, re.M)
    if not m:
        sys.exit("hedge_cost.py: --profile is not a nosce profile")
    depths, weights = {}, {}
    for spec in args.binaries.split(","):
        path, _, mode = spec.partition(":")
        prof_dir = tempfile.mkdtemp(prefix="nosce-hedge-cost-")
        # The store's file name for the key (plain keys: [a-z0-9_-] kept, others %xx).
        name = "".join(c if re.match(r"[a-z0-9_-]", c) else "".join(f"%{b:02x}" for b in c.encode()) for c in m.group(1))
        with open(os.path.join(prof_dir, name + ".profile"), "w", encoding="utf-8") as f:
            f.write(profile_text)
        try:
            engine = chess.engine.SimpleEngine.popen_uci(path)
        except (OSError, chess.engine.EngineError) as e:
            shutil.rmtree(prof_dir, ignore_errors=True)
            sys.exit(f"hedge_cost.py: cannot start '{path}': {e}")
        try:
            if mode != "ab":
                opts = {"OM_Mode": "auto", "OM_Profiles": prof_dir, "UCI_Opponent": args.opponent}
                opts.update(o.split("=", 1) for o in args.option)
                engine.configure(opts)
            for gi, g in enumerate(games):
                side = chess.WHITE if "nosce" in g.headers["White"].lower() else chess.BLACK
                board = g.board()
                for ply, mv in enumerate(g.mainline_moves()):
                    if board.turn == side and 10 <= ply <= 60 and ply % 4 < 2:
                        last = {}
                        with engine.analysis(board, chess.engine.Limit(time=args.ms / 1000),
                                             info=chess.engine.INFO_ALL, game=gi) as an:
                            for info in an:
                                w = re.search(r"weight ([\d.]+)", info.get("string", ""))
                                if w:
                                    weights.setdefault(spec, []).append(float(w.group(1)))
                                if "depth" in info and "score" in info:
                                    last = info
                        depths.setdefault(spec, []).append(last.get("depth", 0))
                    board.push(mv)
        finally:
            engine.quit()
            shutil.rmtree(prof_dir, ignore_errors=True)
        w = statistics.mean(weights[spec]) if weights.get(spec) else 0.0
        print(f"{spec}: {len(depths[spec])} positions, mean depth {statistics.mean(depths[spec]):.2f}, "
              f"mean weight {w:.2f}", flush=True)
    specs = list(depths)
    for s in specs[1:]:
        diffs = [a - b for a, b in zip(depths[s], depths[specs[0]])]
        print(f"{s} minus {specs[0]}: paired mean depth difference {statistics.mean(diffs):+.2f}")


if __name__ == "__main__":
    main()
