#!/usr/bin/env bash
# Match-runner throughput: Tessera self-play at a node limit with concurrency 2 in every
# variant; prints games per minute and the runner's own CPU time per move (both from the
# final table's "This run" and "Runner overhead" rows). Repeat and take the best: the
# machine's other load makes single runs noisy.
#
# Usage: scripts/benchmarks/throughput.sh [GAMES] [NODES]
# Environment: TESSERA (binary, default target/release/tessera, built if missing).
set -euo pipefail

games="${1:-20}"
nodes="${2:-1000}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
tessera="${TESSERA:-$root/target/release/tessera}"
if [[ ! -x "$tessera" ]]; then
    cargo build --release --manifest-path "$root/Cargo.toml"
fi

for variant in cheversi kruzno hexcheckers catchup; do
    table="$("$tessera" match \
        --engine cmd="$tessera" name=a option.Seed=1 \
        --engine cmd="$tessera" name=b option.Seed=2 \
        --variant "$variant" --games "$games" --concurrency 2 --nodes "$nodes" \
        --random-plies 2 --seed 1 2>/dev/null)"
    run="$(grep '^This run' <<<"$table" | sed 's/^This run *//')"
    overhead="$(grep '^Runner overhead' <<<"$table" | sed 's/^Runner overhead *//')"
    printf '%-12s %s | %s\n' "$variant" "$run" "$overhead"
done
