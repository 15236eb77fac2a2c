import Foundation
import Testing

@testable import MockAPNs

/// The activities routes over HTTP (curl), against a server whose activities start by push-to-start over HTTP/2.
@Suite("Activities control API", .serialized)
struct ActivityAPITests {
    static let taxi = "mpushTaxiAttributes"

    /// Starts a taxi activity by a push-to-start `start` over HTTP/2; answers its id and update token.
    static func startTaxi(_ server: MockAPNsServer, status: String = "1") async throws -> (id: String, token: String) {
        let now = Int(Date().timeIntervalSince1970)
        let start = try await LiveActivityEndToEndTests.push(
            server, to: LiveActivityEndToEndTests.taxiStartToken,
            #"{"event":"start","timestamp":\#(now),"attributes-type":"mpushTaxiAttributes","#
                + #""attributes":{"appName":"Taxi","appLogo":"logo"},"content-state":{"status":"\#(status)"},"#
                + #""alert":{"title":"Your ride"},"input-push-token":1}"#)
        #expect(start.status == 200 && start.device?.kind == .started)
        return (try #require(start.device?.activityID), try #require(start.device?.updateToken))
    }

    /// Sends an `update` with `contentState` and `timestamp` (now plus `after` seconds) to `token`.
    static func update(
        _ server: MockAPNsServer, _ token: String, _ contentState: String = #"{"status":"2"}"#, after: Int = 10
    ) async throws -> (status: Int, device: DeviceOutcome?) {
        let timestamp = Int(Date().timeIntervalSince1970) + after
        return try await LiveActivityEndToEndTests.push(
            server, to: token, #"{"event":"update","timestamp":\#(timestamp),"content-state":\#(contentState)}"#)
    }

    @Test("lists activities with their state, content, tokens, outcome counts and history; filters them")
    func listAndFilter() async throws {
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let (id, token) = try await Self.startTaxi(server)
            #expect(try await Self.update(server, token).device?.kind == .applied)
            #expect(try await Self.update(server, token, after: -100).device?.kind == .ignored)

            let list = try await ControlCurl.call("GET", control, "/v1/activities")
            #expect(list.status == 200)
            let json = try #require(list.json)
            #expect(json["count"] == 1)
            let activity = try #require(json["activities"]?.arrayValue?.first)
            #expect(activity["id"] == .string(id))
            #expect(activity["attributesType"] == .string(Self.taxi))
            #expect(activity["state"] == "active")
            #expect(activity["updateToken"] == .string(token))
            #expect(activity["pushToStartToken"] == .string(LiveActivityEndToEndTests.taxiStartToken))
            #expect(activity["contentState"] == ["status": "2"])
            #expect(activity["attributes"]?["appName"] == "Taxi")
            #expect(activity["outcomes"]?["started"] == 1 && activity["outcomes"]?["applied"] == 1)
            #expect(activity["outcomes"]?["ignored"] == 1 && activity["outcomes"]?["dropped"] == 0)
            #expect(activity["startedAt"]?.stringValue?.hasSuffix("Z") == true)
            #expect(activity["dismissedAt"] == .null && activity["endedAt"] == .null)
            let snapshot = try #require(ActivitySnapshot(json: activity))
            #expect(snapshot.endsAt.timeIntervalSince(snapshot.startedAt) == 8 * 3600)

            for (filter, count) in [
                ("state=active", 1), ("state=ended", 0), ("type=\(Self.taxi)", 1), ("type=mpushTakeoutAttributes", 0),
                ("token=\(token.uppercased())", 1), ("token=\(LiveActivityEndToEndTests.taxiStartToken)", 1),
                ("token=abcd", 0), ("state=active&type=\(Self.taxi)", 1),
            ] {
                let answer = try await ControlCurl.call("GET", control, "/v1/activities?\(filter)")
                #expect(answer.status == 200 && answer.json?["count"] == .number(String(count)), "\(filter)")
            }
            for (filter, message) in [
                ("state=gone", "state must be one of: active, stale, ended, dismissed; got 'gone'"),
                ("token=xyz", "token must be an even number of hex digits"), ("colour=red", "unknown filter 'colour'"),
                ("type=", "the filter 'type' is empty"), ("state=active&state=ended", "'state' is given twice"),
            ] {
                let answer = try await ControlCurl.call("GET", control, "/v1/activities?\(filter)")
                #expect(answer.status == 400, "\(filter)")
                #expect(answer.error?.contains(message) == true, "\(filter): \(answer.text)")
            }
        }
    }

    @Test("gets one activity by id with the history of its pushes and their outcomes; 404 for an unknown id")
    func getByID() async throws {
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let (id, token) = try await Self.startTaxi(server)
            #expect(try await Self.update(server, token, #"{"status":3}"#).device?.kind == .dropped)
            let answer = try await ControlCurl.call("GET", control, "/v1/activities/\(id)")
            #expect(answer.status == 200)
            let history = try #require(answer.json?["history"]?.arrayValue)
            #expect(history.map { $0["event"] } == ["start", "update"])
            #expect(history.map { $0["outcome"] } == ["started", "dropped"])
            #expect(history[1]["reason"] == "content-state.status: expected String, found number")
            #expect(history[1]["priority"] == 10)
            #expect(history[0]["at"]?.stringValue.flatMap(Timestamp.date(fromText:)) != nil)

            let unknown = try await ControlCurl.call("GET", control, "/v1/activities/no-such-id")
            #expect(unknown.status == 404)
            #expect(unknown.error?.hasPrefix("no activity 'no-such-id'") == true, "\(unknown.text)")
        }
    }

    @Test("rotating a token: the old one no longer updates, the new one does, the registry knows only the new one")
    func rotate() async throws {
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let (id, old) = try await Self.startTaxi(server)
            let answer = try await ControlCurl.call("POST", control, "/v1/activities/\(id)/rotate-token")
            #expect(answer.status == 200)
            let new = try #require(answer.json?["updateToken"]?.stringValue)
            #expect(new != old && new.count == 160 && DeviceToken(new) != nil)
            #expect(server.engine.activities.isUpdateToken(new) && !server.engine.activities.isUpdateToken(old))

            // Strict mode: the old token is now as unknown as any other.
            let stale = try await Self.update(server, old)
            #expect(stale.status == 400 && stale.device == nil)
            #expect(try await Self.update(server, new).device?.kind == .applied)
            #expect(server.engine.activities.activity(id: id)?.history.count == 2)

            #expect(try await ControlCurl.call("POST", control, "/v1/activities/nope/rotate-token").status == 404)
            _ = try await ControlCurl.call("POST", control, "/v1/activities/\(id)/dismiss")
            let refused = try await ControlCurl.call("POST", control, "/v1/activities/\(id)/rotate-token")
            #expect(refused.status == 409)
            #expect(refused.error == "activity '\(id)' is already dismissed", "\(refused.text)")
        }
    }

