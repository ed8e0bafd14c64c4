#!/bin/sh
# SPRT of MC-A (MultiCut=all c=2 m=6 r=3) against MultiCut=off, one binary (PLAN.md, addendum).
#   NOSCE=path/to/nosce FASTCHESS=path/to/fastchess matches/2026-11-27-multi-cut/sprt.sh OUTDIR
# Run again to resume. fastchess sends only the options an engine announces; MultiCut is a
# hidden tuning option, so the MC-A engine is started through a wrapper (OUTDIR/nosce-mc-a.sh,
# kept for a resume, not for git) that writes its setoption line first.
set -eu
OUT=${1:?usage: NOSCE=... FASTCHESS=... $0 OUTDIR}
: "${NOSCE:?}" "${FASTCHESS:?}"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WRAP="$OUT/nosce-mc-a.sh"
printf '#!/bin/sh\n{ printf "setoption name MultiCut value all c=2 m=6 r=3\\n"; cat; } | exec "%s"\n' "$NOSCE" > "$WRAP"
chmod +x "$WRAP"
NEW_NAME=mc-a BASE_NAME=off exec "$(dirname "$0")/../../scripts/sprt.sh" "$WRAP" "$NOSCE" "$OUT" 8+0.08 0 5
