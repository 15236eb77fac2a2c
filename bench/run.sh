#!/usr/bin/env bash
# bench/run.sh — h2load against mock-apns and against nghttpd (the C reference server), in the same run, on
# the same machine, with APNs-like requests; prints req/s, p50/p99 latency, server CPU µs per request, peak RSS
# and the ratios mock-apns / nghttpd, then a markdown table for the README.
#
#   bench/run.sh              the comparison (about 3–5 minutes on 2 cores)
#   SOAK=1 bench/run.sh       5,000,000 requests to mock-apns, RSS sampled: does memory stay flat?
#   RECORD_MEMORY=1 bench/run.sh   the journal's memory per record, for each payload kind alone
#
# A third server, "floor", is the same binary with MOCK_APNS_BENCH_FLOOR=1: it answers every request 200 and does
# nothing else with it (no rules, JWT, JSON, journal or phone), so the tables show what TLS, HTTP/2 and the
# request's assembly cost and what mock-apns's work adds above them (issue 26 item 2); FLOOR=0 leaves it out.
#
# After the identical-push table it measures realistic traffic (bench/realistic.sh: distinct tokens, mixed
# payloads, about 5 % rejected) against both servers and prints its table; REALISTIC=0 skips it.
#
# BASELINE_BIN=path/to/old/mock-apns adds a further server, "baseline": an older build, in the same alternating
# rounds, with its own rows and a "this build / baseline" table of CPU per request, so that a change is measured
# before and after in ONE run (issue 23's "side by side"; absolute µs move with the machine's load, ratios less).
#
# Settings (environment): N, N_C1, N_C4, N_C50, REPEAT, WARMUP_N, PIN, SERVER_CPU, CLIENT_CPU, H2LOAD_THREADS,
# MOCK_APNS_BIN, MOCK_APNS_ARGS, BASELINE_BIN, FLOOR, RUN_TIMEOUT, SOAK, SOAK_N, SOAK_TOKENS, SOAK_CLIENTS,
# SOAK_STREAMS, SOAK_INTERVAL, SOAK_RATE, RECORD_MEMORY, RECORD_FILL, RECORD_FILLS, RESULTS_DIR, REALISTIC,
# REALISTIC_TOKENS, REALISTIC_N. See bench/README.md.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

# ---------------------------------------------------------------------------------------------------------------
# Settings
# ---------------------------------------------------------------------------------------------------------------
N_C1=${N_C1:-${N:-200000}}        # requests per measured run, 1 connection × 100 streams
N_C4=${N_C4:-${N:-200000}}        # 4 × 100
N_C50=${N_C50:-${N:-100000}}      # 50 × 10
REPEAT=${REPEAT:-3}               # measured runs per server and configuration; the median is reported
WARMUP_N=${WARMUP_N:-20000}       # requests of the warm-up run per server
PIN=${PIN:-1}                     # 1: server on SERVER_CPU, h2load on CLIENT_CPU (taskset); 0: no pinning
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
H2LOAD_THREADS=${H2LOAD_THREADS:-1}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}   # seconds one h2load run may take before the bench gives up
MOCK_APNS_ARGS=${MOCK_APNS_ARGS:-}  # extra arguments for `mock-apns serve` (e.g. --scenario FILE)
FLOOR=${FLOOR:-1}                 # 1: also measure the floor (MOCK_APNS_BENCH_FLOOR=1); 0: leave it out
BASELINE_BIN=${BASELINE_BIN:-}    # an older mock-apns binary, measured beside this one ("baseline"); empty: none
SOAK=${SOAK:-0}
SOAK_N=${SOAK_N:-5000000}
SOAK_CLIENTS=${SOAK_CLIENTS:-4}
SOAK_STREAMS=${SOAK_STREAMS:-100}
SOAK_INTERVAL=${SOAK_INTERVAL:-5}  # seconds between RSS samples
SOAK_TOKENS=${SOAK_TOKENS:-}      # a number: the soak sends realistic traffic over that many distinct tokens
SOAK_RATE=${SOAK_RATE:-40000}     # with SOAK_TOKENS: requests per second of all the kinds together (held to the end)
RECORD_MEMORY=${RECORD_MEMORY:-0} # 1: the journal's memory per record of each kind (bench/record-memory.sh)
RESULTS_DIR=${RESULTS_DIR:-bench/results}  # git-ignored; the markdown table is also written there

DEVICE_TOKEN=$(printf '0123456789abcdef%.0s' 1 2 3 4)   # 64 hex characters
REQUEST_PATH="/3/device/$DEVICE_TOKEN"
CLK_TCK=$(getconf CLK_TCK)

say() { printf '%s\n' "$*" >&2; }
die() { say "bench: $*"; exit 1; }
# shellcheck source=bench/checks.sh
source "$ROOT/bench/checks.sh"

