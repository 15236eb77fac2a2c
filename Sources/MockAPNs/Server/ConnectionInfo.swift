/// What the validator may know about the connection a request came on.
public struct ConnectionInfo: Sendable, Hashable {
    /// How the connection is secured.
    public enum Transport: String, Sendable, Hashable, Codable {
        case tls
        /// The optional prior-knowledge HTTP/2 port for local debugging.
        case cleartext
    }

    /// A number unique within one server run, in accept order.
    public var id: UInt64
    /// The peer, as `ip:port`.
    public var remoteAddress: String
    public var transport: Transport
    /// The ALPN protocol agreed, `nil` when the client offered none (aioapns, Pushy).
    public var alpn: String?
    /// The client certificate presented over mutual TLS; `nil` for a token-based connection.
    public var clientCertificate: APNsClientCertificate?
    /// Which listener accepted it: the APNs port (`.device`) or the channel management port (`.channels`).
    public var listener: Listener.Kind

    public init(
        id: UInt64, remoteAddress: String, transport: Transport = .tls, alpn: String? = "h2",
        clientCertificate: APNsClientCertificate? = nil, listener: Listener.Kind = .device
    ) {
        self.id = id
        self.listener = listener
        self.remoteAddress = remoteAddress
        self.transport = transport
        self.alpn = alpn
        self.clientCertificate = clientCertificate
    }

    /// Whether requests authenticate with a client certificate rather than a provider token.
    public var usesCertificateAuth: Bool { clientCertificate != nil }
}
