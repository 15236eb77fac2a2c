# bench/lib.sh — what bench/profile.sh and bench/alloc-count.sh share, sourced by them: a temporary directory and
# the servers to stop when the script exits (even after Ctrl-C), two ways to speak, and a check of a number setting.
# BENCH_NAME names the script in messages.
TMP=$(mktemp -d)
PIDS=()
cleanup() { local p; for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$TMP"; }
trap cleanup EXIT
say() { printf '%s\n' "$*" >&2; }
die() { say "$BENCH_NAME: $*"; exit 1; }
# whole_setting NAME MIN MAX: the setting NAME must be a whole number from MIN to MAX; it is then read as decimal
# (a leading zero is not octal).
whole_setting() {
    local name=$1 min=$2 max=$3 value=${!1}
    [[ $value =~ ^[0-9]{1,9}$ ]] && ((10#$value >= min && 10#$value <= max)) ||
        die "$name must be a whole number from $min to $max, got '$value'"
    printf -v "$name" '%d' "$((10#$value))"
}
