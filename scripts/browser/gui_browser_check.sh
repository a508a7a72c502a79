#!/usr/bin/env bash
# Plays one whole game in every variant through `tessera gui`'s page in headless
# Chromium (installed from Debian's packages if missing), a person against Tessera at its
# weakest strength level, by clicking cells and buttons; fails on any JavaScript or
# console error, or when a click does not make a move. Saves screenshots into OUTDIR. Not part of `cargo test`.
# Usage: scripts/browser/gui_browser_check.sh OUTDIR
set -euo pipefail
source "$(dirname "$0")/browser_tools.sh"
browser_check_setup "$@"
node --experimental-websocket scripts/browser/gui_browser_check.js "$(command -v chromium)" \
    "$PWD/target/debug/tessera" "$out"
