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
            lines.append("  control API (HTTP/1.1)  \(controlAPI.url)\(guarded)  (watch: mock-apns requests --follow)")
        }
        lines.append("  trust this CA           \(caPath ?? "(the CA of your --cert)")")
        let keys = world.keys.values.sorted { $0.keyID < $1.keyID }.map { "\($0.keyID) (team \($0.teamID))" }
        lines.append("  signing keys            \(keys.isEmpty ? "none listed" : keys.joined(separator: ", "))")
        lines.append(
            "  unknown devices/keys    \(world.devicePolicy == .lenient ? "accepted" : "rejected") / \(world.keyPolicy == .lenient ? "accepted, marked unverified" : "rejected")"
        )
        lines.append(
            "  journal                 \(server.journal.capacity) records or "
                + "\(ByteSizeText.text(server.journal.maxBytes)) in memory"
                + (journalFile.map { ", appended to \($0)" } ?? ""))
        if let example = exampleCurl(host: host, caPath: caPath) {
            lines.append("")
            lines.append("Send a push (the token below is valid for an hour; mint another with `mock-apns token`):")
            lines.append(example)
        }
        lines.append("")
        lines.append("ready")
        // Unbuffered, so that a script waiting for "ready" sees it at once.
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    private func caFilePath() -> String? {
        guard let caPEM = server.caPEM else { return nil }
        if let path = server.scenario.listen.caFile { return path }
        // The embedded CA: name the repository's copy when running from a checkout, else write one out.
        let local = "certs/ca.pem"
        if let text = try? String(contentsOfFile: local, encoding: .utf8),
            text.trimmingCharacters(in: .whitespacesAndNewlines) == caPEM.trimmingCharacters(in: .whitespacesAndNewlines)
        {
            return local
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mock-apns-ca.pem").path
        return (try? (caPEM + "\n").write(toFile: path, atomically: true, encoding: .utf8)) != nil ? path : nil
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
