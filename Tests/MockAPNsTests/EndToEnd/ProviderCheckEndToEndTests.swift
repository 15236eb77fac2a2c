import Foundation
import Testing

@testable import MockAPNs

/// Provider checks over a real run: pushes over TLS and HTTP/2 (curl, one connection each), then `server.verify()`.
@Suite("Provider checks end to end", .serialized)
struct ProviderCheckEndToEndTests {
    @Test("a push after a scripted 410 fails stops-after-unregistered, naming the record; a scripted 400 is expected")
    func pushAfterUnregistered() async throws {
        let gone = ScriptedRulesEndToEndTests.token(1)
        let other = ScriptedRulesEndToEndTests.token(2)
        let yaml = """
              - name: the app was uninstalled
                match: { token: \(gone) }
                nth: 2
                respond: { reason: Unregistered }
              - name: wrong topic
                match: { token: \(other) }
                respond: { reason: BadTopic }
            checks:
              - stops-after-unregistered
              - no-unexpected-errors
              - reuses-connections: { maxConnections: 2 }
            """
        try await withTestServer(scenario: try ScriptedRulesEndToEndTests.scenario(yaml)) { server in
            var statuses: [Int] = []
            for token in [gone, gone, gone, other] {
                statuses.append(try await ScriptedRulesEndToEndTests.push(server, token: token).status)
            }
            #expect(statuses == [200, 410, 200, 400])
            let report = server.verify(startedAt: nil)
            #expect(!report.passed)
            let names = ["stops-after-unregistered", "no-unexpected-errors", "reuses-connections"]
            #expect(report.items.map(\.name) == names)
            let stops = report.items[0]
            #expect(!stops.passed && stops.records == [3], "\(report)")
            let third = try #require(server.journal.records().first { $0.sequence == 3 })
            #expect(stops.details == ["\(third.summaryLine): sent to a token answered 410 Unregistered in #2"])
            #expect(report.items[1].passed, "\(report)")
            #expect(!report.items[2].passed && report.items[2].records == [3, 4], "\(report)")
            #expect(report.description.contains("✗ check stops-after-unregistered: 1 record broke it"), "\(report)")
        }
    }
}
