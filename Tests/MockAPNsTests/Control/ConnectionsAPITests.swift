import Foundation
import MockAPNsClient
import Testing

@testable import MockAPNs

/// `GET /v1/connections` over real sockets: each curl push is a connection of its own.
@Suite("Connections through the control API", .serialized)
struct ConnectionsAPITests {
    static let device = EndToEndTests.device

    /// The connections, once every one is closed (curl has exited; the server sees the close a moment later).
    static func closedConnections(_ control: MockAPNsControlAPI) async throws -> [JSONValue] {
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            let answer = try await ControlCurl.call("GET", control, "/v1/connections")
            let connections = answer.json?["connections"]?.arrayValue ?? []
            #expect(answer.json?["count"] == .number(String(connections.count)))
            if connections.allSatisfy({ $0["open"] == false }) || ContinuousClock.now > deadline { return connections }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test("lists each connection with its address, ALPN, auth, pushes by status and stream-limit changes")
    func listsConnections() async throws {
        try await withControlServer { server, control in
            #expect(try await sendPush(server) == 200)
            #expect(try await sendPush(server, topic: "") == 400)
            #expect(try await ControlCurl.call("POST", control, "/v1/requests/1/replay").status == 201)
            let connections = try await Self.closedConnections(control)
            #expect(connections.count == 2, "a replay comes on no connection")
            let first = try #require(connections.first)
            #expect(first["id"] == 1)
            #expect(first["remoteAddress"]?.stringValue?.hasPrefix("127.0.0.1:") == true)
            #expect(first["alpn"] == "h2")
            #expect(first["open"] == false)
            #expect(first["closedAt"] != .null)
            #expect(first["auth"]?["kind"] == "token")
            #expect(first["auth"]?["keyID"] == "TESTKEY001")
            #expect(first["pushes"] == 1)
            #expect(first["byStatus"] == .object([("200", 1)]))
            #expect(connections[1]["byStatus"] == .object([("400", 1)]))
            let limits = first["events"]?.arrayValue?.filter { $0["kind"] == "stream-limit" } ?? []
            #expect(
                limits.map { $0["detail"] } == [
                    "SETTINGS_MAX_CONCURRENT_STREAMS 1 (the connection's first)",
                    "SETTINGS_MAX_CONCURRENT_STREAMS 1000 (was 1)",
                ], "one stream until a valid token, then 1000")
            #expect(first["eventsDropped"] == 0)
            // curl's preface SETTINGS and its acknowledgement of the server's, at least.
            #expect((first["framesReceived"]?["settings"]?.unsignedValue ?? 0) >= 1, "\(first)")
            #expect((first["framesReceived"]?["settings_ack"]?.unsignedValue ?? 0) >= 1, "\(first)")
            let firstAt = try #require(first["firstAt"]?.stringValue.flatMap(Timestamp.date(fromText:)))
            let lastAt = try #require(first["lastAt"]?.stringValue.flatMap(Timestamp.date(fromText:)))
            #expect(firstAt <= lastAt)

            let one = try await ControlCurl.call("GET", control, "/v1/connections/2")
            #expect(one.json == connections[1])
        }
    }

    @Test("a scripted GOAWAY and a scripted reset are events of their connection")
    func goawayAndResetEvents() async throws {
        try await withControlServer { server, control in
            let rules = """
                - {name: away, match: {topic: com.example.away}, fault: goaway}
                - {name: cut, match: {topic: com.example.cut}, fault: reset-stream}
                """
            #expect(try await ControlCurl.call("POST", control, "/v1/rules", body: rules).status == 201)
            #expect(try await sendPush(server, topic: "com.example.away") == 503)
            _ = try? await sendPush(server, topic: "com.example.cut")
            let connections = try await Self.closedConnections(control)
            try #require(connections.count == 2)
            let goaways = connections[0]["events"]?.arrayValue?.filter { $0["kind"] == "goaway" } ?? []
            #expect(goaways.first?["detail"] == #"GOAWAY NO_ERROR, last stream 1: {"reason":"Shutdown"}"#)
            let resets = connections[1]["events"]?.arrayValue?.filter { $0["kind"] == "reset" } ?? []
            #expect(resets.first?["detail"] == "RST_STREAM INTERNAL_ERROR on stream 1")
            #expect(connections[1]["byStatus"] == .object([("none", 1)]))
        }
    }

