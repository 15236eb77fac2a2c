import Foundation
import MockAPNsClient
import MockAPNsTesting
import Testing

@testable import MockAPNs

/// `device:` expectations and the device filters of queries, against real Live Activity pushes over HTTP/2 (curl):
/// a CI run can require that the phone applied an update, not only that APNs said 200.
@Suite("Device expectations end to end", .serialized)
struct DeviceExpectationEndToEndTests {
    typealias LiveActivity = LiveActivityEndToEndTests

    static let takeoutStartToken =
        "5594dfa7aec78b928f7d95153e5e90ce78fd919d98b1dfa7caec9285035ad6d4a3b521b7a77fc5b0d41d523d3bb529fb662161b90e6"
        + "133f441ad1590eed2e2a2595baa060295f50c7fbda884883b0ee2"

    /// A Unix time (2026-11-18): sent to a `deferredToDate` field it decodes to 2057, which the phone warns about.
    static let unixETA = 1_795_000_000

    /// The taxi and takeout types of scenarios/live-activity.yaml, without its rules, with `expect` as its
    /// `expect:` block.
    static func scenario(expect: String) throws -> Scenario {
        var scenario = try LiveActivity.scenario()
        scenario.expectations = try ScenarioLoader.parse(
            yaml: "expect:\n" + expect, sourcePath: "expect.yaml", baseDirectory: "/"
        ).expectations
        return scenario
    }

