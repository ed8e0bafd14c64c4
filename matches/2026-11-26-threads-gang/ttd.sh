#!/bin/sh
# Threads=2 over Threads=1 time to depth (issue 14): 0ef48fa (/tmp/nosce-base) against the
# helper threads kept for the whole search (/tmp/nosce-gang), interleaved, three rounds, then
# PrOM at depth 11 once each. Run on the otherwise idle machine.
cd "$(dirname "$0")/../.." || exit 1
for rep in 1 2 3; do
  for b in nosce-base nosce-gang; do
    echo "=== $b round $rep"
    python3 benches/ttd.py --engine /tmp/$b --threads 2 --depths 11,13 --only "opponent"
  done
done
for b in nosce-base nosce-gang; do
  echo "=== $b PrOM"
  python3 benches/ttd.py --engine /tmp/$b --threads 2 --depths 11 --only "PrOM"
done
