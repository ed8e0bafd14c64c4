#!/bin/sh
# Threads=2 over Threads=1 time to depth, OM rows with the depth-4 model, HEAD against the
# staggered OM pass helper, interleaved.
cd /work/main
for rep in 1 2; do
  for b in nosce-stagger nosce-head; do
    echo "=== $b round $rep"
    python3 benches/ttd.py --engine /work/ttd14/$b --threads 2 --depths 11 --only "depth-4"
  done
done