# Every number setting is checked before anything starts (a typo would otherwise show as a bash error mid-run, or
# as a run of nothing: REPEAT=x reads as 0).
# N first: it is the default of the three below, and a bad N is named as N.
[[ -z ${N:-} ]] || whole_setting N 1000 100000000
whole_setting N_C1 1000 100000000
whole_setting N_C4 1000 100000000
whole_setting N_C50 1000 100000000
whole_setting REPEAT 1 50
whole_setting WARMUP_N 1000 100000000
whole_setting PIN 0 1
whole_setting SERVER_CPU 0 4095
whole_setting CLIENT_CPU 0 4095
whole_setting H2LOAD_THREADS 1 256
whole_setting RUN_TIMEOUT 1 86400
whole_setting FLOOR 0 1
whole_setting SOAK 0 1
whole_setting SOAK_N 1 9999999999
whole_setting SOAK_CLIENTS 1 1000
whole_setting SOAK_STREAMS 1 1000
whole_setting SOAK_INTERVAL 1 3600
[[ -z $SOAK_TOKENS ]] || whole_setting SOAK_TOKENS 1 1000000
# Each kind's connections need a whole request per second; far above capacity the mix drifts again.
whole_setting SOAK_RATE 100 1000000
whole_setting RECORD_MEMORY 0 1
REALISTIC=${REALISTIC:-1}
whole_setting REALISTIC 0 1
# Their defaults are bench/realistic.sh's.
[[ -z ${REALISTIC_TOKENS:-} ]] || whole_settings_list REALISTIC_TOKENS 1 1000000
[[ -z ${REALISTIC_N:-} ]] || whole_setting REALISTIC_N 1000 100000000

# ---------------------------------------------------------------------------------------------------------------
# Tools
# ---------------------------------------------------------------------------------------------------------------
need() {  # need COMMAND APT-PACKAGE
    command -v "$1" >/dev/null 2>&1 || die "'$1' is missing: apt-get install -y $2"
}
need h2load nghttp2-client
need nghttpd nghttp2-server
need curl curl
need getconf libc-bin
need timeout coreutils
if [[ $PIN == 1 ]]; then
    need taskset util-linux
    cpus=$(getconf _NPROCESSORS_ONLN)
    if ((cpus < 2)); then
        say "bench: only $cpus CPU online: not pinning (PIN=0)"
        PIN=0
    fi
fi
# Command prefixes, not functions: a function started with & runs in a subshell, and $! must be the server.
SERVER_ON=()
CLIENT_ON=()
if [[ $PIN == 1 ]]; then
    SERVER_ON=(taskset -c "$SERVER_CPU")
    CLIENT_ON=(taskset -c "$CLIENT_CPU")
fi

# ---------------------------------------------------------------------------------------------------------------
# Scratch space and clean-up
# ---------------------------------------------------------------------------------------------------------------
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mock-apns-bench.XXXXXX")
SERVER_PIDS=()
cleanup() {
    local pid
    for pid in "${SERVER_PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${SERVER_PIDS[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
        return
    fi
    local port
    while :; do
        port=$((20000 + RANDOM % 40000))
        ss -Htln "sport = :$port" 2>/dev/null | grep -q . || { echo "$port"; return; }
    done
}

# ---------------------------------------------------------------------------------------------------------------
# The request: POST /3/device/<64 hex>, a 200-byte JSON body, APNs headers, a valid provider token
# ---------------------------------------------------------------------------------------------------------------
BODY="$TMP/body.json"
make_body() {
    local base='{"aps":{"alert":{"title":"Order #1234 is on its way","body":"Your courier is 5 minutes away"},"sound":"default"},"order":{"id":"1234","eta":300,"courier":"Alex"},"pad":"'
    local target=200 pad
    pad=$((target - ${#base} - 2))
    printf '%s%s"}' "$base" "$(printf '%*s' "$pad" '' | tr ' ' 'x')" >"$BODY"
}
make_body

# ---------------------------------------------------------------------------------------------------------------
# mock-apns: release build in its own scratch folder (.build-bench), so it never fights the debug builds
# ---------------------------------------------------------------------------------------------------------------
build_mock() {
    if [[ -n ${MOCK_APNS_BIN:-} ]]; then
        [[ -x $MOCK_APNS_BIN ]] || die "MOCK_APNS_BIN=$MOCK_APNS_BIN is not an executable"
        say "bench: using MOCK_APNS_BIN=$MOCK_APNS_BIN (no build)"
        return
    fi
    need swift "the Swift toolchain (see README.md)"
    say "bench: swift build -c release --product mock-apns --scratch-path .build-bench"
    local attempt
    for attempt in 1 2 3; do
        if swift build -c release --product mock-apns --scratch-path .build-bench >"$TMP/build.log" 2>&1; then
            break
        fi
        # A source saved while the build runs makes swift-build stop ("was modified during the build"): retry.
        if grep -q 'modified during the build' "$TMP/build.log" && ((attempt < 3)); then
            say "bench: a source changed during the build; building again"
            continue
        fi
        cat "$TMP/build.log" >&2
        die "release build failed"
    done
    MOCK_APNS_BIN="$ROOT/.build-bench/release/mock-apns"
    [[ -x $MOCK_APNS_BIN ]] || die "the build did not produce $MOCK_APNS_BIN"
}

MOCK_PORT=""
# wait_ready LABEL PID OUT ERR — waits up to 30 s for a started `serve` to print 'ready' on OUT; dies, showing its
# output, when it exits or does not.
wait_ready() {
    local label=$1 pid=$2 out=$3 err=$4 i
    for ((i = 0; i < 300; i++)); do
        grep -qx 'ready' "$out" 2>/dev/null && return
        kill -0 "$pid" 2>/dev/null || { cat "$out" "$err" >&2; die "$label exited at start"; }
        sleep 0.1
    done
    cat "$err" >&2
    die "$label did not print 'ready' within 30 s"
}

# start_mock [floor|baseline] — sets MOCK_PID and MOCK_PORT (FLOOR_PID and FLOOR_PORT with floor, BASELINE_PID and
# BASELINE_PORT with baseline: BASELINE_BIN, started without the flags it may not know), and JWT
start_mock() {
    local name=${1:-mock} port pid floor=0 bin=$MOCK_APNS_BIN channels=(--channels-port 0)
    [[ $name == floor ]] && floor=1
    # A build from before the broadcast channels (issue 24) has no --channels-port.
    [[ $name == baseline ]] && bin=$BASELINE_BIN && channels=()
    port=$(free_port)
    # shellcheck disable=SC2086  # MOCK_APNS_ARGS is a list of words on purpose
    MOCK_APNS_BENCH_FLOOR=$floor "${SERVER_ON[@]}" "$bin" serve --port "$port" --control-port 0 "${channels[@]}" \
        --log-level warning --journal-capacity 100000 $MOCK_APNS_ARGS >"$TMP/$name.out" 2>"$TMP/$name.err" &
    pid=$!
    SERVER_PIDS+=("$pid")
    wait_ready "mock-apns ($name)" "$pid" "$TMP/$name.out" "$TMP/$name.err"
    case $name in
        floor) FLOOR_PID=$pid FLOOR_PORT=$port ;;
        baseline) BASELINE_PID=$pid BASELINE_PORT=$port ;;
        *) MOCK_PID=$pid MOCK_PORT=$port ;;
    esac
    # Tokens come from this build for every server (the same embedded test key; an old build may lack --issued-at).
    JWT=$("$MOCK_APNS_BIN" token)
    [[ $JWT == *.*.* ]] || die "mock-apns token printed no JWT: $JWT"
}

