import Foundation
import MockAPNsClient
import Testing

@testable import MockAPNs

/// The `liveActivity:` settings reach the simulated phone and APNs over HTTP/2 and TLS (curl): a start budget, the
/// 410 for an ended activity's token by the movable clock, declared live-activity tokens, and the section's round
/// trip through `GET` and `PUT /v1/scenario`.
@Suite("liveActivity settings end to end", .serialized)
struct LiveActivitySettingsEndToEndTests {
    static let taxiStartToken = LiveActivityEndToEndTests.taxiStartToken
    /// The delivery activity's update token in scenarios/live-activity.yaml (`kind: live-activity`).
    static let deliveryToken =
        "bfde7bcbca29718f38364f13a9e19a7bbd526c1e2db237fdeaa310195250e0ec5f593752f1d030b237264fb9099c40f7674b7159b70"
        + "ffddbb8ad6765b1f3e9b4292f834558d6ab26e5ae724c3333046c"

    /// What one push got: APNs's answer and the record's device part.
    struct Answer {
        var response: Curl.Response
        var device: DeviceOutcome?
        var status: Int { response.status }
        /// The `timestamp` of an error answer, in milliseconds.
        var timestamp: Double? { (try? JSONParser.parse(response.body))?["timestamp"]?.doubleValue }
    }

    /// POSTs `aps` to `token` as a priority-10 Live Activity push on a new connection, with a provider token issued
    /// at `at` (the mock's clock, so that it is fresh however far the clock moved).
    static func push(_ server: MockAPNsServer, to token: String, _ aps: String, at: Date = Date()) async throws
        -> Answer
    {
        let port = server.port
        let headers = EndToEndTests.pushHeaders(
            token: testProviderToken(at: at),
            [
                "apns-topic": "com.example.app.push-type.liveactivity", "apns-push-type": "liveactivity",
                "apns-priority": "10",
            ])
        let response = try await Curl.request(
            port: port, path: "/3/device/\(token)", headers: headers, body: #"{"aps":\#(aps)}"#)
        return Answer(response: response, device: server.journal.records().last?.device)
    }

    static func startTaxi(_ server: MockAPNsServer, timestamp: Int, at: Date = Date()) async throws -> Answer {
        try await push(
            server, to: taxiStartToken,
            #"{"event":"start","timestamp":\#(timestamp),"attributes-type":"mpushTaxiAttributes","#
                + #""attributes":{"appName":"Taxi","appLogo":"logo"},"content-state":{"status":"1"},"#
                + #""alert":{"title":"Your ride"},"input-push-token":1}"#,
            at: at)
    }

    static func move(_ control: MockAPNsControlAPI, _ body: String) async throws {
        let answer = try await ControlCurl.call("POST", control, "/v1/clock", body: body)
        #expect(answer.status == 200, "\(answer.text)")
    }

    /// scenarios/live-activity.yaml without its rules (so APNs itself decides), as YAML text with `extra` appended.
    static func scenarioText(_ extra: String) throws -> String {
        let file = ScenarioLoaderTests.scenariosFolder.appendingPathComponent("live-activity.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        let rules = try #require(text.range(of: "\nrules:"))
        return String(text[..<rules.lowerBound]) + "\n" + extra
    }

    @Test("startsPerWindow: 1 from PUT /v1/scenario: the second start over HTTP/2 is throttled, APNs still 200")
    func startBudget() async throws {
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let loaded = try await ControlCurl.call(
                "PUT", control, "/v1/scenario", body: try Self.scenarioText("liveActivity:\n  startsPerWindow: 1\n"))
            #expect(loaded.status == 200, "\(loaded.text)")
            let now = Int(Date().timeIntervalSince1970)
            let first = try await Self.startTaxi(server, timestamp: now)
            #expect(first.status == 200)
            #expect(first.device?.kind == .started)
            let second = try await Self.startTaxi(server, timestamp: now + 1)
            #expect(second.status == 200)
            #expect(
                second.device?.summary
                    == "throttled: push-to-start budget exceeded: 1 starts within 10m (liveActivity.startsPerWindow)")
            let record = try #require(server.journal.records().last)
            #expect(record.json["device"]?["outcome"] == "throttled")
        }
    }

