import Foundation
import Hummingbird
import MockAPNs
import NIOConcurrencyHelpers
import NIOCore

/// A provider's token endpoint for the token-upload tests: a real HTTP/1.1 server (Hummingbird) on a free port that
/// records every POST to `/la-tokens` and answers each with the status `answer` gives for its number (1-based),
/// after `delay`.
final class UploadReceiver: Sendable {
    /// One request the receiver got.
    struct Received: Sendable {
        var contentType: String?
        /// The value of the test's `X-Provider-Key` header, when sent.
        var providerKey: String?
        var body: String
        var json: JSONValue? { try? JSONParser.parse(body) }
    }

    let port: Int
    private let stored: NIOLockedValueBox<[Received]>

    /// The endpoint's URL.
    var url: String { "http://127.0.0.1:\(port)/la-tokens" }

    /// Every POST so far, in arrival order.
    var received: [Received] { stored.withLockedValue { $0 } }

    private init(port: Int, stored: NIOLockedValueBox<[Received]>) {
        self.port = port
        self.stored = stored
    }

    /// Runs `body` with a receiver listening, and stops it afterwards.
    static func with<T>(
        delay: Duration = .zero, answer: @escaping @Sendable (Int) -> Int = { _ in 200 },
        _ body: (UploadReceiver) async throws -> T
    ) async throws -> T {
        let stored = NIOLockedValueBox<[Received]>([])
        let router = Router()
        router.post("/la-tokens") { request, _ -> Response in
            let buffer = try await request.body.collect(upTo: 1 << 20)
            let received = Received(
                contentType: request.headers[.contentType],
                providerKey: request.headers.first { $0.name.canonicalName == "x-provider-key" }?.value,
                body: String(buffer: buffer))
            let number = stored.withLockedValue { list in
                list.append(received)
                return list.count
            }
            if delay > .zero { try await Task.sleep(for: delay) }
            return Response(status: HTTPResponse.Status(code: answer(number)))
        }
        return try await LocalHTTPServer.with(router, label: "upload-receiver") { port in
            try await body(UploadReceiver(port: port, stored: stored))
        }
    }

    /// A free port where nothing listens (bound once, then released).
    static func unusedPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
