#!/usr/bin/env bash
# A sharded Tessera match on machines without a batch scheduler: GNU parallel runs the
# shards over ssh, and with --sprt a watcher on this machine stops them all once the
# test over all shards is decided. Then the shards are merged into DIR/merged.txt.
#
# Usage: scripts/cluster/parallel_match.sh SSHLOGINS SHARDS DIR -- TESSERA-MATCH-ARGUMENTS...
#   SSHLOGINS  parallel's --sshlogin list: JOBS/HOST,...; e.g. 1/host1,1/host2 (":" is
#              this machine). Each shard runs its own --concurrency games at once.
#   SHARDS     shard count (shard I plays --shard I/SHARDS into DIR/shard-I.jsonl)
#   DIR        a directory at the same path on every host and here (shared storage)
# Environment: TESSERA (the binary, same path on every host; default: tessera),
#              PARALLEL_SSH (the ssh command for parallel --ssh, e.g. "ssh -p 2222").
# A shard that failed is run again with the same command plus --resume.
set -euo pipefail

(( $# >= 5 )) && [[ $4 == -- ]] || {
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
}
logins=$1
shards=$2
dir=$3
shift 4
tessera=${TESSERA:-tessera}
mkdir -p "$dir"
games=2
has_sprt=no
arguments=("$@")
for (( i = 0; i < ${#arguments[@]}; i++ )); do
    case ${arguments[i]} in
        --games) games=${arguments[i+1]:-} ;;
        --sprt) has_sprt=yes ;;
    esac
done

ssh_option=()
[[ -n ${PARALLEL_SSH:-} ]] && ssh_option=(--ssh "$PARALLEL_SSH")
# -q quotes every word for the remote shell; {} is the shard index.
seq 1 "$shards" | parallel -q "${ssh_option[@]}" --sshlogin "$logins" --workdir "$dir" \
    --line-buffer --tagstring 'shard {}' \
    "$tessera" match "$@" --shard "{}/$shards" --jsonl "shard-{}.jsonl" &
parallel_pid=$!
watcher_pid=""
if [[ $has_sprt == yes ]]; then
    # A second TERM makes parallel stop its running jobs, on the remote hosts too.
    "$tessera" match --watch "$dir" --games "$games" --poll-ms 2000 \
        --on-decision "kill -TERM $parallel_pid; sleep 1; kill -TERM $parallel_pid" \
        > "$dir/watch.txt" &
    watcher_pid=$!
fi
status=0
wait "$parallel_pid" || status=$?
if [[ -n $watcher_pid ]]; then
    kill "$watcher_pid" 2> /dev/null || true
    wait "$watcher_pid" 2> /dev/null || true
fi
"$tessera" match --merge "$dir"/shard-*.jsonl | tee "$dir/merged.txt"
echo "parallel exit status $status (non-zero after an SPRT stop or a failed shard)" >&2