start_nghttpd() {  # sets NGHTTPD_PID, NGHTTPD_PORT
    local docroot="$TMP/htdocs"
    mkdir -p "$docroot/3/device"
    : >"$docroot$REQUEST_PATH"   # nghttpd answers a POST to an existing file with 200 and no body
    NGHTTPD_PORT=$(free_port)
    "${SERVER_ON[@]}" nghttpd -a 127.0.0.1 -d "$docroot" -m 1000 -W 24 "$NGHTTPD_PORT" \
        certs/server.key certs/server.pem >"$TMP/nghttpd.out" 2>&1 &
    NGHTTPD_PID=$!
    SERVER_PIDS+=("$NGHTTPD_PID")
    local i
    for ((i = 0; i < 100; i++)); do
        ss -Htln "sport = :$NGHTTPD_PORT" 2>/dev/null | grep -q . && return
        kill -0 "$NGHTTPD_PID" 2>/dev/null || { cat "$TMP/nghttpd.out" >&2; die "nghttpd exited at start"; }
        sleep 0.1
    done
    die "nghttpd did not listen on $NGHTTPD_PORT within 10 s"
}

# ---------------------------------------------------------------------------------------------------------------
# Measuring
# ---------------------------------------------------------------------------------------------------------------
H2LOAD_HEADERS=()
set_headers() {
    H2LOAD_HEADERS=(-H 'apns-topic: com.example.app' -H 'apns-push-type: alert' -H 'apns-priority: 10'
        -H "authorization: bearer $JWT")
}

check_200() {  # check_200 NAME PORT — one curl POST must answer 200, else the bench would measure errors
    local name=$1 port=$2 status
    status=$(curl -sS -o "$TMP/curl.body" -w '%{http_code}' --http2 --cacert certs/ca.pem --max-time 10 \
        "${H2LOAD_HEADERS[@]}" --data-binary "@$BODY" "https://127.0.0.1:$port$REQUEST_PATH") ||
        die "$name: curl failed"
    [[ $status == 200 ]] || die "$name answers $status, not 200: $(cat "$TMP/curl.body")"
}

cpu_ticks() {  # utime + stime of a whole process (all threads), in clock ticks
    local stat fields
    stat=$(<"/proc/$1/stat")
    read -r -a fields <<<"${stat##*) }"   # fields[0] is field 3 (state); utime is field 14, stime 15
    echo $((fields[11] + fields[12]))
}
status_kb() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }   # status_kb PID VmHWM|VmRSS

