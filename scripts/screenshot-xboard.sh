#!/usr/bin/env bash
# The README's screenshot: xboard (CECP, no adapter) runs a game of nosce against itself at
# 1 minute + 1 s on a virtual display; after 45 s both engine-output panes and the board
# are captured into docs/img/xboard.png.
# Needs: apt-get install xboard xvfb x11-apps xdotool imagemagick; a built nosce
# (cargo build --release). Usage: scripts/screenshot-xboard.sh [NOSCE] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
nosce="$(realpath "${1:-target/release/nosce}")"
wait="${2:-45}"
display=:97
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
Xvfb "$display" -screen 0 1280x800x24 >/dev/null 2>&1 &
sleep 2
export DISPLAY="$display" HOME="$work" # a fresh ~/.xboardrc
xboard_bin="$(command -v xboard || echo /usr/games/xboard)"
"$xboard_bin" -fcp "$nosce" -fd "$work" -scp "$nosce" -sd "$work" -mode TwoMachines \
    -tc 1 -inc 1 -showThinking true -engineOutputUp true -showCoords true -size medium \
    >"$work/xboard.log" 2>&1 &
sleep 3
# No window manager on the virtual display: put the engine output beside the board.
xdotool search --name "Engine Output" windowmove 530 0
sleep "$wait"
mkdir -p docs/img
xwd -root -silent | convert xwd:- -crop 1275x630+0+0 -colors 128 -strip PNG8:docs/img/xboard.png
echo "docs/img/xboard.png written"
