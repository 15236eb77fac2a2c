import AsyncHTTPClient
import Foundation
import MockAPNs
import NIOSSL

/// Why `mock-apns push` could not get an answer, in one sentence that says what to do, as `requests` says it of an
/// unreachable control API: no NIO or BoringSSL internals (they name the build's source files).
enum PushFailure {
    /// The sentence for `error`, a failure of the push to `base` (`https://HOST:PORT`); `find` says how to point
    /// the command at the right endpoint.
    static func sentence(
        _ error: any Error, base: String, find: String, connectTimeout: Int64, requestTimeout: Int64
    ) -> String {
        if let clientError = error as? HTTPClientError {
            if clientError == .connectTimeout {
                return "no connection within \(connectTimeout) s. Is the address right, and is the server not "
                    + "paused (^Z)?"
            }
            if clientError == .deadlineExceeded || clientError == .readTimeout {
                return "no answer within \(requestTimeout) s. Is the server not paused (^Z)?"
            }
        }
        if error is NIOSSLError || error is BoringSSLError {
            let code = opensslReason(error)
            switch code {
            case "WRONG_VERSION_NUMBER", "HTTP_REQUEST", "PACKET_LENGTH_TOO_LONG":
                return "that port speaks plain HTTP, not TLS (the control API's port?); APNs is HTTP/2 over TLS: \(find)"
            case "CERTIFICATE_VERIFY_FAILED":
                return "the server's certificate is not trusted (CERTIFICATE_VERIFY_FAILED): pass the CA file "
                    + "`mock-apns serve` prints with --ca, or set MOCK_APNS_CA_FILE"
            default:
                return "the TLS handshake failed (\(code ?? "no detail")). Is that an APNs port? \(find)"
            }
        }
        switch SystemErrorNumber.of(error) {
        case ECONNREFUSED:
            return "connection refused (nothing listens there). Is `mock-apns serve` running? \(find)"
        case ECONNRESET, EPIPE:
            return "the server closed the connection. Is that an APNs port? \(find)"
        case ETIMEDOUT:
            return "no answer. Is the address right, and is the server not paused (^Z)?"
        case EHOSTUNREACH, ENETUNREACH:
            return "no route to that host. Is the address right? \(find)"
        default:
            return "\(error). Is the URL right? \(find)"
        }
    }

    /// The OpenSSL reason of a TLS error (`WRONG_VERSION_NUMBER` in `…:OPENSSL_internal:WRONG_VERSION_NUMBER at
    /// /path/tls_record.cc:127`), without the source path.
    static func opensslReason(_ error: any Error) -> String? {
        let text = "\(error)"
        guard let start = text.range(of: "OPENSSL_internal:") else { return nil }
        let reason = text[start.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return reason.isEmpty ? nil : String(reason)
    }
}
