#!/bin/sh
# The match of PLAN.md: nosce against Ethereal 12 at 10+0.1, 400 games under fastchess.
#   NOSCE=path/to/nosce FASTCHESS=path/to/fastchess ETHEREAL=/usr/games/ethereal-chess \
#     matches/2026-12-05-ethereal/run.sh
# D (the match's folder, default this one) and SEED (the openings' order, default 41) let a
# later match of the same kind reuse it: D=matches/2026-12-08-ethereal SEED=61 ... run.sh.
# Run from the repository root. Run it again to resume from state.json (not for git: it
# names this machine's paths). The PGN is kept compressed (games.pgn.gz) every 10 minutes.
set -eu
: "${NOSCE:?set NOSCE}" "${FASTCHESS:?set FASTCHESS}"
ETHEREAL=${ETHEREAL:-/usr/games/ethereal-chess}
D=${D:-matches/2026-12-05-ethereal}
SEED=${SEED:-41}
mkdir -p "$D"
keep_pgn() {
  [ -s "$D/games.pgn" ] || return 0
  gzip -c "$D/games.pgn" > "$D/games.pgn.gz.part" && mv "$D/games.pgn.gz.part" "$D/games.pgn.gz"
}
( while sleep 600; do keep_pgn; done ) &
keeper=$!
trap 'kill $keeper 2>/dev/null; keep_pgn' EXIT
trap 'exit 130' INT TERM HUP
if [ -f "$D/state.json" ]; then
  echo "resuming from $D/state.json" | tee -a "$D/log.txt"
  "$FASTCHESS" -config file="$D/state.json" 2>&1 | tee -a "$D/log.txt"
  exit 0
fi
"$NOSCE" bench 2>&1 | tail -1 | tee -a "$D/log.txt"
"$FASTCHESS" -engine cmd="$NOSCE" name=nosce -engine cmd="$ETHEREAL" name=ethereal \
  -each tc=10+0.1 proto=uci option.Hash=16 option.Threads=1 \
  -openings file=openings/2moves-1000.epd format=epd order=random \
  -srand "$SEED" -rounds 200 -games 2 -repeat -concurrency 2 \
  -pgnout file="$D/games.pgn" -config outname="$D/state.json" \
  -ratinginterval 20 2>&1 | tee -a "$D/log.txt"