# run_h2load PID PORT CLIENTS STREAMS REQUESTS LOGFILE|"" → prints
#   "rps ok2xx n4xx n5xx done errored cpu_us_per_req elapsed_s"
run_h2load() {
    local pid=$1 port=$2 c=$3 m=$4 n=$5 log=$6 out="$TMP/h2load.out" before after rc=0
    local logargs=()
    if [[ -n $log ]]; then
        rm -f "$log"   # h2load appends to its log file
        logargs=(--log-file "$log")
    fi
    before=$(cpu_ticks "$pid")
    "${CLIENT_ON[@]}" timeout --signal=INT "$RUN_TIMEOUT" h2load -t "$H2LOAD_THREADS" -c "$c" -m "$m" -n "$n" \
        -d "$BODY" "${H2LOAD_HEADERS[@]}" "${logargs[@]}" "https://127.0.0.1:$port$REQUEST_PATH" >"$out" 2>&1 || rc=$?
    after=$(cpu_ticks "$pid")
    if ((rc != 0)); then
        tail -20 "$out" >&2
        ((rc == 124)) && die "h2load took longer than RUN_TIMEOUT=${RUN_TIMEOUT}s (-c$c -m$m -n$n)"
        die "h2load failed (exit $rc)"
    fi
    kill -0 "$pid" 2>/dev/null || die "the server died during the run"
    awk -v ticks=$((after - before)) -v tck="$CLK_TCK" '
        /^finished in/ {
            t = $3; sub(/,$/, "", t)
            if (t ~ /ms$/) { sub(/ms$/, "", t); t /= 1000 } else if (t ~ /us$/) { sub(/us$/, "", t); t /= 1e6 } else { sub(/s$/, "", t) }
            elapsed = t; h2rps = $4
        }
        /^requests:/ { done = $6; succeeded = $8; errored = $12 }
        /^status codes:/ { ok = $3; c4 = $7; c5 = $9 }
        END {
            if (elapsed <= 0 || done == "") { print "h2load output not understood" > "/dev/stderr"; exit 1 }
            # h2load prints req/s as succeeded / duration (more digits than its "finished in"); count only 2xx.
            rps = (succeeded > 0) ? h2rps * ok / succeeded : ok / elapsed
            printf "%.0f %d %d %d %d %d %.2f %.2f\n", rps, ok, c4, c5, done, errored,
                (done > 0 ? ticks * 1e6 / tck / done : 0), elapsed
        }' "$out"
}

