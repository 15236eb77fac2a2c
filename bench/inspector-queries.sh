#!/usr/bin/env bash
# The record routes the inspector pages and searches with, over a full journal: writes a journal file of N records
# (a run's two pushes, an accepted alert and a 400 BadDeviceToken, repeated with growing sequence numbers), opens it
# with `mock-apns inspect` (the same RecordRoutes as a live mock), and prints the median of 5 answers of each query
# (curl's time_total), then the inspector's peak memory. Give several binaries to compare them in one run.
#
# Usage: bench/inspector-queries.sh [BINARY ...]     (from the repository root; N=100000 by default)
# Needs: curl, python3, and a release build (scripts/install --build-only, or swift build -c release).
set -euo pipefail

N=${N:-100000}
binaries=("$@")
[[ ${#binaries[@]} -gt 0 ]] || binaries=(.build-release/release/mock-apns)
die() { printf 'bench/inspector-queries.sh: %s\n' "$*" >&2; exit 1; }
# shellcheck source=bench/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
whole_setting N 2 10000000
for binary in "${binaries[@]}"; do
    [[ -x $binary ]] || die "$binary is not an executable file: give mock-apns builds as arguments"
done
count=$N
work=$(mktemp -d)
server=
cleanup() {
    [[ -n $server ]] && kill "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

"${binaries[0]}" run --journal "$work/run.jsonl" -- sh -c "
    '${binaries[0]}' push $(printf '0123456789abcdef%.0s' 1 2 3 4) --alert hi >/dev/null
    '${binaries[0]}' push zz --alert hi >/dev/null; true" >/dev/null 2>&1
python3 - "$work/run.jsonl" "$work/journal.jsonl" "$count" <<'PYTHON'
import json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
with open(sys.argv[2], "w") as out:
    for index in range(int(sys.argv[3])):
        record = dict(records[index % len(records)], sequence=index + 1)
        out.write(json.dumps(record, separators=(",", ":")) + "\n")
PYTHON

queries=(
    "view=summary&limit=100"
    "view=summary&limit=100&olderThan=$((count / 2))"
    "view=summary&limit=100&q=status:4xx"
    "view=summary&limit=100&q=event:update"
    "view=summary&limit=100&q=reason:Nope"
    "view=summary&limit=100&q=%22nomatch%22"
)
for binary in "${binaries[@]}"; do
    "$binary" inspect "$work/journal.jsonl" --port 0 >"$work/banner" 2>&1 &
    server=$!
    await_ready "$work/banner" "$server" 60
    url=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/banner" | head -1)
    for query in "${queries[@]}"; do
        median=$(for _ in 1 2 3 4 5; do
            curl -s -o /dev/null -w '%{time_total}\n' "$url/v1/requests?$query"
        done | sort -n | sed -n 3p)
        printf '%s\t%s\t%s s\n' "$binary" "$query" "$median"
    done
    printf '%s\tpeak memory\t%s\n' "$binary" "$(grep VmHWM "/proc/$server/status" | tr -s ' ' | cut -d' ' -f2-)"
    kill "$server"
    wait "$server" 2>/dev/null || true
    server=
done
