#!/bin/sh
# Proves scripts/kqkr-slurm.sh on a real single-node Slurm cluster: it starts its own munge
# and Slurm daemons (Debian's slurm-wlm and munge) from a private configuration, submits a
# small sweep as 4 array tasks, cancels one task mid-run, submits the same command again,
# waits for the merge, runs the same sweep unsharded, and checks that the merged run equals
# the unsharded one (games.csv and moves.csv without their timing column, summary.md).
#
# Runs only where Slurm is installed (slurmctld, slurmd, munged, sbatch) or when asked
# (NOSCE_SLURM_TEST=1 makes a missing Slurm an error). Needs root for the daemons and a
# built binary (cargo build --release). Not part of `cargo test`: it takes a few minutes
# and starts system daemons.
#
#   scripts/test-kqkr-slurm.sh [WORKDIR]      (default: a fresh temporary folder)
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
nosce=${NOSCE:-$here/target/release/nosce}
for tool in slurmctld slurmd munged sbatch squeue scancel; do
    if ! command -v "$tool" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$tool" ]; then
        if [ "${NOSCE_SLURM_TEST:-0}" = 1 ]; then
            echo "test-kqkr-slurm: $tool not found (apt-get install slurm-wlm munge)" >&2
            exit 1
        fi
        echo "test-kqkr-slurm: Slurm is not installed here; nothing to test (NOSCE_SLURM_TEST=1 to require it)"
        exit 0
    fi
done
PATH=$PATH:/usr/sbin
[ -x "$nosce" ] || { echo "test-kqkr-slurm: build first (cargo build --release)" >&2; exit 1; }

work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/kqkr-slurm.XXXXXX")}
mkdir -p "$work/slurm/state" "$work/slurm/spool" "$work/munge"
work=$(cd "$work" && pwd)
host=$(hostname -s)
cpus=$(nproc)
fail() { echo "test-kqkr-slurm: FAIL: $*" >&2; exit 1; }
drained() { # waits until no job is queued or running
    i=0
    while squeue -h | grep -q .; do
        i=$((i + 1))
        [ $i -gt 900 ] && fail "jobs still queued after 30 minutes"
        sleep 2
    done
}

# munge: a private key and socket.
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$work/munge/munge.key"
munged --key-file="$work/munge/munge.key" --socket="$work/munge/socket" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
    --seed-file="$work/munge/seed" --force

conf=$work/slurm/slurm.conf
cat >"$conf" <<EOF
ClusterName=nosce-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/socket
CredType=cred/munge
StateSaveLocation=$work/slurm/state
SlurmdSpoolDir=$work/slurm/spool
SlurmctldPidFile=$work/slurm/slurmctld.pid
SlurmdPidFile=$work/slurm/slurmd.pid
SlurmctldLogFile=$work/slurm/slurmctld.log
SlurmdLogFile=$work/slurm/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$conf
cleanup() {
    scancel --quiet --user=root 2>/dev/null || true
    for p in slurmd slurmctld; do
        [ -f "$work/slurm/$p.pid" ] && kill "$(cat "$work/slurm/$p.pid")" 2>/dev/null || true
    done
    [ -f "$work/munge/munged.pid" ] && kill "$(cat "$work/munge/munged.pid")" 2>/dev/null || true
}
trap cleanup EXIT
slurmctld -c -f "$conf"
slurmd -c -f "$conf"
i=0
until sinfo -h -o %T 2>/dev/null | grep -q idle; do
    i=$((i + 1))
    [ $i -gt 60 ] && fail "the Slurm node did not come up (see $work/slurm/*.log)"
    sleep 1
done
echo "slurm up: node $host, $cpus CPUs"

# Both runs read the exact tables kqkr-slurm.sh builds.
export NOSCE_TABLES="${NOSCE_TABLES:-$work/sharded/tables}"

# A small sweep: 2 positions x s = 0,1 x 4 games = 16 games, 4 per task.
sweep="--depths 0,1 --games 4 --opp-depth 9 --kr-depth 4 --seed 11 --quiet"
out=$work/sharded
# shellcheck disable=SC2086
"$here/scripts/kqkr-slurm.sh" -n 4 -o "$out" -b "$nosce" -- $sweep

# Cancel task 2 once it has finished a game but not all four.
i=0
while :; do
    n=0
    [ -f "$out/part-2/games.csv" ] && n=$(($(wc -l <"$out/part-2/games.csv") - 1))
    [ "$n" -ge 1 ] && break
    i=$((i + 1))
    [ $i -gt 600 ] && fail "task 2 finished no game in 10 minutes"
    sleep 1
done
[ "$n" -lt 4 ] || fail "task 2 finished before it could be cancelled; make the sweep longer"
array=$(squeue -h -n kqkr -o %F | head -n 1)
scancel "${array}_2"
echo "cancelled task 2 of array $array after $n of its 4 games"
drained
[ ! -f "$out/all/games.csv" ] || fail "the merge ran although a task was cancelled"
played=$(($(wc -l <"$out/part-2/games.csv") - 1))

# The same command again: only task 2's missing games are played, then the merge runs.
# shellcheck disable=SC2086
"$here/scripts/kqkr-slurm.sh" -n 4 -o "$out" -b "$nosce" -- $sweep
drained
[ -f "$out/all/games.csv" ] || fail "no merged run (see $out/logs)"
for t in 1 3 4; do
    [ "$(($(wc -l <"$out/part-$t/games.csv") - 1))" -eq 4 ] || fail "task $t does not hold 4 games"
done
[ "$(($(wc -l <"$out/part-2/games.csv") - 1))" -eq 4 ] || fail "task 2 was not completed"
echo "resubmitted: task 2 had $played games, now 4; merged"

# The same sweep on one machine.
# shellcheck disable=SC2086
"$nosce" kqkr $sweep --jobs "$cpus" --out "$work/whole" >/dev/null
untimed() { sed 's/,[^,]*$//' "$1" | sort; }
for f in games.csv moves.csv; do
    untimed "$out/all/$f" >"$work/a" && untimed "$work/whole/$f" >"$work/b"
    cmp -s "$work/a" "$work/b" || fail "$f differs between the merged and the unsharded run"
done
# summary.md ends with the configuration; its run.* lines say how the run was made (jobs,
# shards, revision) and differ by design.
grep -v '^| run\.' "$out/all/summary.md" >"$work/a"
grep -v '^| run\.' "$work/whole/summary.md" >"$work/b"
cmp -s "$work/a" "$work/b" || fail "summary.md differs between the merged and the unsharded run"
echo "PASS: $(($(wc -l <"$out/all/games.csv") - 1)) games; merged run = unsharded run (games.csv and moves.csv without timing, summary.md without its run.* lines)"
