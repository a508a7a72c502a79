#!/usr/bin/env bash
# Self-play sanity match: Tessera against itself (two seeds) in one variant. Both sides
# are the same program, so the score should stay near 50% and no game should end in a
# failure (the "Engine failures" row must read 0 for both).
#
# Usage: scripts/matches/selfplay.sh [VARIANT] [GAMES] [extra tessera-match arguments...]
# Environment: TESSERA (binary, default target/release/tessera, built if missing),
#              NODES (node limit per move, default 2000), CONCURRENCY (default 2).
set -euo pipefail

variant="${1:-catchup}"
games="${2:-20}"
shift $(( $# < 2 ? $# : 2 ))

root="$(cd "$(dirname "$0")/../.." && pwd)"
tessera="${TESSERA:-$root/target/release/tessera}"
if [[ ! -x "$tessera" ]]; then
    cargo build --release --manifest-path "$root/Cargo.toml"
fi

exec "$tessera" match \
    --engine cmd="$tessera" name=seed1 option.Seed=1 \
    --engine cmd="$tessera" name=seed2 option.Seed=2 \
    --variant "$variant" \
    --games "$games" \
    --concurrency "${CONCURRENCY:-2}" \
    --nodes "${NODES:-2000}" \
    --random-plies 4 \
    --seed "${SEED:-1}" \
    "$@"
