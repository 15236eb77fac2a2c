# shellcheck shell=bash
# bench/record-memory.sh — the journal's memory per record, for each payload kind alone (issue 26 item 3), sourced by
# bench/run.sh with RECORD_MEMORY=1, with its settings and functions. Not a script of its own.
#
# For each kind of bench/realistic.sh (alert, background, liveactivity, large), for a push rejected 400
# BadDeviceToken (63 hex digits) and for an identical push repeated (the alert to one token), a fresh release
# `serve` with the journal capped at 100,000 records: its RSS before the first push, then RECORD_FILLS rounds of
# RECORD_FILL pushes of that kind, every one to a device token of its own (one connection of 100 streams, tokens in
# order), its RSS and the records the journal holds (`GET /v1/requests?limit=1`) after each round. The first round
# fills the journal; in every later one each record held replaces an older one, so RSS should not grow. The figure,
# (RSS after the first round - RSS before) / records held, includes all that the pushes left behind: the implicit
# phones they kept (at most PhoneRegistry.implicitLimit, 10,000), the memory malloc keeps after the connection's
# buffers are freed, and the server's first-use growth (the identical push's row shows that floor). The "phones
# listed" column is `GET /v1/phones`'s count, read last: it lists a default phone for every token the records held
# reached, so it follows the journal, not the phones kept in memory.
#
# Settings: RECORD_FILL (100000, pushes per round), RECORD_FILLS (3, rounds); run.sh's MOCK_APNS_BIN, PIN,
# SERVER_CPU, CLIENT_CPU, MOCK_APNS_ARGS, RUN_TIMEOUT apply.

RECORD_FILL=${RECORD_FILL:-100000}
RECORD_FILLS=${RECORD_FILLS:-3}
RECORD_CAPACITY=100000

# 100000 or more fills the journal; the second round shows whether RSS grows.
whole_setting RECORD_FILL 1000 1000000
whole_setting RECORD_FILLS 2 10
command -v python3 >/dev/null 2>&1 || die "the per-record figures need python3 (apt-get install -y python3)"

# record_uris NAME ROUND KIND-OF-TOKEN(valid|malformed|one) PORT → writes $TMP/rm-NAME-ROUND.uris: RECORD_FILL paths,
# the first one a whole URL (h2load -i), each a token no other round or kind uses (or, with "one", the same token).
record_uris() {
    python3 - "$1" "$2" "$3" "$4" "$RECORD_FILL" "$TMP/rm-$1-$2.uris" <<'EOF'
import hashlib, sys
name, fill, kind, port, count, path = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6]
with open(path, "w") as out:
    for i in range(count):
        token = hashlib.sha256(f"{name}-{fill}-{i}".encode()).hexdigest()
        if kind == "one":
            token = hashlib.sha256(b"one").hexdigest()
        elif kind == "malformed":
            token = token[:63]  # an odd number of hex digits: 400 BadDeviceToken
        prefix = f"https://127.0.0.1:{port}" if i == 0 else ""
        out.write(f"{prefix}/3/device/{token}\n")
EOF
}

# record_server → starts a fresh mock-apns with a control port; sets RM_PID, RM_PORT, RM_CONTROL.
record_server() {
    RM_PORT=$(free_port)
    local control
    control=$(free_port)
    # shellcheck disable=SC2086  # MOCK_APNS_ARGS is a list of words on purpose
    "${SERVER_ON[@]}" "$MOCK_APNS_BIN" serve --port "$RM_PORT" --control-port "$control" --channels-port 0 \
        --log-level warning --journal-capacity "$RECORD_CAPACITY" $MOCK_APNS_ARGS >"$TMP/rm.out" 2>"$TMP/rm.err" &
    RM_PID=$!
    SERVER_PIDS+=("$RM_PID")
    RM_CONTROL="http://127.0.0.1:$control"
    wait_ready mock-apns "$RM_PID" "$TMP/rm.out" "$TMP/rm.err"
}

# record_held → "held dropped" from the journal (a page of one record: it allocates next to nothing).
record_held() {
    curl -sS --max-time 30 "$RM_CONTROL/v1/requests?limit=1&view=summary" | python3 -c '
import json, sys
j = json.load(sys.stdin)["journal"]
print(j["held"], j["dropped"])' || die "the control API did not answer GET /v1/requests"
}

