#!/bin/sh
# The budget run of PLAN-budget.md; re-run to resume (records are kept compressed between sessions).
set -e
cd "$(dirname "$0")/../.."
dir=matches/2026-11-27-bao-tournaments/budget
mkdir -p "$dir"
for f in games.csv samples.csv; do
  if [ ! -f "$dir/$f" ] && [ -f "$dir/$f.gz" ]; then gunzip -k "$dir/$f.gz"; fi
done
cargo build --release
nice -n 10 ./target/release/nosce tournament --full --budget 2000 --k 3,10,30,100,300 \
  --probe-margin 50 --games 20 --syzygy tables/syzygy --jobs "${JOBS:-2}" --out "$dir"
