#!/usr/bin/env bash
# The cost of a journal record's JSON text (bench/README.md, "A record's JSON"): builds bench/record/main.swift with
# the record's sources as one optimised module (as a release build compiles them) and runs it.
# Usage: bench/record/run.sh [REV ...]: each REV's Sources (default: the working tree; `.` names it too), built
# once each, then run in turn for ROUNDS (3) interleaved rounds; each run prints its min of 5 loops.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
revs=("$@")
[[ ${#revs[@]} -gt 0 ]] || revs=(.)
# The record and what it is made of; ActivityHistoryEntry's and RuleFault's files reach into the activity registry
# and the scenario types, so stand-ins (Stubs.swift) replace them.
files=(JSON/*.swift Journal/JournalRecord.swift Journal/JournalRecord+JSON.swift Journal/JournalRecord+Payload.swift
    APNs/APNsRequest.swift APNs/APNsReason.swift APNs/APNsResponse.swift APNs/APNsIDGenerator.swift
    Validation/Verdict.swift Auth/AuthSummary.swift Time/Timestamp.swift Devices/DeviceOutcome.swift)
for i in "${!revs[@]}"; do
    rev="${revs[$i]}"
    src="$work/src$i"
    mkdir -p "$src"
    if [[ $rev == . ]]; then
        cp -R "$root/Sources/MockAPNs/." "$src/"
    else
        git -C "$root" archive "$rev" Sources/MockAPNs | tar -x -C "$src" --strip-components=2
    fi
    flags=()
    [[ -f $src/JSON/JSONMapping.swift ]] && flags=(-D MAPPED)
    (cd "$src" && swiftc -O -wmo -module-name RecordBench "${flags[@]}" -o "$work/bench$i" ${files[*]} \
        "$root/bench/record/Stubs.swift" "$root/bench/record/main.swift")
done
for round in $(seq "${ROUNDS:-3}"); do
    for i in "${!revs[@]}"; do echo "round $round ${revs[$i]}: $("$work/bench$i")"; done
done
