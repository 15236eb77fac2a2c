/// Input that cannot be used (a query parameter, a request body, a clock move, a count), with a message a person
/// can act on: what is wrong, naming the field, and what to give instead.
///
/// The layers that read input throw it and know nothing of HTTP; the control API answers it as a 400 with the
/// message (`MockAPNsControlError(_:)`), and the command line prints the message.
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and what to give instead.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
