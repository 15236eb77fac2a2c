import Foundation
import MockAPNs

/// What `serve` prints once it listens: where, which environment, which CA to trust, and a curl to paste.
struct StartBanner {
    let server: MockAPNsServer
    let journalFile: String?
    let controlAPI: MockAPNsControlAPI?
    let controlToken: String?

    func print() {
        let world = server.engine.world
        let host = server.host.contains(":") ? "[\(server.host)]" : server.host
        let caPath = caFilePath()
        var lines: [String] = []
        lines.append("mock-apns: scenario '\(server.scenario.name)', environment \(world.environment)")
        lines.append("  APNs (HTTP/2 over TLS)  https://\(host):\(server.port)")
        if let cleartextPort = server.cleartextPort {
            lines.append("  cleartext HTTP/2        http://\(host):\(cleartextPort)  (prior knowledge, for debugging)")
        }
        if let controlAPI {
            let guarded = controlToken == nil ? "" : "  (bearer token required)"
            lines.append("  control API (HTTP/1.1)  \(controlAPI.url)\(guarded)")
            lines.append("  watch pushes            \(Self.watchCommand(url: controlAPI.url, token: controlToken))")
        } else {
            lines.append(
                "  control API             off (--no-control): `mock-apns requests` and `reset` cannot reach it")
        }
        lines.append("  trust this CA           \(caPath.map(\.text) ?? "(the CA of your --cert)")")
        let keys = world.keys.values.sorted { $0.keyID < $1.keyID }.map { "\($0.keyID) (team \($0.teamID))" }
        lines.append("  signing keys            \(keys.isEmpty ? "none listed" : keys.joined(separator: ", "))")
        lines.append(
            "  unknown devices/keys    \(world.devicePolicy == .lenient ? "accepted" : "rejected") / \(world.keyPolicy == .lenient ? "accepted, marked unverified" : "rejected")"
        )
        lines.append(
            "  journal                 \(server.journal.capacity) records or "
                + "\(ByteSizeText.text(server.journal.maxBytes)) in memory"
                + (journalFile.map { ", appended to \($0)" } ?? ""))
        if let example = exampleCurl(host: host, caPath: caPath?.path) {
            lines.append("")
            lines.append("Send a push (the token below is valid for an hour; mint another with `mock-apns token`):")
            lines.append(example)
        }
        lines.append("")
        lines.append("ready")
        // Unbuffered, so that a script waiting for "ready" sees it at once.
        StandardStream.output.write(lines.joined(separator: "\n") + "\n")
    }

    /// The command that follows this server's pushes: its control URL, and its token when one is required.
    static func watchCommand(url: String, token: String?) -> String {
        var command = "mock-apns requests --follow --control-url \(url)"
        if let token { command += " --control-token \(Self.shellQuoted(token))" }
        return command
    }

    /// `text` as one shell word: bare when it is safe, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:/=+@%,")
        if !text.isEmpty, text.allSatisfy({ safe.contains($0) }) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The CA file to trust and how to show it: the scenario's CA, the checkout's `certs/ca.pem`, or the
    /// embedded test CA written to the temporary folder (outside a checkout, nothing else names it).
    private func caFilePath() -> (path: String, text: String)? {
        guard let caPEM = server.caPEM else { return nil }
        if let path = server.scenario.listen.caFile { return (path, path) }
        let local = "certs/ca.pem"
        let trimmed = caPEM.trimmingCharacters(in: .whitespacesAndNewlines)
        if let text = try? String(contentsOfFile: local, encoding: .utf8),
            text.trimmingCharacters(in: .whitespacesAndNewlines) == trimmed
        {
            return (local, local)
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mock-apns-ca.pem").path
        guard (try? (caPEM + "\n").write(toFile: path, atomically: true, encoding: .utf8)) != nil else { return nil }
        return (path, "\(path)  (the embedded test CA, written there: no certs/ca.pem in this folder)")
    }

    private func exampleCurl(host: String, caPath: String?) -> String? {
        guard let key = try? ES256PrivateKey(pem: TestCredentials.signingKeyPEM) else { return nil }
        let now = Int64(Date().timeIntervalSince1970)
        let token = ProviderTokenSigner.makeToken(
            teamID: TestCredentials.teamID, keyID: TestCredentials.keyID, issuedAt: now, key: key)
        let device = String(repeating: "0123456789abcdef", count: 4)
        let target = server.host == "0.0.0.0" || server.host == "::" ? "localhost" : host
        return """
              curl --http2 --cacert \(caPath ?? "ca.pem") \\
                -H 'apns-topic: com.example.app' -H 'apns-push-type: alert' \\
                -H 'authorization: bearer \(token)' \\
                -d '{"aps":{"alert":{"title":"Hello","body":"from mock-apns"}}}' \\
                https://\(target):\(server.port)/3/device/\(device)
            """
    }
}
