import Foundation
import MockAPNsClient
import Testing

@testable import MockAPNs

/// `PushExpectation`, the checking `MockAPNsTesting` and the command line share, against real servers.
@Suite("Push expectations", .serialized)
struct PushExpectationTests {
    static let device = EndToEndTests.device
    static let other = ControlAPITests.other

    /// The records of a met expectation, or `nil` for a failed one.
    static func met(_ outcome: PushExpectation.Finding) -> [JournalRecord]? {
        guard case .met(let records) = outcome else { return nil }
        return records
    }

    /// The message of a failed expectation, or `nil` for a met one.
    static func failure(_ outcome: PushExpectation.Finding) -> String? {
        guard case .failed(let report) = outcome else { return nil }
        return report.message
    }

    @Test("met, too few, too many, none and a where: condition decide the same in-process and over HTTP")
    func outcomes() async throws {
        try await withControlServer { server, control in
            try await sendPush(server)
            try await sendPush(server)
            let client = MockAPNsControlClient(url: control.url)
            var messages: [[String]] = []
            for target in [server as any MockAPNsControl, client] {
                let device = JournalQuery(token: Self.device)
                let two = try await PushExpectation(query: device, count: 2, timeout: .seconds(1))
                    .check(against: target)
                #expect(Self.met(two)?.map(\.sequence) == [1, 2])

                let one = try await PushExpectation(query: device, count: 1).check(against: target)
                let tooMany = try #require(Self.failure(one))
                #expect(tooMany.hasPrefix("expected 1 push matching token:\(Self.device), within 2s; got 2.\nmatched: #1 at "))

                let three = try await PushExpectation(query: device, count: 3, timeout: .milliseconds(200))
                    .check(against: target)
                let tooFew = try #require(Self.failure(three))
                #expect(tooFew.hasPrefix("expected 3 pushes matching token:\(Self.device), within 200ms; got 2."))
                #expect(tooFew.contains("received:\n  #1 alert com.example.app"))

                let noneOther = PushExpectation(
                    query: JournalQuery(token: Self.other), count: 0, timeout: .milliseconds(50))
                #expect(Self.met(try await noneOther.check(against: target))?.isEmpty == true)
                let none = try await PushExpectation(query: device, count: 0, timeout: .milliseconds(50))
                    .check(against: target)
                let noneMessage = try #require(Self.failure(none))
                #expect(noneMessage.hasPrefix("expected no push matching token:\(Self.device), within 50ms; got 2."))

                let titled = PushExpectation(query: device, count: 1, timeout: .milliseconds(200)) { record in
                    record.payloadJSON?.value(atPath: "aps.alert.title") == "Goodbye"
                }
                let condition = try #require(Self.failure(try await titled.check(against: target)))
                #expect(condition.contains("2 matched the filters but not the where: condition:"))
                messages.append([tooMany, tooFew, condition])
            }
            #expect(messages[0] == messages[1])
        }
    }

    @Test("a miss reads the same from expectPush, from POST /v1/verify (curl) and from the report run prints")
    func sameMissEverywhere() async throws {
        let yaml = """
            expect:
              - name: to the other phone
                match: { token: "\(Self.other)" }
            """
        let scenario = try VerifyEndpointTests.scenario(yaml)
        try await withControlServer(scenario: scenario) { server, control in
            try await sendPush(server)
            let verified = try await ControlCurl.call("POST", control, "/v1/verify")
            let apiDetails = (verified.json?.value(atPath: "items.0.details")?.arrayValue ?? []).compactMap(\.stringValue)
            let nearest = try #require(apiDetails.first { $0.hasPrefix("Nearest: ") }, "\(verified.text)")
            #expect(nearest.hasSuffix(" — token was \(Self.device) (expected \(Self.other))"), "\(nearest)")
            #expect(try await server.verify().description.contains("    \(nearest)"))

            let expectation = PushExpectation(
                query: JournalQuery(token: Self.other), count: 1, timeout: .milliseconds(100))
            for target in [server as any MockAPNsControl, MockAPNsControlClient(url: control.url)] {
                let message = try #require(Self.failure(try await expectation.check(against: target)))
                #expect(message.split(separator: "\n").map(String.init).contains(nearest), "\(message)")
                #expect(message.hasPrefix("expected 1 push matching token:\(Self.other), within 100ms; got 0."))
            }
        }
    }

    @Test("answers as soon as the expected push is recorded")
    func waitsForThePush() async throws {
        try await withControlServer { server, _ in
            let expectation = PushExpectation(
                query: JournalQuery(token: Self.device), count: 1, timeout: .seconds(30))
            let checking = Task { try await expectation.check(against: server) }
            try await Task.sleep(for: .milliseconds(100))
            let started = ContinuousClock.now
            try await sendPush(server)
            #expect(Self.met(try await checking.value)?.map(\.deviceToken) == [Self.device])
            #expect(ContinuousClock.now - started < .seconds(15))
        }
    }

    @Test("a negative count is refused with a clear error, not waited on")
    func negativeCount() async throws {
        try await withControlServer { server, _ in
            #expect(server.journal.count == 0)
            await #expect(
                throws: InputError("an expectation's count must be 0 (no push) or more, got -1")
            ) {
                try await PushExpectation(count: -1).check(against: server)
            }
        }
    }
}
