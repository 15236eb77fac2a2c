// The payload check in isolation: CPU time per check of the bench's payload and of 4 KB Live Activity updates,
// for each implementation compiled in, interleaved, min of the rounds. Built and run by bench/json/run.sh.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time of this thread, in nanoseconds (not wall time: a busy machine slows the loop, not the figure).
func threadCPUNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// A payload of about `size` bytes: a delivery Live Activity update with `stops` stops; `accent` puts non-ASCII
/// text (a French street name) in each stop, as a provider's localised strings would.
func liveActivityPayload(size: Int, accent: Bool) -> [UInt8] {
    var stops: [String] = []
    var text = ""
    repeat {
        let n = stops.count
        let street = accent ? "Rue de l’Église \(n)" : "\(100 + n) Market Street"
        stops.append(
            #"{"id":"stop-\#(n)","address":"\#(street)","eta":\#(1_800_000_000 + 300 * n),"#
                + #""done":\#(n % 3 == 0),"lat":37.77\#(n),"lng":-122.41\#(n),"note":"Leave at the door \"\#(n)\""}"#)
        text =
            #"{"aps":{"timestamp":1800000000,"event":"update","relevance-score":75.5,"stale-date":1800003600,"#
            + #""content-state":{"status":"out_for_delivery","driver":{"name":"Alex","rating":4.9,"vehicle":null},"#
            + #""progress":0.42,"stops":[\#(stops.joined(separator: ","))]},"#
            + #""alert":{"title":"Your order is on its way","body":"Alex is 5 minutes away"}},"order":"1234"}"#
    } while text.utf8.count < size
    return Array(text.utf8)
}

/// One measured case: a name and a loop that checks `inputs` alternately `iterations` times, returning a count the
/// optimiser cannot drop.
struct Case {
    var name: String
    var run: (_ inputs: [[UInt8]], _ iterations: Int) -> Int
    /// Whether the case may leave some valid payloads undecided (a quick check), and so count fewer.
    var mayDecline = false
}

/// `check` over `inputs` in turn (copies of one payload in separate storage, so no result can be hoisted).
@inline(__always)
func loop(_ inputs: [[UInt8]], _ iterations: Int, _ check: ([UInt8]) -> Bool) -> Int {
    var accepted = 0
    for i in 0..<iterations where check(inputs[i & 1]) { accepted += 1 }
    return accepted
}

@inline(never) func payloadScan(_ inputs: [[UInt8]], _ n: Int) -> Int {
    loop(inputs, n) { PayloadScan.problem($0) == nil }
}
@inline(never) func validate(_ inputs: [[UInt8]], _ n: Int) -> Int {
    loop(inputs, n) { (try? JSONParser.validate($0)) == true }
}
@inline(never) func parse(_ inputs: [[UInt8]], _ n: Int) -> Int {
    loop(inputs, n) { (try? JSONParser.parse($0)) != nil }
}

var cases = [
    Case(name: "PayloadScan.problem", run: payloadScan),
    Case(name: "JSONParser.validate", run: validate),
    Case(name: "JSONParser.parse", run: parse),
]
#if AB
cases += abCases  // from the files given in AB_SOURCES (run.sh): other implementations, for an A/B
#endif

let arguments = CommandLine.arguments
let rounds = arguments.count > 1 ? Int(arguments[1]) ?? 5 : 5
let scale = arguments.count > 2 ? max(1, Int(arguments[2]) ?? 1) : 1
if arguments.count > 3 { cases = cases.filter { $0.name.contains(arguments[3]) } }
let small = Array(#"{"aps":{"alert":{"title":"Hello","body":"A push from the bench"},"sound":"default"}}"#.utf8)
let payloads: [(name: String, bytes: [UInt8], iterations: Int)] = [
    ("bench payload (\(small.count) B)", small, 10_000_000 / scale),
    ("Live Activity, ASCII", liveActivityPayload(size: 4096, accent: false), 200_000 / scale),
    ("Live Activity, accented", liveActivityPayload(size: 4096, accent: true), 200_000 / scale),
]

for payload in payloads {
    print("\(payload.name), \(payload.bytes.count) bytes, \(payload.iterations) checks per round, \(rounds) rounds")
    let inputs = [payload.bytes, Array(payload.bytes)]
    var best = [UInt64](repeating: .max, count: cases.count)
    for _ in 0..<rounds {
        for (i, c) in cases.enumerated() {
            let start = threadCPUNanoseconds()
            let accepted = c.run(inputs, payload.iterations)
            let elapsed = threadCPUNanoseconds() - start
            precondition(accepted == payload.iterations || c.mayDecline, "\(c.name) refused the payload")
            best[i] = min(best[i], elapsed)
        }
    }
    for (i, c) in cases.enumerated() {
        let perCheck = Double(best[i]) / Double(payload.iterations)
        let padded = c.name + String(repeating: " ", count: max(0, 28 - c.name.count))
        print("  \(padded) \((perCheck * 10).rounded() / 10) ns per check")
    }
}