    @Test("the control frames a client sent are counted by type on its connection")
    func framesTheClientSent() async throws {
        try await withTestServer(cleartext: true) { server in
            let port = try #require(server.cleartextPort)
            var frames = HTTP2ClientFrames()
            let preface = frames.takeBytes()
            let stream = frames.partialRequest(
                path: "/3/device/\(Self.device)", headers: [("apns-topic", "com.example.app")], bodyPrefix: "{")
            frames.reset(stream)
            frames.append(RawTCP.frame(type: 0x4, flags: 0x1))  // SETTINGS ACK of the server's
            for byte in [UInt8(1), 2] {
                frames.append(RawTCP.frame(type: 0x6, payload: Array(repeating: byte, count: 8)))  // PING
            }
            frames.append(RawTCP.frame(type: 0x8, payload: [0, 0, 0x10, 0]))  // WINDOW_UPDATE, connection
            frames.append(RawTCP.frame(type: 0x2, stream: 3, payload: [0, 0, 0, 0, 15]))  // PRIORITY: not counted
            frames.append(RawTCP.frame(type: 0x7, payload: [0, 0, 0, 0, 0, 0, 0, 0]))  // GOAWAY NO_ERROR
            let rest = frames.takeBytes()
            _ = try await RawTCP.converse(port: port, writes: [preface, rest])
            let deadline = ContinuousClock.now + .seconds(5)
            var connection: ConnectionSummary?
            repeat {
                connection = try await server.connections().first
                if connection?.open == false { break }
                try await Task.sleep(for: .milliseconds(50))
            } while ContinuousClock.now < deadline
            let counts = try #require(connection?.framesReceived)
            #expect(counts.settings == 1 && counts.settingsAcks == 1 && counts.pings == 2)
            #expect(counts.windowUpdates == 1 && counts.rstStreams == 1 && counts.goaways == 1 && counts.total == 7)
            #expect(
                connection?.json["framesReceived"]
                    == .object([
                        ("settings", 1), ("settings_ack", 1), ("ping", 2), ("window_update", 1), ("rst_stream", 1),
                        ("goaway", 1), ("total", 7),
                    ]))
        }
    }

    @Test("an unknown or non-numeric connection is refused in a sentence")
    func badConnectionIDs() async throws {
        try await withControlServer { _, control in
            for id in ["999", "0"] {
                let answer = try await ControlCurl.call("GET", control, "/v1/connections/\(id)")
                #expect(answer.status == 404)
                #expect(answer.error?.contains("no connection \(id)") == true)
            }
            let word = try await ControlCurl.call("GET", control, "/v1/connections/one")
            #expect(word.status == 400)
            #expect(word.error?.contains("'one' is not a connection number") == true)
            #expect(try await ControlCurl.call("GET", control, "/v1/connections").json?["count"] == 0)
        }
    }

    @Test("the Swift client replays, copies as curl and lists connections as the routes answer")
    func swiftClient() async throws {
        try await withControlServer { server, control in
            #expect(try await sendPush(server) == 200)
            let client = MockAPNsControlClient(url: control.url)
            let replayed = try await client.replay(1)
            #expect(replayed.replayOf == 1)
            #expect(replayed.connectionID == 0)
            #expect(replayed.sequence == 2)
            let edited = try await client.replay(1, edit: ReplayEdit(payload: #"{"aps":{"alert":"edited"}}"#))
            #expect(edited.payloadJSON?.value(atPath: "aps.alert") == "edited")
            #expect(edited.replayOf == 1)
            await #expect(throws: MockAPNsControlError.self) {
                try await client.replay(1, edit: ReplayEdit(headers: [APNsHeader("Bad Name", "x")]))
            }
            let curl = try await client.curl(1)
            #expect(curl.hasPrefix("# mock-apns: push #1 again"))
            _ = try await Self.closedConnections(control)
            let connections = try await client.connections()
            #expect(connections.map(\.id) == [1])
            #expect(connections.first?.pushes == 1)
            #expect(try await client.connection(id: 1)?.alpn == "h2")
            #expect(try await client.connection(id: 5) == nil)
            // In-process, the same operations answer the same.
            #expect(try await server.connections().first?.json == connections.first?.json)
            #expect(try await server.replay(1).replayOf == 1)
        }
    }
}
