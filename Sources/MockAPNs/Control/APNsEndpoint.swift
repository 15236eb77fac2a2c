import Foundation

/// Where a mock's APNs port is, and which CA its clients must trust: what a command that reaches it names
/// (`CurlCommand`).
public struct APNsEndpoint: Sendable, Hashable {
    /// The TLS listener's URL, `https://127.0.0.1:2197`; a wildcard address is written as loopback.
    public var url: String
    /// The CA file clients are told to trust (`listen.caFile`, which `mock-apns serve` sets to the embedded test
    /// CA's file), as an absolute path; `nil` when the mock names none.
    public var caFile: String?
    /// Whether the mock serves the embedded test certificate (its CA is the embedded test CA, `certs/ca.pem`).
    public var embeddedCertificate: Bool

    /// An endpoint from its parts.
    public init(url: String, caFile: String?, embeddedCertificate: Bool) {
        self.url = url
        self.caFile = caFile
        self.embeddedCertificate = embeddedCertificate
    }

    /// The endpoint of a TLS listener bound to `host` and `port`, with `listen`'s CA and certificate files.
    init(host: String, port: Int, listen: ListenSettings) {
        let shown =
            switch host {
            case "0.0.0.0", "": "127.0.0.1"
            case "::": "[::1]"
            default: host.contains(":") ? "[\(host)]" : host
            }
        url = "https://\(shown):\(port)"
        caFile = listen.caFile.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        embeddedCertificate = listen.certificateFile == nil
    }
}
