#!/bin/sh
cd "$(dirname "$0")/../.." || exit 1
for b in nosce-head nosce-new; do
  echo "=== $b PrOM"
  python3 benches/ttd.py --engine /tmp/$b --threads 2 --depths 11 --only "PrOM"
done
for b in nosce-head nosce-new; do
  echo "=== $b round 3"
  python3 benches/ttd.py --engine /tmp/$b --threads 2 --depths 11,13 --only "opponent"
done
