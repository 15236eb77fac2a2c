import Foundation
import NIOCore

/// The errno behind a socket error, for messages in words instead of `(errno: 98)`.
public enum SystemErrorNumber {
    /// The errno of `error`: an `IOError`'s code, else the number in a description's "(errno: N)", else `nil`.
    ///
    /// Some errors (NIO's `NIOConnectionError`, errors that Hummingbird or AsyncHTTPClient pass through) carry
    /// an `IOError` without exposing it; their description still ends in its "(errno: N)".
    public static func of(_ error: any Error) -> Int32? {
        if let ioError = error as? IOError { return ioError.errnoCode }
        let text = "\(error)"
        guard let range = text.range(of: "(errno: ", options: .backwards) else { return nil }
        return Int32(text[range.upperBound...].prefix { $0.isNumber })
    }
}
