# shellcheck shell=bash
# bench/checks.sh — the checks the bench scripts share: number settings, the binary to run, a server that started.
# Sourced by bench/run.sh, bench/lib.sh, bench/phone-center.sh, bench/control-under-load.sh and
# bench/inspector-queries.sh; the script that sources it defines `die`.

# whole_in MIN MAX VALUE: whether VALUE is a whole number from MIN to MAX (read as decimal: a leading zero is not
# octal).
whole_in() { [[ $3 =~ ^[0-9]{1,10}$ ]] && ((10#$3 >= $1 && 10#$3 <= $2)); }

# whole_setting NAME MIN MAX: the setting NAME must be a whole number from MIN to MAX; it is then read as decimal.
whole_setting() {
    whole_in "$2" "$3" "${!1}" || die "$1 must be a whole number from $2 to $3, got '${!1}'"
    printf -v "$1" '%d' "$((10#${!1}))"
}

# whole_settings_list NAME MIN MAX: the setting NAME must be whole numbers from MIN to MAX, separated by spaces (at
# least one); each is then read as decimal.
whole_settings_list() {
    local item checked=()
    local -a items
    read -r -a items <<<"${!1}"
    for item in "${items[@]}"; do
        whole_in "$2" "$3" "$item" || break
        checked+=("$((10#$item))")
    done
    ((${#items[@]} > 0 && ${#checked[@]} == ${#items[@]})) ||
        die "$1 must be whole numbers from $2 to $3 separated by spaces, got '${!1}'"
    printf -v "$1" '%s' "${checked[*]}"
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
