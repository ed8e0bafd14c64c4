#!/bin/sh
# The calibration as run (2026-11-25): two of these at once, `./run.sh 1400 2200` and
# `./run.sh 1800 2600`, one core each. NOSCE is the binary of eba08de.
NOSCE=${NOSCE:-target/release/nosce}
for E in "$@"; do
  python3 benches/match.py --engine1 "$NOSCE" --option1 UCI_LimitStrength=true --option1 UCI_Elo=$E \
    --engine2 /usr/games/stockfish --option2 UCI_LimitStrength=true --option2 UCI_Elo=$E \
    --games 100 --tc 10+0.1 --pgn cal$E.pgn > cal$E.log 2>&1
done
