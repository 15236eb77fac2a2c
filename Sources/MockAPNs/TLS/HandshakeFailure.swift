import Logging

/// Why a TLS handshake failed, in words a user can act on, worked out from OpenSSL's error text.
///
/// One of these is logged per kind at most every 10 s (`RateLimitedLog`), so that a client that keeps failing says
/// so once, not thousands of times: at warning level for a client that does not trust the certificate (a test's
/// set-up mistake, shown even at `withMockAPNs`'s default level), else at info level.
struct HandshakeFailure: Sendable, Hashable {
    /// A short stable name, the rate limiter's key and the log's `cause`.
    var kind: String
    /// The line to log: what happened and what to do.
    var message: String

    /// The likely cause of `error` (OpenSSL's queue rendered by `TLSError.fromQueue`); an untrusted certificate's
    /// message names `trustedCAFile`, the CA file clients are told to trust (what `serve`'s banner prints).
    /// The level it is logged at: warning for `untrusted`, info for the others (scanners and old clients).
    var logLevel: Logger.Level { kind == "untrusted" ? .warning : .info }

    init(_ error: TLSError, trustedCAFile: String? = nil) {
        let text = error.message.lowercased()
        func has(_ words: String...) -> Bool { words.contains { text.contains($0) } }
        if has("unknown ca", "certificate unknown", "bad certificate", "unsupported certificate") {
            kind = "untrusted"
            message =
                "TLS handshake failed: the client does not trust the server certificate (does it trust "
                + (trustedCAFile
                    ?? "the mock's test CA: certs/ca.pem in a checkout, the server's caPEM in Swift, the file serve "
                    + "prints under 'trust this CA'")
                + "? trust it, or run with --cert/--key of a certificate it trusts)"
        } else if has("unsupported protocol", "version too low", "protocol version", "wrong ssl version") {
            kind = "protocol"
            message = "TLS handshake failed: the client offered only TLS 1.1 or older; APNs and mock-apns need TLS 1.2+"
        } else if has("no shared cipher", "no suitable signature", "no shared signature", "no suitable key share") {
            kind = "cipher"
            message = "TLS handshake failed: no cipher or signature algorithm in common with the client"
        } else if has("wrong version number", "http request", "packet length too long", "unknown protocol") {
            kind = "not-tls"
            message = "TLS handshake failed: the client does not speak TLS on this port"
        } else {
            kind = "other"
            message = "TLS handshake failed"
        }
    }

    /// A handshake (with the HTTP/2 preface) not done within `limits.handshakeTimeout`.
    static func timedOut(after timeout: Duration) -> HandshakeFailure {
        HandshakeFailure(
            kind: "timeout",
            message: "closed a connection that did not finish the TLS handshake and HTTP/2 preface within "
                + "\(DurationText.text(timeout)) (limits.handshakeTimeout, --handshake-timeout)")
    }

    /// Bytes that are neither TLS nor HTTP/1 on the TLS port.
    static let notTLS = HandshakeFailure(
        kind: "not-tls", message: "closed a connection that does not speak TLS on this port (its first byte is not a TLS record)")

    /// Plain HTTP/1 on the TLS port.
    static let plainHTTP = HandshakeFailure(
        kind: "plain-http",
        message: "answered a plain-HTTP request on the TLS port with 400: use https:// and HTTP/2 (curl --http2)")

    /// HTTP/2 cleartext (prior knowledge) on the TLS port.
    static let cleartextHTTP2 = HandshakeFailure(
        kind: "h2c",
        message: "closed an HTTP/2 cleartext (h2c) connection on the TLS port: use TLS, or serve --cleartext-port")

    /// A client-initiated TLS 1.2 renegotiation.
    static let renegotiation = HandshakeFailure(
        kind: "renegotiation", message: "refused a TLS renegotiation (alert no_renegotiation) and closed the connection")

    private init(kind: String, message: String) {
        self.kind = kind
        self.message = message
    }
}
