/// Why a client certificate could not be read as an APNs certificate.
public struct APNsClientCertificateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, with OpenSSL's own words when it had some.
    public let message: String

    /// An error saying `message`.
    init(_ message: String) {
        self.message = message
    }

    /// The message, so that string interpolation and logs show it plainly.
    public var description: String { message }
}
