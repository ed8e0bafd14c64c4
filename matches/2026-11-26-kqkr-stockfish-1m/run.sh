#!/bin/sh
# The cells of PLAN.txt at N = 1,000,000. Run from this folder; NOSCE = the binary.
# The scripts (fit and tests) are the 2026-11-25 run's: ../2026-11-25-kqkr-stockfish/.
set -e
NOSCE=${NOSCE:-../../target/release/nosce}
export NOSCE_TABLES=${NOSCE_TABLES:-../../tables}
SF=${SF:-/usr/games/stockfish}
common="--opponent-uci $SF --opponent-option Threads=1 --opponent-option Hash=16 \
  --opp-nodes 1000000 --opp-nodes-spread 0.5 --kr-depth 5 --games 40 --jobs 2 --quiet"
case "$1" in
  fitset) $NOSCE kqkr $common --games 10 --seed 77 --depths 0 --out fitset ;;
  fit) python3 ../2026-11-25-kqkr-stockfish/fit_depth.py fitset/games.pgn $NOSCE | tee fit.txt ;;
  a) $NOSCE kqkr $common --seed 1 --depths 0 --out a-alphabeta ;;
  b) $NOSCE kqkr $common --seed 1 --depths 1 --model engine:1:replay=on --model-knows-budget --out b-engine ;;
  c) $NOSCE kqkr $common --seed 1 --depths 1 --model "notb:1:depth=$2:replay=on" --out c-fitted ;;
  *) echo "usage: run.sh fitset|fit|a|b|c D" >&2; exit 2 ;;
esac
