import AsyncHTTPClient
import Foundation
import MockAPNs

extension MockAPNsControlClient {
    /// The status of the error thrown when the control API could not be reached (no HTTP answer at all).
    ///
    /// 503 like a gateway would answer; the message says why in words: refused, timed out, unknown host.
    public static let unreachableStatus = 503

    /// "cannot reach the mock-apns control API at URL: connection refused. Is `mock-apns serve` running?"
    static func unreachable(url: String, error: any Error, timeout: Duration?) -> MockAPNsControlError {
        let limit = timeout.map { " within \($0.components.seconds) s" } ?? " in time"
        let why: String
        if let clientError = error as? HTTPClientError,
            [.deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout].contains(clientError)
        {
            why = "no answer\(limit). Is the address right, and is the server not paused (^Z)?"
        } else {
            switch SystemErrorNumber.of(error) {
            case ECONNREFUSED:
                why = "connection refused (nothing listens there). Is `mock-apns serve` running, on that port?"
            case ETIMEDOUT:
                why = "no answer\(limit). Is the address right, and is the server not paused (^Z)?"
            case EHOSTUNREACH, ENETUNREACH:
                why = "no route to that host. Is the address right?"
            default:
                why = "\(error). Is `mock-apns serve` running, and is the URL right?"
            }
        }
        return MockAPNsControlError(
            status: unreachableStatus,
            "cannot reach the mock-apns control API at \(url): \(why)"
        )
    }
}
