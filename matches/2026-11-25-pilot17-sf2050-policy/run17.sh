#!/bin/sh
# Pilot 17 (PLAN17.txt): run from the repository root; NOSCE = the binary of 85723d9.
NOSCE=${NOSCE:-/tmp/m17/nosce-85723d9}
OUT=${OUT:-/tmp/m17}
SF=/usr/games/stockfish
common="--engine2 $SF --option2 UCI_LimitStrength=true --option2 UCI_Elo=2050 --rating2 2050 \
  --games 200 --tc 5+0.05 --openings ../shared/openings/2moves_v1.epd"
python3 benches/match.py --engine1 $NOSCE $common --pgn $OUT/A17-ab.pgn > $OUT/A17-ab.log 2>&1 &
python3 benches/match.py --engine1 $NOSCE $common --option1 OM_Mode=prom \
  --option1 OM_SpeculationDepth=2 --option1 OM_PolicyValue=engine \
  --option1 OM_OpponentEngine=$SF --option1 "OM_OpponentEngineOptions=Threads=1;Hash=16;MultiPV=4" \
  --option1 OM_OpponentTypes=engine:1:depth=8:skill=7.19 \
  --pgn $OUT/B17-policy.pgn > $OUT/B17-policy.log 2>&1 &
wait
