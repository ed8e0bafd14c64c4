#!/bin/sh
# The three cells of PLAN.txt (N = 100,000: the 300,000-node pilot of cell (b) projected
# about 95 minutes for the three cells on 2 jobs). Run from this folder; NOSCE = the binary.
set -e
NOSCE=${NOSCE:-../../target/release/nosce}
# The exact tables are built once into the repository's tables/ (ignored by git).
export NOSCE_TABLES=${NOSCE_TABLES:-../../tables}
SF=${SF:-/usr/games/stockfish}
common="--opponent-uci $SF --opponent-option Threads=1 --opponent-option Hash=16 \
  --opp-nodes 100000 --opp-nodes-spread 0.5 --kr-depth 5 --games 40 --jobs 2 --quiet"
case "$1" in
  fitset) $NOSCE kqkr $common --games 10 --seed 77 --depths 0 --out fitset ;;
  a) $NOSCE kqkr $common --seed 1 --depths 0 --out a-alphabeta ;;
  b) $NOSCE kqkr $common --seed 1 --depths 1 --model engine:1:replay=on --model-knows-budget --out b-engine ;;
  c) $NOSCE kqkr $common --seed 1 --depths 1 --model "notb:1:depth=$2:replay=on" --out c-fitted ;;
  *) echo "usage: run.sh fitset|a|b|c D" >&2; exit 2 ;;
esac
