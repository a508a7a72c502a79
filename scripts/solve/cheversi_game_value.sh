#!/usr/bin/env bash
# Proves the value of the whole Cheversi game by splitting the root: White's first
# placement is its King, so the game's value is the best of the King's squares, and the
# board's 8 symmetries leave 10 of them (a1 b1 c1 d1 b2 c2 d2 c3 d3 d4). Each square is
# its own `tessera solve`, JOBS at a time (one core each), with its own checkpoint, so a
# killed run started again resumes every square where it was.
#
#   1. `--wdl` after every King square: does Black win, draw or lose?
#   2. If Black loses after some square, White wins: the exact margins of those squares
#      decide by how much. If Black only draws after some, the game is a draw. If Black
#      wins after all ten, White gets at most -1, and `--at-least` asks, JOBS squares at
#      a time, hardest first (the most `--wdl` nodes), whether Black gets at least 2
#      there: the first square where Black does not holds White to -1, the game's value.
#      If Black gets 2 after every square, the same is asked at 3, and so on.
#   Each later solve of a square resumes from its checkpoint (the facts stay true).
#
# Usage: scripts/solve/cheversi_game_value.sh [--jobs N] [--hash MB] [--dir DIR] [--binary PATH]
#   --jobs N       solves at a time (default 2); each takes one core and up to --hash
#   --hash MB      table memory of each solve (default 4096)
#   --dir DIR      checkpoints, outputs and logs (default cheversi-value); reused on resume
#   --binary PATH  the tessera binary (default: target/release/tessera, built first)
# Prints one line per square and solve, then `value: <margin for White>` and
# `bestmove <King square>`. Checkpoints take about 25 bytes per stored position.
set -euo pipefail

jobs=2
hash=4096
dir=cheversi-value
binary=""
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
while (( $# > 0 )); do
    case $1 in
        --jobs) jobs=$2; shift 2 ;;
        --hash) hash=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        --binary) binary=$2; shift 2 ;;
        *) usage ;;
    esac
done
if [[ -z "$binary" ]]; then
    (cd "$(dirname "$0")/../.." && cargo build --release --quiet)
    binary="$(cd "$(dirname "$0")/../.." && pwd)/target/release/tessera"
fi
mkdir -p "$dir"
squares=(a1 b1 c1 d1 b2 c2 d2 c3 d3 d4)

# solve SQUARE MODE: one solve after K<SQUARE>, Black to move; MODE is wdl, exact or
# a number T (--at-least T). A finished solve (its .out holds a value) is not run again.
solve() {
    local square=$1 mode=$2 base="$dir/$1.$2"
    if grep -q '^value' "$base.out" 2>/dev/null; then return; fi
    local extra=()
    case $mode in
        wdl) extra=(--wdl) ;;
        exact) ;;
        *) extra=(--at-least "$mode") ;;
    esac
    "$binary" solve --variant cheversi --moves "K$square" "${extra[@]}" --hash "$hash" \
        --checkpoint "$dir/$square.checkpoint" --checkpoint-seconds 600 --progress 300 \
        > "$base.out.part" 2> "$base.err"
    mv "$base.out.part" "$base.out"
}
# value SQUARE MODE: the solved value for Black; nodes SQUARE MODE: the solve's nodes.
value() { grep '^value' "$dir/$1.$2.out" | cut -d' ' -f2; }
nodes() { grep -o 'solved nodes [0-9]*' "$dir/$1.$2.err" | cut -d' ' -f3; }
report() {
    printf 'K%s %-5s Black: %5s  nodes %14s\n' "$1" "$2" "$(value "$1" "$2")" "$(nodes "$1" "$2")"
}

running=0
for square in "${squares[@]}"; do
    if (( running >= jobs )); then wait -n; running=$((running - 1)); fi
    solve "$square" wdl &
    running=$((running + 1))
done
wait
for square in "${squares[@]}"; do report "$square" wdl; done

# From here on, values are Black's after the King square; White's is their negation.
best_square=""
best=""
consider() { # consider SQUARE WHITE_VALUE
    if [[ -z "$best" ]] || (( $2 > best )); then best=$2; best_square=$1; fi
}
white_wins=()
draws=()
for square in "${squares[@]}"; do
    case $(value "$square" wdl) in
        loss) white_wins+=("$square") ;;
        draw) draws+=("$square") ;;
    esac
done
if (( ${#white_wins[@]} > 0 )); then
    for square in "${white_wins[@]}"; do
        solve "$square" exact
        report "$square" exact
        consider "$square" $(( -$(value "$square" exact) ))
    done
elif (( ${#draws[@]} > 0 )); then
    best=0
    best_square=${draws[0]}
else
    # Hardest first: most --wdl nodes.
    mapfile -t ordered < <(for square in "${squares[@]}"; do
        echo "$(nodes "$square" wdl) $square"
    done | sort -rn | cut -d' ' -f2)
    # White gets at most `target` after every square; is there one where Black cannot
    # get 1 - target, i.e. White gets `target` exactly?
    target=-1
    while [[ -z "$best" ]]; do
        threshold=$((1 - target))
        for (( at = 0; at < ${#ordered[@]}; at += jobs )); do
            batch=("${ordered[@]:at:jobs}")
            for square in "${batch[@]}"; do solve "$square" "$threshold" & done
            wait
            for square in "${batch[@]}"; do
                report "$square" "$threshold"
                [[ -z "$best" && $(value "$square" "$threshold") == "<="* ]] && best=$target && best_square=$square
            done
            [[ -n "$best" ]] && break
        done
        target=$((target - 1))
    done
fi
echo "value: $best"
echo "bestmove K$best_square"
