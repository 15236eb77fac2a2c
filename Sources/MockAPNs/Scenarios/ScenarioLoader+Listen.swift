import Foundation

extension ScenarioLoader.Reader {
    /// The `listen` section.
    func listen(_ field: Field) throws(ScenarioError) -> ListenSettings {
        let fields = try field.mapping(known: [
            "host", "port", "cleartextPort", "channelsPort", "certificate", "privateKey", "ca",
            "requestClientCertificate",
        ])
        var listen = ListenSettings()
        if let host = fields["host"] {
            listen.host = try host.string()
            if listen.host.isEmpty { throw host.error("must not be empty; use 0.0.0.0 or :: for every address") }
        }
        if let port = fields["port"] {
            listen.port = try port.integer(in: 0...65535)
            listen.portIsPinned = true
        }
        if let cleartextPort = fields["cleartextPort"] {
            listen.cleartextPort = try cleartextPort.integer(in: 0...65535)
        }
        if let channelsPort = fields["channelsPort"] {
            listen.channelsPort = try channelsPort.integer(in: 0...65535)
            listen.channelsPortIsPinned = true
        }
        if let certificate = fields["certificate"] {
            listen.certificateFile = try readableFile(certificate)
        }
        if let privateKey = fields["privateKey"] {
            listen.privateKeyFile = try readableFile(privateKey)
        }
        if let ca = fields["ca"] {
            listen.caFile = try readableFile(ca)
        }
        if let request = fields["requestClientCertificate"] {
            listen.requestClientCertificate = try request.bool()
        }
        if (listen.certificateFile == nil) != (listen.privateKeyFile == nil) {
            let given = fields["certificate"] ?? fields["privateKey"] ?? field
            throw given.error("certificate and privateKey go together: give both, or neither for the test certificate")
        }
        return listen
    }

    /// A path relative to the scenario's folder, made absolute (or left alone if it already is).
    func resolve(_ path: String) -> String {
        let base = URL(fileURLWithPath: baseDirectory, isDirectory: true)
        return URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL.path
    }

    /// A file path that must name a readable file; returns it resolved.
    func readableFile(_ field: Field) throws(ScenarioError) -> String {
        try fileContents(field).path
    }

    /// The contents of a file named by a field, resolved against the scenario's folder.
    func fileContents(_ field: Field) throws(ScenarioError) -> (path: String, text: String) {
        let path = try resolvedPath(field)
        do {
            return (path, try ScenarioLoader.readText(atPath: path))
        } catch {
            throw field.error("cannot read \(path): \(error.reason)")
        }
    }

    /// A non-empty path field, resolved against the scenario's folder.
    func resolvedPath(_ field: Field) throws(ScenarioError) -> String {
        let text = try field.string()
        guard !text.isEmpty else { throw field.error("expected a file path, got an empty string") }
        let resolved = resolve(text)
        filePaths.note(field, written: text, resolved: resolved)
        return resolved
    }
}
