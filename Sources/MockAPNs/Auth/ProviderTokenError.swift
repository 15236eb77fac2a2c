/// Why a provider token could not be parsed: its shape is wrong, before any key or claim is checked.
///
/// APNs answers every such token with 403 `InvalidProviderToken` (apns-reference.md §5; doc); the message says
/// what exactly was wrong so that a person reading the recorded request can fix their client.
public struct ProviderTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the token, in words a person can act on.
    public let message: String

    /// An error saying `message`.
    init(_ message: String) {
        self.message = message
    }

    /// The message, so that string interpolation and logs show it plainly.
    public var description: String { message }
}
