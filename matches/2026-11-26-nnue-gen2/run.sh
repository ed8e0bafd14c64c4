#!/bin/sh
# Generation 2 (issue 17), the commands of PLAN.txt. Run in a scratch directory beside
# ../shared with `nosce` (this commit's binary) on PATH, gen1.bin from the generation-1 data
# command (matches/2026-11-26-nnue-gen1/README.md) and generation 1's two training runs in
# gen1/imitate and gen1/net; REPO is the repository (default ../main).
set -e
case "$1" in
data)   # stopped by hand after about 68 minutes; a re-run continues
    nosce datagen --out gen2.bin --games 100000 --threads 2 --seed 3 \
        --syzygy ../shared/syzygy --evalfile nosce-577e7f73b718.nnue ;;
train)
    nosce train --data gen1.bin,gen2.bin --out cand-a --init gen1/net/checkpoint.bin \
        --mirror --epochs 12 --lr 0.0003 --batch 4096 --threads 2
    nosce train --data gen1.bin,gen2.bin --out cand-b --init gen1/imitate/checkpoint.bin \
        --mirror --epochs 12 --lr 0.0003 --batch 4096 --threads 2 ;;
match)  # $2: the chosen net
    python3 "${REPO:-../main}"/benches/match.py --engine1 nosce --engine2 nosce --option1 EvalFile="$2" \
        --option2 EvalFile=nosce-577e7f73b718.nnue --games 200 --tc 5+0.05 --concurrency 2 \
        --openings ../shared/openings/2moves_v1.epd --seed 1 --pgn gen2-vs-gen1.pgn ;;
*) echo "usage: sh run.sh data|train|match NET" >&2; exit 2 ;;
esac
