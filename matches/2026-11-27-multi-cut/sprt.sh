#!/bin/sh
# SPRT of MC-A (MultiCut=all c=2 m=6 r=3) against MultiCut=off, one binary (PLAN.md, addendum).
#   NOSCE=path/to/nosce FASTCHESS=path/to/fastchess matches/2026-11-27-multi-cut/sprt.sh OUTDIR
# fastchess sends only the options an engine announces; MultiCut is a hidden tuning option,
# so engine 1 is started through a wrapper that writes its setoption line first.
set -eu
OUT=${1:?usage: NOSCE=... FASTCHESS=... $0 OUTDIR}
: "${NOSCE:?}" "${FASTCHESS:?}"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WRAP=$(mktemp "${TMPDIR:-/tmp}/nosce-mc-a.XXXXXX")
trap 'rm -f "$WRAP"' EXIT
printf '#!/bin/sh\n{ printf "setoption name MultiCut value all c=2 m=6 r=3\\n"; cat; } | exec "%s"\n' "$NOSCE" > "$WRAP"
chmod +x "$WRAP"
"$FASTCHESS" -engine cmd="$WRAP" name=mc-a -engine cmd="$NOSCE" name=off \
  -each tc=8+0.08 proto=uci option.Hash=16 option.Threads=1 \
  -openings file="$ROOT/openings/2moves-1000.epd" format=epd order=random \
  -srand 1 -rounds 5000 -games 2 -repeat -concurrency 2 \
  -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 \
  -pgnout file="$OUT/games.pgn" -config outname="$OUT/state.json" \
  -ratinginterval 20 2>&1 | tee -a "$OUT/log.txt"
