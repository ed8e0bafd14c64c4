#!/usr/bin/env python3
"""Depth reached in a fixed time by PrOM with a mixed-strategy engine type (Stockfish's
Skill pick over its MultiPV-4 lines, `engine:1:depth=D:skill=7.19`), valued by our search
below the lines or by the engine's scores (`OM_PolicyValue`), against plain α-β:
the first 16 positions of bench.epd, `go movetime` each (default 150 ms, about a move at
5+0.05), a new game per position. Run from the repository root:

    python3 matches/2026-11-25-sf-skill-policy/ttd_policy.py [MS] [STOCKFISH]
"""
import sys

import chess
import chess.engine

MS = int(sys.argv[1]) if len(sys.argv) > 1 else 150
SF = sys.argv[2] if len(sys.argv) > 2 else "/usr/games/stockfish"
FENS = [l.split(";")[0].strip() for l in open("bench.epd") if l.strip()][:16]


def run(label, opts):
    e = chess.engine.SimpleEngine.popen_uci("./target/release/nosce")
    e.configure(opts)
    depths, calls = [], []
    for fen in FENS:
        with e.analysis(chess.Board(fen), chess.engine.Limit(time=MS / 1000), game=object()) as an:
            d = 0
            for info in an:
                d = max(d, info.get("depth", 0))
                s = info.get("string", "")
                if s.startswith("om engine calls"):
                    calls.append(int(s.split()[3]))
        depths.append(d)
    e.quit()
    mean = sum(depths) / len(depths)
    extra = f", engine calls per move {sum(calls) / len(calls):.1f}" if calls else ""
    print(f"{label:34s} mean depth {mean:5.2f}{extra}  {depths}", flush=True)


def main():
    run("alpha-beta", {})
    for value in ("search", "engine"):
        for depth in (6, 8):
            for margin in (10, 30):
                run(f"PrOM {value} skill d{depth} margin {margin}", {
                    "OM_Mode": "prom", "OM_SpeculationDepth": 2,
                    "OM_PolicyValue": value,
                    "OM_OpponentEngine": SF,
                    "OM_OpponentEngineOptions": "Threads=1;Hash=16;MultiPV=4",
                    "OM_OpponentTypes": f"engine:1:depth={depth}:skill=7.19",
                    "OM_RootSafety": "margin", "OM_RootMargin": margin,
                })
    for depth in (6, 8):
        run(f"PrOM engine skill d{depth} no margin", {
            "OM_Mode": "prom", "OM_SpeculationDepth": 2,
            "OM_PolicyValue": "engine",
            "OM_OpponentEngine": SF,
            "OM_OpponentEngineOptions": "Threads=1;Hash=16;MultiPV=4",
            "OM_OpponentTypes": f"engine:1:depth={depth}:skill=7.19",
        })
    run("alpha-beta (again)", {})


if __name__ == "__main__":
    main()
