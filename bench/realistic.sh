# bench/realistic.sh — the realistic-traffic half of bench/run.sh (issue 26 item 1), sourced by it after the
# identical-push comparison, with its servers, settings and functions. Not a script of its own.
#
# The identical-push runs are mock-apns's best case: a repeated request shares the previous record's content. Here
# each server gets, in the same run:
#   - distinct device tokens used in turn (REALISTIC_TOKENS, by default 1,000 and 100,000), 1 in 40 of them not
#     a device token (63 hex digits: 400 BadDeviceToken from mock-apns, 404 from nghttpd);
#   - a mix of payloads, one h2load worker per kind, all at once: an alert with custom data (40 % of the
#     requests), a background push (25 %), a Live Activity update with content-state (25 %) and an alert near the
#     4 KB limit (10 %), each worker with a provider token of its own (iat a minute apart);
#   - one more connection whose provider token has expired (2.5 % of the requests, 403 ExpiredProviderToken):
#     APNs allows such a connection one stream at a time, so it runs with -m 1.
# h2load sends one body per process, so a mix needs several processes; a connection carries one kind, and the
# first configuration, 1x100 in the identical runs, is four connections of 25 streams here (100 in flight, as
# there). The server's CPU per request counts every request of every worker; req/s is all answered requests over
# the longest worker's time; latency comes from a second round with h2load's per-request logs.
#
# Settings: REALISTIC (1; 0 skips), REALISTIC_TOKENS ("1000 100000"), REALISTIC_N (N_C4); with run.sh's BASELINE_BIN
# the baseline server takes its turn here too and the table ends with "this build / baseline".

# bench/run.sh checks both when they are given; bench/profile.sh and the soak set only the functions' inputs.
REALISTIC_TOKENS=${REALISTIC_TOKENS:-"1000 100000"}
REALISTIC_N=${REALISTIC_N:-$N_C4}

# The kinds: name, share of the requests in %, push type, topic suffix, priority, body file.
realistic_bodies() {
    local pad
    printf '%s' '{"aps":{"alert":{"title":"Order #1234 is on its way","body":"Your courier is 5 minutes away"},"sound":"default","mutable-content":1},"order":{"id":"1234","eta":300,"courier":{"name":"Alex","vehicle":"bike"}},"tracking":"https://example.com/t/1234"}' >"$TMP/alert.json"
    printf '%s' '{"aps":{"content-available":1},"sync":{"since":1795266640,"kinds":["orders","messages"]}}' >"$TMP/background.json"
    printf '%s' "{\"aps\":{\"timestamp\":$(date +%s),\"event\":\"update\",\"content-state\":{\"driverName\":\"Alex\",\"etaMinutes\":5,\"stage\":\"pickedUp\",\"position\":{\"lat\":52.52,\"lon\":13.405}},\"stale-date\":$(($(date +%s) + 3600))}}" >"$TMP/liveactivity.json"
    pad=$(printf '%*s' 3900 '' | tr ' ' 'x')
    printf '{"aps":{"alert":{"title":"Your receipt","body":"Thank you for your order"}},"receipt":"%s"}' "$pad" >"$TMP/large.json"
}

REALISTIC_KINDS=(
    "alert 40 alert com.example.app 10 $TMP/alert.json"
    "background 25 background com.example.app 5 $TMP/background.json"
    "liveactivity 25 liveactivity com.example.app.push-type.liveactivity 10 $TMP/liveactivity.json"
    "large 10 alert com.example.app 10 $TMP/large.json"
)

# realistic_tokens COUNT → writes $TMP/uris-COUNT (paths, 1 in 40 not a device token) and the nghttpd files.
realistic_tokens() {
    local count=$1 docroot="$TMP/htdocs/3/device"
    mkdir -p "$docroot"
    python3 - "$count" "$TMP/uris-$count" "$docroot" <<'EOF'
import hashlib, os, sys
count, uris, docroot = int(sys.argv[1]), sys.argv[2], sys.argv[3]
with open(uris, "w") as out:
    for i in range(count):
        token = hashlib.sha256(str(i).encode()).hexdigest()
        if i % 40 == 39:
            token = token[:63]          # not a device token: an odd number of hex digits
        else:
            path = os.path.join(docroot, token)
            if not os.path.exists(path):
                open(path, "w").close()  # nghttpd answers a POST to an existing file with 200
        out.write(f"/3/device/{token}\n")
EOF
}

