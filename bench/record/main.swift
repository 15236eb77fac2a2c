// The cost of writing one journal record as JSON text, as the journal file and the record stream do for every
// push: CPU time per record, min of the rounds. Built and run by bench/record/run.sh, once per source tree.

import Foundation

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

/// A typical record: bench/run.sh's push (a 200-byte alert with a JWT), accepted and answered 200.
func typicalRecord(sequence: UInt64) -> JournalRecord {
    let payload = #"{"aps":{"alert":{"title":"Order update","body":"Your order #1234 has shipped and is on its way"},"#
        + #""sound":"default","badge":1},"order":{"id":"1234","status":"shipped","eta":"2026-11-26T10:00:00Z"}}"#
    let token = String(repeating: "ab", count: 32)
    let auth = AuthSummary(kind: "token", teamID: "TESTTEAM01", keyID: "TESTKEY001", issuedAt: 1_790_000_000, verified: true)
    return JournalRecord(
        sequence: sequence, receivedAt: Date(timeIntervalSince1970: 1_790_000_000.123),
        answeredAt: Date(timeIntervalSince1970: 1_790_000_000.124), connectionID: 3, remoteAddress: "127.0.0.1:50412",
        request: APNsRequest(
            method: "POST", path: "/3/device/\(token)", authority: "127.0.0.1:2197",
            headers: [
                APNsHeader("apns-topic", "com.example.app"), APNsHeader("apns-push-type", "alert"),
                APNsHeader("apns-priority", "10"), APNsHeader("authorization", "bearer eyJhbGciOiJFUzI1NiIsImtpZCI6IlRFU1RLRVkwMDEifQ.eyJpc3MiOiJURVNUVEVBTTAxIiwiaWF0IjoxNzkwMDAwMDAwfQ.c2lnbmF0dXJl"),
            ],
            body: Array(payload.utf8), streamID: 1),
        verdict: Verdict(
            outcome: .accepted, rule: "accepted", explanation: "the push is valid", auth: auth, pushType: "alert",
            topic: "com.example.app"),
        response: APNsResponse(status: 200, apnsID: "123E4567-E89B-12D3-A456-4266554400A0"))
}

/// The text a journal file line holds, as the tree being measured writes it.
@inline(never) func lineText(_ record: JournalRecord) -> String {
    #if MAPPED
    record.jsonText
    #else
    record.json.jsonText
    #endif
}

let rounds = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 5 : 5
let iterations = 200_000
let records = (0..<2).map { typicalRecord(sequence: UInt64($0 + 1)) }
var best = UInt64.max
var bytes = 0
for _ in 0..<rounds {
    let start = threadCPUNanoseconds()
    for i in 0..<iterations { bytes &+= lineText(records[i & 1]).utf8.count }
    best = min(best, threadCPUNanoseconds() - start)
}
let perRecord = Double(best) / Double(iterations)
print("\(String(format: "%.0f", perRecord)) ns per record (\(lineText(records[0]).utf8.count) bytes; checksum \(bytes))")
