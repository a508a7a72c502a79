#!/usr/bin/env bash
# Checks the Slurm support end to end on this one machine (Debian, root, no systemd):
#  1. installs Slurm and munge from Debian's packages if they are missing;
#  2. starts a one-node cluster (munged, slurmctld, slurmd) with its files in a scratch
#     directory;
#  3. submits a 4-shard Tessera-vs-Tessera Catchup match at fixed nodes with
#     scripts/cluster/slurm_submit.sh (an array, a merge job that depends on it, and a watcher
#     that must see the whole match undecided), waits, and
#     compares it with the same match played in one process: the game records must be
#     identical apart from the move times, and the merged statistics identical;
#  4. submits a long match with --sprt between a good and a failing test engine: the
#     watcher job must decide the test and cancel the array long before its end, and
#     the merge must still run;
#  5. stops the cluster. Exits non-zero on any failure.
#
# Usage: scripts/cluster/slurm_check.sh   (as root; TESSERA_BIN=path skips the release build,
#        CHECK_DIR=dir keeps the scratch files there)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
work=${CHECK_DIR:-$(mktemp -d /tmp/tessera-slurm-check.XXXXXX)}
mkdir -p "$work"
work=$(realpath "$work")
step() { echo "== $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

step "packages"
if ! command -v slurmctld > /dev/null || ! command -v slurmd > /dev/null \
    || ! command -v sbatch > /dev/null || ! command -v munged > /dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    packages=(slurmctld slurmd slurm-client munge)
    apt-get install -y --no-install-recommends "${packages[@]}" > "$work/apt.log" 2>&1 \
        || { apt-get update > /dev/null && apt-get install -y --no-install-recommends "${packages[@]}" > "$work/apt.log" 2>&1; } \
        || fail "cannot install ${packages[*]} (see $work/apt.log)"
fi
echo "$(slurmctld -V), munge $(munged --version 2>&1 | head -1)"

step "tessera binary"
binary=${TESSERA_BIN:-}
if [[ -z $binary ]]; then
    (cd "$root" && cargo build --release --quiet) || fail "release build failed"
    binary=$root/target/release/tessera
fi
binary=$(realpath "$binary")
echo "$binary"

step "one-node cluster in $work"
started_munge=no
cleanup() {
    set +e
    if [[ -n ${SLURM_CONF:-} ]]; then
        scontrol shutdown > /dev/null 2>&1
        for pidfile in "$work/slurmctld.pid" "$work/slurmd.pid"; do
            [[ -s $pidfile ]] || continue
            pid=$(cat "$pidfile")
            for _ in $(seq 1 40); do kill -0 "$pid" 2> /dev/null || break; sleep 0.5; done
            kill "$pid" 2> /dev/null
        done
    fi
    if [[ $started_munge == yes && -s /run/munge/munged.pid ]]; then
        kill "$(cat /run/munge/munged.pid)" 2> /dev/null
    fi
    echo "== cluster stopped"
}
trap cleanup EXIT
mkdir -p /run/munge
chown munge:munge /run/munge
if ! munge -n 2> /dev/null | unmunge > /dev/null 2>&1; then
    runuser -u munge -- munged || fail "munged does not start"
    started_munge=yes
    munge -n | unmunge > /dev/null || fail "munge credentials do not verify"
fi
host=$(hostname -s)
node=$(slurmd -C | head -1)
cpus=$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<< "$node")
memory=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<< "$node")
mkdir -p "$work/state" "$work/spool"
cat > "$work/slurm.conf" << CONF
ClusterName=tessera-check
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
MailProg=/bin/true
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
DependencyParameters=kill_invalid_depend
MinJobAge=300
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf
slurmctld || fail "slurmctld does not start (see $work/slurmctld.log)"
slurmd 2> /dev/null || fail "slurmd does not start (see $work/slurmd.log)"
for _ in $(seq 1 60); do
    [[ $(sinfo -h -o %T 2> /dev/null) == idle ]] && break
    sleep 1
done
[[ $(sinfo -h -o %T) == idle ]] || fail "the node is not idle: $(sinfo -h -o '%T %E')"
sinfo

# The state of a job (or of every task of an array), one word per line.
states() { scontrol show job -o "$1" | grep -o 'JobState=[A-Z_]*' | cut -d= -f2; }
wait_for() {
    local job=$1 limit=$2
    for (( waited = 0; waited < limit; waited += 2 )); do
        if ! states "$job" | grep -qvE '^(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED)$'; then
            return 0
        fi
        sleep 2
    done
    fail "job $job still not done after $limit s: $(states "$job" | sort | uniq -c | xargs)"
}
submit() {
    local output
    output=$("$root/scripts/cluster/slurm_submit.sh" "$@") || fail "submission failed"
    echo "$output"
    dir=$(sed -n 's/^dir=//p' <<< "$output")
    array=$(sed -n 's/^array=//p' <<< "$output")
    merge=$(sed -n 's/^merge=//p' <<< "$output")
    watch=$(sed -n 's/^watch=//p' <<< "$output")
}

