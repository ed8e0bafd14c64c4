#!/bin/sh
# One calibration cell a call (issue 41 item 4), from the repository root; two at once, one
# core each. NOSCE is the binary named in PLAN.md.
NOSCE=${NOSCE:-target/release/nosce}
D=matches/2026-12-04-uci-elo-2600
for E in "$@"; do
  python3 benches/match.py --engine1 "$NOSCE" --option1 UCI_LimitStrength=true --option1 UCI_Elo=$E \
    --engine2 /usr/games/stockfish --option2 UCI_LimitStrength=true --option2 UCI_Elo=$E \
    --games 100 --tc 10+0.1 --openings openings/2moves-1000.epd --seed 1 \
    --pgn $D/cal$E.pgn > $D/cal$E.log 2>&1
done
