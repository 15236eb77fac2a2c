/// A control operation that was refused: the HTTP status it maps to and a message a person can act on.
///
/// The control API answers these as `{"error": message}` with `status`; the HTTP client throws them back
/// with the status and message the server sent.
public struct MockAPNsControlError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status: 400 for bad input, 401 for a missing token, 404 for something unknown, and so on.
    public var status: Int
    /// What went wrong and what to do instead.
    public var message: String
    /// Whether a control API server answered it over HTTP (the HTTP client's errors), rather than the in-process
    /// control refusing it: only then does the description name the HTTP status.
    public var overHTTP = false

    /// A refusal with `status` and `message`.
    public init(status: Int, _ message: String) {
        self.status = status
        self.message = message
    }

    /// The same refusal whichever way it came: `status` and `message` (not `overHTTP`).
    public static func == (lhs: MockAPNsControlError, rhs: MockAPNsControlError) -> Bool {
        lhs.status == rhs.status && lhs.message == rhs.message
    }

    /// Hashes `status` and `message`, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        hasher.combine(message)
    }

    /// The message; `message (HTTP status)` for a refusal that came over HTTP.
    public var description: String { overHTTP ? "\(message) (HTTP \(status))" : message }

    /// The 400 the control API answers `error` with: input that cannot be used, whichever layer read it.
    public init(_ error: InputError) {
        self.init(status: 400, error.message)
    }

    /// A 400: the input is malformed or out of range.
    public static func badRequest(_ message: String) -> MockAPNsControlError {
        MockAPNsControlError(status: 400, message)
    }

    /// A 404: the thing named does not exist.
    public static func notFound(_ message: String) -> MockAPNsControlError {
        MockAPNsControlError(status: 404, message)
    }
}
