import Foundation
import Testing

@testable import MockAPNs

/// Broadcasts reaching the simulated phone (issue 24): activities subscribe to channels (push-to-start
/// `input-push-channel`, `POST /v1/activities` with `channel`, a scenario's `live-activity` device), and an accepted
/// broadcast fans out to them after its answer, judged as an update to each, with a `fan-out` record.
@Suite("Broadcast fan-out to subscribed activities over TLS and HTTP/2", .serialized)
struct BroadcastFanOutEndToEndTests {
    static let app = BroadcastSendEndToEndTests.app
    static let other = "com.example.other"
    static let taxi = "mpushTaxiAttributes"
    /// A sandbox channel of the app with policy 0, one with policy 1, a production one, and one of another app.
    static let plain = "c2NvcmVzLTA="
    static let stored = "c2NvcmVzLTE="
    static let production = "cHJvZHVjdGlvbg=="
    static let otherApp = "b3RoZXItYXBw"

    /// The live-activity scenario (strict, the taxi and takeout types) with the four channels and another app.
    static func scenario() throws -> Scenario {
        var scenario = try LiveActivityEndToEndTests.scenario()
        scenario.world.apps[other] = AppRecord(bundleID: other, teamID: "TESTTEAM01")
        scenario.channels = [
            ChannelDeclaration(id: plain, bundleID: app),
            ChannelDeclaration(id: stored, bundleID: app, storagePolicy: .mostRecent),
            ChannelDeclaration(id: production, bundleID: app, environment: .production),
            ChannelDeclaration(id: otherApp, bundleID: other),
        ]
        return scenario
    }

    /// A taxi activity started locally and subscribed to `channel`, through `POST /v1/activities`: its id.
    static func subscribe(_ control: MockAPNsControlAPI, to channel: String) async throws -> String {
        let body =
            #"{"attributesType": "mpushTaxiAttributes", "attributes": {"appName": "Taxi", "appLogo": "logo"},"#
            + #" "contentState": {"status": "1"}, "channel": "\#(channel)"}"#
        let answer = try await ControlCurl.call("POST", control, "/v1/activities", body: body)
        #expect(answer.status == 201 || answer.status == 200, "\(answer.text)")
        #expect(answer.json?["channel"] == .string(channel))
        return try #require(answer.json?["id"]?.stringValue)
    }

    /// An `update` to the taxi's content state with `timestamp`.
    static func update(_ status: String, timestamp: Int) -> String {
        #"{"aps":{"event":"update","timestamp":\#(timestamp),"content-state":{"status":"\#(status)"}}}"#
    }

    /// Broadcasts `body` to `channel` of `app` with curl over HTTP/2: the status, and the broadcast record's
    /// sequence number.
    static func broadcast(
        _ server: MockAPNsServer, _ body: String, to channel: String, app: String = app, expiration: String = "0",
        priority: String = "10"
    ) async throws -> (status: Int, sequence: UInt64?) {
        let headers = BroadcastSendEndToEndTests.headers(
            channel: channel, ["apns-expiration": expiration, "apns-priority": priority])
        let response = try await Curl.request(
            port: server.port, path: "/4/broadcasts/apps/\(app)", headers: headers, body: body)
        let record = server.journal.records().last {
            $0.kind == .broadcast && $0.rawJSON?["channel"] == .string(channel)
        }
        return (response.status, record?.sequence)
    }

    /// Waits over the control API for `count` `fan-out` records after the record `since`: the records.
    static func fanOuts(_ control: MockAPNsControlAPI, count: Int, since: UInt64) async throws -> [JSONValue] {
        let answer = try await ControlCurl.call(
            "GET", control, "/v1/requests/wait?q=kind:fan-out&since=\(since)&count=\(count)&timeout=10s")
        #expect(answer.status == 200, "\(answer.text)")
        return answer.json?["records"]?.arrayValue ?? []
    }

