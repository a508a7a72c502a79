#!/usr/bin/env bash
# Submits a Tessera match to Slurm as a job array of shards, a merge job that runs once
# the array has ended, and, when the match has --sprt, a watcher job that cancels the
# array as soon as the test over all shards is decided.
#
# Usage: scripts/cluster/slurm_submit.sh [options] -- TESSERA-MATCH-ARGUMENTS...
#   --shards N         array tasks (default 4); shard I plays --shard I/N
#   --dir DIR          working directory for records and logs, on storage every node
#                      sees (default: ./tessera-match-DATE); shard-I.jsonl, merged.txt
#   --binary PATH      the tessera binary that runs the match (default: tessera in PATH)
#   --merge-after any|ok
#                      any (default): merge whatever the shards recorded, also after the
#                      watcher cancelled them; ok: merge only if every shard succeeded
#                      (a failed shard cancels the merge: --kill-on-invalid-dep=yes)
#   --poll-ms MS       how often the watcher reads the records (default 5000)
#   --no-watch         no watcher job even with --sprt
#   --sbatch ARGS      extra sbatch options for every job, e.g. "--partition=cpu --time=2:00:00"
#
# Everything after -- is passed unchanged to `tessera match` on every shard: engines
# (--engine cmd=... name=... option.Hash=64 ...), limits, --openings FILE (give a path
# every node can read), --seed, --games (the whole match), --concurrency (also the
# cpus per task), --sprt. --shard, --jsonl and --resume are added per shard.
# Prints the job ids as `array=ID`, `merge=ID` and `watch=ID` lines.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
shards=4
dir="tessera-match-$(date +%Y%m%d-%H%M%S)"
binary=$(command -v tessera || true)
merge_after=any
poll_ms=5000
watch=auto
extra_sbatch=""
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
while (( $# > 0 )); do
    case $1 in
        --shards) shards=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        --binary) binary=$2; shift 2 ;;
        --merge-after) merge_after=$2; shift 2 ;;
        --poll-ms) poll_ms=$2; shift 2 ;;
        --no-watch) watch=no; shift ;;
        --sbatch) extra_sbatch=$2; shift 2 ;;
        --) shift; break ;;
        *) echo "unknown option $1 (match arguments go after --)" >&2; usage ;;
    esac
done
(( $# > 0 )) || { echo "give the tessera match arguments after --" >&2; usage; }
[[ $shards =~ ^[1-9][0-9]*$ ]] || { echo "--shards must be a positive number ($shards)" >&2; exit 2; }
[[ $merge_after == any || $merge_after == ok ]] || { echo "--merge-after must be any or ok ($merge_after)" >&2; exit 2; }
[[ -n $binary && -x $binary ]] || { echo "no tessera binary: give --binary PATH" >&2; exit 2; }
binary=$(realpath "$binary")

games=2
concurrency=1
has_sprt=no
arguments=("$@")
for (( i = 0; i < ${#arguments[@]}; i++ )); do
    case ${arguments[i]} in
        --games) games=${arguments[i+1]:-} ;;
        --concurrency) concurrency=${arguments[i+1]:-} ;;
        --sprt) has_sprt=yes ;;
        --shard|--jsonl|--resume|--pgn|--merge|--watch)
            echo "${arguments[i]} is set per shard by this script; leave it out" >&2; exit 2 ;;
    esac
done
[[ $games =~ ^[0-9]+$ ]] || { echo "bad --games ($games)" >&2; exit 2; }
[[ $concurrency =~ ^[1-9][0-9]*$ ]] || { echo "bad --concurrency ($concurrency)" >&2; exit 2; }
[[ $watch == auto ]] && watch=$has_sprt

mkdir -p "$dir"
dir=$(realpath "$dir")
# Refuse to mix two matches' records in one directory.
if compgen -G "$dir/shard-*.jsonl" > /dev/null; then
    echo "$dir already holds shard records; choose another --dir" >&2
    exit 2
fi
printf '%q ' "$binary" match "$@" > "$dir/match.command"
echo >> "$dir/match.command"

read -r -a common <<< "$extra_sbatch"
common+=(--parsable --chdir="$dir")
# Held until the watcher is queued, so the watcher sees the shards from their start.
array=$(sbatch "${common[@]}" --hold --array="1-$shards" --cpus-per-task="$concurrency" \
    --output="$dir/shard-%a.out" "$here/slurm/shard.sbatch" "$binary" "$shards" "$@")
array=${array%%;*}
watcher=""
if [[ $watch == yes ]]; then
    watcher=$(sbatch "${common[@]}" --cpus-per-task=1 --output="$dir/watch.out" \
        "$here/slurm/watch.sbatch" "$binary" "$array" "$games" "$poll_ms")
    watcher=${watcher%%;*}
fi
merge=$(sbatch "${common[@]}" --cpus-per-task=1 --output="$dir/merge.out" \
    --dependency="after$merge_after:$array" --kill-on-invalid-dep=yes \
    "$here/slurm/merge.sbatch" "$binary" $watcher)
merge=${merge%%;*}
scontrol release "$array"
echo "dir=$dir"
echo "array=$array"
echo "merge=$merge"
[[ -n $watcher ]] && echo "watch=$watcher"
exit 0
