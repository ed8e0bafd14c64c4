#!/bin/sh
# Threads=2 over Threads=1 time to depth: 2359193 (/tmp/nosce-head) against the new build (/tmp/nosce-new), interleaved.
cd "$(dirname "$0")/../.." || exit 1
for rep in 1 2; do
  for b in nosce-head nosce-new; do
    echo "=== $b round $rep"
    python3 benches/ttd.py --engine /tmp/$b --threads 2 --depths 11,13 --only "opponent"
  done
done
