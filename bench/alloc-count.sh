#!/usr/bin/env bash
# bench/alloc-count.sh — heap allocations per push, by kind of push (issue 26). Timings on a shared machine swing by
# tens of per cent from one minute to the next; the number of malloc calls a push makes does not, so a change that
# saves an allocation shows here exactly, where bench/run.sh would need many paired rounds to see it.
#
# For each kind, a fresh release `mock-apns serve` runs with bench/alloc/count.c preloaded, which counts calls to
# malloc, calloc and posix_memalign (together: "alloc", and the bytes they asked for), free and realloc. ALLOC_N
# pushes warm it up and fill the journal (its capacity is ALLOC_N), then the calls made during ALLOC_N more pushes
# are divided by ALLOC_N. The journal is full during the counted pushes, as on a server that has run for a while, so
# each push also frees the record it drops: frees per push about equal to allocations per push means nothing is
# left behind.
#
# With RETAINS=1 it also counts calls to Swift's swift_retain and swift_release (perf uprobes on libswiftCore, so
# root and perf are needed): copies of large structs show there, as retains of every reference they hold.
#
# The kinds are bench/realistic.sh's (alert, background, liveactivity, large), each alone on 1,000 device tokens
# used in turn (1 in 40 not a device token), and `identical`: one alert payload to one token, the best case.
#
#   bench/alloc-count.sh                                   build (as bench/run.sh does) and count every kind
#   MOCK_APNS_BIN=path bench/alloc-count.sh background     count one kind of that binary
#   BASELINE_BIN=path MOCK_APNS_BIN=path bench/alloc-count.sh   both binaries, side by side
#   RETAINS=1 bench/alloc-count.sh alert                   and swift_retain / swift_release calls per push
#
# Settings: MOCK_APNS_BIN, BASELINE_BIN, RETAINS (0), ALLOC_N (20000), ALLOC_C and ALLOC_M (h2load's connections
# and streams per connection: 4 and 100). Needs h2load (nghttp2-client) and a C compiler.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
ALLOC_N=${ALLOC_N:-20000}
ALLOC_C=${ALLOC_C:-4}
ALLOC_M=${ALLOC_M:-100}
KINDS=("$@")
((${#KINDS[@]})) || KINDS=(identical alert background liveactivity large)
BENCH_NAME=bench/alloc-count.sh
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"

whole_setting ALLOC_N 1000 10000000
whole_setting ALLOC_C 1 1000
whole_setting ALLOC_M 1 1000
command -v h2load >/dev/null || die "needs h2load: apt-get install -y nghttp2-client"
CC=$(command -v cc || command -v clang || command -v gcc) || die "needs a C compiler (cc, clang or gcc)"
"$CC" -O2 -shared -fPIC -o "$TMP/count.so" bench/alloc/count.c || die "cannot build bench/alloc/count.c"

if [[ -z ${MOCK_APNS_BIN:-} ]]; then
    swift build -c release --product mock-apns --scratch-path .build-bench >&2
    MOCK_APNS_BIN="$ROOT/.build-bench/release/mock-apns"
fi
BINS=("$MOCK_APNS_BIN")
[[ -n ${BASELINE_BIN:-} ]] && BINS+=("$BASELINE_BIN")
for bin in "${BINS[@]}"; do [[ -x $bin ]] || die "$bin is not an executable"; done

RETAINS=${RETAINS:-0}
[[ $RETAINS == 0 || $RETAINS == 1 ]] || die "RETAINS must be 0 or 1, got '$RETAINS'"
RC_EVENTS=probe_libswiftCore:swift_retain,probe_libswiftCore:swift_release
if [[ $RETAINS == 1 ]]; then
    command -v perf >/dev/null || die "RETAINS=1 needs perf: apt-get install -y linux-perf"
    # The probes are named after the library, not the path: every binary must load the same libswiftCore.so.
    core=""
    for bin in "${BINS[@]}"; do
        libraries=$(ldd "$bin")
        loaded=$(grep -oE '/[^ ]*libswiftCore\.so' <<<"$libraries") || die "$bin does not load libswiftCore.so"
        [[ -z $core || $core == "$loaded" ]] ||
            die "RETAINS=1 needs one libswiftCore.so for both binaries; they load $core and $loaded"
        core=$loaded
    done
    for function in swift_retain swift_release; do
        # Added once per machine (perf keeps a probe until it is deleted); one kept on another path is refused.
        probe="probe_libswiftCore:$function"
        kept=$(perf probe -l 2>/dev/null | grep -F "$probe " || true)
        if [[ -n $kept ]]; then
            [[ $kept == *"$core"* ]] || die "$probe is on another library; remove it with: perf probe -d $probe"
        else
            perf probe -q -x "$core" -a "$function" 2>/dev/null ||
                die "cannot add a uprobe on $function in $core (root, and a kernel with uprobes, are needed)"
        fi
    done
fi

# The realistic kinds and tokens, from bench/realistic.sh (sourced for its functions only).
N_C4=$ALLOC_N RUN_TIMEOUT=300 REALISTIC_DEFINE_ONLY=1
# shellcheck source=bench/realistic.sh
source "$ROOT/bench/realistic.sh"
realistic_bodies
realistic_tokens 1000
printf '%s' '{"aps":{"alert":"hi"}}' >"$TMP/identical.json"
known=" identical "
for kind in "${REALISTIC_KINDS[@]}"; do read -r name _ <<<"$kind"; known+="$name "; done
for kind in "${KINDS[@]}"; do [[ $known == *" $kind "* ]] || die "unknown kind '$kind'; the kinds are:$known"; done

# count BIN KIND → sets COUNTED to "allocations frees reallocs bytes [retains releases]" per push, during the second
# ALLOC_N pushes. Run in this shell, not in $(…): its server and perf are in PIDS, for cleanup when it dies.
count() {
    local bin=$1 kind=$2 out="$TMP/serve.out" counts="$TMP/counts" name share type topic priority body jwt port pid
    local perf_pid="" rc="" help answered
    rm -f "$counts" "$TMP/rc"
    local ports=(--port 0 --control-port 0)
    # A build older than broadcast channels has no channels port.
    help=$("$bin" serve --help 2>&1) || true
    [[ $help == *--channels-port* ]] && ports+=(--channels-port 0)
    ALLOC_COUNT_OUT=$counts LD_PRELOAD=$TMP/count.so "$bin" serve "${ports[@]}" \
        --log-level warning --journal-capacity "$ALLOC_N" >"$out" 2>"$TMP/serve.err" &
    pid=$!
    PIDS+=("$pid")
    # The start banner's "APNs (HTTP/2 + TLS) … :PORT" line: older builds, for BASELINE_BIN, have no --ready-json.
    for _ in $(seq 300); do grep -q 'APNs (HTTP' "$out" 2>/dev/null && break; sleep 0.1; done
    port=$(grep 'APNs (HTTP' "$out" | grep -oE '[0-9]+$') ||
        die "$bin did not start: $(cat "$TMP/serve.err")"
    if [[ $kind == identical ]]; then
        type=alert topic=com.example.app priority=10 body=$TMP/identical.json
        echo "https://127.0.0.1:$port/3/device/$(printf '0123456789abcdef%.0s' 1 2 3 4)" >"$TMP/uris"
    else
        for entry in "${REALISTIC_KINDS[@]}"; do
            read -r name share type topic priority body <<<"$entry"
            [[ $name == "$kind" ]] && break
        done
        { echo "https://127.0.0.1:$port$(head -1 "$TMP/uris-1000")"; tail -n +2 "$TMP/uris-1000"; } >"$TMP/uris"
    fi
    jwt=$("$bin" token) || die "$bin token failed"
    for round in warm counted; do
        if [[ $round == counted && $RETAINS == 1 ]]; then
            perf stat -x, -e "$RC_EVENTS" -p "$pid" -o "$TMP/rc" >/dev/null 2>&1 &
            perf_pid=$!
            PIDS+=("$perf_pid")
            sleep 1  # perf attaches
        fi
        h2load -t 1 -c "$ALLOC_C" -m "$ALLOC_M" -n "$ALLOC_N" -i "$TMP/uris" -d "$body" -H "apns-topic: $topic" \
            -H "apns-push-type: $type" -H "apns-priority: $priority" -H "authorization: bearer $jwt" \
            >"$TMP/h2load.out" 2>&1 || die "h2load failed ($round, $kind): $(tail -3 "$TMP/h2load.out")"
        grep -qE "^requests: $ALLOC_N total, $ALLOC_N started, $ALLOC_N done" "$TMP/h2load.out" ||
            die "not every push was answered ($round, $kind): $(grep -E '^requests:' "$TMP/h2load.out")"
        # Accepted pushes, not rejections, are what is counted. A connection's first burst before its first valid JWT
        # is refused, as APNs does (at most ALLOC_M - 1 streams each), and 1 token in 40 is malformed (400): of the
        # rest, at least 90 % must be 2xx.
        answered=$(sed -nE 's/^status codes: ([0-9]+) 2xx.*/\1/p' "$TMP/h2load.out")
        [[ -n $answered ]] || die "h2load printed no status codes ($round, $kind)"
        ((answered * 10 >= (ALLOC_N - ALLOC_C * (ALLOC_M - 1)) * 9)) ||
            die "only $answered of $ALLOC_N pushes were accepted ($round, $kind): $(grep -E '^status' "$TMP/h2load.out")"
        sleep 0.3  # the journal file's writer and the answers' last frees settle
        kill -USR2 "$pid"
        sleep 0.2
    done
    if [[ -n $perf_pid ]]; then
        kill -INT "$perf_pid"
        wait "$perf_pid" 2>/dev/null || true
        rc=$(awk -F, -v n="$ALLOC_N" '/swift_retain/ { r = $1 } /swift_release/ { l = $1 }
            END { if (!(r > 0 && l > 0)) exit 1; printf " %.1f %.1f", r / n, l / n }' "$TMP/rc") ||
            die "perf counted no swift_retain or swift_release: $(cat "$TMP/rc")"
    fi
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    [[ $(wc -l <"$counts") == 2 ]] || die "the counter did not report twice (is LD_PRELOAD honoured?)"
    # The counter's line: malloc free realloc calloc memalign bytes. Allocations are malloc, calloc and memalign.
    COUNTED=$(awk -v n="$ALLOC_N" -v rc="$rc" 'NR == 1 { for (i = 1; i <= 6; i++) a[i] = $i }
        NR == 2 { printf "%.2f %.2f %.2f %.0f%s\n", ($1 + $4 + $5 - a[1] - a[4] - a[5]) / n, ($2 - a[2]) / n,
            ($3 - a[3]) / n, ($6 - a[6]) / n, rc }' "$counts")
}

say "heap calls per push, over $ALLOC_N pushes after $ALLOC_N warm-up ones (${ALLOC_C}x$ALLOC_M, journal full)"
# One group of columns per binary: the heap calls, then (RETAINS=1) the reference counting.
columns=(alloc free realloc bytes)
[[ $RETAINS == 1 ]] && columns+=(retain release)
header="| kind"
rule="|---"
for index in "${!BINS[@]}"; do
    prefix=""
    ((index == 0)) || prefix="baseline "
    for column in "${columns[@]}"; do
        header+=" | $prefix$column"
        rule+="|---:"
    done
done
echo "$header |"
echo "$rule|"
for kind in "${KINDS[@]}"; do
    row="| $kind"
    for bin in "${BINS[@]}"; do
        count "$bin" "$kind"
        for value in $COUNTED; do row+=" | $value"; done
    done
    echo "$row |"
done
