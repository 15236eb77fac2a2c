/// Why a token upload's try got no answer, as a `TokenUploadTransport` reports it; recorded on the upload as its
/// `error` (`TokenUpload.error`).
public struct TokenUploadError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Hashable {
        case timedOut
        case connectionRefused
        case other(String)
    }

    private let code: Code

    private init(code: Code) {
        self.code = code
    }

    /// No answer within the try's timeout (recorded as "no answer within <timeout>").
    public static let timedOut = TokenUploadError(code: .timedOut)
    /// Nothing listens at the URL's host and port.
    public static let connectionRefused = TokenUploadError(code: .connectionRefused)

    /// Another reason, in a few words (such as "https:// needs a TLS transport").
    public init(_ reason: String) {
        code = .other(reason)
    }

    /// The reason as an upload records it; a timeout names `timeout`.
    public func reason(timeout: Duration) -> String {
        switch code {
        case .timedOut: "no answer within \(DurationText.text(timeout))"
        case .connectionRefused: "connection refused"
        case .other(let reason): reason
        }
    }

    /// The reason, a timeout without its length.
    public var description: String {
        switch code {
        case .timedOut: "no answer within the timeout"
        case .connectionRefused: "connection refused"
        case .other(let reason): reason
        }
    }
}