percentiles() {  # percentiles LOGFILE → "p50_ms p99_ms" over answered requests (status > 0)
    awk '$2 > 0 { print $3 }' "$1" | sort -n | awk '
        { v[NR] = $1 }
        END {
            if (NR == 0) { print "- -"; exit }
            i50 = int(NR * 0.50 + 0.999999); i99 = int(NR * 0.99 + 0.999999)
            printf "%.2f %.2f\n", v[i50] / 1000, v[i99] / 1000
        }'
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# ---------------------------------------------------------------------------------------------------------------
# Soak: 5 million requests to mock-apns, RSS sampled
# ---------------------------------------------------------------------------------------------------------------
# soak_load OUT → starts the soak's h2load in the background and sets SOAK_LOAD_PID. With SOAK_TOKENS, the traffic is
# the realistic mix (bench/realistic.sh) over SOAK_TOKENS distinct tokens: one h2load per payload kind, all at once
# (as in the realistic table), each with SOAK_CLIENTS / 4 connections (at least one), so that every phone meets
# every kind early and no record shares its request with the one before it. The workers run for the same duration
# (-D, SOAK_N / SOAK_RATE seconds), each at its share of SOAK_RATE (--rps per connection), so the mix the journal
# holds is the same from the first minute to the last; their outputs go to OUT.NAME and, together, to OUT.
soak_load() {
    local out=$1
    if [[ -z $SOAK_TOKENS ]]; then
        "${CLIENT_ON[@]}" timeout --signal=INT $((RUN_TIMEOUT * 12)) h2load -t "$H2LOAD_THREADS" -c "$SOAK_CLIENTS" \
            -m "$SOAK_STREAMS" -n "$SOAK_N" -d "$BODY" "${H2LOAD_HEADERS[@]}" \
            "https://127.0.0.1:$MOCK_PORT$REQUEST_PATH" >"$out" 2>&1 &
        SOAK_LOAD_PID=$!
        return
    fi
    local uris="$TMP/uris-$SOAK_TOKENS-soak" clients=$((SOAK_CLIENTS / ${#REALISTIC_KINDS[@]}))
    ((clients > 0)) || clients=1
    { echo "https://127.0.0.1:$MOCK_PORT$(head -1 "$TMP/uris-$SOAK_TOKENS")"; tail -n +2 "$TMP/uris-$SOAK_TOKENS"; } >"$uris"
    (
        local kind name share type topic priority body rc=0 pids=() w rps
        for kind in "${REALISTIC_KINDS[@]}"; do
            read -r name share type topic priority body <<<"$kind"
            rps=$((SOAK_RATE * share / 100 / clients))
            "${CLIENT_ON[@]}" timeout --signal=INT $((SOAK_DURATION + 120)) h2load -t "$H2LOAD_THREADS" \
                -c "$clients" -m "$SOAK_STREAMS" -D "$SOAK_DURATION" --rps "$rps" -i "$uris" -d "$body" \
                -H "apns-topic: $topic" -H "apns-push-type: $type" -H "apns-priority: $priority" \
                -H "authorization: bearer $JWT" >"$out.$name" 2>&1 &
            pids+=($!)
        done
        for w in "${pids[@]}"; do wait "$w" || rc=$?; done
        cat "$out".* >"$out"
        exit "$rc"
    ) &
    SOAK_LOAD_PID=$!
}

# soak_mix OUT → the mix actually sent, one row per kind, from each worker's h2load output (OUT.NAME): a constant
# mix needs every worker to have kept its rate to the end; one that fell short says the rate is above capacity.
soak_mix() {
    local out=$1 kind name share total=0 sent
    for kind in "${REALISTIC_KINDS[@]}"; do
        read -r name _ <<<"$kind"
        sent=$(awk '/^requests:/ { print $6 }' "$out.$name")
        total=$((total + sent))
    done
    echo
    echo "| kind | share asked | requests done | share sent | req/s | 2xx | 4xx | 5xx | errored |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    for kind in "${REALISTIC_KINDS[@]}"; do
        read -r name share _ <<<"$kind"
        awk -v name="$name" -v share="$share" -v total="$total" -v duration="$SOAK_DURATION" '
            /^requests:/ { done_ = $6; errored = $12 }
            /^status codes:/ { ok = $3; c4 = $7; c5 = $9 }
            END {
                printf "| %s | %d %% | %d | %.2f %% | %.0f | %d | %d | %d | %d |\n", name, share, done_,
                    (total > 0 ? done_ * 100 / total : 0), done_ / duration, ok, c4, c5, errored
                if (total > 0 && (done_ * 100 / total - share > 1 || share - done_ * 100 / total > 1))
                    printf "WARNING: %s sent %.2f %% of the requests, not %d %%: lower SOAK_RATE\n", name,
                        done_ * 100 / total, share >>warnings
            }' warnings="$TMP/soak-warnings" "$out.$name"
    done
    echo
    awk -v total="$total" -v n="$SOAK_N" 'BEGIN {
        printf "requests done: %d of the %d asked (%.1f %%)\n", total, n, total * 100 / n
        if (total < n * 0.95) print "WARNING: fewer than 95 % of SOAK_N: the server did not keep up with SOAK_RATE"
    }' >>"$TMP/soak-warnings"
    cat "$TMP/soak-warnings"
}

soak() {
    # What the settings allow is checked before the build.
    if [[ -n $SOAK_TOKENS ]]; then
        ((SOAK_N >= SOAK_RATE)) || die "SOAK_N=$SOAK_N is less than one second at SOAK_RATE=$SOAK_RATE"
        SOAK_DURATION=$(((SOAK_N + SOAK_RATE - 1) / SOAK_RATE))
        REALISTIC_DEFINE_ONLY=1
        # shellcheck source=bench/realistic.sh
        source "$ROOT/bench/realistic.sh"
        local kind name share clients=$((SOAK_CLIENTS / ${#REALISTIC_KINDS[@]}))
        ((clients > 0)) || clients=1
        for kind in "${REALISTIC_KINDS[@]}"; do
            read -r name share _ <<<"$kind"
            ((SOAK_RATE * share / 100 / clients > 0)) ||
                die "SOAK_RATE=$SOAK_RATE gives $name's $clients connections less than a request per second each"
        done
    fi
    build_mock
    start_mock
    set_headers
    check_200 mock-apns "$MOCK_PORT"
    local idle_kb
    idle_kb=$(status_kb "$MOCK_PID" VmRSS)
    if [[ -n $SOAK_TOKENS ]]; then
        realistic_bodies
        realistic_tokens "$SOAK_TOKENS"
    fi
    say "bench: warm-up, $WARMUP_N requests"
    run_h2load "$MOCK_PID" "$MOCK_PORT" 4 100 "$WARMUP_N" "" >/dev/null
    local start_kb samples="$TMP/rss.samples" t0 hpid rc=0 out="$TMP/soak.out"
    start_kb=$(status_kb "$MOCK_PID" VmRSS)
    say "bench: soak, $SOAK_N requests at -c$SOAK_CLIENTS -m$SOAK_STREAMS$(
        [[ -n $SOAK_TOKENS ]] && echo ", realistic mix over $SOAK_TOKENS tokens at $SOAK_RATE req/s for \
${SOAK_DURATION}s"); RSS every ${SOAK_INTERVAL}s"
    local before after
    before=$(cpu_ticks "$MOCK_PID")
    t0=$(date +%s)
    soak_load "$out"
    hpid=$SOAK_LOAD_PID
    printf '%s %s\n' 0 "$start_kb" >"$samples"
    while kill -0 "$hpid" 2>/dev/null; do
        sleep "$SOAK_INTERVAL"
        kill -0 "$MOCK_PID" 2>/dev/null || die "mock-apns died during the soak"
        printf '%s %s\n' $(($(date +%s) - t0)) "$(status_kb "$MOCK_PID" VmRSS)" >>"$samples"
        printf '  %4ss  RSS %6.1f MiB  %s\n' $(($(date +%s) - t0)) \
            "$(awk -v k="$(status_kb "$MOCK_PID" VmRSS)" 'BEGIN { print k / 1024 }')" \
            "$(grep -ho 'progress: [0-9]*% done' "$out"* 2>/dev/null | tail -1)" >&2
    done
    wait "$hpid" || rc=$?
    after=$(cpu_ticks "$MOCK_PID")
    ((rc == 0)) || { tail -20 "$out" >&2; die "h2load failed during the soak (exit $rc)"; }
    printf '%s %s\n' $(($(date +%s) - t0)) "$(status_kb "$MOCK_PID" VmRSS)" >>"$samples"
    local peak_kb
    peak_kb=$(status_kb "$MOCK_PID" VmHWM)
    echo
    echo "## Soak: $SOAK_N requests to mock-apns (-c$SOAK_CLIENTS -m$SOAK_STREAMS, journal capacity 100000$(
        [[ -n $SOAK_TOKENS ]] && echo "; the realistic mix over $SOAK_TOKENS distinct tokens, every kind at its share of \
$SOAK_RATE req/s for ${SOAK_DURATION}s"))"
    if [[ -n $SOAK_TOKENS ]]; then
        soak_mix "$out"
    else
        echo
        grep -E '^(finished in|requests:|status codes:)' "$out"
    fi
    awk -v ticks=$((after - before)) -v tck="$CLK_TCK" '/^requests:/ { n += $6 } END { printf "server CPU: %.2f µs per request\n", ticks * 1e6 / tck / n }' "$out"
    # Flat: after the first quarter (the journal is full after its first 100000 records), RSS grows by at most
    # 10 % or 16 MiB, whichever is larger. The slope is a least-squares fit over the last three quarters.
    awk -v start="$start_kb" -v peak="$peak_kb" -v idle="$idle_kb" \
        -v held=$(((SOAK_N / 4 + WARMUP_N) < 100000 ? SOAK_N / 4 + WARMUP_N : 100000)) '
        { t[NR] = $1; r[NR] = $2 }
        END {
            n = NR; last = t[n]; q = 0
            for (i = 1; i <= n; i++) if (t[i] >= last / 4) { q = i; break }
            base = r[q]; end_ = r[n]
            sx = sy = sxx = sxy = k = 0
            for (i = q; i <= n; i++) { k++; sx += t[i]; sy += r[i]; sxx += t[i] * t[i]; sxy += t[i] * r[i] }
            slope = (k > 1 && k * sxx - sx * sx != 0) ? (k * sxy - sx * sy) / (k * sxx - sx * sx) : 0
            growth = end_ - base; allowed = base * 0.10; if (allowed < 16384) allowed = 16384
            printf "RSS: start %.1f MiB (after warm-up), at 1/4 %.1f MiB, end %.1f MiB, peak (VmHWM) %.1f MiB\n",
                start / 1024, base / 1024, end_ / 1024, peak / 1024
            printf "RSS slope over the last three quarters: %+.1f KiB/s (%d samples)\n", slope, k
            printf "memory per record held: about %.0f bytes ((RSS at 1/4 - RSS before the first push) / %d records; the journal and the phones its pushes made)\n",
                (base - idle) * 1024 / held, held
            if (growth <= allowed) printf "memory stayed flat: YES (grew %+.1f MiB after the first quarter; allowed %.1f MiB)\n", growth / 1024, allowed / 1024
            else printf "memory stayed flat: NO (grew %+.1f MiB after the first quarter; allowed %.1f MiB)\n", growth / 1024, allowed / 1024
        }' "$samples"
    echo "RSS samples (seconds: MiB): $(awk '{ printf "%s%d: %.1f", (NR > 1 ? ", " : ""), $1, $2 / 1024 }' "$samples")"
    local ok sent
    ok=$(awk '/^status codes:/ { n += $3 } END { print n }' "$out")
    sent=$(awk '/^requests:/ { n += $2 } END { print n }' "$out")
    ((ok == sent)) || echo "note: $((sent - ok)) of $sent requests were not answered 2xx (see the lines above;" \
        "with SOAK_TOKENS 1 in 40 tokens is malformed on purpose)"
    if [[ -n $SOAK_TOKENS ]] && grep -q WARNING "$TMP/soak-warnings"; then
        die "the mix was not held to the end (WARNING above): lower SOAK_RATE and run again"
    fi
}

if [[ $SOAK == 1 ]]; then
    soak
    exit 0
fi
if [[ $RECORD_MEMORY == 1 ]]; then
    # shellcheck source=bench/record-memory.sh
    source "$ROOT/bench/record-memory.sh"
    exit 0
fi

# ---------------------------------------------------------------------------------------------------------------
# The comparison
# ---------------------------------------------------------------------------------------------------------------
[[ -z $BASELINE_BIN || -x $BASELINE_BIN ]] || die "BASELINE_BIN=$BASELINE_BIN is not an executable"
build_mock
if [[ -n $BASELINE_BIN ]]; then
    say "bench: baseline BASELINE_BIN=$BASELINE_BIN, measured beside this build"
fi
start_nghttpd
start_mock
((FLOOR == 1)) && start_mock floor
[[ -n $BASELINE_BIN ]] && start_mock baseline
set_headers
check_200 nghttpd "$NGHTTPD_PORT"
check_200 mock-apns "$MOCK_PORT"
((FLOOR == 1)) && check_200 floor "$FLOOR_PORT"
[[ -n $BASELINE_BIN ]] && check_200 baseline "$BASELINE_PORT"

# name clients streams requests
CONFIGS=("1x100 1 100 $N_C1" "4x100 4 100 $N_C4" "50x10 50 10 $N_C50")
SERVERS=(nghttpd mock-apns)
((FLOOR == 1)) && SERVERS+=(floor)
[[ -n $BASELINE_BIN ]] && SERVERS+=(baseline)
server_pid() {
    case $1 in nghttpd) echo "$NGHTTPD_PID" ;; floor) echo "$FLOOR_PID" ;; baseline) echo "$BASELINE_PID" ;;
        *) echo "$MOCK_PID" ;; esac
}
server_port() {
    case $1 in nghttpd) echo "$NGHTTPD_PORT" ;; floor) echo "$FLOOR_PORT" ;; baseline) echo "$BASELINE_PORT" ;;
        *) echo "$MOCK_PORT" ;; esac
}
# spread VALUES… → "min–max" of one server's runs, printed beside a median
spread() { printf '%s\n' "$@" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s–%s", lo, hi }'; }

say "bench: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)$(
    [[ $PIN == 1 ]] && echo ", servers on CPU $SERVER_CPU, h2load on CPU $CLIENT_CPU" || echo ", no pinning")"
