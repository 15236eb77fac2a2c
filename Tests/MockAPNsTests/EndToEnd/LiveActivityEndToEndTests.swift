import Foundation
import Testing

@testable import MockAPNs

/// The simulated phone over HTTP/2 and TLS (curl): the taxi flow of scenarios/live-activity.yaml, its scripted
/// rules left out so that APNs itself decides.
@Suite("Live Activity device stage end to end", .serialized)
struct LiveActivityEndToEndTests {
    static let taxiStartToken =
        "db25ba3912644edd5d2dbfcaf74fca37e1c3619d95d3972169965f30f2c57e64b5efa1cec2f437cf204256b5d6f881335a727f746099f"
        + "fd4676e7e40a14ee3683d8809d5d8b4aaf6eea31109209ed97c"

    static func scenario() throws -> Scenario {
        var scenario = try ScenarioLoader.load(
            file: ScenarioLoaderTests.scenariosFolder.appendingPathComponent("live-activity.yaml").path)
        scenario.rules = []
        return scenario
    }

    /// POSTs `aps` to `token` as a priority-10 Live Activity push on a new connection; answers the status and the
    /// record's device part.
    static func push(
        _ server: MockAPNsServer, to token: String, _ aps: String, jwt: String = testProviderToken()
    ) async throws -> (status: Int, device: DeviceOutcome?) {
        let port = server.port
        let headers = EndToEndTests.pushHeaders(
            token: jwt,
            [
                "apns-topic": "com.example.app.push-type.liveactivity", "apns-push-type": "liveactivity",
                "apns-priority": "10",
            ])
        let response = try await Curl.request(
            port: port, path: "/3/device/\(token)", headers: headers, body: #"{"aps":\#(aps)}"#)
        return (response.status, server.journal.records().last?.device)
    }

    /// Starts a taxi ride through the taxi's push-to-start token at `now` (seconds), asking for its update token.
    static func startRide(_ server: MockAPNsServer, now: Int) async throws -> (status: Int, device: DeviceOutcome?) {
        try await push(
            server, to: taxiStartToken,
            #"{"event":"start","timestamp":\#(now),"attributes-type":"mpushTaxiAttributes","#
                + #""attributes":{"appName":"Taxi","appLogo":"logo"},"content-state":{"status":"1"},"#
                + #""alert":{"title":"Your ride"},"input-push-token":1}"#)
    }

    @Test("start, update, older, equal, undecodable, 9 hours later, end: the phone's outcome on each record")
    func taxiFlow() async throws {
        try await withControlServer(scenario: try Self.scenario()) { server, control in
            let now = Int(Date().timeIntervalSince1970)
            let start = try await Self.startRide(server, now: now)
            #expect(start.status == 200)
            #expect(start.device?.kind == .started)
            let token = try #require(start.device?.updateToken)
            #expect(token.count == 160)

            var offset: TimeInterval = 0
            func update(_ timestamp: Int, _ state: String = #"{"status":"2"}"#, event: String = "update")
                async throws -> DeviceOutcome?
            {
                let jwt = testProviderToken(at: Date() + offset)
                let answer = try await Self.push(
                    server, to: token, #"{"event":"\#(event)","timestamp":\#(timestamp),"content-state":\#(state)}"#,
                    jwt: jwt)
                #expect(answer.status == 200, "strict mode accepts the issued token")
                return answer.device
            }
            #expect(try await update(now + 10)?.kind == .applied)
            #expect(try await update(now + 5)?.kind == .ignored)
            let equal = try await update(now + 10, #"{"status":"3"}"#)
            #expect(equal?.kind == .applied && equal?.notes.isEmpty == false)
            #expect(
                try await update(now + 11, #"{"status":3}"#)?.summary
                    == "dropped: content-state.status: expected String, found number")
            let moved = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "9h"}"#)
            #expect(moved.status == 200)
            offset = 9 * 3600
            #expect(try await update(now + 9 * 3600)?.summary == "ignored: activity ended")

            let other = try await Self.push(
                server, to: Self.taxiStartToken,
                #"{"event":"start","timestamp":\#(now + 9 * 3600),"attributes-type":"mpushTaxiAttributes","#
                    + #""attributes":{"appName":"Taxi","appLogo":"logo"},"content-state":{"status":"1"},"#
                    + #""alert":{"title":"Your ride"}}"#,
                jwt: testProviderToken(at: Date() + 9 * 3600))
            #expect(other.device?.kind == .started && other.device?.notes.count == 1)
            let end = try await Self.push(
                server, to: try #require(other.device?.updateToken),
                #"{"event":"end","timestamp":\#(now + 9 * 3600 + 1)}"#, jwt: testProviderToken(at: Date() + 9 * 3600))
            #expect(end.device?.kind == .ended)

            let records = server.journal.records()
            let parsed = try JSONParser.parse(records[1].json.jsonText)
            #expect(JournalRecord(json: parsed)?.device?.kind == .applied)
        }
    }

    @Test("many activities updated from several connections at once: no outcome is lost")
    func concurrentActivities() async throws {
        // Six starts and four updates each: within the default budgets (10 starts per 10 minutes, 60 an hour).
        try await withTestServer(scenario: try Self.scenario()) { server in
            let now = Int(Date().timeIntervalSince1970)
            var tokens = [String]()
            for index in 0..<6 {
                let start = try await Self.push(
                    server, to: Self.taxiStartToken,
                    #"{"event":"start","timestamp":\#(now),"attributes-type":"mpushTaxiAttributes","#
                        + #""attributes":{"appName":"Taxi \#(index)","appLogo":"logo"},"content-state":{},"#
                        + #""alert":{"title":"Ride"},"input-push-token":1}"#)
                tokens.append(try #require(start.device?.updateToken))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for token in tokens {
                    for step in 1...4 {
                        group.addTask {
                            let answer = try await Self.push(
                                server, to: token,
                                #"{"event":"update","timestamp":\#(now + step),"content-state":{"eta":"\#(step)"}}"#)
                            #expect(answer.status == 200)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let updates = server.journal.records().filter { $0.contentText.hasPrefix("event update") }
            #expect(updates.count == 24)
            #expect(updates.allSatisfy { $0.device != nil })
            for token in tokens {
                let history = try #require(server.engine.activities.activity(forToken: token)?.history)
                #expect(history.count == 5)
                #expect(history.filter { $0.outcome == .applied || $0.outcome == .ignored }.count == 4)
            }
        }
    }

    /// The delivery activity's update token, declared `kind: live-activity` in scenarios/live-activity.yaml.
    static let declaredUpdateToken =
        "bfde7bcbca29718f38364f13a9e19a7bbd526c1e2db237fdeaa310195250e0ec5f593752f1d030b237264fb9099c40f7674b7159b70"
        + "ffddbb8ad6765b1f3e9b4292f834558d6ab26e5ae724c3333046c"

    @Test("an alert to an update token the phone issued, or rotated to, gets 400 DeviceTokenNotForTopic, as declared")
    func alertToIssuedToken() async throws {
        try await withTestServer(scenario: try Self.scenario()) { server in
            let now = Int(Date().timeIntervalSince1970)
            let start = try await Self.startRide(server, now: now)
            let issued = try #require(start.device?.updateToken)
            let port = server.port
            func alert(_ token: String) async throws -> (status: Int, body: String, record: JournalRecord?) {
                let response = try await Curl.request(
                    port: port, path: "/3/device/\(token)", headers: EndToEndTests.pushHeaders(),
                    body: EndToEndTests.alert)
                return (response.status, response.body, server.journal.records().last)
            }
            let declared = try await alert(Self.declaredUpdateToken)
            #expect(declared.status == 400 && declared.body == #"{"reason":"DeviceTokenNotForTopic"}"#)
            let toIssued = try await alert(issued)
            #expect(toIssued.status == 400 && toIssued.body == #"{"reason":"DeviceTokenNotForTopic"}"#)
            #expect(toIssued.record?.rule == "device.kind")
            #expect(toIssued.record?.explanation == declared.record?.explanation)
            #expect(toIssued.record?.explanation == "the token is a live-activity token; it cannot take alert pushes")

            let activityID = try #require(start.device?.activityID)
            let rotated = try await server.rotateActivityToken(id: activityID)
            let toRotated = try await alert(rotated.activity.updateToken)
            #expect(toRotated.status == 400 && toRotated.record?.rule == "device.kind")
            // The activity's own pushes still go through.
            let update = try await Self.push(
                server, to: rotated.activity.updateToken,
                #"{"event":"update","timestamp":\#(now + 1),"content-state":{}}"#)
            #expect(update.status == 200 && update.device?.kind == .applied)
        }
    }

    @Test("an ordinary alert gets the default phone's outcome; with simulation.enabled false it has no device part")
    func ordinaryPush() async throws {
        func push(_ server: MockAPNsServer) async throws -> JournalRecord? {
            let port = server.port
            let response = try await Curl.request(
                port: port, path: "/3/device/\(EndToEndTests.device)", headers: EndToEndTests.pushHeaders(),
                body: EndToEndTests.alert)
            #expect(response.status == 200)
            return server.journal.records().last
        }
        try await withTestServer { server in
            let record = try await push(server)
            #expect(record?.device?.kind == .shown && record?.device?.rule == .alertShown)
        }
        var off = Scenario.embeddedDefault(port: 0)
        off.world.phone.settings.enabled = false
        try await withTestServer(scenario: off) { server in
            let record = try await push(server)
            #expect(record?.device == nil)
            #expect(record?.json["device"] == nil)
        }
    }

    @Test("an upper-case push-to-start token starts an activity, and an upper-case update token updates it")
    func upperCaseTokens() async throws {
        // APNs takes upper-case hex (`acceptUppercaseDeviceTokens`, on by default); the phone must see the push too.
        try await withTestServer(scenario: try Self.scenario()) { server in
            let now = Int(Date().timeIntervalSince1970)
            let start = try await Self.push(
                server, to: Self.taxiStartToken.uppercased(),
                #"{"event":"start","timestamp":\#(now),"attributes-type":"mpushTaxiAttributes","#
                    + #""attributes":{"appName":"Taxi","appLogo":"logo"},"content-state":{"status":"1"},"#
                    + #""alert":{"title":"Your ride"},"input-push-token":1}"#)
            #expect(start.status == 200)
            #expect(start.device?.kind == .started)
            let record = try #require(server.journal.records().last)
            #expect(record.deviceToken == Self.taxiStartToken.uppercased(), "the record keeps the token as sent")
            #expect(record.json["device"] != nil)
            let id = try #require(start.device?.activityID)
            #expect(server.engine.activities.activity(id: id)?.pushToStartToken == Self.taxiStartToken)

            let token = try #require(start.device?.updateToken)
            let update = try await Self.push(
                server, to: token.uppercased(),
                #"{"event":"update","timestamp":\#(now + 1),"content-state":{"status":"2"}}"#)
            #expect(update.status == 200)
            #expect(update.device?.kind == .applied)
        }
    }
}
