import Foundation
import MockAPNs

/// The variables `mock-apns run` adds to COMMAND's environment, and the temporary files they name.
struct RunEnvironment {
    /// The variables in the order `run` prints them.
    private(set) var variables: [(name: String, value: String)] = []
    /// A folder of this run's own (the CA and key files), removed by `removeFiles`.
    let folder: URL

    /// The variables for `mock`: where it listens, the CA to trust, the control API, the signing key and, when
    /// the scenario lists exactly one app, its bundle id. The embedded CA and key are written to `folder`.
    init(mock: RunningMock) throws {
        let server = mock.server
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("mock-apns-run-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CLIError("cannot create \(folder.path) for the CA and key files: \(error.localizedDescription)")
        }
        let wildcard = server.host == "0.0.0.0" || server.host == "::"
        let host = wildcard ? "127.0.0.1" : server.host
        let urlHost = host.contains(":") ? "[\(host)]" : host
        add("MOCK_APNS_URL", "https://\(urlHost):\(server.port)")
        add("MOCK_APNS_HOST", host)
        add("MOCK_APNS_PORT", String(server.port))
        add("MOCK_APNS_CHANNELS_URL", "https://\(urlHost):\(server.channelsPort)")
        if let caFile = server.scenario.listen.caFile {
            add("MOCK_APNS_CA_FILE", URL(fileURLWithPath: caFile).standardizedFileURL.path)
        } else if let caPEM = server.caPEM {
            add("MOCK_APNS_CA_FILE", try write(caPEM, name: "ca.pem"))
        }
        if let controlAPI = mock.controlAPI { add("MOCK_APNS_CONTROL_URL", controlAPI.url) }
        if let key = server.scenario.signingKeyFile {
            add("MOCK_APNS_KEY_FILE", key.path)
            add("MOCK_APNS_KEY_ID", key.keyID)
            add("MOCK_APNS_TEAM_ID", key.teamID)
        } else {
            add(
                "MOCK_APNS_KEY_FILE",
                try write(TestCredentials.signingKeyPEM, name: "AuthKey_\(TestCredentials.keyID).p8"))
            add("MOCK_APNS_KEY_ID", TestCredentials.keyID)
            add("MOCK_APNS_TEAM_ID", TestCredentials.teamID)
        }
        if server.engine.world.apps.count == 1, let app = server.engine.world.apps.keys.first {
            add("MOCK_APNS_BUNDLE_ID", app)
        }
    }

    /// This process's environment with the variables added (replacing any of the same name).
    var childEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in variables { environment[name] = value }
        return environment
    }

    /// `export NAME=value` lines, for a person to paste into another shell.
    var exportLines: [String] {
        variables.map { "export \($0.name)=\(StartBanner.shellQuoted($0.value))" }
    }

    /// Removes the CA and key files `run` wrote.
    func removeFiles() {
        try? FileManager.default.removeItem(at: folder)
    }

    private mutating func add(_ name: String, _ value: String) {
        variables.append((name, value))
    }

    private func write(_ text: String, name: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        let body = text.hasSuffix("\n") ? text : text + "\n"
        guard
            FileManager.default.createFile(
                atPath: path, contents: Data(body.utf8), attributes: [.posixPermissions: 0o600])
        else { throw CLIError("cannot write \(path)") }
        return path
    }
}