    @Test("dismissing: dismissed from now on, later pushes ignored as dismissed by the person, twice is a 409")
    func dismiss() async throws {
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let (id, token) = try await Self.startTaxi(server)
            let answer = try await ControlCurl.call("POST", control, "/v1/activities/\(id)/dismiss")
            #expect(answer.status == 200)
            #expect(answer.json?["state"] == "dismissed")
            #expect(answer.json?["dismissedAt"] == answer.json?["dismissesAt"])
            let pushed = try await Self.update(server, token)
            #expect(pushed.status == 200)
            #expect(pushed.device?.summary == "ignored: dismissed by the person")
            let again = try await ControlCurl.call("POST", control, "/v1/activities/\(id)/dismiss")
            #expect(again.status == 409)
            #expect(try await ControlCurl.call("POST", control, "/v1/activities/nope/dismiss").status == 404)
            let listed = try await ControlCurl.call("GET", control, "/v1/activities?state=dismissed")
            #expect(listed.json?["count"] == 1)
        }
    }

    @Test("a local start: 201 with a new token that updates; an undeclared type or undecodable parts are 400s")
    func localStart() async throws {
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let body =
                #"{"attributesType": "mpushTaxiAttributes", "attributes": {"appName": "Taxi", "appLogo": "l"},"#
                + #" "contentState": {"status": "1"}}"#
            let started = try await ControlCurl.call("POST", control, "/v1/activities", body: body)
            #expect(started.status == 201, "\(started.text)")
            #expect(started.json?["state"] == "active" && started.json?["timestamp"] == .null)
            #expect(started.json?["history"] == [] && started.json?["pushToStartToken"] == .null)
            let token = try #require(started.json?["updateToken"]?.stringValue)
            #expect(server.engine.activities.isUpdateToken(token))
            #expect(try await Self.update(server, token).device?.kind == .applied)

            for (body, message) in [
                (
                    #"{"attributesType": "Nope", "attributes": {}, "contentState": {}}"#,
                    "the app cannot start this activity: attributesType 'Nope' is not a type the app declares "
                        + "(declared: mpushTakeoutAttributes, mpushTaxiAttributes)"
                ),
                (
                    #"{"attributesType": "mpushTaxiAttributes", "attributes": {"appName": "T", "appLogo": "l"}, "#
                        + #""contentState": {"status": 3}}"#,
                    "the app cannot start this activity: does not decode: content-state.status: expected String, "
                        + "found number"
                ),
                (
                    #"{"attributesType": "mpushTaxiAttributes", "attributes": {"appName": "T"}, "contentState": {}}"#,
                    "does not decode: attributes.appLogo: missing required key"
                ),
                ("not json", "the body must be a JSON object"),
                (#"{"attributesType": "mpushTaxiAttributes", "attributes": {}}"#, "contentState is missing"),
                (#"{"type": "x"}"#, "unknown member 'type'"),
                (
                    #"{"attributesType": "mpushTaxiAttributes", "attributes": {}, "contentState": {}, "#
                        + #""pushToStartToken": "zz"}"#,
                    "pushToStartToken must be a string of an even number of hex digits"
                ),
            ] {
                let refused = try await ControlCurl.call("POST", control, "/v1/activities", body: body)
                #expect(refused.status == 400, "\(body)")
                #expect(refused.error?.contains(message) == true, "\(refused.text)")
            }
            #expect(server.engine.activities.activities.count == 1)
        }
    }

    @Test("the event stream sends a server-sent event per change: started, pushed with its outcome, rotated")
    func eventStream() async throws {
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let url = control.url
            let streaming = Task {
                try await Curl.stream(url + "/v1/activities/stream?type=mpushTaxiAttributes") {
                    $0.filter { $0.data != nil }.count >= 3
                }
            }
            try await Self.waitForWatchers(server, count: 1)
            let (id, token) = try await Self.startTaxi(server)
            _ = try await Self.update(server, token)
            _ = try await ControlCurl.call("POST", control, "/v1/activities/\(id)/rotate-token")
            let output = try await streaming.value
            let events = output.split(separator: "\n").filter { $0.hasPrefix("data: ") }.compactMap {
                try? JSONParser.parse(String($0.dropFirst(6)))
            }
            #expect(output.hasPrefix(": mock-apns activity changes matching type=mpushTaxiAttributes"))
            #expect(output.contains("event: activity\n"))
            #expect(events.map { $0["change"] } == ["started", "pushed", "rotated"], "\(output)")
            #expect(events.map { $0["outcome"] } == [.null, "applied", .null])
            #expect(events.allSatisfy { $0["activity"]?["id"] == .string(id) })
            #expect(events.last?["activity"]?["updateToken"] != .string(token))
            let bad = try await ControlCurl.call("GET", control, "/v1/activities/stream?state=x")
            #expect(bad.status == 400)
        }
    }

    @Test("a unique id prefix (the 8 characters activities prints, any case) works on GET, rotate-token, dismiss")
    func idPrefix() async throws {
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let (id, _) = try await Self.startTaxi(server)
            let short = String(id.prefix(8)).lowercased()
            let found = try await ControlCurl.call("GET", control, "/v1/activities/\(short)")
            #expect(found.status == 200, "\(found.text)")
            #expect(found.json?["id"] == .string(id))
            #expect(try await ControlCurl.call("GET", control, "/v1/activities/\(id.lowercased())").status == 200)
            let rotated = try await ControlCurl.call("POST", control, "/v1/activities/\(id.prefix(4))/rotate-token")
            #expect(rotated.status == 200 && rotated.json?["id"] == .string(id), "\(rotated.text)")
            let dismissed = try await ControlCurl.call("POST", control, "/v1/activities/\(short)/dismiss")
            #expect(dismissed.status == 200 && dismissed.json?["state"] == "dismissed", "\(dismissed.text)")
            let again = try await ControlCurl.call("POST", control, "/v1/activities/\(short)/dismiss")
            #expect(again.error == "activity '\(id)' is already dismissed", "\(again.text)")

            let short3 = try await ControlCurl.call("GET", control, "/v1/activities/\(id.prefix(3))")
            #expect(short3.status == 400)
            #expect(short3.error?.hasPrefix("activity id '\(id.prefix(3))' is too short: ") == true, "\(short3.text)")
            #expect(try await ControlCurl.call("GET", control, "/v1/activities/ffff0000").status == 404)
        }
    }

    @Test("an id prefix several activities start with is a 400 that says it is ambiguous and lists them")
    func ambiguousIDPrefix() async throws {
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            // Ids are random UUIDs: start activities until two share their first 4 characters (a few hundred).
            var byPrefix: [String: String] = [:]
            var pair: (String, String)?
            for _ in 0..<20_000 where pair == nil {
                let id = try await server.startActivity(
                    ActivityStart(
                        attributesType: Self.taxi, attributes: ["appName": "T", "appLogo": "l"],
                        contentState: ["status": "1"])
                ).id
                let prefix = String(id.prefix(4))
                if let other = byPrefix[prefix] { pair = (other, id) } else { byPrefix[prefix] = id }
            }
            let (first, second) = try #require(pair)
            let prefix = first.prefix(4).lowercased()
            for (method, path) in [
                ("GET", "/v1/activities/\(prefix)"), ("POST", "/v1/activities/\(prefix)/rotate-token"),
                ("POST", "/v1/activities/\(prefix)/dismiss"),
            ] {
                let answer = try await ControlCurl.call(method, control, path)
                #expect(answer.status == 400, "\(path): \(answer.text)")
                let message = try #require(answer.error)
                #expect(message.hasPrefix("activity id '\(prefix)' is ambiguous: "), "\(message)")
                #expect(message.contains(first) && message.contains(second), "\(message)")
            }
        }
    }

    /// Waits (at most 60 s) until `count` watchers follow the registry: a stream or wait has subscribed. Not 5 s: in
    /// CI's loaded full suite on 2 cores a wait's handler waited longer than that for a thread of the shared pool.
    static func waitForWatchers(_ server: MockAPNsServer, count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while server.engine.activities.watchers.withLockedValue({ $0.watchers.count }) < count {
            guard ContinuousClock.now < deadline else {
                Issue.record("no stream or wait subscribed within 60 s")
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
