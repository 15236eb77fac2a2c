import Foundation
import Testing

@testable import MockAPNs

/// Delivery after the 200 (issue 23 items 4 and 5): APNs's storage for an offline phone, its later events as
/// `device-event` records under the movable clock, `collapse-id` on the list and in storage, and the 410 that
/// follows an uninstalled app, all with pushes sent by curl and the control API called by curl.
@Suite("phone: delivery after the 200, end to end", .serialized)
struct PhoneDeliveryEndToEndTests {
    static let t = PhonePush.token

    static let world = """
        phones:
          alice: { online: false }
        devices:
          - { token: \(t(80)), app: com.example.app, phone: alice }
          - { token: \(t(81)), app: com.example.app }
        """

    /// The `device-event` records of push `sequence`, in order: `event rule` each.
    static func events(_ server: MockAPNsServer, of sequence: UInt64) -> [String] {
        server.journal.records().compactMap(\.deviceEvent).filter { $0.push == sequence }.map {
            "\($0.event.kind.rawValue) \($0.event.rule?.id ?? "-")"
        }
    }

    /// An `apns-expiration` `seconds` after the mock's clock.
    static func expiration(_ server: MockAPNsServer, in seconds: TimeInterval) -> String {
        String(Int(server.engine.clock.now().timeIntervalSince1970 + seconds))
    }

    @Test("an offline phone and three pushes: each is stored, the first two replaced; back online the third shows")
    func offlineThreePushes() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            let hour = ["apns-expiration": Self.expiration(server, in: 3600)]
            var sent: [PhonePush.Result] = []
            for n in 1...3 {
                let push = try await PhonePush.send(
                    server, to: Self.t(80), #"{"aps":{"alert":"Update \#(n)"}}"#, extra: hour)
                #expect(push.status == 200 && push.kindAndRule == "stored stored-offline")
                sent.append(push)
            }
            #expect(Self.events(server, of: sent[0].sequence) == ["replaced storage-replaced"])
            #expect(Self.events(server, of: sent[1].sequence) == ["replaced storage-replaced"])
            let replaced = try #require(server.journal.records().compactMap(\.deviceEvent).first)
            #expect(replaced.event.related == sent[1].sequence, "#1 was replaced by #2")

            let offline = try await ControlCurl.call("GET", control, "/v1/phones/alice")
            let app = try #require(offline.json?["apps"]?.arrayValue?.first { $0["bundleID"] == "com.example.app" })
            #expect(app["stored"]?.arrayValue?.count == 1)
            #expect(app["stored"]?.arrayValue?.first?["sequence"]?.unsignedValue == sent[2].sequence)
            #expect(app["stored"]?.arrayValue?.first?["slot"] == .string("\(Self.t(80)) com.example.app"))

            let online = try await ControlCurl.call("PATCH", control, "/v1/phones/alice", body: #"{"online": true}"#)
            #expect(online.status == 200)
            #expect(Self.events(server, of: sent[2].sequence) == ["delivered storage-delivered"])
            let delivered = try #require(
                server.journal.records().compactMap(\.deviceEvent).last { $0.push == sent[2].sequence })
            #expect(delivered.device?.kind == .shown && delivered.device?.rule == .alertShown)
            let shownApp = try #require(
                online.json?["apps"]?.arrayValue?.first { $0["bundleID"] == "com.example.app" })
            #expect(shownApp["stored"] == .array([]))
            #expect(shownApp["notifications"]?.arrayValue?.first?["body"] == "Update 3")
            #expect(shownApp["threads"] == .array([.object([("threadID", .null), ("count", 1)])]))

