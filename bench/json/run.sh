#!/usr/bin/env bash
# The payload check in isolation (bench/README.md, "The JSON check alone"): builds bench/json/main.swift with the
# package's JSON sources in one optimised module and runs it. Usage: bench/json/run.sh [ROUNDS [SCALE]]
# (defaults 5 and 1; SCALE divides the iteration counts). AB_SOURCES="a.swift b.swift" compiles more files in, with
# -D AB, for an A/B: they must define `let abCases: [Case]`.
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${TMPDIR:-/tmp}/mock-apns-json-bench.$$"
trap 'rm -f "$out"' EXIT
ab=()
if [[ -n ${AB_SOURCES:-} ]]; then
    read -ra ab <<<"$AB_SOURCES"
    ab=(-D AB "${ab[@]}")
fi
swiftc -O -wmo -module-name JSONBench -o "$out" \
    Sources/MockAPNs/JSON/*.swift Sources/MockAPNs/Validation/PayloadCheck.swift bench/json/main.swift "${ab[@]}"
"$out" "$@"
