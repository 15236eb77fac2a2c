#!/usr/bin/env bash
# bench/profile.sh — where mock-apns spends its CPU, by stage, under bench/run.sh's realistic traffic (issue 26
# item 2). It starts one release `mock-apns serve` (and, with FLOOR=1, a second with MOCK_APNS_BENCH_FLOOR=1),
# samples it with `perf record -g` while the realistic mix runs, and prints two tables: the server's CPU by library
# (the kernel, OpenSSL, nghttp2, libc, Swift's runtime, the binary) and by stage, each stage the inclusive share of
# the function that does it (STAGES below), in per cent and in µs per request. They are shares of the server's own
# CPU time, so a busy machine changes them less than it changes throughput.
#
#   bench/profile.sh                      build (as bench/run.sh does) and profile 1,000 tokens at 4x100
#   MOCK_APNS_BIN=path bench/profile.sh   profile that binary
#
# Settings: MOCK_APNS_BIN, PROFILE_TOKENS (1000), PROFILE_N (400000 per run), FLOOR (1), PIN (1), PROFILE_KEEP
# (a path prefix: keep perf's data files as PREFIX-mock-apns.data and PREFIX-floor.data).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
command -v perf >/dev/null || { echo "bench/profile.sh needs perf: apt-get install -y linux-perf" >&2; exit 1; }
PROFILE_TOKENS=${PROFILE_TOKENS:-1000}
PROFILE_N=${PROFILE_N:-400000}
FLOOR=${FLOOR:-1}
PIN=${PIN:-1}
BENCH_NAME=bench/profile.sh
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
whole_setting PROFILE_TOKENS 1 1000000
whole_setting PROFILE_N 1000 100000000
whole_setting FLOOR 0 1
whole_setting PIN 0 1
SERVER_ON=() CLIENT_ON=()
[[ $PIN == 1 ]] && SERVER_ON=(taskset -c 0) CLIENT_ON=(taskset -c 1)

if [[ -z ${MOCK_APNS_BIN:-} ]]; then
    swift build -c release --product mock-apns --scratch-path .build-bench >&2
    MOCK_APNS_BIN="$ROOT/.build-bench/release/mock-apns"
fi
[[ -x $MOCK_APNS_BIN ]] || die "MOCK_APNS_BIN=$MOCK_APNS_BIN is not an executable"

# The realistic kinds and tokens, from bench/realistic.sh (sourced for its functions only).
N_C4=$PROFILE_N RUN_TIMEOUT=300 REALISTIC_DEFINE_ONLY=1
# shellcheck source=bench/realistic.sh
source "$ROOT/bench/realistic.sh"
realistic_bodies
realistic_tokens "$PROFILE_TOKENS"

serve() {  # serve 0|1 → sets SERVE_PORT (the APNs port) and SERVE_PID
    local floor=$1 out="$TMP/serve-$1.out"
    MOCK_APNS_BENCH_FLOOR=$floor "${SERVER_ON[@]}" "$MOCK_APNS_BIN" serve --port 0 --control-port 0 \
        --channels-port 0 --log-level warning --journal-capacity 100000 --ready-json >"$out" 2>"$TMP/serve-$1.err" &
    SERVE_PID=$!
    PIDS+=("$SERVE_PID")
    for _ in $(seq 300); do grep -q apnsURL "$out" 2>/dev/null && break; sleep 0.1; done
    SERVE_PORT=$(grep -oE '"apnsURL":"https://127\.0\.0\.1:[0-9]+' "$out" | grep -oE '[0-9]+$') ||
        die "mock-apns did not start: $(cat "$TMP/serve-$1.err")"
}

load() {  # load PORT → the realistic mix at 4 connections x 100 streams, one h2load per kind, all at once
    local port=$1 kind name share type topic priority body jwt i=0 pids=()
    { echo "https://127.0.0.1:$port$(head -1 "$TMP/uris-$PROFILE_TOKENS")"; tail -n +2 "$TMP/uris-$PROFILE_TOKENS"; } >"$TMP/uris"
    for kind in "${REALISTIC_KINDS[@]}"; do
        read -r name share type topic priority body <<<"$kind"
        jwt=$("$MOCK_APNS_BIN" token --issued-at $(($(date +%s) - 60 * i)))
        "${CLIENT_ON[@]}" h2load -t 1 -c 1 -m 100 -n $((PROFILE_N * share / 100)) -i "$TMP/uris" -d "$body" \
            -H "apns-topic: $topic" -H "apns-push-type: $type" -H "apns-priority: $priority" \
            -H "authorization: bearer $jwt" >"$TMP/h2load-$name.out" 2>&1 &
        pids+=($!)
        i=$((i + 1))
    done
    for i in "${pids[@]}"; do wait "$i" || die "h2load failed: $(tail -3 "$TMP"/h2load-*.out)"; done
}

# Swift's symbols as source names (perf leaves them mangled).
demangle() { if command -v swift >/dev/null; then swift demangle --simplified; else cat; fi; }

