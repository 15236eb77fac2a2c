extension RequestMetrics {
    /// Everything `GET /metrics` answers, in the Prometheus text format (version 0.0.4): the request counters and
    /// latency histogram, the connection counters of `connections`, and the journal's size.
    func prometheusText(journal: Journal, connections: ServerMetrics) -> String {
        var text = prometheusText()
        let gauges: [(name: String, type: String, help: String, value: String)] = [
            (
                "mock_apns_open_connections", "gauge", "HTTP/2 connections open now.",
                String(connections.openConnections)
            ),
            (
                "mock_apns_connections_total", "counter", "Connections accepted since start.",
                String(connections.totalConnections)
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
                "Records dropped for the capacity or the byte budget since the last clear.",
                String(journal.droppedCount)
            ),
            (
                "mock_apns_journal_bytes", "gauge", "Estimated bytes of the records in the journal now.",
                String(journal.bytes)
            ),
            (
                "mock_apns_journal_max_bytes", "gauge", "Bytes the journal keeps before dropping the oldest.",
                String(journal.maxBytes)
            ),
            (
                "mock_apns_journal_recorded_total", "counter", "Requests recorded since start.",
                String(journal.totalCount)
            ),
        ]
        for gauge in gauges {
            text +=
                "# HELP \(gauge.name) \(gauge.help)\n# TYPE \(gauge.name) \(gauge.type)\n\(gauge.name) \(gauge.value)\n"
        }
        text += connections.controlFramesSent.prometheusText
        return text
    }
}
