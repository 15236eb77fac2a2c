#!/usr/bin/env bash
# The payload check in isolation (bench/README.md, "The JSON check alone"): builds bench/json/main.swift with the
# package's JSON sources as one optimised module (as a release build compiles them) and runs it.
# Usage: bench/json/run.sh [ROUNDS [SCALE [CASE]]]: ROUNDS (5) interleaved rounds, SCALE (1) divides the iteration
# counts, CASE keeps only the cases whose name contains it. AB_SOURCES="a.swift b.swift" compiles more files in,
# with -D AB, for an A/B: they must define `let abCases: [Case]`.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
ab=()
if [[ -n ${AB_SOURCES:-} ]]; then
    for file in $AB_SOURCES; do ab+=("$(realpath "$file")"); done
    ab=(-D AB "${ab[@]}")
fi
(cd "$work" && swiftc -O -wmo -module-name JSONBench -o "$work/json-bench" \
    "$root"/Sources/MockAPNs/JSON/*.swift "$root"/Sources/MockAPNs/Validation/Payload{Scan,Display,Shape,ShapeSink}.swift \
    "$root/bench/json/main.swift" "${ab[@]}")
"$work/json-bench" "$@"
