#!/bin/sh
# SPRT of MC-A (MultiCut=all c=2 m=6 r=3) against MultiCut=off, one binary (PLAN.md, addendum).
#   NOSCE=path/to/nosce FASTCHESS=path/to/fastchess matches/2026-11-27-multi-cut/sprt.sh OUTDIR
# Run again to resume. MultiCut is a hidden tuning option, which fastchess does not send, so
# the MC-A engine is started through scripts/sprt.sh's wrapper (NEW_SETOPTION; written to
# OUTDIR, kept for a resume, not for git). The first 164 games were played with this
# script's earlier wrapper, OUTDIR/nosce-mc-a.sh, which the saved state names.
set -eu
OUT=${1:?usage: NOSCE=... FASTCHESS=... $0 OUTDIR}
: "${NOSCE:?}" "${FASTCHESS:?}"
NEW_NAME=mc-a BASE_NAME=off NEW_SETOPTION="MultiCut=all c=2 m=6 r=3" \
  exec "$(dirname "$0")/../../scripts/sprt.sh" "$NOSCE" "$NOSCE" "$OUT" 8+0.08 0 5
