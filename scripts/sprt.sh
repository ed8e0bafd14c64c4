#!/bin/sh
# SPRT of a candidate binary against the kept one under fastchess (issues 40 and 41).
#
#   FASTCHESS=path/to/fastchess scripts/sprt.sh NEW BASE OUTDIR [TC] [ELO0] [ELO1]
#
# Defaults: tc 4+0.04, elo0 0, elo1 10, alpha = beta = 0.05, the repository's
# openings/2moves-1000.epd in random order (seed 1), each opening with both colours,
# Hash 16, Threads 1, concurrency 2 (with pondering off only one engine of a game
# thinks at a time, so two games keep two cores busy). NEW_NAME and BASE_NAME name the
# engines (default new, base); NEW_OPTIONS and BASE_OPTIONS add fastchess engine options,
# e.g. NEW_OPTIONS=option.Hash=32 (no spaces inside a value). fastchess sends only the
# options an engine announces, so nosce's hidden tuning options (SearchFeatures, MultiCut)
# go through NEW_SETOPTION and BASE_SETOPTION instead, "Name=value" (spaces allowed in the
# value): the engine is then started by a wrapper, OUTDIR/nosce-new.sh or nosce-base.sh,
# that gives it `-o Name=value` (an older binary: writes `setoption name Name value value`
# first), e.g.
# NEW_SETOPTION=SearchFeatures=conthist BASE_SETOPTION=SearchFeatures=none to test a switch
# with one binary. ROUNDS (default 20000) is the most game pairs played: a test with a cap
# on its length (issue 41's plan closes one undecided at 3,000 games) sets ROUNDS=1500, and
# fastchess then stops there by itself. fastchess is built outside the repository (`make`
# in its source tree).
# The log and the PGN go to OUTDIR, fastchess's state to OUTDIR/state.json (it and the
# wrappers name this machine's paths: not for git). A match stopped by the SPRT bounds
# ends by itself; run the same command again to resume an interrupted one from its state.
set -eu
[ $# -ge 3 ] || { echo "usage: FASTCHESS=... $0 NEW BASE OUTDIR [TC] [ELO0] [ELO1]" >&2; exit 2; }
NEW=$1; BASE=$2; OUT=$3; TC=${4:-4+0.04}; ELO0=${5:-0}; ELO1=${6:-10}
: "${FASTCHESS:?set FASTCHESS to the fastchess binary}"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
# wrap SIDE ENGINE "Name=value": the path of a wrapper that sets the hidden option first.
# A binary that takes `-o NAME=VALUE` before its protocol loop (since issue 41's candidate
# 17) is started with it; an older one gets the option as a first input line, fed by `cat`,
# which outlives the engine at the end of the match (fastchess then waits for it and has to
# be stopped by hand once it has printed its last result).
wrap() {
  w="$OUT/nosce-$1.sh"
  name=${3%%=*}
  value=${3#*=}
  if "$2" -o "$3" </dev/null >/dev/null 2>&1; then
    printf '#!/bin/sh\nexec "%s" -o "%s=%s"\n' "$2" "$name" "$value" > "$w"
  else
    printf '#!/bin/sh\n{ printf "setoption name %s value %s\\n"; cat; } | exec "%s"\n' \
      "$name" "$value" "$2" > "$w"
  fi
  chmod +x "$w"
  echo "$w"
}
[ -n "${NEW_SETOPTION:-}" ] && NEW=$(wrap new "$NEW" "$NEW_SETOPTION")
[ -n "${BASE_SETOPTION:-}" ] && BASE=$(wrap base "$BASE" "$BASE_SETOPTION")
# The PGN is ignored by git; a compressed copy under a tracked name, refreshed every
# KEEP_EVERY seconds (default 600) while the games run and once at the end, is what
# survives a session that ends before the match does. (To resume on a fresh machine,
# `gunzip -k OUTDIR/games.pgn.gz` first: the copy always holds the whole PGN.)
keep_pgn() {
  [ -s "$OUT/games.pgn" ] || return 0
  gzip -c "$OUT/games.pgn" > "$OUT/games.pgn.gz.part" && mv "$OUT/games.pgn.gz.part" "$OUT/games.pgn.gz"
}
( while sleep "${KEEP_EVERY:-600}"; do keep_pgn; done ) &
keeper=$!
trap 'kill $keeper 2>/dev/null; keep_pgn' EXIT
trap 'exit 130' INT TERM HUP
if [ -f "$OUT/state.json" ]; then
  echo "resuming from $OUT/state.json" | tee -a "$OUT/log.txt"
  "$FASTCHESS" -config file="$OUT/state.json" 2>&1 | tee -a "$OUT/log.txt"
  exit 0
fi
"$FASTCHESS" -engine cmd="$NEW" name="${NEW_NAME:-new}" ${NEW_OPTIONS:-} \
  -engine cmd="$BASE" name="${BASE_NAME:-base}" ${BASE_OPTIONS:-} \
  -each tc="$TC" proto=uci option.Hash=16 option.Threads=1 \
  -openings file="$ROOT/openings/2moves-1000.epd" format=epd order=random \
  -srand 1 -rounds "${ROUNDS:-20000}" -games 2 -repeat -concurrency 2 \
  -sprt elo0="$ELO0" elo1="$ELO1" alpha=0.05 beta=0.05 \
  -pgnout file="$OUT/games.pgn" -config outname="$OUT/state.json" \
  -ratinginterval 50 2>&1 | tee -a "$OUT/log.txt"
