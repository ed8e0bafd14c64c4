#!/bin/sh
# The match of PLAN.txt (issue 17: generation 2 against Toga II, 600 games at 10+0.1). Run in a
# scratch directory beside ../shared with `nosce` (742648e's release binary, generation 2
# embedded, `nosce bench` 4793191) in it; REPO is the repository (default ../main).
set -e
./nosce bench | tail -1
python3 "${REPO:-../main}"/benches/match.py --engine1 ./nosce --engine2 /usr/games/toga2 \
    --games 600 --tc 10+0.1 --concurrency 2 \
    --openings ../shared/openings/2moves_v1.epd --seed 3 --pgn default-vs-toga2-600.pgn
