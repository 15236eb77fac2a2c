# shellcheck shell=bash
# bench/checks.sh — the checks the bench scripts share: number settings, the binary to run, a server that started.
# Sourced by bench/run.sh, bench/lib.sh, bench/phone-center.sh, bench/control-under-load.sh and
# bench/inspector-queries.sh; the script that sources it defines `die`.

# whole_setting NAME MIN MAX: the setting NAME must be a whole number from MIN to MAX; it is then read as decimal
# (a leading zero is not octal).
whole_setting() {
    local name=$1 min=$2 max=$3 value=${!1}
    [[ $value =~ ^[0-9]{1,10}$ ]] && ((10#$value >= min && 10#$value <= max)) ||
        die "$name must be a whole number from $min to $max, got '$value'"
    printf -v "$name" '%d' "$((10#$value))"
}

# whole_settings_list NAME MIN MAX: the setting NAME must be whole numbers from MIN to MAX, separated by spaces (at
# least one); each is then read as decimal.
whole_settings_list() {
    local name=$1 min=$2 max=$3 item checked=()
    local -a items
    read -r -a items <<<"${!1}"
    ((${#items[@]} > 0)) || die "$name must be whole numbers from $min to $max separated by spaces, got '${!1}'"
    for item in "${items[@]}"; do
        [[ $item =~ ^[0-9]{1,10}$ ]] && ((10#$item >= min && 10#$item <= max)) ||
            die "$name must be whole numbers from $min to $max separated by spaces, got '${!1}'"
        checked+=("$((10#$item))")
    done
    printf -v "$name" '%s' "${checked[*]}"
}

# executable_setting NAME: the setting NAME must name an executable file (a mock-apns build).
executable_setting() {
    [[ -x ${!1} ]] || die "$1=${!1} is not an executable file: build mock-apns (swift build -c release" \
        "--product mock-apns) and give its path as $1=path"
}

# await_ready BANNER PID [SECONDS]: waits up to SECONDS (30) for `mock-apns serve` or `inspect` (process PID, its
# output in the file BANNER) to print its ready line; dies with that output when it exits or does not get there.
await_ready() {
    local banner=$1 pid=$2 seconds=${3:-30} _
    for _ in $(seq $((seconds * 10))); do
        grep -q '^ready' "$banner" 2>/dev/null && return 0
        kill -0 "$pid" 2>/dev/null || die "mock-apns exited before it was ready: $(cat "$banner")"
        sleep 0.1
    done
    die "mock-apns was not ready after $seconds s: $(cat "$banner")"
}
