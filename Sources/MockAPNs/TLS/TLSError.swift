import COpenSSL

/// A TLS failure, with OpenSSL's error queue rendered as text.
public struct TLSError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    /// `context` followed by every error on OpenSSL's queue (which it empties).
    static func fromQueue(_ context: String) -> TLSError {
        let details = OpenSSL.drainErrors()
        return TLSError(details.isEmpty ? context : "\(context): \(details)")
    }
}
