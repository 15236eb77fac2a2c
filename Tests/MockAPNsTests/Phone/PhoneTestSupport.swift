import Foundation
import Testing

@testable import MockAPNs

/// Pushes as a provider sends them (curl, HTTP/2 over TLS) to a server playing the phone, and what the phone did.
enum PhonePush {
    /// A 64-digit app token ending in `n` (two hex digits).
    static func token(_ n: Int) -> String {
        String(repeating: "ab", count: 31) + String(format: "%02x", n)
    }

    /// A scenario from `yaml`, as a file would load.
    static func scenario(_ yaml: String) throws -> Scenario {
        try ScenarioLoader.parse(yaml: yaml, sourcePath: "phone.yaml", baseDirectory: "/")
    }

    /// What one push got: APNs's status and the record's device part.
    struct Result: Sendable {
        var status: Int
        var device: DeviceOutcome?
        var sequence: UInt64
        /// APNs's answer body (`{"reason": …}` for a rejection).
        var body = ""

        /// `shown alert-shown`: the kind and the rule.
        var kindAndRule: String { device.map { "\($0.kind.rawValue) \($0.rule?.id ?? "-")" } ?? "none" }
    }

    /// POSTs `body` to `token` with the push type, topic and priority given (and `extra` headers), on a new
    /// connection; answers the status and the record's device part.
    static func send(
        _ server: MockAPNsServer, to token: String, _ body: String, type: String = "alert",
        topic: String = "com.example.app", priority: String? = nil, extra: [String: String] = [:]
    ) async throws -> Result {
        var headers = EndToEndTests.pushHeaders(["apns-topic": topic, "apns-push-type": type])
        if let priority { headers["apns-priority"] = priority }
        for (name, value) in extra { headers[name] = value }
        let response = try await Curl.request(
            port: server.port, path: "/3/device/\(token)", headers: headers, body: body)
        // The push's record: later events of other pushes it gave may follow it.
        let record = server.journal.records().last { $0.kind == .devicePush }
        return Result(
            status: response.status, device: record?.device, sequence: record?.sequence ?? 0, body: response.body)
    }

    /// An alert with a title and body, and `aps` members `extra` (JSON text without braces, `"badge":3`).
    static func alert(_ extra: String = "") -> String {
        #"{"aps":{"alert":{"title":"Order ready","body":"On its way"}"# + (extra.isEmpty ? "" : ",\(extra)") + "}}"
    }

    /// A background push: `content-available: 1` alone.
    static let background = #"{"aps":{"content-available":1},"orderID":"42"}"#

    /// A VoIP push's payload, with a call id.
    static let voip = #"{"callID":"c-1","caller":"Mum"}"#
}