# realistic_run SERVER CLIENTS STREAMS REQUESTS TOKENS LOG(0|1) →
#   "rps answered n2xx n4xx n5xx errored cpu_us_per_req elapsed_s"; with LOG=1 the per-request logs stay in
#   $TMP/rl-SERVER-*.log for percentiles.
realistic_run() {
    local server=$1 c=$2 m=$3 n=$4 tokens=$5 log=$6 pid port before after
    pid=$(server_pid "$server")
    port=$(server_port "$server")
    local first="https://127.0.0.1:$port$(head -1 "$TMP/uris-$tokens")"
    local uris="$TMP/uris-$tokens-$port"
    { echo "$first"; tail -n +2 "$TMP/uris-$tokens"; } >"$uris"
    local workers=() outs=() i=0 kind name share type topic priority body wc wm wn jwt logargs
    local per=$((c / ${#REALISTIC_KINDS[@]})) extra=$((c % ${#REALISTIC_KINDS[@]}))
    rm -f "$TMP"/rl-"$server"-*.log
    before=$(cpu_ticks "$pid")
    for kind in "${REALISTIC_KINDS[@]}"; do
        read -r name share type topic priority body <<<"$kind"
        wc=$((per + (i < extra ? 1 : 0)))
        wm=$m
        if ((wc == 0)); then wc=1; wm=$(((m + ${#REALISTIC_KINDS[@]} - 1) / ${#REALISTIC_KINDS[@]})); fi
        wn=$((n * share / 100 * 975 / 1000))
        jwt=$("$MOCK_APNS_BIN" token --issued-at $(($(date +%s) - 60 * i)))
        logargs=()
        ((log == 1)) && logargs=(--log-file "$TMP/rl-$server-$name.log")
        "${CLIENT_ON[@]}" timeout --signal=INT "$RUN_TIMEOUT" h2load -t 1 -c "$wc" -m "$wm" -n "$wn" -i "$uris" \
            -d "$body" -H "apns-topic: $topic" -H "apns-push-type: $type" -H "apns-priority: $priority" \
            -H "authorization: bearer $jwt" "${logargs[@]}" >"$TMP/rl-$name.out" 2>&1 &
        workers+=($!)
        outs+=("$TMP/rl-$name.out")
        i=$((i + 1))
    done
    jwt=$("$MOCK_APNS_BIN" token --issued-at $(($(date +%s) - 7200)))
    logargs=()
    ((log == 1)) && logargs=(--log-file "$TMP/rl-$server-expired.log")
    "${CLIENT_ON[@]}" timeout --signal=INT "$RUN_TIMEOUT" h2load -t 1 -c 1 -m 1 -n $((n * 25 / 1000)) -i "$uris" \
        -d "$TMP/alert.json" -H "apns-topic: com.example.app" -H "apns-push-type: alert" \
        -H "authorization: bearer $jwt" "${logargs[@]}" >"$TMP/rl-expired.out" 2>&1 &
    workers+=($!)
    outs+=("$TMP/rl-expired.out")
    local rc=0 w
    for w in "${workers[@]}"; do wait "$w" || rc=$?; done
    after=$(cpu_ticks "$pid")
    if ((rc != 0)); then
        tail -5 "${outs[@]}" >&2
        die "realistic: an h2load worker failed (exit $rc) against $server"
    fi
    kill -0 "$pid" 2>/dev/null || die "the server died during the realistic run"
    awk -v ticks=$((after - before)) -v tck="$CLK_TCK" '
        /^finished in/ {
            t = $3; sub(/,$/, "", t)
            if (t ~ /ms$/) { sub(/ms$/, "", t); t /= 1000 } else if (t ~ /us$/) { sub(/us$/, "", t); t /= 1e6 } else { sub(/s$/, "", t) }
            if (t > elapsed) elapsed = t
        }
        /^requests:/ { done += $6; errored += $12 }
        /^status codes:/ { ok += $3; c4 += $7; c5 += $9 }
        END {
            if (elapsed <= 0) { print "h2load output not understood" > "/dev/stderr"; exit 1 }
            printf "%.0f %d %d %d %d %d %.2f %.2f\n", (ok + c4 + c5) / elapsed, ok + c4 + c5, ok, c4, c5, errored,
                (done > 0 ? ticks * 1e6 / tck / done : 0), elapsed
        }' "${outs[@]}"
}

# each_row FN — calls FN TOKENS NAME for each row of the realistic tables, in order (realistic()'s `configs` and
# `Q`, which bash's dynamic scope lends to the row functions below).
each_row() {
    local tokens cfg name
    for tokens in $REALISTIC_TOKENS; do
        for cfg in "${configs[@]}"; do
            read -r name _ <<<"$cfg"
            "$1" "$tokens" "$name"
        done
    done
}

# The rows of the realistic tables, one function per table: FN TOKENS NAME.
row_servers() {
    local s
    for s in "${SERVERS[@]}"; do
        printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$1" "$2" "$s" "${Q[$s,$1,$2,rps]}" \
            "${Q[$s,$1,$2,p50]}" "${Q[$s,$1,$2,p99]}" "${Q[$s,$1,$2,cpu]}" "${Q[$s,$1,$2,mix]}"
    done
}
row_ratios() {
    awk -v t="$1" -v name="$2" -v mr="${Q[mock-apns,$1,$2,rps]}" -v nr="${Q[nghttpd,$1,$2,rps]}" \
        -v mc="${Q[mock-apns,$1,$2,cpu]}" -v nc="${Q[nghttpd,$1,$2,cpu]}" -v mp="${Q[mock-apns,$1,$2,p99]}" \
        -v np="${Q[nghttpd,$1,$2,p99]}" 'BEGIN {
            printf "| %s | %s | %.2f× | %.2f× | %.2f× |\n", t, name, mr / nr, (nc > 0 ? mc / nc : 0),
                (np > 0 ? mp / np : 0)
        }'
}
row_floor() {
    awk -v t="$1" -v name="$2" -v f="${Q[floor,$1,$2,cpu]}" -v nc="${Q[nghttpd,$1,$2,cpu]}" \
        -v mc="${Q[mock-apns,$1,$2,cpu]}" \
        'BEGIN { printf "| %s | %s | %s | %s | %s | %.2f |\n", t, name, f, nc, mc, mc - f }'
}
row_baseline() {
    awk -v t="$1" -v name="$2" -v mc="${Q[mock-apns,$1,$2,cpu]}" -v bc="${Q[baseline,$1,$2,cpu]}" \
        -v ms="${Q[mock-apns,$1,$2,cpus]}" -v bs="${Q[baseline,$1,$2,cpus]}" -v f="${Q[floor,$1,$2,cpu]:--}" \
        -v nc="${Q[nghttpd,$1,$2,cpu]}" 'BEGIN {
            printf "| %s | %s | %s (%s) | %s (%s) | %s | %s | %.3f× |\n", t, name, mc, ms, bc, bs, f, nc,
                (bc > 0 ? mc / bc : 0)
        }'
}

realistic() {
    command -v python3 >/dev/null 2>&1 || die "the realistic traffic needs python3 (apt-get install -y python3)"
    realistic_bodies
    local configs=("4x25 4 100 $REALISTIC_N" "4x100 4 400 $REALISTIC_N" "50x10 50 500 $((REALISTIC_N / 2))")
    local tokens cfg name c m n rep s
    declare -A Q=()
    for tokens in $REALISTIC_TOKENS; do
        say "bench: realistic traffic, $tokens distinct tokens (1 in 40 malformed)"
        realistic_tokens "$tokens"
        for cfg in "${configs[@]}"; do
            # total connections, total streams in flight (split between the workers), requests
            read -r name c m n <<<"$cfg"
            local streams=$((m / c))
            declare -A RR=() RC=()
            for ((rep = 1; rep <= REPEAT; rep++)); do
                for s in "${SERVERS[@]}"; do
                    read -r rps answered ok c4 c5 errored cpu elapsed < <(realistic_run "$s" "$c" "$streams" "$n" "$tokens" 0)
                    say "$(printf '  %6s tokens %-6s %-9s run %d: %8s req/s  %6s µs CPU/req  %s 2xx  %s 4xx  %s 5xx  %s errored  %ss' \
                        "$tokens" "$name" "$s" "$rep" "$rps" "$cpu" "$ok" "$c4" "$c5" "$errored" "$elapsed")"
                    RR[$s]+="$rps "
                    RC[$s]+="$cpu "
                    Q[$s,$tokens,$name,mix]="$ok/$c4/$c5/$errored"
                done
            done
            for s in "${SERVERS[@]}"; do
                # shellcheck disable=SC2086
                Q[$s,$tokens,$name,rps]=$(median ${RR[$s]})
                # shellcheck disable=SC2086
                Q[$s,$tokens,$name,cpu]=$(median ${RC[$s]})
                # shellcheck disable=SC2086
                Q[$s,$tokens,$name,cpus]=$(spread ${RC[$s]})
                realistic_run "$s" "$c" "$streams" $((n / 2)) "$tokens" 1 >/dev/null
                cat "$TMP"/rl-"$s"-*.log >"$TMP/rl-$s.all"
                read -r "Q[$s,$tokens,$name,p50]" "Q[$s,$tokens,$name,p99]" < <(percentiles "$TMP/rl-$s.all")
            done
            unset RR RC
        done
    done
    echo
    echo "## Realistic traffic: distinct tokens, mixed payloads, about 5 % rejected (median of $REPEAT runs)"
    echo
    echo "| tokens | config | server | req/s | p50 ms | p99 ms | CPU µs/req | 2xx/4xx/5xx/errored (last run) |"
    echo "|---:|---|---|---:|---:|---:|---:|---|"
    each_row row_servers
    echo
    echo "| tokens | config | req/s mock/nghttpd | CPU/req mock/nghttpd | p99 mock/nghttpd |"
    echo "|---:|---|---:|---:|---:|"
    each_row row_ratios
    if ((FLOOR == 1)); then
        echo
        echo "| tokens | config | CPU µs/req: floor | nghttpd | mock-apns | mock-apns above the floor |"
        echo "|---:|---|---:|---:|---:|---:|"
        each_row row_floor
    fi
    if [[ -n ${BASELINE_BIN:-} ]]; then
        echo
        echo "| tokens | config | CPU µs/req: this build (runs) | baseline (runs) | floor | nghttpd |" \
            "this build / baseline |"
        echo "|---:|---|---:|---:|---:|---:|---:|"
        each_row row_baseline
    fi
    echo
    echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# bench/run.sh's soak sources this file for its functions only.
[[ ${REALISTIC_DEFINE_ONLY:-0} == 1 ]] || realistic