say "bench: request POST $REQUEST_PATH, body $(wc -c <"$BODY") bytes, apns-topic/push-type/priority, bearer JWT"

for s in "${SERVERS[@]}"; do
    say "bench: warm-up $s, $WARMUP_N requests at 4x100"
    read -r rps ok c4 c5 done_ errored cpu elapsed < <(run_h2load "$(server_pid "$s")" "$(server_port "$s")" 4 100 "$WARMUP_N" "")
    ((ok > 0 && c4 == 0 && c5 == 0)) || die "$s warm-up: $ok 2xx, $c4 4xx, $c5 5xx, $errored errored — not measuring errors"
done

declare -A R   # R[server,config,field]
for cfg in "${CONFIGS[@]}"; do
    read -r name c m n <<<"$cfg"
    declare -A RUNS_RPS=() RUNS_CPU=()
    for ((rep = 1; rep <= REPEAT; rep++)); do
        for s in "${SERVERS[@]}"; do   # interleaved, so that a noisy neighbour hurts both alike
            read -r rps ok c4 c5 done_ errored cpu elapsed < <(run_h2load "$(server_pid "$s")" "$(server_port "$s")" "$c" "$m" "$n" "")
            say "$(printf '  %-6s %-9s run %d: %8s req/s  %6s µs CPU/req  %s 2xx  %s 4xx  %s 5xx  %s errored  %ss' \
                "$name" "$s" "$rep" "$rps" "$cpu" "$ok" "$c4" "$c5" "$errored" "$elapsed")"
            RUNS_RPS[$s]+="$rps "
            RUNS_CPU[$s]+="$cpu "
            R[$s,$name,ok]=$((${R[$s,$name,ok]:-0} + ok))
            R[$s,$name,c45]=$((${R[$s,$name,c45]:-0} + c4 + c5))
            R[$s,$name,errored]=$((${R[$s,$name,errored]:-0} + errored))
            R[$s,$name,done]=$((${R[$s,$name,done]:-0} + done_))
        done
    done
    for s in "${SERVERS[@]}"; do
        # shellcheck disable=SC2086
        R[$s,$name,rps]=$(median ${RUNS_RPS[$s]})
        # shellcheck disable=SC2086
        R[$s,$name,cpu]=$(median ${RUNS_CPU[$s]})
        # shellcheck disable=SC2086
        R[$s,$name,cpus]=$(spread ${RUNS_CPU[$s]})
        # Latency in a separate run: h2load's per-request log costs it a write(2) per request, which would
        # lower the throughput it can drive (most for the faster server).
        lat_n=$((n / 2))
        read -r rps ok c4 c5 done_ errored cpu elapsed < <(run_h2load "$(server_pid "$s")" "$(server_port "$s")" "$c" "$m" "$lat_n" "$TMP/$s.log")
        read -r "R[$s,$name,p50]" "R[$s,$name,p99]" < <(percentiles "$TMP/$s.log")
        say "$(printf '  %-6s %-9s latency run (%d requests, --log-file): p50 %s ms  p99 %s ms  %s errored' \
            "$name" "$s" "$lat_n" "${R[$s,$name,p50]}" "${R[$s,$name,p99]}" "$errored")"
        R[$s,$name,ok]=$((${R[$s,$name,ok]} + ok))
        R[$s,$name,c45]=$((${R[$s,$name,c45]} + c4 + c5))
        R[$s,$name,errored]=$((${R[$s,$name,errored]} + errored))
        R[$s,$name,done]=$((${R[$s,$name,done]} + done_))
        R[$s,$name,hwm]=$(status_kb "$(server_pid "$s")" VmHWM)
    done
    unset RUNS_RPS RUNS_CPU
