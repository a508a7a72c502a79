#!/usr/bin/env bash
# Plays one whole game in every variant through `tessera gui`'s page in headless
# Chromium (installed from Debian's packages if missing), a person against Tessera, by
# clicking cells and buttons; fails on any JavaScript or console error, or when a click
# does not make a move. Saves screenshots into OUTDIR. Not part of `cargo test`.
# Usage: scripts/gui_browser_check.sh OUTDIR
set -euo pipefail
if [ $# -lt 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
out=$(mkdir -p "$1" && cd "$1" && pwd)
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null; then
    apt-get install -y chromium || { apt-get update && apt-get install -y chromium; }
fi
if ! command -v node >/dev/null; then
    apt-get install -y nodejs || { apt-get update && apt-get install -y nodejs; }
fi
cargo build --quiet
node --experimental-websocket scripts/gui_browser_check.js "$(command -v chromium)" \
    "$PWD/target/debug/tessera" "$out"
