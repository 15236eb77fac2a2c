import Foundation

extension ScenarioLoader.Reader {
    /// The `tokenUpload` section: `url`, optional `headers`, `attempts`, `timeout`.
    func tokenUpload(_ field: Field) throws(ScenarioError) -> TokenUploadSettings {
        let fields = try field.mapping(known: ["url", "headers", "attempts", "timeout"])
        var settings = TokenUploadSettings(url: try uploadURL(try fields.required("url")))
        if let headers = fields["headers"] {
            settings.headers = try uploadHeaders(headers)
        }
        if let attempts = fields["attempts"] {
            settings.attempts = try attempts.integer(in: TokenUploadSettings.attemptsRange)
        }
        if let timeout = fields["timeout"] {
            settings.timeout = try duration(timeout, in: TokenUploadSettings.timeoutRange)
        }
        return settings
    }

    /// An `http://` or `https://` URL with a host and, when given, a port from 1 to 65535.
    private func uploadURL(_ field: Field) throws(ScenarioError) -> String {
        let text = try field.string()
        let example = "http://127.0.0.1:8080/la-tokens"
        guard !text.contains(where: \.isWhitespace), let components = URLComponents(string: text),
            let scheme = components.scheme
        else {
            throw field.error("expected a URL such as \(example), got \(field.shortDescription)")
        }
        guard ["http", "https"].contains(scheme.lowercased()) else {
            throw field.error("must be an http:// or https:// URL such as \(example), got \(field.shortDescription)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw field.error("the URL has no host; write one, as in \(example); got \(field.shortDescription)")
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw field.error("the URL's port must be between 1 and 65535, got \(port)")
        }
        return text
    }

    /// Header names to values; a name is an HTTP token, a value one line, and the mock's own headers are refused.
    private func uploadHeaders(_ field: Field) throws(ScenarioError) -> [String: String] {
        let tokenCharacters = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var headers = [String: String]()
        for (name, entry) in try field.freeMapping() {
            guard !name.isEmpty, name.allSatisfy({ tokenCharacters.contains($0) }) else {
                throw entry.error("'\(name)' is not an HTTP header name (letters, digits and -, no spaces or ':')")
            }
            guard !TokenUploadSettings.reservedHeaders.contains(name.lowercased()) else {
                throw entry.error("\(name) is set by the mock itself (the body is JSON); leave it out")
            }
            guard headers.keys.first(where: { $0.lowercased() == name.lowercased() }) == nil else {
                throw entry.error("the header \(name) is given twice (header names ignore case)")
            }
            let value = try entry.string()
            guard !value.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                throw entry.error("a header value must be one line")
            }
            headers[name] = value
        }
        return headers
    }
}