# record_kind NAME TOKENS(valid|malformed|one) TYPE TOPIC PRIORITY BODY → one table row.
record_kind() {
    local name=$1 tokens=$2 type=$3 topic=$4 priority=$5 body=$6 round rc out="$TMP/rm-h2load.out"
    record_server
    sleep 1
    local rss0 rss=() held=() dropped=() answered=0 c4=0 errored=0 a b e
    rss0=$(status_kb "$RM_PID" VmRSS)
    for ((round = 1; round <= RECORD_FILLS; round++)); do
        record_uris "$name" "$round" "$tokens" "$RM_PORT"
        rc=0
        "${CLIENT_ON[@]}" timeout --signal=INT "$RUN_TIMEOUT" h2load -t 1 -c 1 -m 100 -n "$RECORD_FILL" \
            -i "$TMP/rm-$name-$round.uris" -d "$body" -H "apns-topic: $topic" -H "apns-push-type: $type" \
            -H "apns-priority: $priority" -H "authorization: bearer $JWT" >"$out" 2>&1 || rc=$?
        ((rc == 0)) || { tail -20 "$out" >&2; die "$name: h2load failed (exit $rc) in round $round"; }
        kill -0 "$RM_PID" 2>/dev/null || { cat "$TMP/rm.err" >&2; die "$name: the server died in round $round"; }
        read -r a b e < <(awk '/^status codes:/ { a = $3 + $7 + $9; b = $7 } /^requests:/ { e = $12 }
            END { print a, b, e }' "$out")
        answered=$((answered + a)) c4=$((c4 + b)) errored=$((errored + e))
        sleep 1   # let the connection's close free what it held before reading RSS
        rss+=("$(status_kb "$RM_PID" VmRSS)")
        read -r "held[$round]" "dropped[$round]" < <(record_held)
        say "$(printf '  %-14s round %d: RSS %7.1f MiB, journal holds %d (dropped %d)' "$name" "$round" \
            "$(awk -v k="${rss[-1]}" 'BEGIN { print k / 1024 }')" "${held[$round]}" "${dropped[$round]}")"
    done
    local phones hwm
    hwm=$(status_kb "$RM_PID" VmHWM)
    phones=$(curl -sS --max-time 60 "$RM_CONTROL/v1/phones" | python3 -c 'import json, sys; print(json.load(sys.stdin)["count"])') ||
        phones="?"
    kill "$RM_PID" 2>/dev/null || true
    wait "$RM_PID" 2>/dev/null || true
    local later="" i
    for ((i = 1; i < RECORD_FILLS; i++)); do
        if ((i > 1)); then later+=", "; fi
        later+=$(awk -v r="${rss[$i]}" -v f="${rss[0]}" 'BEGIN { printf "%+.1f", (r - f) / 1024 }')
    done
    awk -v name="$name" -v bytes="$(wc -c <"$body")" -v r0="$rss0" -v r1="${rss[0]}" -v held="${held[1]}" \
        -v last="${held[$RECORD_FILLS]}" -v later="$later" -v phones="$phones" -v hwm="$hwm" -v answered="$answered" \
        -v c4="$c4" -v errored="$errored" 'BEGIN {
            printf "| %s | %d | %.1f | %.1f | %d | %.0f | %s | %.1f | %s | %d / %d / %d |\n", name, bytes, r0 / 1024,
                r1 / 1024, held, (held > 0 ? (r1 - r0) * 1024 / held : 0), later, hwm / 1024, phones, answered, c4,
                errored
        }' >>"$TMP/rm-table.md"
}

build_mock
JWT=$("$MOCK_APNS_BIN" token)
[[ $JWT == *.*.* ]] || die "mock-apns token printed no JWT: $JWT"
REALISTIC_DEFINE_ONLY=1
# shellcheck source=bench/realistic.sh
source "$ROOT/bench/realistic.sh"
realistic_bodies
say "bench: memory per record, $RECORD_FILLS rounds of $RECORD_FILL pushes per kind, journal capacity $RECORD_CAPACITY$(
    [[ $PIN == 1 ]] && echo ", server on CPU $SERVER_CPU, h2load on CPU $CLIENT_CPU"); load average $(
    cut -d' ' -f1-3 /proc/loadavg)"
: >"$TMP/rm-table.md"
for kind in "${REALISTIC_KINDS[@]}"; do
    read -r name share type topic priority body <<<"$kind"
    record_kind "$name" valid "$type" "$topic" "$priority" "$body"
done
record_kind baddevicetoken malformed alert com.example.app 10 "$TMP/alert.json"
record_kind identical one alert com.example.app 10 "$TMP/alert.json"

echo
echo "## The journal's memory per record, each kind alone ($RECORD_FILLS rounds of $RECORD_FILL pushes, distinct tokens;" \
    "journal capacity $RECORD_CAPACITY)"
echo
echo "| kind | body bytes | RSS before MiB | after round 1 MiB | records held | bytes per record held |" \
    "RSS growth after rounds 2… MiB | peak MiB | phones listed | answered / 4xx / errored |"
echo "|---|---:|---:|---:|---:|---:|---|---:|---:|---|"
cat "$TMP/rm-table.md"
echo
echo "bytes per record held = (RSS after round 1 - RSS before the first push) / records the journal holds then;" \
    "it includes the implicit phones kept (at most 10,000), malloc's retained memory and the server's first-use" \
    "growth. phones listed = GET /v1/phones's count (a default phone per token the journal holds)."
echo "RSS growth after rounds 2… = RSS after each later round less RSS after round 1 (every record held then" \
    "replaced an older one; flat means no growth per record)."
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
