#!/bin/sh
# Threads=2 over Threads=1 time to depth, HEAD eba08de against the busy-moves build, interleaved.
cd /work/main
for rep in 1 2; do
  for b in nosce-busy nosce-eba08de; do
    echo "=== $b round $rep"
    python3 benches/ttd.py --engine /work/cal/$b --threads 2 --depths 11,13 --only "opponent"
  done
done
for b in nosce-busy nosce-eba08de; do
  echo "=== $b PrOM"
  python3 benches/ttd.py --engine /work/cal/$b --threads 2 --depths 11 --only "PrOM"
done
