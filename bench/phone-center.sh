#!/usr/bin/env bash
# A phone with a long notification list (issue 23): h2load sends N alerts to one token of a running mock-apns, then
# the median of 5 answers of GET /v1/phones/{token} (curl's time_total) is printed, with the answer's size and the
# mock's peak memory. Issue 23 asks for under 50 ms at N = 10,000.
#
# Usage: bench/phone-center.sh [N]     (from the repository root; N defaults to 10000)
# Needs: h2load (nghttp2-client), curl, python3, and a build of mock-apns (MOCK_APNS=path; the default is the
# release build in .build-release: swift build -c release --product mock-apns --scratch-path .build-release).
set -euo pipefail

N=${1:-10000}
MOCK_APNS=${MOCK_APNS:-.build-release/release/mock-apns}
die() { printf 'bench/phone-center.sh: %s\n' "$*" >&2; exit 1; }
# shellcheck source=bench/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
whole_setting N 1 1000000
executable_setting MOCK_APNS
binary=$MOCK_APNS
work=$(mktemp -d)

"$binary" serve --port 0 --control-port 0 --log-level warning >"$work/banner" 2>&1 &
server=$!
cleanup() {
    kill -INT "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
await_ready "$work/banner" "$server"
apns_port=$(grep -o 'https://127.0.0.1:[0-9]*' "$work/banner" | head -1 | sed 's/.*://')
control=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/banner" | head -1)
device=$(printf '0123456789abcdef%.0s' 1 2 3 4)
printf '{"aps":{"alert":{"title":"Order ready","body":"On its way"},"thread-id":"orders","badge":1}}' \
    >"$work/body.json"

h2load -t 1 -c 1 -m 100 -n "$N" -d "$work/body.json" \
    -H 'apns-topic: com.example.app' -H 'apns-push-type: alert' -H "authorization: bearer $("$binary" token)" \
    "https://127.0.0.1:$apns_port/3/device/$device" | grep -E '^status codes:'

curl -s "$control/v1/phones/$device" >"$work/phone.json"
python3 - "$work/phone.json" <<'PY'
import json, sys
app = json.load(open(sys.argv[1]))["apps"][0]
print(f"notificationCount {app['notificationCount']}, listed {len(app['notifications'])}, threads {app['threads']}")
PY
median=$(for _ in 1 2 3 4 5; do
    curl -s -o /dev/null -w '%{time_total}\n' "$control/v1/phones/$device"
done | sort -n | sed -n 3p)
printf 'GET /v1/phones/{id}: median of 5 %s s, %s bytes\n' "$median" "$(wc -c <"$work/phone.json")"
printf 'peak memory %s\n' "$(grep VmHWM "/proc/$server/status" | tr -s ' ' | cut -d' ' -f2-)"
