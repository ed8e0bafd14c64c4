#!/bin/sh
# The time-odds matches of PLAN-time-odds.md (with its amendment): one match, both arms side
# by side, each one game at a time with its own profile directory. Re-run to resume: each arm
# starts at the round after the last game in its PGN (a game in flight when stopped is lost
# and replayed). Files that git ignores do not survive a change of machine, so a session that
# stops a match keeps its records compressed and committed (<arm>.pgn.gz, auto-info.log.gz and
# the profile folders, added with `git add -f`); this script unpacks a .gz whose plain file is
# missing before it resumes.
#
#   NOSCE=path/to/nosce matches/2026-11-27-bao-tournaments/time-odds.sh E|O1|O2|O3|O4|O5
#
# NOSCE defaults to target/release/nosce; TOGA2 and GNUCHESS to Debian's /usr/games ones
# (toga2, gnuchessu).
# Records go to matches/2026-11-27-bao-tournaments/time-odds/<MATCH>/ ({auto,off}.pgn, .log,
# auto-info.log, profiles-*); the comparison: benches/paired_pgn.py (printed at the end).
set -e
cd "$(dirname "$0")/../.."
match=${1:?usage: time-odds.sh E|O1|O2|O3|O4|O5}
nosce=${NOSCE:-target/release/nosce}
toga2=${TOGA2:-/usr/games/toga2}
# gnuchessu: Debian's `gnuchess --uci` (match.py starts a program without arguments).
gnuchess=${GNUCHESS:-/usr/games/gnuchessu}
# Debian's gnuchessu starts `gnuchess` by name, from /usr/games.
PATH="$PATH:/usr/games"
export PATH
model=     # the depth at which the opponent program is offered to auto's fit as its own model
evalfile=
dir=matches/2026-11-27-bao-tournaments/time-odds/$match
case $match in
  E) opp=$toga2; tc1=10+0.1 ;;
  O1) opp=$toga2; tc1=30+0.3 ;;
  O2) opp=$gnuchess; tc1=30+0.3 ;;
  # O3 (amendment 3): O2 with gnuchess itself offered to auto's fit (both arms; off ignores it).
  O3) opp=$gnuchess; tc1=30+0.3; model=5 ;;
  # O4 (amendment 4): O3 with nosce's evaluation weakened to the generation-0 net (the pilot's pick).
  O4) opp=$gnuchess; tc1=30+0.3; model=5; evalfile=matches/2026-11-25-nnue-gen0/nosce-20a6e878b5d6.nnue ;;
  # O5 (amendment 5): O1 with Toga II itself offered to auto's fit at depth 6, and O4's net.
  O5) opp=$toga2; tc1=30+0.3; model=6; evalfile=matches/2026-11-25-nnue-gen0/nosce-20a6e878b5d6.nnue ;;
  *) echo "time-odds.sh: unknown match '$match' (E, O1, O2, O3, O4 or O5)" >&2; exit 2 ;;
esac
[ -x "$nosce" ] || { echo "time-odds.sh: no nosce binary at $nosce (set NOSCE)" >&2; exit 2; }
mkdir -p "$dir"
games=${GAMES:-400}  # GAMES: only for a smoke test; the plan plays 400
arm() {
  mode=$1
  pgn=$dir/$mode.pgn
  for f in "$pgn" "$dir/auto-info.log"; do
    if [ ! -f "$f" ] && [ -f "$f.gz" ]; then gzip -dc "$f.gz" > "$f"; fi
  done
  done=0
  [ -f "$pgn" ] && done=$(grep -c '^\[Round ' "$pgn" || true)
  if [ "$done" -ge "$games" ]; then echo "$match $mode: $done games, finished"; return; fi
  extra=""
  [ "$mode" = auto ] && extra="--info-log $dir/auto-info.log"
  if [ -n "$model" ]; then
    set -- --option1 "OM_OpponentEngine=$opp" --option1 "OM_OpponentTypes=engine:1:depth=$model"
  else
    set --
  fi
  if [ -n "$evalfile" ]; then set -- "$@" --option1 "EvalFile=$evalfile"; fi
  python3 benches/match.py --engine1 "$nosce" --engine2 "$opp" \
    --option1 OM_Mode="$mode" --option1 OM_Profiles="$dir/profiles-$mode" \
    --option1 Hash=16 --option1 Threads=1 \
    --tc1 "$tc1" --tc2 10+0.1 --games "$games" --first $((done + 1)) --concurrency 1 \
    --openings openings/2moves-1000.epd --seed 1 --event "time odds $match $mode" \
    --pgn "$pgn" $extra "$@" >> "$dir/$mode.log" 2>&1
}
arm auto &
arm off &
wait
echo "python3 benches/paired_pgn.py --engine $nosce --a $dir/off.pgn --b $dir/auto.pgn --info-log $dir/auto-info.log"