            let record = try await ControlCurl.call("GET", control, "/v1/requests/\(sent[2].sequence)")
            let listed = record.json?["events"]?.arrayValue?.compactMap { $0["event"]?.stringValue }
            #expect(listed == ["delivered"])
            #expect(record.json?["events"]?.arrayValue?.first?["device"]?["outcome"] == "shown")
            let kind = try await ControlCurl.call("GET", control, "/v1/requests?q=kind:device-event")
            #expect(kind.json?["count"] == 3)
            let stats = try await ControlCurl.call("GET", control, "/v1/stats")
            #expect(stats.json?["accepted"] == 3, "an event is not a request")
        }
    }

    @Test("an offline phone stores at most 1,000 slots: 1,005 topics in lenient mode, the 5 oldest replaced")
    func storageIsBounded() async throws {
        let token = Self.t(90)
        try await withControlServer(scenario: try PhonePush.scenario("mode: lenient\n")) { server, control in
            let first = try await PhonePush.send(server, to: token, PhonePush.alert())
            #expect(first.status == 200)
            let offline = try await ControlCurl.call("PATCH", control, "/v1/phones/\(token)", body: #"{"online":false}"#)
            #expect(offline.status == 200, "\(offline.text)")
            // One curl, one connection, a topic per push (`--next`): as a provider serving many apps would.
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stored-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let body = folder.appendingPathComponent("alert.json")
            try #"{"aps":{"alert":"x"}}"#.write(to: body, atomically: true, encoding: .utf8)
            let headers = EndToEndTests.pushHeaders(["apns-push-type": "alert"]).filter { $0.key != "apns-topic" }
            let config = (1...1005).map { n in
                (["url = \"https://localhost:\(server.port)/3/device/\(token)\"", "http2", "cacert = \"\(Curl.caFile)\"",
                  "data-binary = \"@\(body.path)\"", "output = \"/dev/null\"", "header = \"apns-topic: com.example.a\(n)\""]
                    + headers.map { "header = \"\($0.key): \($0.value)\"" }).joined(separator: "\n")
            }.joined(separator: "\nnext\n")
            let configFile = folder.appendingPathComponent("curl.config")
            try config.write(to: configFile, atomically: true, encoding: .utf8)
            let (status, _, errors) = try await Curl.run(["-sS", "-K", configFile.path])
            #expect(status == 0, "\(errors)")
            let stored = server.journal.records().filter { $0.device?.rule == .storedOffline }
            #expect(stored.count == 1005)
            let phone = try await ControlCurl.call("GET", control, "/v1/phones/\(token)")
            let kept = phone.json?["apps"]?.arrayValue?.reduce(0) { $0 + ($1["stored"]?.arrayValue?.count ?? 0) }
            #expect(kept == Phone.storedSlotLimit)
            let dropped = server.journal.records().compactMap(\.deviceEvent).filter {
                $0.event.reason?.contains("the mock's limit per phone") == true
            }
            #expect(dropped.map(\.push) == Array(stored.prefix(5).map(\.sequence)))
        }
    }

    @Test("storageKeeps: oldest keeps the first push; the newer one gets the replaced event")
    func keepsOldest() async throws {
        let scenario = try PhonePush.scenario(Self.world + "\nsimulation: { storageKeeps: oldest }\n")
        try await withControlServer(scenario: scenario) { server, control in
            let first = try await PhonePush.send(server, to: Self.t(80), #"{"aps":{"alert":"First"}}"#)
            let second = try await PhonePush.send(server, to: Self.t(80), #"{"aps":{"alert":"Second"}}"#)
            #expect(first.kindAndRule == "stored stored-offline" && second.kindAndRule == "stored stored-offline")
            #expect(Self.events(server, of: second.sequence) == ["replaced storage-replaced"])
            _ = try await ControlCurl.call("PATCH", control, "/v1/phones/alice", body: #"{"online": true}"#)
            #expect(Self.events(server, of: first.sequence) == ["delivered storage-delivered"])
            let scenarioJSON = try await ControlCurl.call("GET", control, "/v1/scenario")
            #expect(scenarioJSON.json?["simulation"]?["storageKeeps"] == "oldest")
        }
    }

    @Test("the movable clock expires a stored push at its apns-expiration; nothing is delivered after")
    func expiryUnderTheClock() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            let expiresAt = Self.expiration(server, in: 3600)
            let push = try await PhonePush.send(
                server, to: Self.t(80), PhonePush.alert(), extra: ["apns-expiration": expiresAt])
            #expect(push.kindAndRule == "stored stored-offline")
            let moved = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "2h"}"#)
            #expect(moved.status == 200)
            #expect(Self.events(server, of: push.sequence) == ["expired storage-expired"])
            let expired = try #require(server.journal.records().compactMap(\.deviceEvent).last)
            #expect(Int(expired.at.timeIntervalSince1970) == Int(expiresAt), "at the hour, not when observed")
            _ = try await ControlCurl.call("PATCH", control, "/v1/phones/alice", body: #"{"online": true}"#)
            #expect(Self.events(server, of: push.sequence) == ["expired storage-expired"])

            // Without the header: storageWithoutExpiration (30 days).
            _ = try await ControlCurl.call("PATCH", control, "/v1/phones/alice", body: #"{"online": false}"#)
            let plain = try await PhonePush.send(server, to: Self.t(80), PhonePush.alert())
            _ = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "719h"}"#)
            #expect(Self.events(server, of: plain.sequence).isEmpty)
            _ = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "2h"}"#)
            #expect(Self.events(server, of: plain.sequence) == ["expired storage-expired"])
        }
    }

    @Test("apns-expiration 0: delivered late within expirationZeroGrace, expired past it, dropped at once under 0s")
    func expirationZero() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            let late = try await PhonePush.send(
                server, to: Self.t(80), PhonePush.alert(), extra: ["apns-expiration": "0"])
            #expect(late.kindAndRule == "stored expiration-zero-retry")
            _ = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "20s"}"#)
            _ = try await ControlCurl.call("PATCH", control, "/v1/phones/alice", body: #"{"online": true}"#)
            #expect(Self.events(server, of: late.sequence) == ["delivered expiration-zero-late"])

            _ = try await ControlCurl.call("PATCH", control, "/v1/phones/alice", body: #"{"online": false}"#)
            let lost = try await PhonePush.send(
                server, to: Self.t(80), PhonePush.alert(), extra: ["apns-expiration": "0"])
            _ = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "31s"}"#)
            #expect(Self.events(server, of: lost.sequence) == ["expired expiration-zero-offline"])
        }
        let strict = try PhonePush.scenario(Self.world + "\nsimulation: { expirationZeroGrace: 0s }\n")
        try await withControlServer(scenario: strict) { server, _ in
            let push = try await PhonePush.send(
                server, to: Self.t(80), PhonePush.alert(), extra: ["apns-expiration": "0"])
            #expect(push.status == 200 && push.kindAndRule == "expired expiration-zero-offline")
        }
    }

    @Test("collapse-id replaces the notification on the list and the stored push, each with a replaced event")
    func collapseID() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            let order = ["apns-collapse-id": "order-42"]
            let first = try await PhonePush.send(
                server, to: Self.t(81), PhonePush.alert(#""thread-id":"orders""#), extra: order)
            let second = try await PhonePush.send(
                server, to: Self.t(81), #"{"aps":{"alert":{"title":"Updated"},"thread-id":"orders"}}"#, extra: order)
            #expect(first.kindAndRule == "shown alert-shown")
            #expect(second.kindAndRule == "shown collapse-replaced" && second.device?.related == first.sequence)
            #expect(Self.events(server, of: first.sequence) == ["replaced collapse-replaced"])
            let event = try #require(server.journal.records().compactMap(\.deviceEvent).last)
            #expect(event.event.related == second.sequence)
            let phone = try await ControlCurl.call("GET", control, "/v1/phones/\(Self.t(81))")
            let app = try #require(phone.json?["apps"]?.arrayValue?.first)
            #expect(app["notificationCount"] == 1)
            #expect(app["threads"] == .array([.object([("threadID", "orders"), ("count", 1)])]))

            // In storage, under storageKeeps: newest or not, the same collapse id replaces the stored push.
            let a = try await PhonePush.send(server, to: Self.t(80), PhonePush.alert(), extra: order)
            let b = try await PhonePush.send(server, to: Self.t(80), PhonePush.alert(), extra: order)
            #expect(Self.events(server, of: a.sequence) == ["replaced collapse-replaced"])
            #expect(b.kindAndRule == "stored stored-offline")
        }
    }

    @Test("an uninstalled app: 200 discarded until unregisteredAfter after the first push, then 410 since then")
    func unregisteredAfterUninstall() async throws {
        let scenario = try PhonePush.scenario(
            Self.world + "\nsimulation: { unregisteredAfter: 1h }\n")
        try await withControlServer(scenario: scenario) { server, control in
            _ = try await ControlCurl.call("PATCH", control, "/v1/phones/alice", body: #"{"online": true}"#)
            let removed = try await ControlCurl.call(
                "PATCH", control, "/v1/phones/alice/apps/com.example.app", body: #"{"installed": false}"#)
            #expect(removed.status == 200)
            let first = try await PhonePush.send(server, to: Self.t(80), PhonePush.alert())
            #expect(first.status == 200 && first.kindAndRule == "discarded app-uninstalled")
            let firstAt = try #require(server.journal.records().first { $0.sequence == first.sequence }).receivedAt
            _ = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "59m"}"#)
            #expect(try await PhonePush.send(server, to: Self.t(80), PhonePush.alert()).status == 200)
            _ = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "1m"}"#)
            let gone = try await PhonePush.send(server, to: Self.t(80), PhonePush.alert())
            #expect(gone.status == 410 && gone.device == nil, "\(gone.body)")
            let answer = try #require(try? JSONParser.parse(gone.body))
            #expect(answer["reason"] == "Unregistered")
            #expect(answer["timestamp"] == .number(String(Timestamp.millis(firstAt))))

            _ = try await ControlCurl.call(
                "PATCH", control, "/v1/phones/alice/apps/com.example.app", body: #"{"installed": true}"#)
            let back = try await PhonePush.send(server, to: Self.t(80), PhonePush.alert())
            #expect(back.status == 200 && back.kindAndRule == "shown alert-shown")
        }
    }

    @Test("bad storage settings are refused naming the field")
    func badSettings() throws {
        for (yaml, expected) in [
            ("storageKeeps: newer", "must be one of: newest, oldest"),
            ("storageSlot: device", "must be one of: token, app"),
            ("expirationZeroGrace: 2h", "expirationZeroGrace"),
            ("unregisteredAfter: soon", "unregisteredAfter"),
            ("storageWithoutExpiration: 40d", "storageWithoutExpiration"),
        ] {
            let error = #expect(throws: ScenarioError.self) {
                try PhonePush.scenario(Self.world + "\nsimulation: { \(yaml) }\n")
            }
            let text = error.map { "\($0.field): \($0.message)" } ?? ""
            #expect(text.contains(expected), "\(yaml) → \(text)")
        }
    }
}
