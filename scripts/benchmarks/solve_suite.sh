#!/usr/bin/env bash
# Times the Cheversi solver over a file of positions (one move list a line, `#` lines
# skipped; default tests/data/cheversi_solve_positions.txt): per position the value,
# nodes and user CPU of `tessera solve`, one thread. Extra arguments go to every solve
# (e.g. --wdl). Run it beside nothing else: the CPU times are only as quiet as the machine.
#
#   scripts/benchmarks/solve_suite.sh [FILE] [solve arguments...]
set -euo pipefail
cd "$(dirname "$0")/../.."
file=${1:-tests/data/cheversi_solve_positions.txt}
shift || true
cargo build --release --quiet
binary=target/release/tessera
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
while read -r moves; do
    [[ -z "$moves" || "$moves" == \#* ]] && continue
    # shellcheck disable=SC2086 # the move list is one word per move
    value=$({ /usr/bin/time -f "cpu %U" "$binary" solve --variant cheversi --moves $moves \
        --hash 512 --progress 0 "$@" | grep '^value' | cut -d' ' -f2; } 2>"$errors")
    nodes=$(grep -o 'nodes [0-9]*' "$errors" | head -1 | cut -d' ' -f2)
    cpu=$(grep -o 'cpu [0-9.]*' "$errors" | cut -d' ' -f2)
    printf '%-40s value %5s  nodes %12s  cpu %6ss\n' "$moves" "$value" "$nodes" "$cpu"
done < "$file"
