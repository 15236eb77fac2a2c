import AsyncHTTPClient
import MockAPNs
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// Token uploads over AsyncHTTPClient: `http://` and `https://` endpoints, connections kept and reused.
///
/// The transport the `mock-apns` command (`serve`, `run`) starts its server with. An embedder of `MockAPNs` that
/// uploads to an `https://` endpoint passes one to `MockAPNsServer.start(tokenUploadTransport:)`; without it the
/// core's `PlainHTTPTokenUploadTransport` takes `http://` only. The HTTP client is made at the first upload, so a
/// server without `tokenUpload:` never starts one, and the server's shutdown shuts it down.
public final class AsyncHTTPClientTokenUploadTransport: TokenUploadTransport {
    private struct State {
        var client: HTTPClient?
        var stopped = false
    }

    private let state = NIOLockedValueBox(State())

    /// A transport; its HTTP client is made at the first upload.
    public init() {}

    /// POSTs `request` and returns the answer's status once its body is read in full.
    public func post(_ request: TokenUploadRequest) async throws -> Int {
        guard let client = client() else { throw TokenUploadError("the server stopped before the upload finished") }
        var prepared = HTTPClientRequest(url: request.url)
        prepared.method = .POST
        for header in request.headers { prepared.headers.add(name: header.name, value: header.value) }
        prepared.body = .bytes(ByteBuffer(bytes: request.body))
        let deadline = NIODeadline.now() + TimeAmount(request.timeout)
        do {
            let response = try await client.execute(prepared, deadline: deadline)
            for try await _ in response.body {}
            return Int(response.status.code)
        } catch let error as HTTPClientError {
            switch error {
            case .deadlineExceeded, .connectTimeout, .readTimeout: throw TokenUploadError.timedOut
            case .cancelled: throw CancellationError()
            default: throw error
            }
        }
    }

    /// Shuts the HTTP client down, if one was made; later uploads fail.
    public func shutdown() async {
        let client = state.withLockedValue { state in
            state.stopped = true
            defer { state.client = nil }
            return state.client
        }
        try? await client?.shutdown()
    }

    /// The shared HTTP client, made on first use; `nil` once shut down.
    private func client() -> HTTPClient? {
        state.withLockedValue { state in
            if state.stopped { return nil }
            if let client = state.client { return client }
            var configuration = HTTPClient.Configuration()
            // The uploader's own tries and pauses count attempts; a refused connection should fail this try at once.
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.redirectConfiguration = .disallow
            // One connection per activity being uploaded, up to many: with the default 8 per host, a burst of
            // starts would wait for a connection inside each try's timeout and fail against a healthy receiver.
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 256
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            state.client = client
            return client
        }
    }
}
