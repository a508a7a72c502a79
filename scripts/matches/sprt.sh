#!/usr/bin/env bash
# Version-vs-version SPRT: is NEW at least ELO1 Elo (normalised) stronger than OLD?
# Plays colour-swapped pairs from seeded random openings until the pentanomial SPRT
# accepts H1 (NEW is better) or H0 (it is not), or the game budget runs out. The run is
# recorded in a JSONL file and can be interrupted and started again: it resumes.
#
# Usage: scripts/matches/sprt.sh NEW_BINARY OLD_BINARY [VARIANT] [extra tessera-match arguments...]
# Environment: ELO0 (default 0), ELO1 (default 5), TC (default 10+0.1),
#              CONCURRENCY (default: number of cores), GAMES (budget, default 20000),
#              OUT (record prefix, default sprt-VARIANT), SEED (default 1).
set -euo pipefail

if [[ $# -lt 2 ]]; then
    echo "usage: $0 NEW_BINARY OLD_BINARY [VARIANT] [extra match arguments...]" >&2
    exit 2
fi
new="$1"
old="$2"
variant="${3:-catchup}"
shift $(( $# < 3 ? $# : 3 ))

out="${OUT:-sprt-$variant}"
resume=()
if [[ -s "$out.jsonl" ]]; then
    resume=(--resume)
fi

exec "$new" match \
    --engine cmd="$new" name=new \
    --engine cmd="$old" name=old \
    --variant "$variant" \
    --games "${GAMES:-20000}" \
    --concurrency "${CONCURRENCY:-$(nproc)}" \
    --tc "${TC:-10+0.1}" --timemargin 100 \
    --random-plies 4 --seed "${SEED:-1}" \
    --sprt elo0="${ELO0:-0}" elo1="${ELO1:-5}" alpha=0.05 beta=0.05 \
    --jsonl "$out.jsonl" --pgn "$out.pgn" "${resume[@]}" \
    "$@"
