# shellcheck shell=bash
# bench/settings.sh — the check of a number setting that every bench script uses, sourced by bench/run.sh and
# bench/lib.sh. The script that sources it defines `die`.

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