done

# ---------------------------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------------------------
TABLE="$TMP/table.md"
{
    echo "| config | server | req/s | p50 ms | p99 ms | CPU µs/req | peak RSS MiB | 2xx | 4xx+5xx | errored |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    for cfg in "${CONFIGS[@]}"; do
        read -r name c m n <<<"$cfg"
        for s in "${SERVERS[@]}"; do
            printf '| %s | %s | %s | %s | %s | %s | %.1f | %s | %s | %s |\n' "$name" "$s" "${R[$s,$name,rps]}" \
                "${R[$s,$name,p50]}" "${R[$s,$name,p99]}" "${R[$s,$name,cpu]}" \
                "$(awk -v k="${R[$s,$name,hwm]}" 'BEGIN { print k / 1024 }')" \
                "${R[$s,$name,ok]}" "${R[$s,$name,c45]}" "${R[$s,$name,errored]}"
        done
    done
    echo
    echo "| config | req/s mock/nghttpd | CPU/req mock/nghttpd | target (1x100, 4x100) |"
    echo "|---|---:|---:|---|"
    for cfg in "${CONFIGS[@]}"; do
        read -r name c m n <<<"$cfg"
        awk -v name="$name" -v mr="${R[mock-apns,$name,rps]}" -v nr="${R[nghttpd,$name,rps]}" \
            -v mc="${R[mock-apns,$name,cpu]}" -v nc="${R[nghttpd,$name,cpu]}" 'BEGIN {
                rr = mr / nr; cr = (nc > 0 ? mc / nc : 0)
                verdict = (name == "50x10") ? "(not a target)" : \
                    ((rr >= 0.8 && cr <= 1.25) ? "met" : "MISSED (needs req/s ≥ 0.80×, CPU/req ≤ 1.25×)")
                printf "| %s | %.2f× | %.2f× | %s |\n", name, rr, cr, verdict
            }'
    done
    if ((FLOOR == 1)); then
        echo
        echo "| config | CPU µs/req: floor | nghttpd | mock-apns | mock-apns above the floor |"
        echo "|---|---:|---:|---:|---:|"
        for cfg in "${CONFIGS[@]}"; do
            read -r name c m n <<<"$cfg"
            awk -v name="$name" -v f="${R[floor,$name,cpu]}" -v nc="${R[nghttpd,$name,cpu]}" \
                -v mc="${R[mock-apns,$name,cpu]}" 'BEGIN { printf "| %s | %s | %s | %s | %.2f |\n", name, f, nc, mc, mc - f }'
        done
    fi
    if [[ -n $BASELINE_BIN ]]; then
        echo
        echo "| config | CPU µs/req: this build (runs) | baseline (runs) | this build / baseline |" \
            "req/s this / baseline |"
        echo "|---|---:|---:|---:|---:|"
        for cfg in "${CONFIGS[@]}"; do
            read -r name c m n <<<"$cfg"
            awk -v name="$name" -v mc="${R[mock-apns,$name,cpu]}" -v bc="${R[baseline,$name,cpu]}" \
                -v ms="${R[mock-apns,$name,cpus]}" -v bs="${R[baseline,$name,cpus]}" \
                -v mr="${R[mock-apns,$name,rps]}" -v br="${R[baseline,$name,rps]}" 'BEGIN {
                    printf "| %s | %s (%s) | %s (%s) | %.3f× | %.2f× |\n", name, mc, ms, bc, bs,
                        (bc > 0 ? mc / bc : 0), (br > 0 ? mr / br : 0)
                }'
        done
    fi
} >"$TABLE"

