#!/bin/sh
# A run of `nosce kqkr` (the KQKR sweep) or `nosce tournament` (the Bao tournaments) as a
# Slurm array job: N tasks each play every N-th game (`--shard I/N`) into OUT/part-I, and a
# job that depends on all of them merges the parts into OUT/all (`nosce SUB merge`). Games
# depend only on their seed or key, so the merged run is the same as the run on one machine.
#
# For kqkr, the exact tables the K+R side plays from (KQvKR, KQvK, KRvK) are built once,
# before submitting, into $NOSCE_TABLES (default OUT/tables), which the tasks then read.
#
# Resumable: a shard re-run into its folder skips the games it finished. After a node
# failure, a cancelled task or a time limit, submit the same command again: finished
# shards exit at once, the others play only their missing games, and the merge runs when
# every task has succeeded.
#
#   scripts/slurm-array.sh -s kqkr|tournament [options] [-- nosce options]
#
#   -s SUB          the nosce subcommand: kqkr or tournament
#   -n N            array tasks (default 4)
#   -o OUT          run folder, shared by the nodes (default runs/SUB-slurm)
#   -b NOSCE        the nosce binary, visible to the nodes (default target/release/nosce)
#   -c CPUS         CPUs per task, passed on as --jobs (default 1)
#   -p PARTITION    Slurm partition (default: the cluster's default)
#   -t TIME         time limit per task, Slurm's format (default: the partition's)
#   -a "ARGS"       more sbatch options for every job, e.g. -a "--account=chess --qos=long"
#
# Examples (the thesis-sized sweep on 20 nodes of 2 CPUs; the seven tournaments on 50):
#   scripts/slurm-array.sh -s kqkr -n 20 -c 2 -o /shared/runs/full -- --full
#   scripts/slurm-array.sh -s tournament -n 50 -c 2 -o /shared/runs/bao -- --full
set -eu

sub=""
tasks=4
out=""
nosce=target/release/nosce
cpus=1
extra=""
usage() {
    sed -n '/^#   scripts\/slurm-array.sh -s kqkr|/,/^#   scripts\/slurm-array.sh -s tournament -n 50/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
while getopts s:n:o:b:c:p:t:a:h opt; do
    case $opt in
    s) sub=$OPTARG ;;
    n) tasks=$OPTARG ;;
    o) out=$OPTARG ;;
    b) nosce=$OPTARG ;;
    c) cpus=$OPTARG ;;
    p) extra="$extra --partition=$OPTARG" ;;
    t) extra="$extra --time=$OPTARG" ;;
    a) extra="$extra $OPTARG" ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift

case $sub in
kqkr | tournament) ;;
*) echo "slurm-array: -s needs kqkr or tournament, not '$sub'" >&2; exit 2 ;;
esac
out=${out:-runs/$sub-slurm}
case $tasks in '' | *[!0-9]* | 0) echo "$sub-slurm: -n needs a positive number, not '$tasks'" >&2; exit 2 ;; esac
case $cpus in '' | *[!0-9]* | 0) echo "$sub-slurm: -c needs a positive number, not '$cpus'" >&2; exit 2 ;; esac
command -v sbatch >/dev/null 2>&1 || { echo "$sub-slurm: sbatch not found (is Slurm installed here?)" >&2; exit 1; }
[ -x "$nosce" ] || { echo "$sub-slurm: no nosce binary at '$nosce' (cargo build --release, or -b PATH)" >&2; exit 1; }

mkdir -p "$out/logs"
out=$(cd "$out" && pwd)
nosce=$(cd "$(dirname "$nosce")" && pwd)/$(basename "$nosce")

# The tables, built (or loaded and verified) once here rather than by every task at once.
if [ "$sub" = kqkr ]; then
    NOSCE_TABLES=${NOSCE_TABLES:-$out/tables}
    export NOSCE_TABLES
    mkdir -p "$NOSCE_TABLES"
    for m in KQvKR KQvK KRvK; do
        "$nosce" tb gen "$m" >/dev/null || { echo "$sub-slurm: cannot build the $m table in $NOSCE_TABLES" >&2; exit 1; }
    done
fi

# The run's own options, quoted for the job's shell.
opts=""
for a in "$@"; do
    opts="$opts '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"
done

# Fail early on options nosce rejects, not in N queued jobs.
# shellcheck disable=SC2086
eval "\"$nosce\" $sub --check $opts" >/dev/null || {
    echo "$sub-slurm: nosce $sub rejects these options" >&2
    exit 2
}

# shellcheck disable=SC2086
array=$(sbatch --parsable --export=ALL $extra --job-name=$sub --array=1-"$tasks" --cpus-per-task="$cpus" \
    --output="$out/logs/part-%a.log" --open-mode=append \
    --wrap="exec \"$nosce\" $sub $opts --shard \$SLURM_ARRAY_TASK_ID/$tasks --jobs $cpus --out \"$out/part-\$SLURM_ARRAY_TASK_ID\"")
array=${array%%;*}

parts=""
i=1
while [ "$i" -le "$tasks" ]; do
    parts="$parts \"$out/part-$i\""
    i=$((i + 1))
done
# shellcheck disable=SC2086
merge=$(sbatch --parsable --export=ALL $extra --job-name=$sub-merge --dependency=afterok:"$array" \
    --kill-on-invalid-dep=yes --output="$out/logs/merge.log" --open-mode=append \
    --wrap="exec \"$nosce\" $sub merge $parts --out \"$out/all\"")
merge=${merge%%;*}

echo "array job $array ($tasks tasks), merge job $merge"
echo "parts in $out/part-*, logs in $out/logs, merged run in $out/all"
echo "after a failure: run this same command again (finished games are not replayed)"
