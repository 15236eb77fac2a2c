import Foundation
import Logging

@testable import MockAPNs

/// Starts a server and its control API on free ports for one test, and always stops both.
func withControlServer<T>(
    scenario: Scenario = .embeddedDefault(port: 0), token: String? = nil, clock: any APNsClock = MovableClock(),
    _ body: (MockAPNsServer, MockAPNsControlAPI) async throws -> T
) async throws -> T {
    try await withTestServer(scenario: scenario, clock: clock) { server in
        var logger = Logger(label: "mock-apns-control-test")
        logger.logLevel = .warning
        let control = try await MockAPNsControlAPI.start(server: server, port: 0, token: token, logger: logger)
        do {
            let result = try await body(server, control)
            try await control.shutdown()
            return result
        } catch {
            try? await control.shutdown()
            throw error
        }
    }
}

/// curl over HTTP/1.1 against the control API, as a shell script or a person would call it.
enum ControlCurl {
    /// What the control API answered.
    struct Answer {
        var status: Int
        var text: String
        /// The body parsed as JSON, when it is JSON.
        var json: JSONValue? { try? JSONParser.parse(text) }
        /// The `error` member of a JSON body.
        var error: String? { json?["error"]?.stringValue }

        /// What `curl … -w "\n%{http_code}"` printed: the body, then the status on the last line.
        init(curl exit: Int32, _ output: String, _ errors: String) throws {
            guard exit == 0, let newline = output.lastIndex(of: "\n"),
                let status = Int(output[output.index(after: newline)...])
            else { throw Curl.Failure(description: "curl exited \(exit): \(errors) \(output)") }
            self.status = status
            text = String(output[..<newline])
        }
    }

    /// `curl -X method url` with an optional body and headers, waited for off the concurrency pool.
    static func call(
        _ method: String, _ control: MockAPNsControlAPI, _ path: String, body: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> Answer {
        var arguments = ["-sS", "--http1.1", "--max-time", "15", "-X", method, "-w", "\n%{http_code}"]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(name): \(value)"] }
        if let body { arguments += ["--data-binary", body] }
        arguments.append(control.url + path)
        let (exit, output, errors) = try await Curl.run(arguments)
        return try Answer(curl: exit, output, errors)
    }
}

/// Sends one push with curl (HTTP/2 over TLS, trusting certs/ca.pem) and returns the status.
@discardableResult
func sendPush(
    _ server: MockAPNsServer, to token: String = EndToEndTests.device, topic: String = "com.example.app",
    pushType: String = "alert", body: String = EndToEndTests.alert
) async throws -> Int {
    let headers = [
        "apns-topic": topic, "apns-push-type": pushType, "authorization": "bearer \(testProviderToken())",
    ]
    return try await Curl.request(port: server.port, path: "/3/device/\(token)", headers: headers, body: body).status
}
