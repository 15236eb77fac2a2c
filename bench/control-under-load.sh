#!/usr/bin/env bash
# The control API under load: while h2load sends N pushes to a release build of mock-apns, sample the latency of
# GET /v1/stats and /healthz on the control port; afterwards check that the journal recorded exactly as many
# requests as h2load got answers (2xx + 4xx + 5xx).
#
# Usage: bench/control-under-load.sh [N] [CLIENTS]     (from the repository root; N defaults to 100000)
# Needs: h2load (nghttp2-client), curl, python3, and `swift build -c release --product mock-apns`.
set -euo pipefail

N=${1:-100000}
CLIENTS=${2:-4}
MOCK_APNS=${MOCK_APNS:-.build/release/mock-apns}
die() { printf 'bench/control-under-load.sh: %s\n' "$*" >&2; exit 1; }
# shellcheck source=bench/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
whole_setting N 1000 100000000
whole_setting CLIENTS 1 1000
executable_setting MOCK_APNS
binary=$MOCK_APNS
work=$(mktemp -d)

"$binary" serve --port 0 --control-port 0 --log-level warning >"$work/banner" 2>&1 &
server=$!
sampler=
cleanup() {
    [[ -n $sampler ]] && kill "$sampler" 2>/dev/null || true
    kill -INT "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
await_ready "$work/banner" "$server"
apns_port=$(grep -o 'https://127.0.0.1:[0-9]*' "$work/banner" | head -1 | sed 's/.*://')
control=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/banner" | head -1)
token=$("$binary" token)
device=$(printf '0123456789abcdef%.0s' 1 2 3 4)
printf '{"aps":{"alert":{"title":"load","body":"test"}}}' >"$work/body.json"

# Sample the control API every 20 ms for as long as the load runs.
(
    while :; do
        curl -s -o /dev/null -w 'stats %{time_total}\n' "$control/v1/stats" >>"$work/latency"
        curl -s -o /dev/null -w 'healthz %{time_total}\n' "$control/healthz" >>"$work/latency"
        sleep 0.02
    done
) &
sampler=$!

h2load -t 1 -c "$CLIENTS" -m 100 -n "$N" -d "$work/body.json" \
    -H 'apns-topic: com.example.app' -H 'apns-push-type: alert' -H "authorization: bearer $token" \
    "https://127.0.0.1:$apns_port/3/device/$device" >"$work/h2load"
kill "$sampler" 2>/dev/null || true
sampler=
sleep 0.2

grep -E '^finished in|^requests:|^status codes:' "$work/h2load"
curl -s "$control/v1/stats" >"$work/stats.json"
python3 - "$work/h2load" "$work/stats.json" "$work/latency" <<'PY'
import json, re, sys
h2load = open(sys.argv[1]).read()
codes = re.search(r"status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", h2load)
answered = sum(int(codes.group(i)) for i in (1, 2, 3, 4))
stats = json.load(open(sys.argv[2]))
print(f"answers seen by h2load: {answered}; journal recorded: {stats['total']} "
      f"({'equal' if answered == stats['total'] else 'DIFFERENT'})")
samples = {}
for line in open(sys.argv[3]):
    name, seconds = line.split()
    samples.setdefault(name, []).append(float(seconds) * 1000)
for name, values in samples.items():
    values.sort()
    pick = lambda q: values[min(len(values) - 1, int(q * len(values)))]
    print(f"control {name} during the load: {len(values)} calls, median {pick(0.5):.1f} ms, "
          f"p95 {pick(0.95):.1f} ms, max {values[-1]:.1f} ms")
sys.exit(0 if answered == stats["total"] else 1)
PY
