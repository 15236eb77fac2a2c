# bench/lib.sh — what bench/profile.sh and bench/alloc-count.sh share, sourced by them: a temporary directory and
# the servers to stop when the script exits (even after Ctrl-C), two ways to speak, and bench/checks.sh's checks
# of number settings.
# BENCH_NAME names the script in messages.
TMP=$(mktemp -d)
PIDS=()
cleanup() { local p; for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$TMP"; }
trap cleanup EXIT
say() { printf '%s\n' "$*" >&2; }
die() { say "$BENCH_NAME: $*"; exit 1; }
# shellcheck source=bench/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
