#!/usr/bin/env bash
# Opens a generated match report in headless Chromium (installed from Debian's packages
# if missing), runs the page's self-test (draw.js must draw exactly what `tessera render`
# draws), steps through a game with the arrow keys and buttons, filters and sorts the
# game list, and fails on any JavaScript or console error. Saves screenshots of the
# report and of one position per variant into OUTDIR. Not part of `cargo test`.
# Usage: scripts/browser/report_browser_check.sh OUTDIR
set -euo pipefail
source "$(dirname "$0")/browser_tools.sh"
browser_check_setup "$@"
tessera=$PWD/target/debug/tessera
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Short matches of the test engine (random legal moves) in every variant; the Catchup
# run carries SPRT settings, so the page has its LLR plot.
for variant in catchup cheversi kruzno hexcheckers; do
    extra=()
    if [ "$variant" = catchup ]; then extra=(--sprt elo0=0 elo1=10); fi
    "$tessera" match --engine cmd="$tessera" name=first arg=test-engine arg=--seed arg=1 \
        --engine cmd="$tessera" name=second arg=test-engine arg=--seed arg=2 \
        --variant "$variant" --games 6 --nodes 1 --max-plies 300 --random-plies 2 \
        "${extra[@]}" --jsonl "$work/$variant.jsonl" >/dev/null 2>&1
done
"$tessera" report "$work"/catchup.jsonl "$work"/cheversi.jsonl "$work"/kruzno.jsonl \
    "$work"/hexcheckers.jsonl -o "$out/report.html"
node --experimental-websocket scripts/browser/report_browser_check.js "$(command -v chromium)" \
    "$out/report.html" "$out"
