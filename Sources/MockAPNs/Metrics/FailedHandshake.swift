import Foundation

/// The newest TLS handshake that failed: when (real time, not the mock's clock), its kind (`untrusted` when the
/// client does not trust the certificate) and the sentence the server logs for it.
///
/// A test whose provider does not trust the mock's CA otherwise sees only a timeout; `expectPush` names this in its
/// failure when it happened while it waited, and `GET /v1/stats` shows it.
public struct FailedHandshake: Sendable, Hashable {
    /// When it failed, by the wall clock.
    public var at: Date
    /// What kind of failure: `untrusted`, `protocol`, … (`HandshakeFailure.kind`).
    public var kind: String
    /// What went wrong and what to do, in words.
    public var message: String

    /// A failure at `at` of `kind`, described by `message`.
    public init(at: Date, kind: String, message: String) {
        self.at = at
        self.kind = kind
        self.message = message
    }
}

extension FailedHandshake: JSONMapped {
    /// `{"at", "kind", "message"}`.
    public static let jsonMapping = JSONMapping<FailedHandshake, FailedHandshake>(
        FailedHandshake(at: .distantPast, kind: "", message: ""),
        [
            .member("at", \.at, .timestamp),
            .member("kind", \.kind, .string),
            .member("message", \.message, .string, required: true),
        ])
}
