import Foundation
import NIOConcurrencyHelpers

/// The Prometheus counters of `GET /metrics`, fed by a journal observer: answers by status and reason, and a latency
/// histogram. (`MockAPNsStats` is the other report: `/v1/stats`, counts since the journal was last cleared.)
///
/// Counters only grow (clearing the journal does not reset them), as Prometheus expects. The latency is the
/// time from the request's arrival to its record, on the server's clock: the decision plus any scripted delay.
final class RequestMetrics: Sendable {
    /// The upper bounds of the latency buckets, in seconds.
    static let buckets: [Double] = [0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5]

    private struct Key: Hashable {
        var status: Int?
        var reason: String?
    }

    private struct State {
        var answers: [Key: UInt64] = [:]
        /// Answers 200 without a reason, the common case, counted apart from `answers` (no hashing per push).
        var successes: UInt64 = 0
        var bucketCounts = [UInt64](repeating: 0, count: RequestMetrics.buckets.count)
        var latencyCount: UInt64 = 0
        var latencySum: Double = 0
    }

    private let clock: any APNsClock
    private let state = NIOLockedValueBox(State())

    init(clock: any APNsClock) {
        self.clock = clock
    }

    /// Counts one record (called for every append while the control API runs).
    func observe(_ record: borrowing JournalRecord) {
        // Only device pushes are requests: a phone state change is a record of another kind.
        guard record.isDevicePush else { return }
        // A record is appended just before its answer is sent; only a delayed answer carries its own time.
        let end = record.answeredAt.flatMap { $0 == record.receivedAt ? nil : $0 } ?? clock.now()
        let measured = max(0, end.timeIntervalSince(record.receivedAt))
        let key = Key(status: record.response?.status, reason: record.reason)
        state.withLockedValue { state in
            if key.status == 200, key.reason == nil {
                state.successes += 1
            } else {
                state.answers[key, default: 0] += 1
            }
            state.latencyCount += 1
            state.latencySum += measured
            if let index = Self.buckets.firstIndex(where: { measured <= $0 }) { state.bucketCounts[index] += 1 }
        }
    }

    /// The counters in the Prometheus text format (version 0.0.4).
    func prometheusText() -> String {
        var snapshot = state.withLockedValue { $0 }
        if snapshot.successes > 0 { snapshot.answers[Key(status: 200, reason: nil), default: 0] += snapshot.successes }
        var out = ""
        out += "# HELP mock_apns_requests_total Requests answered, by HTTP status and reason"
        out += " (status \"none\": no answer).\n"
        out += "# TYPE mock_apns_requests_total counter\n"
        let rows = snapshot.answers.map {
            (status: $0.key.status.map(String.init) ?? "none", reason: $0.key.reason ?? "", count: $0.value)
        }
        .sorted { ($0.status, $0.reason) < ($1.status, $1.reason) }
        for row in rows {
            let labels = "status=\"\(row.status)\",reason=\"\(Self.escape(row.reason))\""
            out += "mock_apns_requests_total{\(labels)} \(row.count)\n"
        }
        out += "# HELP mock_apns_request_duration_seconds Time from a request's arrival to its answer.\n"
        out += "# TYPE mock_apns_request_duration_seconds histogram\n"
        var cumulative: UInt64 = 0
        for (bound, count) in zip(Self.buckets, snapshot.bucketCounts) {
            cumulative += count
            out += "mock_apns_request_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        out += "mock_apns_request_duration_seconds_bucket{le=\"+Inf\"} \(snapshot.latencyCount)\n"
        out += "mock_apns_request_duration_seconds_sum \(snapshot.latencySum)\n"
        out += "mock_apns_request_duration_seconds_count \(snapshot.latencyCount)\n"
        return out
    }

    /// A label value escaped as the text format wants (backslash, quote, newline).
    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
