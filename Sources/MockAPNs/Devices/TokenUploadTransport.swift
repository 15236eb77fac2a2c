/// How the simulated app's token uploads reach the provider's server: one POST, and the status of its answer.
///
/// The core has one of its own, `PlainHTTPTokenUploadTransport` (HTTP/1.1 on NIO, `http://` URLs only), so that
/// it links no second TLS stack beside the server's OpenSSL. `MockAPNsClient` has one on AsyncHTTPClient that takes
/// `https://` too; the `mock-apns` command (`serve`, `run`) uses that one. A server takes its transport at start
/// (`MockAPNsServer.start(tokenUploadTransport:)`) and shuts it down with itself.
public protocol TokenUploadTransport: Sendable {
    /// Sends `request` and returns the answer's HTTP status once the whole answer is read.
    ///
    /// Throws when there is no answer: `TokenUploadError` when the transport can say why in a few words
    /// (`.timedOut`, `.connectionRefused`, or a reason of its own), or `CancellationError` when the try was
    /// cancelled. The caller races the call against `request.timeout` and cancels it when the time is up.
    func post(_ request: TokenUploadRequest) async throws -> Int

    /// Releases what the transport holds (connections, an HTTP client): the server's shutdown calls it once, after
    /// the last `post` returned.
    func shutdown() async
}
