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
        var details: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            details.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return TLSError(details.isEmpty ? context : "\(context): \(details.joined(separator: "; "))")
    }
}
