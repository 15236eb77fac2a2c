import Foundation
import Testing

@testable import MockAPNs

/// The one counting type: what `/v1/stats` and `/metrics` read of the same records, without sockets.
@Suite("Server metrics")
struct ServerMetricsTests {
    @Test("a clear starts /v1/stats over while /metrics keeps counting every request since start")
    func clearResetsStatsOnly() throws {
        let journal = try Journal(capacity: 10)
        journal.append(JournalQueryTests.record())
        journal.append(JournalQueryTests.record(status: 410, reason: "Unregistered"))
        journal.clear()
        journal.append(JournalQueryTests.record(status: 400, reason: "BadTopic"))
        let stats = journal.metrics.stats(of: journal)
        #expect(stats.accepted == 0 && stats.rejected == 1 && stats.total == 3)
        #expect(stats.byReason == ["BadTopic": 1])
        let text = journal.metrics.prometheusText(journal: journal)
        #expect(text.contains("mock_apns_requests_total{status=\"200\",reason=\"\"} 1\n"))
        #expect(text.contains("mock_apns_requests_total{status=\"410\",reason=\"Unregistered\"} 1\n"))
        #expect(text.contains("mock_apns_requests_total{status=\"400\",reason=\"BadTopic\"} 1\n"))
        #expect(text.contains("mock_apns_request_duration_seconds_count 3\n"))
        #expect(text.contains("mock_apns_journal_recorded_total 3\n"))
        #expect(text.contains("mock_apns_journal_records 1\n"))
    }

    @Test("a latency ends at the answer's stamp, or on the server's clock for a record with no answer")
    func latencyEnds() throws {
        let clock = ManualClock()
        let journal = try Journal(capacity: 10, metrics: ServerMetrics(clock: clock))
        var answered = JournalQueryTests.record()
        answered.receivedAt = clock.now()
        answered.answeredAt = clock.now().addingTimeInterval(0.002)
        journal.append(answered)
        var unanswered = JournalQueryTests.record()
        unanswered.receivedAt = clock.now().addingTimeInterval(-0.3)
        unanswered.answeredAt = nil
        unanswered.response = nil
        journal.append(unanswered)
        let text = journal.metrics.prometheusText(journal: journal)
        #expect(text.contains("mock_apns_request_duration_seconds_bucket{le=\"0.001\"} 0\n"))
        #expect(text.contains("mock_apns_request_duration_seconds_bucket{le=\"0.0025\"} 1\n"))
        #expect(text.contains("mock_apns_request_duration_seconds_bucket{le=\"0.1\"} 1\n"))
        #expect(text.contains("mock_apns_request_duration_seconds_bucket{le=\"0.5\"} 2\n"))
        #expect(text.contains("mock_apns_requests_total{status=\"none\",reason=\"\"} 1\n"), "\(text)")
    }

    @Test("connections and control frames counted by the connections reach both reports")
    func connectionCounts() throws {
        let journal = try Journal(capacity: 10)
        let metrics = journal.metrics
        metrics.connectionOpened()
        metrics.connectionOpened()
        metrics.connectionClosed()
        metrics.handshakeFailed(HandshakeFailure(TLSError("tlsv1 alert unknown ca")))
        metrics.controlFramesSent(
            HTTP2FrameCounts(
                .sent, settings: 2, settingsAcks: 1, pings: 0, windowUpdates: 0, rstStreams: 0, goaways: 0))
        let stats = metrics.stats(of: journal)
        #expect(stats.openConnections == 1 && stats.totalConnections == 2)
        #expect(stats.controlFramesSent.settings == 2 && stats.controlFramesSent.settingsAcks == 1)
        #expect(stats.failedHandshakes == 1)
        #expect(stats.lastFailedHandshake?.kind == "untrusted", "\(String(describing: stats.lastFailedHandshake))")
        #expect(MockAPNsStats(json: stats.json).lastFailedHandshake?.message == stats.lastFailedHandshake?.message)
        let text = metrics.prometheusText(journal: journal)
        #expect(text.contains("mock_apns_open_connections 1\n"))
        #expect(text.contains("mock_apns_connections_total 2\n"))
        #expect(text.contains("mock_apns_tls_handshake_failures_total 1\n"))
        #expect(text.contains("mock_apns_http2_control_frames_sent_total{type=\"settings\"} 2\n"))
    }
}
