#!/bin/sh
# Issue 40: Winands's own comparison of the five provers (his Tables 4.x and 5.x), in chess:
# PN, PN², PDS, PDS-PN and df-pn on the same positions, each searching for a first proof
# without a move limit (no deepening, no shortening, as in the thesis), with the memory each
# held at most; once with plenty of memory and once with little (his §5.2.4): PN and PN²
# hold at most TREE_SMALL tree nodes and the N of PDS-PN's growth function is the same,
# the depth-first provers get a 1 MiB table (~44,000 entries).
#   MATETRACK  a checkout of https://github.com/vondele/matetrack (cloned into target/ if unset)
#   EVERY      keep every EVERY-th line of matetrack.epd, from the first (default 50)
#   NODES      moves per position (default 10^6);  NOSCE  the binary (default target/release/nosce)
#   TREE_SMALL the reduced memory in tree nodes (default 40000)
# Writes one log per run to matches/2026-11-27-mate-prover/winands/ and the tables with
# winands_tables.py.
set -e
cd "$(dirname "$0")/../.."
mt=${MATETRACK:-target/matetrack}
[ -d "$mt" ] || git clone --depth 1 https://github.com/vondele/matetrack "$mt"
every=${EVERY:-50}
nodes=${NODES:-1000000}
small=${TREE_SMALL:-40000}
nosce=${NOSCE:-target/release/nosce}
epd="target/matetrack-every$every.epd"
mkdir -p target
awk -v k="$every" 'NR % k == 1' "$mt/matetrack.epd" > "$epd"
out=matches/2026-11-27-mate-prover/winands
mkdir -p "$out"
[ -n "$NOSCE" ] || cargo build --release
for mem in full small; do
  for a in pn pn2 pds pds-pn dfpn; do
    case $mem in
      full) extra="" ;;
      small) extra="--tree-nodes $small --hash 1" ;;
    esac
    log="$out/$a-$mem.txt"
    # shellcheck disable=SC2086
    { echo "# $nosce solve $epd --algo $a --nodes $nodes --unbounded --no-shorten $extra"
      "$nosce" solve "$epd" --algo "$a" --nodes "$nodes" --unbounded --no-shorten $extra; } > "$log"
    tail -n 1 "$log"
  done
done
python3 matches/2026-11-27-mate-prover/winands_tables.py "$out"