echo
echo "## mock-apns vs nghttpd ($(date -u +%Y-%m-%d), $(nproc) CPUs, $(
    [[ $PIN == 1 ]] && echo "server pinned to CPU $SERVER_CPU, h2load to CPU $CLIENT_CPU" || echo "no pinning"),\
 median of $REPEAT runs)"
echo
cat "$TABLE"
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) (anything well above 1 means other work shared the CPUs)"
for cfg in "${CONFIGS[@]}"; do
    read -r name c m n <<<"$cfg"
    e=${R[mock-apns,$name,errored]}
    if ((e > 0)); then
        limit=$(((REPEAT + 1) * c * (m - 1)))
        if ((e <= limit)); then
            echo "note: mock-apns $name: $e requests errored (at most $limit could be first-burst refusals: a token" \
                "connection allows 1 stream until its first valid JWT, as APNs does, and nghttp2 answers the streams" \
                "h2load sent before seeing that SETTINGS with RST_STREAM REFUSED_STREAM; h2load does not retry)"
        else
            echo "WARNING: mock-apns $name: $e requests errored — more than first-burst refusals can explain ($limit)"
        fi
    fi
    for s in "${SERVERS[@]}"; do
        ((${R[$s,$name,c45]} == 0)) || echo "WARNING: $s $name: ${R[$s,$name,c45]} answers were 4xx/5xx"
    done
done
e=0
for cfg in "${CONFIGS[@]}"; do read -r name _ <<<"$cfg"; e=$((e + ${R[nghttpd,$name,errored]})); done
((e == 0)) || echo "WARNING: nghttpd: $e requests errored"

mkdir -p "$RESULTS_DIR"
cp "$TABLE" "$RESULTS_DIR/latest.md"
say "bench: table written to $RESULTS_DIR/latest.md"

if [[ $REALISTIC == 1 ]]; then
    # shellcheck source=bench/realistic.sh
    source "$ROOT/bench/realistic.sh" | tee "$RESULTS_DIR/realistic.md"
    say "bench: realistic-traffic table written to $RESULTS_DIR/realistic.md"
fi
