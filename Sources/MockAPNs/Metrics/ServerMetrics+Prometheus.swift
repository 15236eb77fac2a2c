import Foundation

extension ServerMetrics {
    /// Everything `GET /metrics` answers, in the Prometheus text format (version 0.0.4): the request counters and
    /// latency histogram, the connection counters and `journal`'s size (it counts into these metrics).
    ///
    /// Counters only grow (clearing the journal does not reset them), as Prometheus expects.
    func prometheusText(journal: Journal) -> String {
        let (answers, latency, dropped, recorded) = countingRequests { counts in
            (
                counts.answerCounts(),
                (buckets: counts.latencyBucketCounts, count: counts.latencyCount, sum: counts.latencySum),
                counts.dropped, counts.total
            )
        }
        var out = ""
        out += "# HELP mock_apns_requests_total Requests answered, by HTTP status and reason"
        out += " (status \"none\": no answer).\n"
        out += "# TYPE mock_apns_requests_total counter\n"
        for row in answers {
            let labels = "status=\"\(row.status)\",reason=\"\(Self.escape(row.reason))\""
            out += "mock_apns_requests_total{\(labels)} \(row.count)\n"
        }
        out += "# HELP mock_apns_request_duration_seconds Time from a request's arrival to its answer.\n"
        out += "# TYPE mock_apns_request_duration_seconds histogram\n"
        var cumulative: UInt64 = 0
        for (bound, count) in zip(RequestCounts.latencyBuckets, latency.buckets) {
            cumulative += count
            out += "mock_apns_request_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        out += "mock_apns_request_duration_seconds_bucket{le=\"+Inf\"} \(latency.count)\n"
        out += "mock_apns_request_duration_seconds_sum \(latency.sum)\n"
        out += "mock_apns_request_duration_seconds_count \(latency.count)\n"
        let connections = connectionCounts
        let gauges: [(name: String, type: String, help: String, value: String)] = [
            ("mock_apns_open_connections", "gauge", "HTTP/2 connections open now.", String(connections.open)),
            (
                "mock_apns_connections_total", "counter", "Connections accepted since start.",
                String(connections.total)
            ),
            (
                "mock_apns_tls_handshake_failures_total", "counter", "TLS handshakes that failed.",
                String(connections.failedHandshakes)
            ),
            ("mock_apns_journal_records", "gauge", "Records in the journal now.", String(journal.count)),
            (
                "mock_apns_journal_capacity", "gauge", "Records the journal keeps before dropping the oldest.",
                String(journal.capacity)
            ),
            (
                "mock_apns_journal_dropped", "gauge",
                "Records dropped for the capacity or the byte budget since the last clear.", String(dropped)
            ),
            (
                "mock_apns_journal_bytes", "gauge", "Estimated bytes of the records in the journal now.",
                String(journal.bytes)
            ),
            (
                "mock_apns_journal_max_bytes", "gauge", "Bytes the journal keeps before dropping the oldest.",
                String(journal.maxBytes)
            ),
            ("mock_apns_journal_recorded_total", "counter", "Requests recorded since start.", String(recorded)),
        ]
        for gauge in gauges {
            out +=
                "# HELP \(gauge.name) \(gauge.help)\n# TYPE \(gauge.name) \(gauge.type)\n\(gauge.name) \(gauge.value)\n"
        }
        out += connections.controlFrames.prometheusText
        return out
    }

    /// A label value escaped as the text format wants (backslash, quote, newline).
    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