step "4-shard match at fixed nodes: array + dependent merge"
match=(--engine "cmd=$binary" name=one option.Seed=1 --engine "cmd=$binary" name=two option.Seed=2
    --variant catchup --nodes 300 --games 40 --random-plies 4 --seed 7 --sprt elo0=0 elo1=5)
submit --shards 4 --dir "$work/sharded" --binary "$binary" --poll-ms 1000 -- "${match[@]}"
wait_for "$merge" 900
wait_for "$watch" 60
echo "array tasks: $(states "$array" | sort | uniq -c | xargs); watcher: $(states "$watch"); merge: $(states "$merge")"
[[ $(states "$array" | grep -c '^COMPLETED$') == 4 ]] || fail "not every shard completed"
[[ $(states "$merge") == COMPLETED ]] || fail "the merge job did not complete (see $dir/merge.out)"
# 20 pairs do not decide the test: the watcher must see all 40 games and stop by itself.
grep -q 'all 40 games are in; the SPRT is not decided' "$dir/watch.out" \
    || fail "the watcher did not see the whole undecided match (see $dir/watch.out)"
cat "$dir/merged.txt"

step "the same match in one process (two games at a time: the order of play does not matter)"
mkdir -p "$work/whole"
(cd "$work/whole" && "$binary" match "${match[@]}" --concurrency 2 --jsonl whole.jsonl \
    > table.txt 2> progress.txt) \
    || fail "the one-process match failed"
"$binary" match --merge "$work/whole/whole.jsonl" > "$work/whole/merged.txt"
timeless() { jq -c 'del(.times_ms)' "$@" | sort; }
timeless "$work/whole/whole.jsonl" > "$work/whole.records"
timeless "$dir"/shard-*.jsonl > "$work/sharded.records"
games=$(wc -l < "$work/whole.records")
[[ $games == 40 ]] || fail "the one-process run recorded $games games, not 40"
diff "$work/whole.records" "$work/sharded.records" > "$work/records.diff" \
    || fail "game records differ (see $work/records.diff)"
echo "game records identical apart from times_ms: $games games"
diff <(tail -n +2 "$work/whole/merged.txt") <(tail -n +2 "$dir/merged.txt") \
    || fail "merged statistics differ"
echo "merged statistics identical:"
tail -n +2 "$dir/merged.txt"

step "SPRT across shards: the watcher cancels the array"
sprt_match=(--engine "cmd=$binary" name=good arg=test-engine
    --engine "cmd=$binary" name=bad arg=test-engine arg=--mode arg=illegal arg=--after arg=1
    --variant cheversi --nodes 1 --games 400000 --sprt elo0=0 elo1=5)
submit --shards 4 --dir "$work/sprt" --binary "$binary" --poll-ms 200 -- "${sprt_match[@]}"
[[ -n $watch ]] || fail "no watcher job was submitted for a match with --sprt"
wait_for "$merge" 600
wait_for "$watch" 60
echo "array tasks: $(states "$array" | sort | uniq -c | xargs); watcher: $(states "$watch"); merge: $(states "$merge")"
cat "$dir/watch.out"
grep -q 'H1 accepted' "$dir/watch.out" || fail "the watcher did not decide the SPRT"
grep -q "running: scancel .*$array" "$dir/watch.out" || fail "the watcher did not cancel the array"
! states "$array" | grep -q '^COMPLETED$' || fail "a shard played its whole block"
states "$array" | grep -q '^CANCELLED$' || fail "no pending shard was cancelled"
[[ $(states "$merge") == COMPLETED ]] || fail "the merge job did not complete after the cancel"
[[ $(states "$watch") == COMPLETED ]] || fail "the watcher job did not complete (see $dir/watch.out)"
recorded=$(cat "$dir"/shard-*.jsonl | wc -l)
(( recorded < 400000 )) || fail "all games were played: the SPRT did not stop the array"
grep -q 'H1 accepted' "$dir/merged.txt" || fail "the merged table does not show the decision"
# Stopping the shards must not turn the games in progress into engine failures.
! grep -q 'crash\|stall' "$dir/merged.txt" || fail "the cancel left crash or stall records"
echo "merged after the cancel ($recorded games recorded of 400000):"
cat "$dir/merged.txt"
echo "== all Slurm checks passed"
