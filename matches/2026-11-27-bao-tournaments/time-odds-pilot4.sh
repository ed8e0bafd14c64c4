#!/bin/sh
# The pilot of PLAN-time-odds.md's amendment 4: which weakened evaluation O4 plays with.
# OM_Mode=off only, against gnuchess --uci at 30+0.3 against 10+0.1, 16 games (8 openings of
# openings/2moves-1000.epd with seed 2, both colours) for each of EvalFile=hce and the
# generation-0 net, side by side. Not part of any test.
#
#   NOSCE=path/to/nosce matches/2026-11-27-bao-tournaments/time-odds-pilot4.sh
set -e
cd "$(dirname "$0")/../.."
nosce=${NOSCE:-target/release/nosce}
gnuchess=${GNUCHESS:-/usr/games/gnuchessu}
PATH="$PATH:/usr/games"
export PATH
dir=matches/2026-11-27-bao-tournaments/time-odds/pilot4
mkdir -p "$dir"
one() {
  python3 benches/match.py --engine1 "$nosce" --engine2 "$gnuchess" \
    --option1 OM_Mode=off --option1 EvalFile="$2" --option1 Hash=16 --option1 Threads=1 \
    --tc1 30+0.3 --tc2 10+0.1 --games 16 --concurrency 1 \
    --openings openings/2moves-1000.epd --seed 2 --event "time odds pilot 4 $1" \
    --pgn "$dir/$1.pgn" >> "$dir/$1.log" 2>&1
}
one hce hce &
one gen0 matches/2026-11-25-nnue-gen0/nosce-20a6e878b5d6.nnue &
wait
