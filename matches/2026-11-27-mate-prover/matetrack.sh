#!/bin/sh
# Issue 40: nosce against Stockfish 15.1 on the public matetrack suites, judged by the suite's
# own matecheck.py (python-chess and tqdm; it sets UCI_AnalyseMode, so nosce runs df-pn beside
# α-β with half of the node budget each). Nothing of matetrack is kept in this repository.
#   MATETRACK  a checkout of https://github.com/vondele/matetrack (cloned into target/ if unset)
#   NOSCE      the nosce binary (default: target/release/nosce, built by this script)
#   STOCKFISH  the Stockfish binary (default: Debian's /usr/games/stockfish, 15.1)
#   SUITE      classic280.epd (default) or matetrack.epd;  NODES  per position (default 10^6)
#   ENGINES    which to run (default: "nosce stockfish");  CONC  processes each (default 1)
#   EVERY      keep every EVERY-th position of the suite, from the first (default 1: all)
#   PARTS      split the (kept) suite into PARTS interleaved parts (line i goes to part
#              i mod PARTS) and run them part by part, both engines on a part before the
#              next: a stopped run resumes at the first part without a finished log, and
#              matetrack_sum.py adds up the parts both engines finished (default 1: whole)
set -e
cd "$(dirname "$0")/../.."
parts=${PARTS:-1}
case $parts in
  ''|*[!0-9]*|0) echo "matetrack.sh: PARTS must be a whole number of 1 or more, not '$parts'" >&2; exit 2 ;;
esac
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
mkdir -p "$out" target
if [ -z "$NOSCE" ]; then
  cargo build --release
  NOSCE=target/release/nosce
fi
# nosce builds an exact table the first time it meets its material (in the background, so
# that first search is α-β's); build the ones classic280 needs first, as a used engine has.
for m in KRvK KBBvK KBNvK KQvKR KQvKP; do "$NOSCE" tb gen "$m" > /dev/null; done
k=0
while [ "$k" -lt "$parts" ]; do
  if [ "$parts" = 1 ]; then
    part_epd=$epd
    tag="${suite%.epd}-$nodes"
  else
    part_epd="target/${suite%.epd}-part$k-of$parts.epd"
    awk -v n="$parts" -v k="$k" '(NR - 1) % n == k' "$epd" > "$part_epd"
    tag="${suite%.epd}-$nodes-part$k-of$parts"
  fi
  for eng in ${ENGINES:-nosce stockfish}; do
    case $eng in
      nosce) bin=$NOSCE ;;
      stockfish) bin=${STOCKFISH:-/usr/games/stockfish} ;;
      *) echo "matetrack.sh: unknown engine '$eng'" >&2; exit 2 ;;
    esac
    log="$out/$tag-$eng.txt"
    if grep -q '^Best mates:' "$log" 2>/dev/null; then
      echo "$log: finished earlier"
      continue
    fi
    { echo "# $bin ($("$bin" --version 2>/dev/null | head -1 || true)) $suite nodes=$nodes $(date -u +%FT%TZ)"
      /usr/bin/time -f "wall %e s" python3 "$mt/matecheck.py" --engine "$bin" --epdFile "$part_epd" \
        --nodes "$nodes" --concurrency "${CONC:-1}" 2>&1; } > "$log"
    tail -n 12 "$log"
  done
  k=$((k + 1))
done
if [ "$parts" != 1 ]; then
  python3 matches/2026-11-27-mate-prover/matetrack_sum.py "$out/${suite%.epd}-$nodes-part"*"-of$parts-"*.txt
fi
