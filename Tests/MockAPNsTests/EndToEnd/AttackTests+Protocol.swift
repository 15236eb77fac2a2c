import Foundation
import Testing
@testable import MockAPNs

/// What RFC 9113 asks for one malformed frame: the error code, and whether it must end the connection (GOAWAY)
/// or may end only the stream (RST_STREAM, or GOAWAY: §5.4.1 lets an endpoint treat any stream error as a
/// connection error). `nil` code: the frame is ignored and the connection goes on (a PING after it is answered).
struct FrameRule: CustomTestStringConvertible, Sendable {
    enum Scope: Sendable { case connection, stream, ignored }

    var name: String
    var scope: Scope
    var code: String?
    var rfc: String

    var testDescription: String { "\(name) → \(code ?? "ignored") (\(rfc))" }

    static func connection(_ name: String, _ code: String, _ rfc: String) -> FrameRule {
        FrameRule(name: name, scope: .connection, code: code, rfc: rfc)
    }

    static func stream(_ name: String, _ code: String, _ rfc: String) -> FrameRule {
        FrameRule(name: name, scope: .stream, code: code, rfc: rfc)
    }

    static func ignored(_ name: String, _ rfc: String) -> FrameRule {
        FrameRule(name: name, scope: .ignored, code: nil, rfc: rfc)
    }

    /// The cases of `attacks.py malformed`, each with the answer RFC 9113 gives it.
    static let table: [FrameRule] = [
        .connection("data-on-stream-0", "PROTOCOL_ERROR", "§6.1"),
        .connection("headers-on-stream-0", "PROTOCOL_ERROR", "§6.2"),
        .connection("priority-on-stream-0", "PROTOCOL_ERROR", "§6.3"),
        .connection("rst-on-stream-0", "PROTOCOL_ERROR", "§6.4"),
        .connection("settings-on-stream-1", "PROTOCOL_ERROR", "§6.5"),
        .connection("ping-on-stream-1", "PROTOCOL_ERROR", "§6.7"),
        .connection("goaway-on-stream-1", "PROTOCOL_ERROR", "§6.8"),
        .connection("headers-on-even-stream", "PROTOCOL_ERROR", "§5.1.1"),
        .connection("data-on-idle-stream", "PROTOCOL_ERROR", "§5.1"),
        .connection("rst-on-idle-stream", "PROTOCOL_ERROR", "§6.4"),
        .connection("window-update-on-idle-stream", "PROTOCOL_ERROR", "§5.1"),
        .connection("continuation-without-headers", "PROTOCOL_ERROR", "§6.10"),
        .connection("continuation-on-other-stream", "PROTOCOL_ERROR", "§6.10"),
        .connection("ping-inside-header-block", "PROTOCOL_ERROR", "§4.3"),
        .connection("push-promise-from-client", "PROTOCOL_ERROR", "§8.4"),
        .stream("priority-length-4", "FRAME_SIZE_ERROR", "§6.3"),
        .connection("rst-length-3", "FRAME_SIZE_ERROR", "§6.4"),
        .connection("settings-length-5", "FRAME_SIZE_ERROR", "§6.5"),
        .connection("settings-ack-with-payload", "FRAME_SIZE_ERROR", "§6.5"),
        .connection("ping-length-7", "FRAME_SIZE_ERROR", "§6.7"),
        .connection("goaway-length-4", "FRAME_SIZE_ERROR", "§4.2"),
        .connection("window-update-length-3", "FRAME_SIZE_ERROR", "§6.9"),
        .connection("length-field-says-more", "FRAME_SIZE_ERROR", "§6.7"),
        .connection("settings-enable-push-2", "PROTOCOL_ERROR", "§6.5.2"),
        .connection("settings-initial-window-too-large", "FLOW_CONTROL_ERROR", "§6.5.2"),
        .connection("settings-max-frame-size-too-small", "PROTOCOL_ERROR", "§6.5.2"),
        .connection("settings-max-frame-size-too-large", "PROTOCOL_ERROR", "§6.5.2"),
        .connection("window-update-0-on-connection", "PROTOCOL_ERROR", "§6.9"),
        .stream("window-update-0-on-stream", "PROTOCOL_ERROR", "§6.9"),
        .connection("window-update-overflow-connection", "FLOW_CONTROL_ERROR", "§6.9.1"),
        .stream("window-update-overflow-stream", "FLOW_CONTROL_ERROR", "§6.9.1"),
        .stream("priority-on-own-stream", "PROTOCOL_ERROR", "§5.3.1"),
        .stream("headers-depending-on-itself", "PROTOCOL_ERROR", "§5.3.1"),
        .stream("data-larger-than-max-frame-size", "FRAME_SIZE_ERROR", "§4.2"),
        .connection("headers-padding-too-long", "PROTOCOL_ERROR", "§6.2"),
        .connection("data-padding-too-long", "PROTOCOL_ERROR", "§6.1"),
        .connection("bad-hpack-index", "COMPRESSION_ERROR", "§4.3"),
        .stream("missing-path", "PROTOCOL_ERROR", "§8.3.1"),
        .stream("uppercase-header-name", "PROTOCOL_ERROR", "§8.2.1"),
        .stream("connection-header", "PROTOCOL_ERROR", "§8.2.2"),
        .stream("content-length-mismatch", "PROTOCOL_ERROR", "§8.1.1"),
        .stream("data-after-end-stream", "STREAM_CLOSED", "§5.1 half-closed (remote)"),
        .stream("headers-after-end-stream", "STREAM_CLOSED", "§5.1 half-closed (remote)"),
        .ignored("unknown-frame-type", "§4.1, §5.5"),
        .ignored("unknown-frame-type-on-stream", "§5.5"),
        .ignored("unknown-setting", "§6.5.2"),
        .ignored("unknown-flags-on-ping", "§4.1"),
    ]

