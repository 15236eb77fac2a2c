import Foundation
import MockAPNsClient
import Testing

@testable import MockAPNs

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the control client says when the control API is not there, or is not the control API.
@Suite("control client errors")
struct ControlClientErrorTests {
    /// A TCP socket that listens on a free loopback port and never accepts: connections complete (the kernel's
    /// backlog) and then nothing answers, as with a stopped (^Z) server.
    final class SilentListener {
        let fd: Int32
        let port: Int

        init() throws {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(descriptor, pointer, length) == 0 && listen(descriptor, 16) == 0
                        && getsockname(descriptor, pointer, &length) == 0
                }
            }
            guard descriptor >= 0, bound else {
                close(descriptor)
                throw RawTCP.Failure(description: "cannot listen")
            }
            fd = descriptor
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(fd) }
    }

    @Test("a control API that does not answer in time is 'no answer within N s', not an AsyncHTTPClient error")
    func timeout() async throws {
        let listener = try SilentListener()
        var client = MockAPNsControlClient(url: "http://127.0.0.1:\(listener.port)")
        client.requestTimeout = .seconds(1)
        let error = try await #require(throws: MockAPNsControlError.self) { try await client.stats() }
        #expect(error.status == MockAPNsControlClient.unreachableStatus)
        #expect(
            error.message.hasPrefix(
                "cannot reach the mock-apns control API at http://127.0.0.1:\(listener.port): no answer within 1 s."
            ),
            "\(error.message)"
        )
    }

    @Test("nothing listening is 'connection refused', in words")
    func refused() async throws {
        let client = MockAPNsControlClient(url: "http://127.0.0.1:9")
        let error = try await #require(throws: MockAPNsControlError.self) { try await client.stats() }
        #expect(error.message.contains("connection refused (nothing listens there)"), "\(error.message)")
        #expect(!error.message.contains("errno"), "\(error.message)")
    }

    @Test("an HTTP server that is not the control API is named as such, not 'HTTP 404'")
    func notTheControlAPI() async throws {
        let listener = try SilentListener()
        let fd = listener.fd
        // Answer one connection as a plain web server would.
        Thread.detachNewThread {
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = read(connection, &buffer, buffer.count)
            let answer = Array("HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\nConnection: close\r\n\r\nnot found".utf8)
            _ = write(connection, answer, answer.count)
            close(connection)
        }
        let url = "http://127.0.0.1:\(listener.port)"
        let error = try await #require(throws: MockAPNsControlError.self) {
            try await MockAPNsControlClient(url: url).stats()
        }
        #expect(error.status == 404)
        #expect(
            error.message == "\(url) answered HTTP 404 without a mock-apns error; is it the control API's URL? "
                + "(serve prints it in its banner)"
        )
    }
}
