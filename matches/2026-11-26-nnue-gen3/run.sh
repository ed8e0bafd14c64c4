#!/bin/sh
# Generation 3 (issue 17), the commands of PLAN.txt and PLAN-toga2.txt. Run in a scratch
# directory beside ../shared with `nosce` (cfec265's binary, generation 2 embedded) on PATH,
# gen1.bin and gen2.bin from the earlier generations' data commands
# (../2026-11-26-nnue-gen1/README.md, ../2026-11-26-nnue-gen2/run.sh), generation 2's training
# run in gen2/cand-a and its net nosce-5dd66027bbd3.nnue (../../nets/); REPO is the repository
# (default ../main).
set -e
case "$1" in
data)   # stopped by hand after about an hour; a re-run continues
    nosce datagen --out gen3.bin --games 100000 --threads 2 --seed 4 \
        --syzygy ../shared/syzygy --evalfile nosce-5dd66027bbd3.nnue ;;
train)
    nosce train --data gen1.bin,gen2.bin,gen3.bin --out cand-a --init gen2/cand-a/checkpoint.bin \
        --mirror --epochs 12 --lr 0.0003 --batch 4096 --threads 2
    nosce train --data gen2.bin,gen3.bin --out cand-b --init gen2/cand-a/checkpoint.bin \
        --mirror --epochs 12 --lr 0.0003 --batch 4096 --threads 2 ;;
eval)   # $2: a net (none: the hand-crafted evaluation alone)
    cargo run --release --manifest-path "${REPO:-../main}"/Cargo.toml --example eval_loss -- \
        gen3.bin ${2:+"$2" 0.3} ;;
match)  # $2: the chosen net
    python3 "${REPO:-../main}"/benches/match.py --engine1 nosce --engine2 nosce --option1 EvalFile="$2" \
        --games 200 --tc 5+0.05 --concurrency 2 \
        --openings ../shared/openings/2moves_v1.epd --seed 1 --pgn gen3-vs-gen2.pgn ;;
toga2)  # the default after the decision: $2 its net as EvalFile, or nothing for the embedded one
    python3 "${REPO:-../main}"/benches/match.py --engine1 nosce ${2:+--option1 EvalFile="$2"} \
        --engine2 /usr/games/toga2 --games 100 --tc 10+0.1 --concurrency 2 \
        --openings ../shared/openings/2moves_v1.epd --seed 2 --pgn default-vs-toga2.pgn ;;
*) echo "usage: sh run.sh data|train|eval [NET]|match NET|toga2 [NET]" >&2; exit 2 ;;
esac