# Stages: a label, " => ", then an extended regex; a stage's share is the inclusive ("children") share of the first
# symbol that matches, or, for a pattern that starts with "+", the sum of the matching symbols' inclusive shares
# (callbacks that never nest in each other).
STAGES='
read, decrypt, assemble, decide, record, answer  => APNsConnectionHandler\.channelRead\(
  HTTP/2 in, with the request assembly  => ^nghttp2_session_mem_recv$
    request assembly (nghttp2 callbacks)  => +^@objc on(Header|DataChunk|FrameReceived|BeginHeaders|StreamClose)\(
  the decisions and their delivery  => APNsConnectionHandler\.decideCompletedRequests\(
    decide: rules, JWT, JSON, phone  => MockAPNsEngine\.decide\(
      APNs rules and JWT (validate)  => APNsValidator\.validate\(
      the phone  => MockAPNsEngine\.phoneOutcome\(
    deliver: record, then answer  => APNsConnectionHandler\.deliver\(
      journal append  => Journal\.append\(contentsOf:\)
      answer headers  => HTTP2Session\.submitResponse\(
    freeing records the journal let go  => ^destroy for JournalRecord$
encrypt and write (flush)  => APNsConnectionHandler\.flush\(
'

# profile NAME FLOOR → runs the load under perf with call graphs (frame pointers) and prints the two tables' rows.
profile() {
    local name=$1 floor=$2 port pid
    serve "$floor"
    port=$SERVE_PORT pid=$SERVE_PID
    load "$port"   # warm-up: the journal fills, the phones exist
    perf record -q --call-graph dwarf,16384 -F 499 -p "$pid" -o "$TMP/$name.data" -- sleep 3600 2>/dev/null &
    local perf_pid=$!
    sleep 0.5
    local before after done_ us
    before=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
    load "$port"
    after=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
    kill -INT "$perf_pid"
    wait "$perf_pid" 2>/dev/null || true
    [[ -n ${PROFILE_KEEP:-} ]] && cp "$TMP/$name.data" "$PROFILE_KEEP-$name.data"
    done_=$(awk '/^requests:/ { n += $6 } END { print n }' "$TMP"/h2load-*.out)
    us=$(awk -v t=$((after - before)) -v n="$done_" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t * 1e6 / hz / n }')
    echo "$name: $us µs CPU per request over $done_ requests"
    echo
    echo "| $name: by library (self) | share | µs per request |"
    echo "|---|---:|---:|"
    perf report -i "$TMP/$name.data" --no-children --sort dso --stdio -q -g none 2>/dev/null |
        awk -v us="$us" '$1 ~ /%$/ {
            share = $1; sub(/%$/, "", share); dso = $2
            if (dso ~ /kernel/) d = "kernel"; else if (dso ~ /libssl|libcrypto/) d = "OpenSSL"
            else if (dso ~ /nghttp2/) d = "nghttp2"; else if (dso ~ /^libc|ld-linux/) d = "libc (malloc, memmove, ...)"
            else if (dso ~ /libswift|libFoundation|libdispatch/) d = "Swift runtime (retain, release, ...)"
            else d = "mock-apns, SwiftNIO and Foundation (the binary)"
            total[d] += share
        }
        END { for (d in total) printf "| %s | %.1f %% | %.2f |\n", d, total[d], total[d] * us / 100 }' | sort -t'|' -k3 -gr
    echo
    echo "| $name: by stage (inclusive) | share | µs per request |"
    echo "|---|---:|---:|"
    perf report -i "$TMP/$name.data" --children --sort sym --stdio -q -g none 2>/dev/null | demangle |
        awk -v stages="$STAGES" -v us="$us" '
            BEGIN {
                n = split(stages, lines, "\n")
                for (i = 1; i <= n; i++) {
                    if (lines[i] !~ / => /) continue
                    k++; p = index(lines[i], " => "); label[k] = substr(lines[i], 1, p - 1); sub(/ +$/, "", label[k])
                    pat[k] = substr(lines[i], p + 4)
                    sum[k] = (substr(pat[k], 1, 1) == "+"); if (sum[k]) pat[k] = substr(pat[k], 2)
                }
            }
            $1 ~ /%$/ {
                share = $1; sub(/%$/, "", share)
                sym = $0; sub(/^[^]]*\] /, "", sym)
                for (i = 1; i <= k; i++) {
                    if (sym !~ pat[i]) continue
                    if (sum[i]) got[i] += share; else if (!(i in got)) got[i] = share
                }
            }
            END {
                for (i = 1; i <= k; i++) {
                    indent = label[i]; gsub(/[^ ].*/, "", indent); gsub(/ /, "\\&nbsp;", indent); name = label[i]; sub(/^ +/, "", name)
                    printf "| %s%s | %.1f %% | %.2f |\n", indent, name, got[i], got[i] * us / 100
                }
            }'
    echo
}

say "bench/profile.sh: $PROFILE_N requests per run, $PROFILE_TOKENS tokens, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "## Where mock-apns's CPU goes: realistic traffic, $PROFILE_TOKENS tokens, 4x100 ($(date -u +%Y-%m-%d))"
echo
profile mock-apns 0
((FLOOR == 1)) && profile floor 1
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
