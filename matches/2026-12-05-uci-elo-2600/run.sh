#!/bin/sh
# The 2600 cell of PLAN.md, from the repository root. NOSCE is the binary named there.
NOSCE=${NOSCE:-target/release/nosce}
D=matches/2026-12-05-uci-elo-2600
python3 benches/match.py --engine1 "$NOSCE" --option1 UCI_LimitStrength=true --option1 UCI_Elo=2600 \
  --engine2 /usr/games/stockfish --option2 UCI_LimitStrength=true --option2 UCI_Elo=2600 \
  --games 100 --tc 10+0.1 --concurrency 2 --openings openings/2moves-1000.epd --seed 1 \
  --pgn $D/cal2600.pgn > $D/cal2600.log 2>&1