    /// Waits over the control API for the first `fan-out` record of the broadcast `sequence` after the record
    /// `since` (the broadcast itself when not given).
    static func fanOut(_ control: MockAPNsControlAPI, of sequence: UInt64, since: UInt64? = nil) async throws
        -> JSONValue
    {
        let records = try await fanOuts(control, count: 1, since: since ?? sequence)
        return try #require(records.first { $0["broadcast"] == .number(String(sequence)) })
    }

    /// The activity `id` as `GET /v1/activities/{id}` shows it.
    static func activity(_ control: MockAPNsControlAPI, _ id: String) async throws -> JSONValue {
        let answer = try await ControlCurl.call("GET", control, "/v1/activities/\(id)")
        #expect(answer.status == 200)
        return try #require(answer.json)
    }

    @Test("POST /v1/activities with channel subscribes the activity; the channel lists its subscribers")
    func subscribeLocally() async throws {
        try await withControlServer(scenario: try Self.scenario()) { _, control in
            let first = try await Self.subscribe(control, to: Self.plain)
            let second = try await Self.subscribe(control, to: Self.plain)
            #expect(try await Self.activity(control, first)["channel"] == .string(Self.plain))
            let channel = try await ControlCurl.call("GET", control, "/v1/channels/\(Self.plain)")
            #expect(channel.json?["subscribers"] == 2)
            #expect(channel.json?["subscriberIDs"] == .array([.string(first), .string(second)]))
            let listed = try await ControlCurl.call("GET", control, "/v1/channels")
            let others = listed.json?["channels"]?.arrayValue?.filter { $0["id"] != .string(Self.plain) }
            #expect(others?.allSatisfy { $0["subscribers"] == 0 } == true)

            for (channel, message) in [
                ("AAAA", "is not a live channel"), (Self.production, "is not a live channel"),
                ("not base64!", "channel must be a channel id"),
            ] {
                let body =
                    #"{"attributesType": "mpushTaxiAttributes", "attributes": {"appName": "T", "appLogo": "l"},"#
                    + #" "contentState": {}, "channel": "\#(channel)"}"#
                let refused = try await ControlCurl.call("POST", control, "/v1/activities", body: body)
                #expect(refused.status == 400, "\(channel)")
                #expect(refused.error?.contains(message) == true, "\(channel): \(refused.text)")
            }
        }
    }

