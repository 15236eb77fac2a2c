import Foundation
import Testing

/// `mock-apns push` says why (issue 20, items 5 and 7): the mock's explanation under the status line, and a
/// failed connection in one sentence without NIO or BoringSSL internals; run as a process against a real
/// `mock-apns serve`.
@Suite("mock-apns push explains", .serialized)
struct PushExplainedTests {
    /// Text that only library internals print: error type names, errno numbers, OpenSSL codes, source paths.
    static let internals = ["errno", "NIOSSL", "BoringSSL", "OPENSSL_internal", ".swift", ".cc:", "/.build/"]

    @Test("a rejection from mock-apns prints the why under the status line; without the control API, only the status")
    func rejectionWhy() async throws {
        let server = try await ServeProcess()
        defer { server.stop() }
        let control = try #require(server.controlURL)
        let payload = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: payload) }
        let body = #"{"aps":{"alert":""# + String(repeating: "x", count: 4200) + #""}}"#
        try Data(body.utf8).write(to: payload)
        let url = "https://localhost:\(server.port)"
        let result = try await PushCommandTests.push(
            [PushCommandTests.device, "--payload", payload.path, "--url", url],
            environment: ["MOCK_APNS_CONTROL_URL": control])
        #expect(result.status == 1, "\(result.errors)")
        #expect(result.output.hasPrefix("413 PayloadTooLarge\n"), "\(result.output)")
        #expect(
            result.output.contains("why: the payload is \(body.utf8.count) bytes; the limit is 4096 (rule payload.size"),
            "\(result.output)")

        let noted = try await PushCommandTests.push(
            [PushCommandTests.device, "--alert", "x", "--url", url, "--control-url", control, "--priority", "5"])
        #expect(noted.status == 0, "\(noted.errors)")
        #expect(!noted.output.contains("why:"), "\(noted.output)")

        let elsewhere = try await PushCommandTests.push(
            [PushCommandTests.device, "--payload", payload.path, "--url", url, "--control-url", "http://127.0.0.1:9"])
        #expect(elsewhere.status == 1, "\(elsewhere.errors)")
        #expect(elsewhere.output.hasPrefix("413 PayloadTooLarge\n") && !elsewhere.output.contains("why:"))
        #expect(elsewhere.errors.isEmpty, "\(elsewhere.errors)")
    }

    @Test("a closed port is one sentence: nothing listens there, serve prints its URL, MOCK_APNS_URL or --url")
    func connectionRefused() async throws {
        let result = try await PushCommandTests.push(
            [PushCommandTests.device, "--alert", "x", "--url", "https://127.0.0.1:1"])
        #expect(result.status == 3)
        #expect(
            result.errors.contains(
                "error: cannot reach https://127.0.0.1:1: connection refused (nothing listens there). Is `mock-apns "
                    + "serve` running? `mock-apns serve` prints its APNs URL (https://…): set MOCK_APNS_URL or pass --url"),
            "\(result.errors)")
        for text in Self.internals { #expect(!result.errors.contains(text), "\(text): \(result.errors)") }
        #expect(result.errors.split(separator: "\n").count == 1, "\(result.errors)")
    }

    @Test("the control API's port (plain HTTP) is one sentence: that port speaks plain HTTP, not TLS")
    func plainHTTPPort() async throws {
        let server = try await ServeProcess()
        defer { server.stop() }
        let control = try #require(server.controlURL)
        let url = control.replacingOccurrences(of: "http://", with: "https://")
        let result = try await PushCommandTests.push([PushCommandTests.device, "--alert", "x", "--url", url])
        #expect(result.status == 3)
        #expect(
            result.errors.contains(
                "error: cannot reach \(url): that port speaks plain HTTP, not TLS (the control API's port?)"),
            "\(result.errors)")
        #expect(result.errors.contains("set MOCK_APNS_URL or pass --url"), "\(result.errors)")
        for text in Self.internals { #expect(!result.errors.contains(text), "\(text): \(result.errors)") }
    }
}
