#!/bin/sh
# The full run of PLAN.md; re-run to resume (records are kept compressed between sessions).
set -e
cd "$(dirname "$0")/../.."
dir=matches/2026-11-27-bao-tournaments/run
mkdir -p "$dir"
for f in games.csv samples.csv; do
  if [ ! -f "$dir/$f" ] && [ -f "$dir/$f.gz" ]; then gunzip -k "$dir/$f.gz"; fi
done
cargo build --release
nice -n 10 ./target/release/nosce tournament --full --syzygy tables/syzygy --jobs "${JOBS:-2}" --out "$dir"
