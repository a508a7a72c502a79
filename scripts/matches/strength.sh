#!/usr/bin/env bash
# Strength and timing matches of the full search against fixed opponents, per variant:
#   minimax2 full vs Strategy=minimax2 at movetime 100 ms (hexcheckers goal: >= 90%)
#   greedy  full vs Strategy=greedy at movetime 100 ms  (goal: >= 95%)
#   random  full vs Strategy=random at movetime 100 ms  (goal: >= 99%)
#   scaling full at 4x the time vs full at 1x            (goal: Elo > 0, error bar clear of 0)
#   clock   full vs full at 1 s + 10 ms, MoveOverhead at its default (goal: 0 time forfeits)
# Each run writes OUT/<suite>-<variant>.jsonl (resumable: run the script again to continue)
# and the runner's table to OUT/<suite>-<variant>.txt; the last lines print a summary.
#
# Usage: scripts/matches/strength.sh [SUITE...]   (default: greedy random scaling clock)
# Environment: TESSERA (binary, default target/release/tessera, built if missing),
#              VARIANTS (default "cheversi kruzno hexcheckers catchup"), GAMES (default 100),
#              SIZE (board side for the hex variants, e.g. 7 or 8 for hexcheckers; results then
#              go to <suite>-<variant><SIZE>),
#              CONCURRENCY (default 1: timing is only fair on an otherwise idle core per game),
#              MOVETIME (default 100), SCALE_BASE (1x movetime for scaling, default 50),
#              SCALE_NODES (1x node limit for scaling instead of a movetime, e.g. 200000
#              for Kruzno, 100000 for Cheversi, 25000 for hex checkers),
#              OUT (default strength-results), SEED (default 1).
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
tessera="${TESSERA:-$root/target/release/tessera}"
if [[ ! -x "$tessera" ]]; then
    cargo build --release --manifest-path "$root/Cargo.toml"
fi
variants="${VARIANTS:-cheversi kruzno hexcheckers catchup}"
size="${SIZE:-}"
games="${GAMES:-100}"
concurrency="${CONCURRENCY:-1}"
movetime="${MOVETIME:-100}"
base="${SCALE_BASE:-50}"
scale_nodes="${SCALE_NODES:-}"
out="${OUT:-strength-results}"
seed="${SEED:-1}"
suites=("$@")
if [[ ${#suites[@]} -eq 0 ]]; then
    suites=(minimax2 greedy random scaling clock)
fi
mkdir -p "$out"

play() {
    local name="$1"
    shift
    local resume=()
    if [[ -s "$out/$name.jsonl" ]]; then
        resume=(--resume)
    fi
    "$tessera" match "$@" --games "$games" --concurrency "$concurrency" --seed "$seed" \
        --jsonl "$out/$name.jsonl" "${resume[@]}" >"$out/$name.txt"
}

for suite in "${suites[@]}"; do
    for variant in $variants; do
        common=(--variant "$variant" --random-plies 4 ${size:+--size "$size"})
        name="$suite-$variant$size"
        case "$suite" in
            minimax2 | greedy | random)
                play "$name" "${common[@]}" --movetime "$movetime" \
                    --engine cmd="$tessera" name=full \
                    --engine cmd="$tessera" name="$suite" option.Strategy="$suite"
                ;;
            scaling)
                # 4x the time, or with SCALE_NODES 4x the nodes (a loaded machine cannot
                # bias it, so it may run beside other work).
                if [[ -n "$scale_nodes" ]]; then
                    limits=(nodes=$((4 * scale_nodes)) nodes="$scale_nodes")
                else
                    limits=(movetime=$((4 * base)) movetime="$base")
                fi
                play "$name" "${common[@]}" \
                    --engine cmd="$tessera" name=4x "${limits[0]}" \
                    --engine cmd="$tessera" name=1x "${limits[1]}"
                ;;
            clock)
                play "$name" "${common[@]}" --tc 1+0.01 \
                    --engine cmd="$tessera" name=seed1 option.Seed=1 \
                    --engine cmd="$tessera" name=seed2 option.Seed=2
                ;;
            *)
                echo "unknown suite $suite (minimax2, greedy, random, scaling, clock)" >&2
                exit 2
                ;;
        esac
        echo "== $suite $variant$size"
        grep -E "^(Games|Score|Elo \(95%\)|Terminations|Engine failures)" "$out/$name.txt"
    done
done
