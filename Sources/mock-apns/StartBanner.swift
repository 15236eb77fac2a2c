import Foundation
import MockAPNs

/// What `serve` prints once it listens: the inspector's URL first (what a person opens), then where, which
/// environment, which CA to trust, and a curl to paste.
struct StartBanner {
    let server: MockAPNsServer
    let journalFile: String?
    let controlAPI: MockAPNsControlAPI?
    let controlToken: String?
    /// Whether the CA file `listen.caFile` names is the embedded test CA written to the temporary folder (no
    /// `certs/ca.pem` here holds it): the banner says so.
    let testCAWritten: Bool
    /// Where the banner goes: standard output, or standard error under `serve --ready-json` (whose standard output
    /// is the one JSON line).
    var stream: StandardStream = .output

    func print() {
        let world = server.engine.world
        let host = server.host.contains(":") ? "[\(server.host)]" : server.host
        let caPath = caFilePath()
        var lines: [String] = []
        if let controlAPI {
            let asks = controlToken == nil ? "" : "  (the page asks for the control token)"
            lines.append("inspector: \(Self.inspectorURL(controlAPI))\(asks)")
        }
        lines.append("mock-apns: scenario '\(server.scenario.name)', environment \(world.environment)")
        lines.append("  APNs (HTTP/2 over TLS)  https://\(host):\(server.port)")
        lines.append("  channels (HTTP/2, TLS)  https://\(host):\(server.channelsPort)  (broadcast channel management)")
        if let cleartextPort = server.cleartextPort {
            lines.append("  cleartext HTTP/2        http://\(host):\(cleartextPort)  (prior knowledge, for debugging)")
        }
        if let controlAPI {
            let guarded = controlToken == nil ? "" : "  (bearer token required)"
            lines.append("  control API (HTTP/1.1)  \(controlAPI.url)\(guarded)")
            lines.append("  watch pushes            \(Self.watchCommand(url: controlAPI.url, token: controlToken))")
        } else {
            lines.append(
                "  control API             off (--no-control): no inspector, and `mock-apns requests` and `reset` "
                    + "cannot reach it")
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
        if let start = pushToStartCommand(host: host) {
            lines.append("")
            lines.append("Start a Live Activity on the scenario's push-to-start token:")
            lines.append(start)
        }
        lines.append("")
        lines.append("ready")
        // Unbuffered, so that a script waiting for "ready" sees it at once.
        stream.write(lines.joined(separator: "\n") + "\n")
    }

    /// The inspector page of `controlAPI`: its URL with the trailing `/`, which a terminal makes clickable.
    static func inspectorURL(_ controlAPI: MockAPNsControlAPI) -> String {
        controlAPI.url + "/"
    }

    /// The command that follows this server's pushes: its control URL, and its token when one is required.
    static func watchCommand(url: String, token: String?) -> String {
        var command = "mock-apns requests --follow --control-url \(url)"
        if let token { command += " --control-token \(Self.shellQuoted(token))" }
        return command
    }

    /// `text` as one shell word: bare when it is safe, else in single quotes (`ShellWord`).
    static func shellQuoted(_ text: String) -> String { ShellWord.quoted(text) }

    /// The CA file to trust, as an absolute path, and how to show it: the scenario's or `--ca` file, or the embedded
    /// test CA's file (`serve` puts it in `listen.caFile` before it starts, `TestCAFile`); `nil` for a `--cert`
    /// without `--ca`.
    private func caFilePath() -> (path: String, text: String)? {
        guard server.caPEM != nil, let file = server.scenario.listen.caFile else { return nil }
        let path = URL(fileURLWithPath: file).standardizedFileURL.path
        guard testCAWritten else { return (path, path) }
        return (path, "\(path)  (the embedded test CA, written there: no certs/ca.pem in this folder)")
    }

    /// The host a pasted command connects to: `localhost` for a wildcard address.
    private func target(_ host: String) -> String {
        server.host == "0.0.0.0" || server.host == "::" ? "localhost" : host
    }

    private func exampleCurl(host: String, caPath: String?) -> String? {
        guard let key = try? ES256PrivateKey(pem: TestCredentials.signingKeyPEM) else { return nil }
        let now = Int64(Date().timeIntervalSince1970)
        let token = ProviderTokenSigner.makeToken(
            teamID: TestCredentials.teamID, keyID: TestCredentials.keyID, issuedAt: now, key: key)
        let device = String(repeating: "0123456789abcdef", count: 4)
        // --include: the status line (and apns-id) show on success too, where APNs answers with no body.
        return """
              curl --http2 --silent --show-error --include --cacert \(Self.shellQuoted(caPath ?? "ca.pem")) \\
                -H 'apns-topic: com.example.app' -H 'apns-push-type: alert' \\
                -H 'authorization: bearer \(token)' \\
                -d '{"aps":{"alert":{"title":"Hello","body":"from mock-apns"}}}' \\
                https://\(target(host)):\(server.port)/3/device/\(device)
            """
    }

    /// `mock-apns push … --live-activity start` to the scenario's first push-to-start token (by token), with
    /// attributes and a content state that decode as its type's, so that it starts an activity as pasted; `nil`
    /// when the scenario has no push-to-start device or declares no type it could start.
    private func pushToStartCommand(host: String) -> String? {
        let world = server.engine.world
        let types = server.scenario.activityTypes
        guard
            let device = world.devices.values.filter({ $0.kind == .pushToStart }).min(by: { $0.token < $1.token }),
            let schema = device.attributesType.map({ types[$0] }) ?? types.values.min(by: { $0.name < $1.name })
        else { return nil }
        let now = Date()
        var words = ["mock-apns push \(device.token)", "--url https://\(target(host)):\(server.port)"]
        if let topic = device.bundleID ?? (world.apps.count == 1 ? world.apps.keys.first : nil) {
            words.append("--topic \(Self.shellQuoted(topic))")
        }
        // `push` trusts the embedded test CA by itself; a CA of the user's own certificate must be named.
        if server.scenario.listen.certificateFile != nil, let ca = caFilePath()?.path {
            words.append("--ca \(Self.shellQuoted(ca))")
        }
        words.append("--live-activity start --attributes-type \(Self.shellQuoted(schema.name))")
        words.append("--alert 'Live Activity started'")
        words.append("--attributes \(Self.shellQuoted(schema.exampleAttributes(at: now).jsonText))")
        words.append("--content-state \(Self.shellQuoted(schema.exampleContentState(at: now).jsonText))")
        return "  " + words.joined(separator: " \\\n    ")
    }
}
