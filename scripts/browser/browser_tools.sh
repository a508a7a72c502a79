# Sourced by the browser checks (report_browser_check.sh, gui_browser_check.sh):
# `browser_check_setup "$@"` takes the OUTDIR argument into `out` (absolute), moves to the
# repository's root, installs Debian's chromium and nodejs if missing, and builds tessera.
browser_check_setup() {
    if [ $# -lt 1 ]; then
        echo "usage: $0 OUTDIR" >&2
        exit 2
    fi
    out=$(mkdir -p "$1" && cd "$1" && pwd)
    cd "$(dirname "${BASH_SOURCE[0]}")/../.."
    if ! command -v chromium >/dev/null; then
        apt-get install -y chromium || { apt-get update && apt-get install -y chromium; }
    fi
    if ! command -v node >/dev/null; then
        apt-get install -y nodejs || { apt-get update && apt-get install -y nodejs; }
    fi
    cargo build --quiet
}
