import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// The core's token upload transport: HTTP/1.1 without TLS, on the NIO the server already links, one connection
/// per try (`Connection: close`).
///
/// A server started without a transport uses this one, so an in-process server (`MockAPNsTesting`, an embedder of
/// `MockAPNs`) uploads to an `http://` endpoint as the `mock-apns` command does. An `https://` URL is not sent: each
/// try fails with a reason that says so, recorded on the upload and logged, and `POST /v1/verify` reports it. Pass
/// `MockAPNsClient`'s `AsyncHTTPClientTokenUploadTransport` to upload over TLS.
public struct PlainHTTPTokenUploadTransport: TokenUploadTransport {
    /// Why an `https://` upload fails on this transport.
    static let needsTLS =
        "https:// upload URLs need a TLS transport; start the server with MockAPNsClient's "
        + "AsyncHTTPClientTokenUploadTransport (the mock-apns command does)"

    /// The transport; it holds nothing between tries.
    public init() {}

    /// POSTs `request` on a new connection and returns the answer's status once the answer has ended.
    public func post(_ request: TokenUploadRequest) async throws -> Int {
        guard let url = URLComponents(string: request.url), let written = url.host, !written.isEmpty else {
            throw TokenUploadError("not a URL: \(request.url)")
        }
        guard url.scheme?.lowercased() == "http" else {
            throw TokenUploadError(url.scheme?.lowercased() == "https" ? Self.needsTLS : "not an http:// URL")
        }
        let host = written.hasPrefix("[") && written.hasSuffix("]") ? String(written.dropFirst().dropLast()) : written
        let port = url.port ?? 80
        var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: Self.target(of: url))
        head.headers.add(name: "Host", value: url.port.map { "\(Self.hostText(host)):\($0)" } ?? Self.hostText(host))
        for header in request.headers { head.headers.add(name: header.name, value: header.value) }
        head.headers.add(name: "Content-Length", value: String(request.body.count))
        head.headers.add(name: "Connection", value: "close")
        let timeout = TimeAmount(request.timeout)
        let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(timeout)
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        return try NIOAsyncChannel(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw Self.connectFailure(error)
        }
        let body = ByteBuffer(bytes: request.body)
        // Closing the channel ends the read below: the caller cancels a try whose time is up.
        return try await withTaskCancellationHandler {
            try await channel.executeThenClose { inbound, outbound in
                try await outbound.write(.head(head))
                try await outbound.write(.body(.byteBuffer(body)))
                try await outbound.write(.end(nil))
                var status: Int?
                for try await part in inbound {
                    switch part {
                    case .head(let response): status = Int(response.status.code)
                    case .body: continue  // read and dropped: only the status counts
                    case .end:
                        if let status { return status }
                    }
                }
                try Task.checkCancellation()
                throw TokenUploadError("the connection closed before the answer ended")
            }
        } onCancel: {
            channel.channel.close(promise: nil)
        }
    }

    /// Nothing to release: each try closes its connection.
    public func shutdown() async {}

    /// The request target: the URL's path (`/` when it has none) and query, as written.
    static func target(of url: URLComponents) -> String {
        let path = url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath
        return url.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
    }

    /// `host` as the `Host` header writes it: an IPv6 address in brackets.
    private static func hostText(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }

    /// A failed connect in the words an upload records.
    private static func connectFailure(_ error: any Error) -> any Error {
        if error is CancellationError { return error }
        if SystemErrorNumber.of(error) == ECONNREFUSED { return TokenUploadError.connectionRefused }
        let failures = (error as? NIOConnectionError)?.connectionErrors.map(\.error) ?? [error]
        if failures.contains(where: { isTimeout($0) }) {
            return TokenUploadError.timedOut
        }
        return error
    }

    private static func isTimeout(_ error: any Error) -> Bool {
        guard let error = error as? ChannelError, case .connectTimeout = error else { return false }
        return true
    }
}
