import Foundation
import Testing

@testable import MockAPNs

/// The routes the inspector reads, over real sockets with curl: `/v1/info`, `view=summary`, `olderThan=` paging
/// with the list's `journal` member, and the `activity:` and `event:` search words.
@Suite("Inspector API: info, summaries, paging, activity and event words", .serialized)
struct InspectorAPITests {
    /// The members of a device push's summary, in order.
    static let summaryMembers = [
        "sequence", "kind", "receivedAt", "connection", "token", "topic", "pushType", "priority", "status",
        "accepted", "reason", "rule", "device", "activity", "text", "notes", "replayOf",
    ]

    static func records(_ answer: ControlCurl.Answer) -> [JSONValue] { answer.json?["records"]?.arrayValue ?? [] }

    static func sequences(_ answer: ControlCurl.Answer) -> [UInt64] {
        records(answer).compactMap { $0["sequence"]?.unsignedValue }
    }

    static func memberNames(_ json: JSONValue) -> [String] {
        guard case .object(let members) = json else { return [] }
        return members.map(\.0)
    }

    @Test("GET /v1/info says a live mock, its version and URLs, and needs the control token")
    func infoOfALiveMock() async throws {
        try await withControlServer(token: "s3cret") { server, control in
            let closed = try await ControlCurl.call("GET", control, "/v1/info")
            #expect(closed.status == 401)
            let answer = try await ControlCurl.call(
                "GET", control, "/v1/info", headers: ["Authorization": "Bearer s3cret"])
            #expect(answer.status == 200)
            let info = try #require(answer.json)
            #expect(
                Self.memberNames(info)
                    == [
                        "mode", "file", "warnings", "version", "apnsURL", "channelsURL", "controlURL", "readOnly",
                        "run", "caFile", "keyFile", "keyID", "teamID", "pid", "environment",
                    ])
            // What a client needs (issue 25): the key and team, this process, the environment; no files were named
            // to this in-process server (serve --ready-json's test checks them).
            #expect(info["keyID"] == "TESTKEY001" && info["teamID"] == "TESTTEAM01")
            #expect(info["pid"] == .number(String(ProcessInfo.processInfo.processIdentifier)))
            #expect(info["environment"] == "sandbox")
            #expect(info["mode"] == "live" && info["file"] == .null && info["warnings"] == [])
            #expect(info["version"] == .string(MockAPNsVersion.current))
            #expect(info["apnsURL"] == .string("https://127.0.0.1:\(server.port)"))
            #expect(info["channelsURL"] == .string("https://127.0.0.1:\(server.channelsPort)"))
            #expect(info["controlURL"] == .string(control.url))
            #expect(info["readOnly"] == false && info["run"] == false)
        }
    }

    @Test("view=summary answers each push's summary in order, without headers or payload; a bad view is a 400")
    func summaries() async throws {
        try await withControlServer { server, control in
            #expect(try await sendPush(server) == 200)
            #expect(try await sendPush(server, to: "zz") == 400)
            let answer = try await ControlCurl.call("GET", control, "/v1/requests?view=summary")
            #expect(answer.status == 200, "\(answer.text)")
            let rows = Self.records(answer)
            #expect(rows.count == 2)
            for row in rows { #expect(Self.memberNames(row) == Self.summaryMembers) }
            let accepted = try #require(rows.first)
            #expect(accepted["sequence"] == 1 && accepted["kind"] == "push" && accepted["connection"] == 1)
            #expect(accepted["receivedAt"]?.stringValue?.hasSuffix("Z") == true)
            #expect(accepted["token"] == .string(EndToEndTests.device) && accepted["topic"] == "com.example.app")
            #expect(accepted["pushType"] == "alert" && accepted["priority"] == .null)
            #expect(accepted["status"] == 200 && accepted["accepted"] == true && accepted["reason"] == .null)
            #expect(accepted["rule"] == "accepted" && accepted["device"] == "shown" && accepted["activity"] == .null)
            #expect(accepted["text"] == "Order ready — Your food is on its way")
            #expect(accepted["notes"] == 0 && accepted["replayOf"] == .null)
            let rejected = rows[1]
            #expect(rejected["status"] == 400 && rejected["accepted"] == false)
            #expect(rejected["reason"] == "BadDeviceToken" && rejected["token"] == "zz")
            // The full view stays the default.
            let full = try await ControlCurl.call("GET", control, "/v1/requests?view=full&limit=1")
            #expect(Self.records(full).first?["headers"] != nil && Self.records(full).first?["payload"] != nil)
            #expect(Self.records(try await ControlCurl.call("GET", control, "/v1/requests")).first?["payload"] != nil)

            for path in ["/v1/requests?view=brief", "/v1/requests/stream?view=", "/v1/requests?view=summary&view=full"]
            {
                let bad = try await ControlCurl.call("GET", control, path)
                #expect(bad.status == 400, "\(path): \(bad.text)")
            }
            let brief = try await ControlCurl.call("GET", control, "/v1/requests?view=brief")
            #expect(brief.error == "view must be full or summary, got 'brief'")
        }
    }

    @Test("the stream with view=summary sends summaries, replayed and live")
    func streamOfSummaries() async throws {
        try await withControlServer { server, control in
            try await sendPush(server)
            let url = control.url
            let streaming = Task {
                try await Curl.stream(url + "/v1/requests/stream?since=0&view=summary") { $0.last?.id == "2" }
            }
            try await Task.sleep(for: .milliseconds(400))
            try await sendPush(server, to: "zz")
            let output = try await streaming.value
            let events = output.split(separator: "\n").filter { $0.hasPrefix("data: ") }
                .map { try? JSONParser.parse(String($0.dropFirst(6))) }
            #expect(events.count == 2, "\(output)")
            #expect(events.compactMap { $0?["sequence"]?.unsignedValue } == [1, 2])
            #expect(events.allSatisfy { Self.memberNames($0 ?? .null) == Self.summaryMembers })
            #expect(events.last??["reason"] == "BadDeviceToken")
        }
    }

    @Test("a Live Activity push's summary names its outcome, activity and content; activity: and event: find it")
    func activityWords() async throws {
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let (id, token) = try await ActivityAPITests.startTaxi(server)
            #expect(try await ActivityAPITests.update(server, token).device?.kind == .applied)
            // A third push that reaches no activity (this scenario's world rejects the default device).
            try await sendPush(server)
            let rows = Self.records(try await ControlCurl.call("GET", control, "/v1/requests?view=summary"))
            #expect(rows.count == 3)
            #expect(rows[0]["device"] == "started" && rows[0]["activity"] == .string(id))
            #expect(rows[0]["text"] == "Your ride")
            #expect(rows[1]["device"] == "applied" && rows[1]["activity"] == .string(id))
            #expect(rows[1]["text"] == #"{"status":"2"}"#)
            #expect(rows[2]["device"] == .null && rows[2]["activity"] == .null)

            let start = String(id.prefix(8)).lowercased()
            for (query, expected) in [
                ("activity:\(start)", [1, 2] as [UInt64]), ("activity:\(id)", [1, 2]), ("activity:ffffffff", []),
                ("-activity:\(start)", [3]), ("event:start", [1]), ("event:update", [2]), ("event:end", []),
                ("-event:update", [1, 3]), ("event:update%20activity:\(start)", [2]), ("device:started", [1]),
            ] {
                let answer = try await ControlCurl.call("GET", control, "/v1/requests?q=\(query)")
                #expect(answer.status == 200, "\(query): \(answer.text)")
                #expect(Self.sequences(answer) == expected, "\(query)")
            }
            for (query, message) in [
                ("activity:0c6", "q: at 'activity:0c6' (character 1): activity needs at least 4 characters"),
                ("event:begin", "q: at 'event:begin' (character 1): event must be one of: start, update, end"),
                ("event:", "q: at 'event:' (character 1): event: needs a value, such as event:update"),
            ] {
                let answer = try await ControlCurl.call("GET", control, "/v1/requests?q=\(query)")
                #expect(answer.status == 400, "\(query)")
                #expect(answer.error?.hasPrefix(message) == true, "\(query): \(answer.text)")
            }
        }
    }

    @Test("olderThan= pages back from the newest, limit= records at a time, with what the journal holds and dropped")
    func pagingBack() async throws {
        var scenario = Scenario.embeddedDefault(port: 0)
        scenario.journalCapacity = 4
        try await withControlServer(scenario: scenario) { server, control in
            let empty = try await ControlCurl.call("GET", control, "/v1/requests")
            #expect(empty.json?["journal"] == ["oldest": .null, "newest": .null, "held": 0, "dropped": 0])
            for _ in 1...6 { #expect(try await sendPush(server) == 200) }
            let newest = try await ControlCurl.call("GET", control, "/v1/requests?view=summary&limit=2")
            #expect(Self.sequences(newest) == [5, 6])
            let journal = try #require(newest.json?["journal"])
            #expect(Self.memberNames(journal) == ["oldest", "newest", "held", "dropped"])
            #expect(journal == ["oldest": 3, "newest": 6, "held": 4, "dropped": 2])
            let older = try await ControlCurl.call("GET", control, "/v1/requests?view=summary&limit=2&olderThan=5")
            #expect(Self.sequences(older) == [3, 4])
            let oldest = try await ControlCurl.call("GET", control, "/v1/requests?limit=2&olderThan=3")
            #expect(Self.sequences(oldest) == [] && oldest.json?["count"] == 0)
            #expect(Self.sequences(try await ControlCurl.call("GET", control, "/v1/requests?olderThan=5")) == [3, 4])
            let searched = try await ControlCurl.call("GET", control, "/v1/requests?olderThan=6&q=status:200&limit=1")
            #expect(Self.sequences(searched) == [5])

            #expect(try await ControlCurl.call("DELETE", control, "/v1/requests").status == 200)
            let cleared = try await ControlCurl.call("GET", control, "/v1/requests")
            #expect(cleared.json?["journal"] == ["oldest": .null, "newest": .null, "held": 0, "dropped": 0])

            for (path, message) in [
                ("/v1/requests?olderThan=0", "olderThan must be a record's sequence number"),
                ("/v1/requests?olderThan=-1", "olderThan must be a record's sequence number"),
                ("/v1/requests?olderThan=abc", "olderThan must be a record's sequence number"),
                ("/v1/requests?olderThan=99999999999999999999999", "olderThan must be a record's sequence number"),
                ("/v1/requests?olderThan=", "the filter 'olderThan' is empty"),
                ("/v1/requests?olderthan=3", "unknown filter 'olderthan'"),
                ("/v1/requests/wait?olderThan=3&timeout=10ms", "olderThan pages back through GET /v1/requests"),
                ("/v1/requests/stream?olderThan=3", "olderThan pages back through GET /v1/requests"),
            ] {
                let bad = try await ControlCurl.call("GET", control, path)
                #expect(bad.status == 400, "\(path): \(bad.text)")
                #expect(bad.error?.hasPrefix(message) == true, "\(path): \(bad.text)")
            }
        }
    }
}
