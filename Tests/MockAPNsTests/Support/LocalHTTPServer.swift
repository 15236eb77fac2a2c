import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// A real HTTP/1.1 server (Hummingbird) on a free loopback port, for tests that need the other end of a client:
/// a provider's token endpoint (`UploadReceiver`), or a control API answering fixed JSON (`cannedAnswers`).
enum LocalHTTPServer {
    /// Runs `body` with `router` served on 127.0.0.1 (its port given to `body`), and stops the server afterwards.
    static func with<T>(
        _ router: Router<BasicRequestContext>, label: String, _ body: (Int) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: label)
        logger.logLevel = .warning
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let application = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            }, logger: logger)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [application], logger: logger))
        let running = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var bound: Int?
        for await port in ports {
            bound = port
            break
        }
        do {
            let result = try await body(bound ?? 0)
            await group.triggerGracefulShutdown()
            try? await running.value
            return result
        } catch {
            await group.triggerGracefulShutdown()
            try? await running.value
            throw error
        }
    }

    /// Runs `body` with a server that answers `GET` of each path in `answers` with its JSON text (200), and
    /// anything else 404; `body` gets the server's URL (`http://127.0.0.1:PORT`).
    static func cannedAnswers<T>(_ answers: [String: String], _ body: (String) async throws -> T) async throws -> T {
        let router = Router()
        for (path, text) in answers {
            router.get(RouterPath(path)) { _, _ -> Response in
                Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
            }
        }
        return try await with(router, label: "canned-answers") { port in try await body("http://127.0.0.1:\(port)") }
    }
}