    @Test("a broadcast reaches both subscribers after its answer; an older timestamp is ignored by one, not the other")
    func fanOutJudgedPerActivity() async throws {
        try await withControlServer(scenario: try Self.scenario()) { server, control in
            let first = try await Self.subscribe(control, to: Self.plain)
            let second = try await Self.subscribe(control, to: Self.plain)
            let now = Int(Date().timeIntervalSince1970)

            let sent = try await Self.broadcast(server, Self.update("2", timestamp: now), to: Self.plain)
            #expect(sent.status == 200)
            let broadcast = try #require(sent.sequence)
            let record = try await Self.fanOut(control, of: broadcast)
            #expect(record["channel"] == .string(Self.plain))
            #expect(record["subscribers"] == 2 && record["stored"] == false)
            #expect(record["outcomes"]?["applied"] == 2 && record["outcomes"]?["ignored"] == 0)
            #expect(record["rules"]?["activity-applied"] == 2)
            for id in [first, second] {
                let activity = try await Self.activity(control, id)
                #expect(activity["contentState"] == ["status": "2"])
                let last = try #require(activity["history"]?.arrayValue?.last)
                #expect(last["sequence"] == .number(String(broadcast)))
                #expect(last["channel"] == .string(Self.plain) && last["outcome"] == "applied")
            }

            // The first activity gets a newer update on its own token: the next broadcast is older for it only.
            let token = try #require(try await Self.activity(control, first)["updateToken"]?.stringValue)
            let own = try await LiveActivityEndToEndTests.push(
                server, to: token, #"{"event":"update","timestamp":\#(now + 60),"content-state":{"status":"3"}}"#)
            #expect(own.device?.kind == .applied)
            let stale = try await Self.broadcast(server, Self.update("4", timestamp: now + 30), to: Self.plain)
            let staleRecord = try await Self.fanOut(control, of: try #require(stale.sequence))
            #expect(staleRecord["outcomes"]?["applied"] == 1 && staleRecord["outcomes"]?["ignored"] == 1)
            #expect(staleRecord["rules"]?["activity-older-timestamp"] == 1)
            let listed = staleRecord["activities"]?.arrayValue ?? []
            #expect(listed.first { $0["activity"] == .string(first) }?["outcome"] == "ignored")
            #expect(listed.first { $0["activity"] == .string(second) }?["outcome"] == "applied")
            #expect(try await Self.activity(control, first)["contentState"] == ["status": "3"])
            #expect(try await Self.activity(control, second)["contentState"] == ["status": "4"])

            // A broadcast start is dropped by every subscriber: a channel only updates or ends.
            let start = try await Self.broadcast(
                server, #"{"aps":{"event":"start","timestamp":\#(now + 90),"content-state":{}}}"#, to: Self.plain)
            let startRecord = try await Self.fanOut(control, of: try #require(start.sequence))
            #expect(startRecord["outcomes"]?["dropped"] == 2)
            #expect(startRecord["rules"]?["activity-broadcast-start"] == 2)
        }
    }

    @Test("a push-to-start with input-push-channel starts a subscribed activity without an update token")
    func pushToStartSubscribes() async throws {
        try await withControlServer(scenario: try Self.scenario()) { server, control in
            let now = Int(Date().timeIntervalSince1970)
            func start(_ channel: String) async throws -> (status: Int, device: DeviceOutcome?) {
                try await LiveActivityEndToEndTests.push(
                    server, to: LiveActivityEndToEndTests.taxiStartToken,
                    #"{"event":"start","timestamp":\#(now),"attributes-type":"mpushTaxiAttributes","#
                        + #""attributes":{"appName":"Taxi","appLogo":"logo"},"content-state":{"status":"1"},"#
                        + #""alert":{"title":"Your ride"},"input-push-channel":"\#(channel)"}"#)
            }
            let started = try await start(Self.plain)
            #expect(started.status == 200 && started.device?.kind == .started)
            #expect(started.device?.updateToken == nil)
            let id = try #require(started.device?.activityID)
            #expect(try await Self.activity(control, id)["channel"] == .string(Self.plain))

            for channel in ["AAAA", Self.otherApp, Self.production] {
                let refused = try await start(channel)
                #expect(refused.status == 200, "\(channel)")
                #expect(refused.device?.kind == .dropped && refused.device?.rule == .activityUnknownChannel)
            }

            let sent = try await Self.broadcast(server, Self.update("2", timestamp: now + 1), to: Self.plain)
            let record = try await Self.fanOut(control, of: try #require(sent.sequence))
            #expect(record["subscribers"] == 1 && record["outcomes"]?["applied"] == 1)
        }
    }

    @Test("an activity of the other environment or of another app is not reached")
    func otherEnvironmentAndAppNotReached() async throws {
        var scenario = try Self.scenario()
        let tokens = (1...3).map { String(repeating: String($0), count: 64) }
        scenario.world.devices[tokens[0]] = Device(
            token: tokens[0], bundleID: Self.app, kind: .liveActivity, attributesType: Self.taxi, channel: Self.plain)
        scenario.world.devices[tokens[1]] = Device(
            token: tokens[1], bundleID: Self.app, environment: .production, kind: .liveActivity,
            attributesType: Self.taxi, channel: Self.production)
        scenario.world.devices[tokens[2]] = Device(
            token: tokens[2], bundleID: Self.other, kind: .liveActivity, attributesType: Self.taxi,
            channel: Self.otherApp)
        try await withControlServer(scenario: scenario) { server, control in
            let now = Int(Date().timeIntervalSince1970)
            let sent = try await Self.broadcast(server, Self.update("2", timestamp: now), to: Self.plain)
            let record = try await Self.fanOut(control, of: try #require(sent.sequence))
            #expect(record["subscribers"] == 1)
            let reached = record["activities"]?.arrayValue?.compactMap { $0["activity"]?.stringValue }
            let mine = try #require(server.engine.activities.activity(forToken: DeviceToken(validated: tokens[0])))
            #expect(reached == [mine.id])

            let production = try await Self.broadcast(server, Self.update("2", timestamp: now), to: Self.production)
            #expect(production.status == 400)
            for token in tokens.dropFirst() {
                let activity = try #require(server.engine.activities.activity(forToken: DeviceToken(validated: token)))
                #expect(activity.history.isEmpty, "\(token)")
            }
            let subscribers = try await ControlCurl.call("GET", control, "/v1/channels/\(Self.otherApp)")
            #expect(subscribers.json?["subscribers"] == 1)
        }
    }

    @Test("policy 1: an activity that subscribes later gets the stored message; policy 0 keeps none")
    func storedMessageForLaterSubscribers() async throws {
        try await withControlServer(scenario: try Self.scenario()) { server, control in
            let now = Int(Date().timeIntervalSince1970)
            let expiration = String(now + 3600)
            let kept = try await Self.broadcast(
                server, Self.update("5", timestamp: now), to: Self.stored, expiration: expiration, priority: "5")
            let keptSequence = try #require(kept.sequence)
            #expect(try await Self.fanOut(control, of: keptSequence)["subscribers"] == 0)
            let plain = try await Self.broadcast(server, Self.update("5", timestamp: now), to: Self.plain)
            #expect(try await Self.fanOut(control, of: try #require(plain.sequence))["subscribers"] == 0)

            let before = server.journal.records().last?.sequence ?? 0
            let late = try await Self.subscribe(control, to: Self.stored)
            let catchUp = try await Self.fanOut(control, of: keptSequence, since: before)
            #expect(catchUp["stored"] == true && catchUp["subscribers"] == 1)
            #expect(catchUp["outcomes"]?["applied"] == 1)
            let activity = try await Self.activity(control, late)
            #expect(activity["contentState"] == ["status": "5"])
            #expect(activity["history"]?.arrayValue?.last?["sequence"] == .number(String(keptSequence)))
            // Judged at the broadcast's own priority (5: outside the priority-10 update budget).
            #expect(activity["history"]?.arrayValue?.last?["priority"] == 5)
            let channel = try await ControlCurl.call("GET", control, "/v1/channels/\(Self.stored)")
            #expect(channel.json?["storedMessage"]?["sequence"] == .number(String(keptSequence)))
            #expect(channel.json?["storedMessage"]?["priority"] == 5)

            let none = try await Self.subscribe(control, to: Self.plain)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await Self.activity(control, none)["history"]?.arrayValue?.isEmpty == true)

            // Past the 8 hours the stored message is not handed over.
            try await server.control.advanceClock(by: .seconds(8 * 3600 + 1))
            let tooLate = try await Self.subscribe(control, to: Self.stored)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await Self.activity(control, tooLate)["history"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test("1,000 subscribed activities, one broadcast: every outcome recorded, none lost")
    func thousandSubscribers() async throws {
        try await withControlServer(scenario: try Self.scenario()) { server, control in
            var ids: [String] = []
            for _ in 0..<1000 {
                let start = ActivityStart(
                    attributesType: Self.taxi, attributes: ["appName": "Taxi", "appLogo": "logo"],
                    contentState: ["status": "1"], channel: Self.plain)
                ids.append(try await server.control.startActivity(start).id)
            }
            let now = Int(Date().timeIntervalSince1970)
            let sent = try await Self.broadcast(server, Self.update("2", timestamp: now), to: Self.plain)
            #expect(sent.status == 200)
            let sequence = try #require(sent.sequence)
            let record = try await Self.fanOut(control, of: sequence)
            #expect(record["subscribers"] == 1000 && record["outcomes"]?["applied"] == 1000)
            #expect(record["activities"]?.arrayValue?.count == FanOutTally.listedLimit)
            for id in ids {
                let activity = try #require(server.engine.activities.activity(id: id))
                #expect(activity.history.last?.sequence == sequence, "\(id)")
                #expect(activity.contentState == ["status": "2"])
            }
        }
    }

    @Test(
        "a flood of broadcasts to 5,000 subscribers: past 64 waiting, 429 channel.fan-out-backlog; each accepted fans out",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/h2load"), "needs h2load (nghttp2-client)"))
    func fanOutBacklogIsBounded() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mock-apns-backlog-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = folder.appendingPathComponent("update.json")
        try Self.update("2", timestamp: Int(Date().timeIntervalSince1970)).write(
            to: body, atomically: true, encoding: .utf8)
        try await withControlServer(scenario: try Self.scenario()) { server, control in
            for _ in 0..<5000 {
                let start = ActivityStart(
                    attributesType: Self.taxi, attributes: ["appName": "Taxi", "appLogo": "logo"],
                    contentState: ["status": "1"], channel: Self.plain)
                _ = try await server.control.startActivity(start).id
            }
            // One stream per connection: after a refusal APNs (and the mock) allows a connection one stream at a
            // time, and h2load counts the streams then refused as errors.
            let headers = BroadcastSendEndToEndTests.headers(channel: Self.plain)
            let run = try await Subprocess.run(
                "/usr/bin/h2load",
                ["-c", "4", "-m", "1", "-n", "1000", "-d", body.path]
                    + headers.sorted { $0.key < $1.key }.flatMap { ["-H", "\($0.key): \($0.value)"] }
                    + ["https://127.0.0.1:\(server.port)/4/broadcasts/apps/\(Self.app)"],
                timeout: 120)
            #expect(run.status == 0, "\(run.output)\(run.errors)")
            let broadcasts = server.journal.records().filter { $0.kind == .broadcast }
            let accepted = broadcasts.filter { $0.rawJSON?["status"] == 200 }
            let refused = broadcasts.filter { $0.rawJSON?["status"] == 429 }
            #expect(broadcasts.count == 1000 && accepted.count + refused.count == 1000,
                "\(broadcasts.count) broadcasts, \(accepted.count) accepted, \(refused.count) refused: \(run.output)")
            #expect(!refused.isEmpty, "1,000 broadcasts at once to 5,000 subscribers never filled the backlog")
            #expect(accepted.count >= FanOutBacklog.limit)
            #expect(refused.allSatisfy { $0.rawJSON?["rule"] == "channel.fan-out-backlog" })
            #expect(refused.first?.rawJSON?["reason"] == "TooManyRequests")
            // Every accepted broadcast fans out, and the backlog empties: a broadcast after it is accepted again.
            // Waited for in the journal, not through GET /v1/requests/wait: on a loaded CI machine the fan-outs
            // outlast a curl's 15 s.
            var fanOuts: [JSONValue] = []
            let deadline = ContinuousClock.now + .seconds(300)
            repeat {
                try await Task.sleep(for: .milliseconds(100))
                fanOuts = server.journal.records().compactMap { $0.kind == .fanOut ? $0.rawJSON : nil }
            } while (fanOuts.count < accepted.count || server.engine.fanOutBacklog.count > 0)
                && ContinuousClock.now < deadline
            #expect(fanOuts.count == accepted.count)
            #expect(Set(fanOuts.compactMap { $0["broadcast"]?.unsignedValue }) == Set(accepted.compactMap(\.sequence)))
            #expect(fanOuts.allSatisfy { $0["subscribers"] == 5000 })
            #expect(server.engine.fanOutBacklog.count == 0)
            let later = try await Self.broadcast(
                server, Self.update("3", timestamp: Int(Date().timeIntervalSince1970) + 1), to: Self.plain)
            #expect(later.status == 200)
        }
    }

    @Test("broadcasts and subscriptions at once: every subscriber a fan-out counted has the broadcast in its history")
    func concurrentBroadcastsAndSubscriptions() async throws {
        try await withControlServer(scenario: try Self.scenario()) { server, control in
            let now = Int(Date().timeIntervalSince1970)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<4 {
                    group.addTask {
                        let sent = try await Self.broadcast(
                            server, Self.update("\(index)", timestamp: now + index), to: Self.plain)
                        #expect(sent.status == 200)
                    }
                }
                for _ in 0..<4 {
                    group.addTask {
                        for _ in 0..<50 {
                            let start = ActivityStart(
                                attributesType: Self.taxi, attributes: ["appName": "Taxi", "appLogo": "logo"],
                                contentState: ["status": "1"], channel: Self.plain)
                            _ = try await server.control.startActivity(start)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let broadcasts = server.journal.records().filter { $0.kind == .broadcast }
            #expect(broadcasts.count == 4)
            let records = try await Self.fanOuts(control, count: 4, since: 0)
            #expect(Set(records.compactMap { $0["broadcast"] }) == Set(broadcasts.map { .number(String($0.sequence)) }))
            let counted = records.reduce(0) { total, record in
                total + (record["subscribers"].flatMap(JSONForm<Int>.integer(from:)) ?? -1000)
            }
            let received = server.engine.activities.activities.reduce(0) { total, activity in
                total + activity.history.filter { $0.channel == Self.plain }.count
            }
            #expect(server.engine.activities.activities.count == 200)
            #expect(counted == received)
        }
    }

    @Test("a reset forgets subscriptions made during the run and restores a declared device's")
    func resetRestoresDeclaredSubscriptions() async throws {
        var scenario = try Self.scenario()
        let token = String(repeating: "ab", count: 32)
        scenario.world.devices[token] = Device(
            token: token, bundleID: Self.app, kind: .liveActivity, attributesType: Self.taxi, channel: Self.plain)
        try await withControlServer(scenario: scenario) { server, control in
            _ = try await Self.subscribe(control, to: Self.plain)
            #expect(try await server.control.channel(id: Self.plain)?.subscribers == 2)
            let reset = try await ControlCurl.call("POST", control, "/v1/reset")
            #expect(reset.status == 200 || reset.status == 204)
            let after = try #require(try await server.control.channel(id: Self.plain))
            #expect(after.subscribers == 1)
            let declared = try #require(server.engine.activities.activity(forToken: DeviceToken(validated: token)))
            #expect(after.subscriberIDs == [declared.id])
        }
    }
}

/// `expect:`'s `device:` on a broadcast: its fan-out's outcomes, one per activity, counted with `count:`.
@Suite("Expectations on a broadcast's fan-out", .serialized)
struct BroadcastFanOutExpectationTests {
    /// The first expectation of a scenario whose `expect:` is `yaml`.
    static func expectation(_ yaml: String) throws -> ScenarioExpectation {
        let scenario = try ScenarioLoader.parse(yaml: "expect:\n" + yaml, sourcePath: "t.yaml", baseDirectory: "/")
        return try #require(scenario.expectations.first)
    }

    @Test("device: { outcome: applied, count: 2 } passes when both subscribers applied, fails at 3 or for ignored")
    func countsActivities() async throws {
        try await withControlServer(scenario: try BroadcastFanOutEndToEndTests.scenario()) { server, control in
            let channel = BroadcastFanOutEndToEndTests.plain
            _ = try await BroadcastFanOutEndToEndTests.subscribe(control, to: channel)
            _ = try await BroadcastFanOutEndToEndTests.subscribe(control, to: channel)
            let sent = try await BroadcastFanOutEndToEndTests.broadcast(
                server, BroadcastFanOutEndToEndTests.update("2", timestamp: Int(Date().timeIntervalSince1970)),
                to: channel)
            let broadcast = try #require(sent.sequence)
            _ = try await BroadcastFanOutEndToEndTests.fanOut(control, of: broadcast)
            let records = server.journal.records()

            let met = try Self.expectation(
                "  - name: the score reached both phones\n    match: { device: { outcome: applied, count: 2 } }\n")
            let item = met.check(records, deadline: nil)
            #expect(item.passed, "\(item.details)")
            #expect(item.records == [broadcast])
            #expect(met.match.device?.text.contains("exactly 2 of its outcomes") == true)

            for yaml in [
                "    match: { device: { outcome: applied, count: 3 } }\n",
                "    match: { device: { outcome: ignored, count: { min: 1 } } }\n",
            ] {
                let missed = try Self.expectation("  - name: missed\n" + yaml).check(records, deadline: nil)
                #expect(!missed.passed, "\(yaml)")
                #expect(missed.summary.contains("got 0"), "\(missed.summary)")
            }
            // Without count, any one applied activity is enough; the expectation's count counts broadcasts.
            let any = try Self.expectation("  - match: { device: { outcome: applied } }\n    count: 1\n")
            #expect(any.check(records, deadline: nil).passed)

            // Through `verify`, as `mock-apns run` checks: an expectation sees the broadcasts when it names their
            // channel, and only then (one that names none checks device pushes, as before channels).
            let named = try ScenarioLoader.parse(
                yaml: "expect:\n  - match: { channel: \(channel), device: { outcome: applied, count: 2 } }\n",
                sourcePath: "t.yaml", baseDirectory: "/")
            #expect(named.verify(records, startedAt: .distantPast).passed)
            let unnamed = try ScenarioLoader.parse(
                yaml: "expect:\n  - match: { device: { outcome: applied, count: 2 } }\n", sourcePath: "t.yaml",
                baseDirectory: "/")
            #expect(!unnamed.verify(records, startedAt: .distantPast).passed)
        }
    }

    @Test("reads count in device: and writes it back; refuses a bad one at its field")
    func loads() throws {
        let expectation = try Self.expectation("  - match: { device: { outcome: applied, count: { min: 2 } } }\n")
        #expect(expectation.match.device?.count == 2...Int.max)
        #expect(expectation.match.device?.scenarioJSON["count"] == ["min": 2])
        do {
            _ = try Self.expectation("  - match: { device: { outcome: applied, count: -1 } }\n")
            Issue.record("loaded")
        } catch {
            #expect((error as? ScenarioError)?.field == "expect[0].match.device.count", "\(error)")
        }
    }
}

/// A scenario's `live-activity` device with `channel:`: where the loader refuses it.
@Suite("Scenario devices subscribed to channels")
struct ScenarioDeviceChannelTests {
    static let head = """
        activityTypes:
          T:
            attributes: {}
            contentState: {}
        channels:
          - id: c2NvcmVzLTA=
            app: com.example.app
          - id: cHJvZHVjdGlvbg==
            app: com.example.app
            environment: production
        devices:
          - token: \(String(repeating: "ab", count: 32))
            app: com.example.app

        """

    @Test("reads a live-activity device's channel and writes it back")
    func reads() throws {
        let scenario = try ScenarioLoader.parse(
            yaml: Self.head + "    kind: live-activity\n    attributesType: T\n    channel: c2NvcmVzLTA=\n",
            sourcePath: "test.yaml", baseDirectory: "/")
        let device = try #require(scenario.world.devices.values.first)
        #expect(device.channel == "c2NvcmVzLTA=")
        #expect(device.scenarioJSON["channel"] == "c2NvcmVzLTA=")
    }

    @Test(
        "refuses a device channel at its line and field",
        arguments: [
            ("    kind: live-activity\n    attributesType: T\n    channel: AAAA\n", "is not one of the channels"),
            ("    kind: live-activity\n    attributesType: T\n    channel: cHJvZHVjdGlvbg==\n", "production channel"),
            ("    kind: live-activity\n    channel: c2NvcmVzLTA=\n", "with an attributesType"),
            ("    kind: app\n    channel: c2NvcmVzLTA=\n", "live-activity device"),
            ("    kind: live-activity\n    attributesType: T\n    channel: no base64\n", "base64"),
        ] as [(String, String)])
    func refused(tail: String, mentions: String) throws {
        do {
            _ = try ScenarioLoader.parse(yaml: Self.head + tail, sourcePath: "test.yaml", baseDirectory: "/")
            Issue.record("loaded")
        } catch {
            #expect(error.field == "devices[0].channel")
            #expect(error.file == "test.yaml" && error.line != nil)
            #expect(error.message.contains(mentions), "\(error.message)")
        }
    }
}
