#!/bin/sh
# Issue 40: nosce against Stockfish 15.1 on the public matetrack suites, judged by the suite's
# own matecheck.py (python-chess; it sets UCI_AnalyseMode, so nosce runs df-pn beside α-β
# with half of the node budget each). Nothing of matetrack is kept in this repository.
#   MATETRACK  a checkout of https://github.com/vondele/matetrack (cloned into target/ if unset)
#   STOCKFISH  the Stockfish binary (default: Debian's /usr/games/stockfish, 15.1)
#   SUITE      classic280.epd (default) or matetrack.epd;  NODES  per position (default 10^6)
#   ENGINES    which to run (default: "nosce stockfish");  CONC  processes each (default 1)
#   EVERY      keep every EVERY-th position of the suite, from the first (default 1: all)
set -e
cd "$(dirname "$0")/../.."
mt=${MATETRACK:-target/matetrack}
[ -d "$mt" ] || git clone --depth 1 https://github.com/vondele/matetrack "$mt"
suite=${SUITE:-classic280.epd}
nodes=${NODES:-1000000}
epd="$mt/$suite"
if [ "${EVERY:-1}" != 1 ]; then
  epd="target/${suite%.epd}-every$EVERY.epd"
  awk -v k="$EVERY" 'NR % k == 1' "$mt/$suite" > "$epd"
  suite="${suite%.epd}-every$EVERY.epd"
fi
out=matches/2026-11-27-mate-prover/matetrack
mkdir -p "$out"
cargo build --release
# nosce builds an exact table the first time it meets its material (in the background, so
# that first search is α-β's); build the ones classic280 needs first, as a used engine has.
for m in KRvK KBBvK KBNvK KQvKR KQvKP; do target/release/nosce tb gen "$m" > /dev/null; done
for eng in ${ENGINES:-nosce stockfish}; do
  case $eng in
    nosce) bin=target/release/nosce ;;
    stockfish) bin=${STOCKFISH:-/usr/games/stockfish} ;;
  esac
  log="$out/${suite%.epd}-$nodes-$eng.txt"
  { echo "# $bin ($("$bin" --version 2>/dev/null | head -1 || true)) $suite nodes=$nodes $(date -u +%FT%TZ)"
    /usr/bin/time -f "wall %e s" python3 "$mt/matecheck.py" --engine "$bin" --epdFile "$epd" \
      --nodes "$nodes" --concurrency "${CONC:-1}" 2>&1; } > "$log"
  tail -n 12 "$log"
done
