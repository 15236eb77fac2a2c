import Foundation
import MockAPNsClient
import MockAPNsTesting
import Testing

@testable import MockAPNs

/// The activities through `MockAPNsControl`: over HTTP with the Swift client, and in-process.
@Suite("Activities in Swift", .serialized)
struct ActivityClientTests {
    static let taxiStart = ActivityStart(
        attributesType: "mpushTaxiAttributes", attributes: ["appName": "Taxi", "appLogo": "logo"],
        contentState: ["status": "1"])

    @Test("the Swift client lists, gets, starts, rotates and dismisses as in-process, and gets refusals as errors")
    func overHTTP() async throws {
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let client = MockAPNsControlClient(url: control.url)
            let (id, token) = try await ActivityAPITests.startTaxi(server)
            _ = try await ActivityAPITests.update(server, token)

            let listed = try await client.activities()
            #expect(listed.map(\.id) == [id])
            let remote = try #require(try await client.activity(id: id))
            let local = try #require(try await server.activity(id: id))
            #expect(remote.json == local.json, "the JSON reads back to the same snapshot")
            #expect(remote.outcomeCounts[.applied] == 1 && remote.history.last?.priority == 10)
            #expect(try await client.activity(id: "nope") == nil)
            #expect(try await client.activities(ActivityQuery(state: .ended)).isEmpty)
            #expect(try await client.activities(ActivityQuery(token: token.uppercased())).count == 1)

            let started = try await client.startActivity(Self.taxiStart)
            #expect(started.state == .active && started.updateToken.count == 160)
            #expect(server.engine.activities.isUpdateToken(started.updateToken))
            let rotated = try await client.rotateActivityToken(id: started.id)
            #expect(rotated.updateToken != started.updateToken)
            #expect(!server.engine.activities.isUpdateToken(started.updateToken))
            let dismissed = try await client.dismissActivity(id: started.id)
            #expect(dismissed.state == .dismissed && dismissed.dismissedAt != nil)

            do {
                _ = try await client.startActivity(
                    ActivityStart(attributesType: "Nope", attributes: [:], contentState: [:]))
                Issue.record("an undeclared type started")
            } catch let error as MockAPNsControlError {
                #expect(error.status == 400 && error.message.contains("'Nope' is not a type the app declares"))
            }
            await #expect(throws: MockAPNsControlError.self) { try await client.rotateActivityToken(id: "nope") }
            do {
                _ = try await client.dismissActivity(id: started.id)
                Issue.record("dismissed twice")
            } catch let error as MockAPNsControlError {
                #expect(error.status == 409)
            }
            try await client.reset()
            #expect(try await client.activities().isEmpty)
        }
    }

    @Test("waitForActivity wakes on the change that makes one match, over HTTP and in-process, without polling")
    func waitWakes() async throws {
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let client = MockAPNsControlClient(url: control.url)
            let clock = ContinuousClock()
            // Long timeouts: on a loaded CI machine the waits may take seconds to subscribe.
            let remote = Task { try await client.waitForActivity(type: "mpushTaxiAttributes", timeout: .seconds(90)) }
            let local = Task {
                try await server.waitForActivity(ActivityQuery(state: .dismissed), timeout: .seconds(90))
            }
            try await ActivityAPITests.waitForWatchers(server, count: 2)
            // Each wait is timed from the change that answers it: the start push goes through curl, which on a
            // loaded CI machine may take seconds before the change happens (one run timed 10.007 s for all of it).
            let (id, _) = try await ActivityAPITests.startTaxi(server)
            let started = clock.now
            #expect(try await remote.value?.id == id)
            let remoteWoke = clock.now - started
            let dismissing = clock.now
            _ = try await server.dismissActivity(id: id)
            #expect(try await local.value?.id == id)
            let localWoke = clock.now - dismissing
            #expect(
                remoteWoke < .seconds(10) && localWoke < .seconds(10),
                "woke \(remoteWoke) after the start and \(localWoke) after the dismissal (the timeout is 90 s)")
            #expect(server.engine.activities.watchers.withLockedValue { $0.watchers.isEmpty })

            // Already there: answers at once.
            #expect(try await client.waitForActivity(ActivityQuery(), timeout: .seconds(1))?.id == id)
        }
    }

    @Test("waitForActivity times out cleanly: nil in Swift, 408 with a JSON reason over HTTP, bad timeout 400")
    func waitTimesOut() async throws {
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let client = MockAPNsControlClient(url: control.url)
            let clock = ContinuousClock()
            // The client's connection is made first, so the clock times the two waits alone: on a loaded CI machine
            // making the first connection may take seconds of its own.
            _ = try await client.info()
            let began = clock.now
            let none = try await client.waitForActivity(type: "mpushTakeoutAttributes", timeout: .milliseconds(300))
            #expect(none == nil)
            #expect(try await server.waitForActivity(ActivityQuery(state: .ended), timeout: .milliseconds(200)) == nil)
            let elapsed = clock.now - began
            #expect(elapsed >= .milliseconds(500) && elapsed < .seconds(5), "the two waits took \(elapsed)")
            #expect(server.engine.activities.watchers.withLockedValue { $0.watchers.isEmpty })

            let answer = try await ControlCurl.call(
                "GET", control, "/v1/activities/wait?type=mpushTakeoutAttributes&timeout=200ms")
            #expect(answer.status == 408)
            #expect(answer.error == "no activity matched type=mpushTakeoutAttributes within 200ms", "\(answer.text)")
            #expect(answer.json?["query"]?["type"] == "mpushTakeoutAttributes")
            let bad = try await ControlCurl.call("GET", control, "/v1/activities/wait?timeout=9")
            #expect(bad.status == 400 && bad.error?.hasPrefix("timeout:") == true, "\(bad.text)")
        }
    }

    @Test("the Swift client streams activity changes as they happen")
    func stream() async throws {
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let client = MockAPNsControlClient(url: control.url)
            let changes = Task { () -> [ActivityChange] in
                var seen = [ActivityChange]()
                for try await change in client.streamActivities(ActivityQuery()) {
                    seen.append(change)
                    if seen.count == 2 { break }
                }
                return seen
            }
            try await ActivityAPITests.waitForWatchers(server, count: 1)
            let (id, token) = try await ActivityAPITests.startTaxi(server)
            _ = try await ActivityAPITests.update(server, token, after: -100)
            let seen = try await changes.value
            #expect(seen.map(\.kind) == [.started, .pushed])
            #expect(seen.last?.outcome == .ignored && seen.last?.activity.id == id)
            #expect(seen[0].sequence < seen[1].sequence)
        }
    }

    @Test("MockAPNsTestServer has the activities too, and the clock moves their state")
    func testingLibrary() async throws {
        let scenario = try LiveActivityEndToEndTests.scenario()
        try await withMockAPNs(scenario: scenario) { server in
            let started = try await server.startActivity(Self.taxiStart)
            #expect(try await server.activities(ActivityQuery(state: .active)).map(\.id) == [started.id])
            try await server.advanceClock(by: .seconds(8 * 3600))
            #expect(try await server.activity(id: started.id)?.state == .ended)
            #expect(try await server.waitForActivity(state: .ended, timeout: .seconds(1))?.id == started.id)
        }
    }
}