    /// Frames on a stream already answered and closed, or closed by the client's own reset (h2spec 5.1/8 and
    /// 5.1/9; the DATA in a later write, the HEADERS in the same one), and a stream id lower than one already used:
    /// nghttp2 1.52 alone ignores them (the 200 goes out, the frame is dropped); `HTTP2StreamHistory` makes them
    /// errors.
    static let closedStreamTable: [FrameRule] = [
        .connection("data-after-reset", "STREAM_CLOSED", "§5.1 closed"),
        .connection("headers-after-reset", "STREAM_CLOSED", "§5.1 closed"),
        .stream("data-after-answer", "STREAM_CLOSED", "§5.1 closed, §6.1"),
        .stream("headers-after-answer", "STREAM_CLOSED", "§5.1 closed"),
        .connection("decreasing-stream-id", "PROTOCOL_ERROR", "§5.1.1"),
    ]
}

extension AttackTests {
    /// Runs `attacks.py malformed` for `rules` and checks each answer frame by frame.
    static func expectAnswers(_ rules: [FrameRule], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await withServeProcess { server in
            let trial = try await Attacker.run(
                "malformed", against: server, ["--case", rules.map(\.name).joined(separator: ",")], probe: false)
            let cases = trial.result["cases"] as? [String: [String: Any]] ?? [:]
            #expect(cases.count == rules.count, "cases run: \(cases.keys.sorted())", sourceLocation: sourceLocation)
            for rule in rules {
                let result = cases[rule.name] ?? [:]
                let first = result["first"] as? [String: Any]
                let type = first?["type"] as? String
                let code = first?["error"] as? String
                let seen = "\(rule.name): got \(type ?? "nothing") \(code ?? ""), \(result)"
                switch rule.scope {
                case .connection:
                    #expect(
                        type == "GOAWAY" && code == rule.code,
                        "\(seen); RFC 9113 \(rule.rfc) asks GOAWAY \(rule.code!)",
                        sourceLocation: sourceLocation)
                case .stream:
                    #expect(
                        (type == "RST_STREAM" || type == "GOAWAY") && code == rule.code,
                        "\(seen); RFC 9113 \(rule.rfc) asks RST_STREAM (or GOAWAY) \(rule.code!)",
                        sourceLocation: sourceLocation)
                    if type == "RST_STREAM" {
                        #expect(first?["stream"] as? Int == 1, "\(seen)", sourceLocation: sourceLocation)
                    }
                case .ignored:
                    #expect(type == nil && result["pingAnswered"] as? Bool == true,
                            "\(seen); RFC 9113 \(rule.rfc) asks to ignore it", sourceLocation: sourceLocation)
                }
            }
            // No malformed request is ever recorded as answered unless the client saw it answered.
            try await Self.expectJournalAgrees(trial, server, sourceLocation: sourceLocation)
            #expect(server.process.isRunning, sourceLocation: sourceLocation)
        }
    }

    @Test("answers each malformed frame as RFC 9113 says, frame by frame (GOAWAY / RST_STREAM and its code)")
    func malformedFrames() async throws {
        try await Self.expectAnswers(FrameRule.table)
    }

    @Test("answers frames on an answered or client-reset stream with STREAM_CLOSED, a lower id with PROTOCOL_ERROR")
    func closedStreamFrames() async throws {
        try await Self.expectAnswers(FrameRule.closedStreamTable)
    }

    /// The `garbage` attack's cases.
    static func garbageCases() async throws
        -> (cases: [String: [String: Any]], server: ServeProcess, trial: Attacker.Trial)
    {
        let server = try await ServeProcess()
        let trial = try await Attacker.run("garbage", against: server)
        return (trial.result["cases"] as? [String: [String: Any]] ?? [:], server, trial)
    }

    @Test("garbage before and after the TLS handshake, TLS 1.0 and 1.1, HTTP/2 prior knowledge on the TLS port")
    func garbage() async throws {
        let (cases, server, trial) = try await Self.garbageCases()
        defer { server.stop() }
        for name in ["random-before-tls", "h2-prior-knowledge-on-tls-port", "random-after-tls"] {
            #expect(cases[name]?["closed"] as? Bool == true, "\(name): \(cases[name] ?? [:])")
        }
        let afterPreface = cases["random-after-preface"]?["goaway"] as? [String: Any]
        #expect(afterPreface?["error"] != nil, "random bytes after the preface get a GOAWAY: \(cases)")
        for name in ["tls-1.0", "tls-1.1"] {
            #expect(cases[name]?["refused"] as? Bool == true, "\(name): \(cases[name] ?? [:])")
        }
        try await Self.expectSurvived(trial, server, growthMiB: 64)
    }

    @Test("plain HTTP/1.1 and an h2c upgrade on the TLS port get a one-line HTTP/1.1 400; renegotiation is refused")
    func httpOneAndRenegotiation() async throws {
        let (cases, server, trial) = try await Self.garbageCases()
        defer { server.stop() }
        for name in ["http1-on-tls-port", "h2c-upgrade-on-tls-port"] {
            let line = cases[name]?["firstLine"] as? String ?? ""
            #expect(line.hasPrefix("HTTP/1.1 400"), "\(name): \(cases[name] ?? [:])")
            #expect(cases[name]?["closed"] as? Bool == true, "\(name): \(cases[name] ?? [:])")
        }
        let renegotiation = cases["renegotiation"] ?? [:]
        #expect(renegotiation["version"] as? String == "TLSv1.2", "\(renegotiation)")
        #expect(renegotiation["hung"] as? Bool == false, "the client is left waiting: \(renegotiation)")
        #expect(renegotiation["closed"] as? Bool == true, "\(renegotiation)")
        #expect(renegotiation["renegotiated"] as? Bool == false, "\(renegotiation)")
        try await Self.expectSurvived(trial, server, growthMiB: 64)
    }

    @Test("slowloris: 100 byte-at-a-time ClientHellos, 100 byte-at-a-time prefaces and 100 idle connections closed")
    func slowloris() async throws {
        let scenario = "limits:\n  handshakeTimeout: 1s\n  idleTimeout: 2s\n"
        try await withServeProcess(scenarioYAML: scenario) { server in
            try await Self.warmUp(server)
            let trial = try await Attacker.run(
                "slowloris", against: server, ["--count", "100", "--time", "10", "--interval", "0.05"], settle: 3)
            let modes = trial.result["modes"] as? [String: [String: Any]] ?? [:]
            // Each close is timed from the connection's own opening: its timeout (handshake 1 s, idle 2 s) plus 3 s
            // for a loaded machine and the client's polling.
            for (mode, timeout) in [("hello", 1.0), ("preface", 1.0), ("idle", 2.0)] {
                let result = modes[mode] ?? [:]
                #expect(result["connections"] as? Int == 100, "\(mode): \(result)")
                #expect(result["open"] as? Int == 0, "\(mode): connections still open after 10 s: \(result)")
                #expect((result["maxClosedAfter"] as? Double ?? .infinity) <= timeout + 3, "\(mode): \(result)")
            }
            let idle = modes["idle"]?["goawayDebug"] as? [String] ?? []
            #expect(idle.contains { $0.contains("IdleTimeout") }, "idle connections get GOAWAY IdleTimeout: \(idle)")
            #expect(trial.descriptorsAfter <= trial.descriptorsBefore, "\(trial.figures)")
            try await Self.expectSurvived(trial, server, growthMiB: 64)
        }
    }
}