    /// Starts a taxi ride and sends it a dropped update (status as a number, with a prompt) and an applied one;
    /// then starts a
    /// takeout order whose eta is a Unix time and updates it with another: applied twice, with a date warning.
    /// Records #1 to #5.
    static func pushFlow(_ server: MockAPNsServer) async throws {
        let now = Int(Date().timeIntervalSince1970)
        let taxi = try await LiveActivity.startRide(server, now: now)
        let taxiToken = try #require(taxi.device?.updateToken)
        let dropped = try await LiveActivity.push(
            server, to: taxiToken,
            #"{"event":"update","timestamp":\#(now + 1),"content-state":{"status":3,"prompt":"wrong"}}"#)
        #expect(dropped.status == 200 && dropped.device?.kind == .dropped)
        let applied = try await LiveActivity.push(
            server, to: taxiToken, #"{"event":"update","timestamp":\#(now + 2),"content-state":{"status":"3"}}"#)
        #expect(applied.status == 200 && applied.device?.kind == .applied)

        let takeout = try await LiveActivity.push(
            server, to: takeoutStartToken,
            #"{"event":"start","timestamp":\#(now),"attributes-type":"mpushTakeoutAttributes","#
                + #""attributes":{"shopName":"Noodles","orderID":"42"},"content-state":{"status":1},"#
                + #""alert":{"title":"Order placed"},"input-push-token":1}"#)
        let takeoutToken = try #require(takeout.device?.updateToken)
        let late = try await LiveActivity.push(
            server, to: takeoutToken,
            #"{"event":"update","timestamp":\#(now + 1),"content-state":{"status":2,"eta":\#(unixETA),"#
                + #""rider":"Sam"}}"#)
        #expect(late.device?.kind == .applied && late.device?.warnings.count == 1)
    }

    @Test("applied passes; an update the phone dropped fails naming the device reason in the nearest miss")
    func appliedOrDropped() async throws {
        let scenario = try Self.scenario(
            expect: """
                  - name: taxi on the way
                    match: { payload: { aps.content-state.status: "3" }, device: { outcome: applied } }
                  - name: prompted update
                    match: { payload: { aps.content-state.prompt: wrong }, device: { outcome: applied } }
                    answered: 200
                  - name: the phone refused one
                    match: { device: { outcome: [dropped, ignored], reason: { regex: "status: expected String" } } }
                  - name: ride
                    sequence:
                      - { device: { outcome: started } }
                      - { payload: { aps.event: update }, device: { outcome: applied } }
                      - { device: { outcome: ended } }
                """)
        try await withTestServer(scenario: scenario) { server in
            try await Self.pushFlow(server)
            let report = server.verify(startedAt: nil)
            let items = Dictionary(uniqueKeysWithValues: report.items.map { ($0.name, $0) })
            #expect(items["taxi on the way"]?.passed == true)
            #expect(items["taxi on the way"]?.records == [3])
            #expect(items["the phone refused one"]?.passed == true)

            let number = try #require(items["prompted update"])
            #expect(!number.passed)
            #expect(
                number.details.first
                    == #"expected 1 push with aps.content-state.prompt "wrong", answered 200, phone applied; got 0."#)
            let nearest = try #require(number.details.first { $0.hasPrefix("Nearest: ") })
            #expect(nearest.hasPrefix("Nearest: #2 at "), "\(nearest)")
            #expect(
                nearest.hasSuffix(
                    "device outcome was dropped: content-state.status: expected String, found number "
                        + "(expected applied)"), "\(nearest)")

            let ride = try #require(items["ride"])
            #expect(!ride.passed && ride.summary == "2 of 3 steps in order")
            #expect(ride.details.contains { $0.hasPrefix("  2. with aps.event \"update\", phone applied — #3 at ") })
            #expect(ride.details.contains("  3. any request, phone ended — missing"), "\(ride.details)")
        }
    }

    @Test("only records whose device part passes are counted")
    func countsOnlyDeviceMatches() async throws {
        // Every push has a timestamp; two of the five were applied (#1 and #4 started, #2 was dropped).
        let scenario = try Self.scenario(
            expect: """
                  - name: dropped update applied
                    match: { payload: { aps.timestamp: { exists: true } }, device: { outcome: applied } }
                    count: 3
                """)
        try await withTestServer(scenario: scenario) { server in
            try await Self.pushFlow(server)
            let item = try #require(server.verify(startedAt: nil).items.first)
            #expect(!item.passed)
            #expect(item.summary == "got 2, expected 3 pushes", "\(item.summary)")
            #expect(item.records == [3, 5])
        }
    }

    @Test("warnings: none fails on a Unix time sent to a deferredToDate field, naming the warning")
    func warningsNone() async throws {
        let scenario = try Self.scenario(
            expect: """
                  - name: order applied
                    match: { payload: { aps.content-state.rider: Sam }, device: { outcome: applied } }
                  - name: order applied cleanly
                    match:
                      payload: { aps.content-state.rider: Sam, aps.content-state.status: 2 }
                      device: { outcome: applied, warnings: none }
                  - name: taxi started cleanly
                    match: { token: "\(LiveActivity.taxiStartToken)", device: { outcome: started, warnings: none } }
                """)
        try await withTestServer(scenario: scenario) { server in
            try await Self.pushFlow(server)
            let items = server.verify(startedAt: nil).items
            #expect(items.map(\.passed) == [true, false, true])
            #expect(
                items[1].details.first
                    == #"expected 1 push with aps.content-state.rider "Sam", aps.content-state.status 2, "#
                    + "phone applied with no warnings; got 0.")
            let nearest = try #require(items[1].details.first { $0.hasPrefix("Nearest: ") })
            #expect(nearest.hasPrefix("Nearest: #5 at "), "\(nearest)")
            #expect(nearest.contains("device outcome was applied with warnings: content-state.eta decodes to 2057"))
            #expect(nearest.hasSuffix("(expected applied with no warnings)"), "\(nearest)")
        }
    }

    @Test("each activity's history carries the sequence numbers of its journal records")
    func historySequences() async throws {
        try await withTestServer(scenario: try LiveActivity.scenario()) { server in
            // An ordinary push first, so that record and history numbers cannot agree by chance.
            try await sendPush(server)
            try await Self.pushFlow(server)
            let records = server.journal.records()
            #expect(records.map(\.sequence) == [1, 2, 3, 4, 5, 6])
            let activities = server.engine.activities.activities
            #expect(activities.count == 2)
            #expect(activities[0].history.map(\.sequence) == [2, 3, 4])
            #expect(activities[0].history.map(\.outcome) == [.started, .dropped, .applied])
            #expect(activities[1].history.map(\.sequence) == [5, 6])
            for activity in activities {
                for push in activity.history {
                    let record = try #require(records.first { $0.sequence == push.sequence })
                    #expect(record.device?.activityID == activity.id)
                    #expect(record.device?.kind == push.outcome)
                }
            }
        }
    }

    @Test("expectPush(device:), the device and warnings filters and ?device= agree in-process, over HTTP, in the CLI")
    func swiftAPI() async throws {
        try await withControlServer(scenario: try LiveActivity.scenario()) { server, control in
            try await Self.pushFlow(server)
            let client = MockAPNsControlClient(url: control.url)
            for target in [server as any MockAPNsControl, client] {
                let applied = try await target.expectPush(device: .applied, count: 2)
                #expect(applied.map(\.sequence) == [3, 5])
                let clean = try await target.expectPush(
                    device: .applied, matching: JournalQuery(deviceWarnings: false), count: 1)
                #expect(clean.map(\.sequence) == [3])
                try await target.expectNoPush(device: .throttled)
                let failure = await TestingLibraryTests.failure {
                    try await target.expectPush(
                        device: .applied, matching: JournalQuery(topic: "com.example.app.push-type.liveactivity"),
                        count: 3, timeout: .milliseconds(100))
                }
                #expect(failure?.message.contains("device:applied") == true, "\(failure?.message ?? "")")
                let warned = try await target.records(JournalQuery(deviceWarnings: true))
                #expect(warned.map(\.sequence) == [5])
                #expect(try await target.records(JournalQuery(device: .dropped)).map(\.sequence) == [2])
            }

            let dropped = try await ControlCurl.call("GET", control, "/v1/requests?device=dropped")
            #expect(dropped.status == 200)
            #expect(dropped.json?["records"]?.arrayValue?.compactMap { $0["sequence"]?.scalarText } == ["2"])
            let clean = try await ControlCurl.call("GET", control, "/v1/requests?device=applied&warnings=none")
            #expect(clean.json?["records"]?.arrayValue?.count == 1)
            let typo = try await ControlCurl.call("GET", control, "/v1/requests?device=aplied")
            #expect(typo.status == 400)
            #expect(
                typo.error
                    == "device must be one of: started, applied, ended, ignored, dropped, throttled, stored, "
                    + "delivered, replaced, expired, discarded, shown, shownQuietly, withheld, notShown, launched, "
                    + "held, notLaunched, reported, terminated; got 'aplied' (did you mean 'applied'?)")
            let badWarnings = try await ControlCurl.call("GET", control, "/v1/requests?warnings=0")
            #expect(badWarnings.status == 400 && badWarnings.error == "warnings must be none or some, got '0'")

            let url = control.url
            let listed = try await CLITests.run(
                ["requests", "--control", url, "--json", "--device", "applied", "--warnings", "some"])
            #expect(listed.status == 0, "\(listed.errors)")
            let sequences = listed.output.split(separator: "\n").map { try? JSONParser.parse(String($0)) }
            #expect(sequences.map { $0?["sequence"] } == [5])
            let misspelt = try await CLITests.run(["requests", "--control", url, "--device", "aplied"])
            #expect(misspelt.status != 0)
            #expect(misspelt.errors.contains("device must be one of:"), "\(misspelt.errors)")
        }
    }
}