    @Test("endedTokenUnregistered: 200 ignored until the delay after an end push has passed, then 410 at end + delay")
    func endedTokenAfterEndPush() async throws {
        var scenario = try LiveActivityEndToEndTests.scenario()
        scenario.liveActivity.endedTokenUnregistered = 3600
        let clock = ManualClock(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        try await withControlServer(scenario: scenario, clock: clock) { server, control in
            let now = Int(clock.now().timeIntervalSince1970)
            let start = try await Self.startTaxi(server, timestamp: now, at: clock.now())
            let token = try #require(start.device?.updateToken)
            try await Self.move(control, #"{"advance": "10m"}"#)
            let end = try await Self.push(
                server, to: token, #"{"event":"end","timestamp":\#(now + 600)}"#, at: clock.now())
            #expect(end.device?.kind == .ended)
            let endedAt = try #require(server.journal.records().last?.receivedAt)
            #expect(endedAt == clock.now())

            let update = #"{"event":"update","timestamp":\#(now + 700),"content-state":{"status":"2"}}"#
            try await Self.move(control, #"{"advance": "3599999ms"}"#)
            let before = try await Self.push(server, to: token, update, at: clock.now())
            #expect(before.status == 200)
            #expect(before.device?.summary == "ignored: activity ended")

            try await Self.move(control, #"{"advance": "1ms"}"#)
            let gone = try await Self.push(server, to: token, update, at: clock.now())
            #expect(gone.status == 410)
            #expect(gone.response.body.contains(#""reason":"Unregistered""#), "\(gone.response.body)")
            #expect(gone.timestamp == Double(Timestamp.millis(endedAt.addingTimeInterval(3600))))
            #expect(gone.device == nil, "a push APNs refused reaches no phone")
            let record = try #require(server.journal.records().last)
            #expect(record.verdict.rule == "device.activity-ended")
        }
    }

    @Test("endedTokenUnregistered after the automatic 8-hour end: 410 from start + 8 h + delay")
    func endedTokenAfterAutomaticEnd() async throws {
        var scenario = try LiveActivityEndToEndTests.scenario()
        scenario.liveActivity.endedTokenUnregistered = 0
        let clock = ManualClock(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        try await withControlServer(scenario: scenario, clock: clock) { server, control in
            let startedAt = clock.now()
            let now = Int(startedAt.timeIntervalSince1970)
            let started = try await Self.startTaxi(server, timestamp: now, at: clock.now())
            let token = try #require(started.device?.updateToken)
            let update = #"{"event":"update","timestamp":\#(now + 60),"content-state":{"status":"2"}}"#
            try await Self.move(control, #"{"advance": "28799999ms"}"#)
            let last = try await Self.push(server, to: token, update, at: clock.now())
            #expect(last.status == 200)
            #expect(last.device?.kind == .applied)
            try await Self.move(control, #"{"advance": "1ms"}"#)
            let gone = try await Self.push(server, to: token, update, at: clock.now())
            #expect(gone.status == 410)
            #expect(gone.timestamp == Double(Timestamp.millis(startedAt.addingTimeInterval(8 * 3600))))
            // An ordinary push is untouched by the setting.
            let alert = try await Curl.request(
                port: server.port, path: "/3/device/b7a7e28c5fda017fab82eb36d238c92035841d5df1883465f7a160da861ff1f1",
                headers: EndToEndTests.pushHeaders(token: testProviderToken(at: clock.now())),
                body: EndToEndTests.alert)
            #expect(alert.status == 200)
        }
    }

    @Test("with the setting off, an ended activity's token keeps answering 200 and the phone ignores the push")
    func endedTokenOffByDefault() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        let scenario = try LiveActivityEndToEndTests.scenario()
        try await withControlServer(scenario: scenario, clock: clock) { server, control in
            let now = Int(clock.now().timeIntervalSince1970)
            let started = try await Self.startTaxi(server, timestamp: now, at: clock.now())
            let token = try #require(started.device?.updateToken)
            try await Self.move(control, #"{"advance": "720h"}"#)
            let late = try await Self.push(
                server, to: token, #"{"event":"update","timestamp":\#(now + 1),"content-state":{}}"#, at: clock.now())
            #expect(late.status == 200)
            #expect(late.device?.summary == "ignored: activity ended")
        }
    }

    @Test("a declared live-activity token with attributesType gets applied, dropped, ended; again after a reset")
    func declaredToken() async throws {
        let plain = String(repeating: "ef", count: 80)
        let text = try Self.scenarioText(
            """
            liveActivity:
              startsPerWindow: 5
            """
        ).replacingOccurrences(
            of: "  - token: \(Self.deliveryToken)\n    app: com.example.app\n    kind: live-activity\n",
            with: "  - token: \(Self.deliveryToken)\n    app: com.example.app\n    kind: live-activity\n"
                + "    attributesType: mpushTakeoutAttributes\n"
                + "  - token: \(plain)\n    app: com.example.app\n    kind: live-activity\n")
        #expect(text.contains("attributesType: mpushTakeoutAttributes\n  - token: \(plain)"))
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let loaded = try await ControlCurl.call("PUT", control, "/v1/scenario", body: text)
            #expect(loaded.status == 200, "\(loaded.text)")
            let activity = try #require(server.engine.activities.activity(forToken: Self.deliveryToken))
            #expect(activity.attributesType == "mpushTakeoutAttributes")
            #expect(activity.timestamp == 0 && activity.contentState == .null && activity.pushToStartToken == nil)

            let now = Int(Date().timeIntervalSince1970)
            func send(_ aps: String) async throws -> Answer {
                let answer = try await Self.push(server, to: Self.deliveryToken, aps)
                #expect(answer.status == 200)
                return answer
            }
            let applied = try await send(#"{"event":"update","timestamp":\#(now),"content-state":{"status":2}}"#)
            #expect(applied.device?.kind == .applied)
            #expect(applied.device?.activityID == activity.id)
            let dropped = try await send(#"{"event":"update","timestamp":\#(now + 1),"content-state":{"status":"2"}}"#)
            #expect(dropped.device?.summary == "dropped: content-state.status: expected Int, found string")
            #expect(try await send(#"{"event":"end","timestamp":\#(now + 2)}"#).device?.kind == .ended)
            #expect(try await send(#"{"event":"update","timestamp":\#(now + 3),"content-state":{"status":3}}"#)
                .device?.summary == "ignored: activity ended")

            // The scenario was loaded at run time: a reset back to it, not to the one the server started with.
            let reset = try await ControlCurl.call("POST", control, "/v1/reset?to=loaded")
            #expect(reset.status == 200, "\(reset.text)")
            let again = try await send(#"{"event":"update","timestamp":\#(now + 4),"content-state":{"status":4}}"#)
            #expect(again.device?.kind == .applied)
            #expect(again.device?.activityID != activity.id, "the reset started the declared activity anew")

            let undeclared = try await Self.push(
                server, to: plain, #"{"event":"update","timestamp":\#(now),"content-state":{"status":2}}"#)
            #expect(undeclared.status == 200)
            #expect(undeclared.device == nil, "no attributesType: no activity, no device part")
        }
    }

    @Test("POST /v1/devices: a live-activity device with a declared attributesType gets an activity; unknown is 400")
    func addedToken() async throws {
        let token = String(repeating: "5a", count: 80)
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let unknown = try await ControlCurl.call(
                "POST", control, "/v1/devices",
                body: #"{"token": "\#(token)", "kind": "live-activity", "attributesType": "mpushTaxiAttribute"}"#)
            #expect(unknown.status == 400)
            #expect(
                unknown.error
                    == "attributesType 'mpushTaxiAttribute' of device \(token) is not a type the running scenario "
                    + "declares (did you mean 'mpushTaxiAttributes'?); declared: mpushTakeoutAttributes, "
                    + "mpushTaxiAttributes")
            #expect(server.engine.world.devices[token] == nil, "a refused body adds nothing")

            let added = try await ControlCurl.call(
                "POST", control, "/v1/devices",
                body: #"{"token": "\#(token)", "app": "com.example.app", "kind": "live-activity", "#
                    + #""attributesType": "mpushTaxiAttributes"}"#)
            #expect(added.status == 201, "\(added.text)")
            let now = Int(Date().timeIntervalSince1970)
            let update = try await Self.push(
                server, to: token, #"{"event":"update","timestamp":\#(now),"content-state":{"eta":"5"}}"#)
            #expect(update.status == 200)
            #expect(update.device?.kind == .applied)
        }
    }

    @Test("GET /v1/scenario writes liveActivity; PUT of it gives the same settings to the scenario and the engine")
    func snapshotRoundTrip() async throws {
        var scenario = try LiveActivityEndToEndTests.scenario()
        scenario.liveActivity = try ScenarioLoader.parse(
            yaml: LiveActivitySettingsLoaderTests.everyKey, sourcePath: nil, baseDirectory: "/"
        ).liveActivity
        try await withControlServer(scenario: scenario) { server, control in
            let client = MockAPNsControlClient(url: control.url)
            let document = try await client.scenario().document
            #expect(document["liveActivity"]?["startsPerWindow"] == 3)
            _ = try await client.loadScenario(yaml: Self.scenarioText(""))
            #expect(server.currentScenario.liveActivity == LiveActivitySettings())
            #expect(server.engine.activityConfig.withLockedValue { $0.settings } == LiveActivitySettings())

            _ = try await client.loadScenario(yaml: document.jsonText)
            #expect(server.currentScenario.liveActivity == scenario.liveActivity)
            #expect(server.engine.activityConfig.withLockedValue { $0.settings } == scenario.liveActivity)
            #expect(try await client.scenario().document == document)
        }
    }
}
