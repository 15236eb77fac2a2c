import Foundation

/// Runs the real curl (HTTP/2 over TLS, trusting `certs/ca.pem`) against a test server and parses its answer.
struct Curl {
    /// What curl received.
    struct Response {
        var status: Int
        /// Header names lower-case; the last value wins.
        var headers: [String: String]
        var body: String
        /// The HTTP version curl reports (`2` for HTTP/2).
        var httpVersion: String
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The `certs/` CA file.
    static var caFile: String { AuthTestFiles.packageRoot.appendingPathComponent("certs/ca.pem").path }

    /// POSTs (or `method`s) to `https://localhost:<port><path>`. Blocks: for code already off the pool; an async
    /// test awaits `request`.
    static func requestBlocking(
        port: Int, path: String, method: String = "POST", headers: [String: String] = [:], body: String? = nil,
        extraArguments: [String] = [], scheme: String = "https", host: String = "localhost"
    ) throws -> Response {
        var arguments = ["-sS", "--max-time", "10", "-X", method, "-D", "-", "-o", "-", "-w", "\n%{http_version}"]
        if scheme == "https" { arguments += ["--http2", "--cacert", caFile] } else { arguments += ["--http2-prior-knowledge"] }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(name): \(value)"] }
        if let body { arguments += ["--data-binary", body] }
        arguments += extraArguments
        arguments.append("\(scheme)://\(host):\(port)\(path)")
        let (status, output, errors) = try runBlocking(arguments)
        guard status == 0 else { throw Failure(description: "curl exited \(status): \(errors)") }
        return try parse(output)
    }

    /// Runs curl with `arguments`, returning its exit status, standard output and standard error. Blocks: for code
    /// already off the pool; a test awaits `run`.
    static func runBlocking(_ arguments: [String]) throws -> (Int32, String, String) {
        try Subprocess.runBlocking("/usr/bin/env", ["curl"] + arguments)
    }

    /// `runBlocking` on a thread of its own, awaited (see `offPool`: no test blocks).
    static func run(_ arguments: [String]) async throws -> (Int32, String, String) {
        try await offPool { try runBlocking(arguments) }
    }

    /// `requestBlocking` on a thread of its own, awaited.
    static func request(
        port: Int, path: String, method: String = "POST", headers: [String: String] = [:], body: String? = nil,
        extraArguments: [String] = [], scheme: String = "https", host: String = "localhost"
    ) async throws -> Response {
        try await offPool {
            try requestBlocking(
                port: port, path: path, method: method, headers: headers, body: body, extraArguments: extraArguments,
                scheme: scheme, host: host)
        }
    }

    /// One server-sent event as curl printed it.
    struct ServerSentEvent {
        var id: String?
        var event: String?
        var data: String?
    }

    /// Streams `url` (`curl -sN`) until the complete events printed so far satisfy `until`, or for `seconds` at
    /// most; answers the text. Not a fixed window: in CI's full suite on 2 cores a stream's tasks can wait seconds
    /// for a thread of Swift's shared pool, so a test waits for the events it needs, with a deadline a slow machine
    /// does not reach, and streams to the deadline only when it expects nothing. On a thread of its own.
    static func stream(
        _ url: String, headers: [String] = [], seconds: Int = 60,
        until done: @escaping @Sendable ([ServerSentEvent]) -> Bool = { _ in false }
    ) async throws -> String {
        let arguments = ["curl", "-sN"] + headers.flatMap { ["-H", $0] } + [url]
        return try await offPool {
            try Subprocess.runUntilBlocking("/usr/bin/env", arguments, timeout: TimeInterval(seconds)) {
                done(serverSentEvents($0))
            }
        }
    }

    /// The complete events in a stream's text, in order (comments skipped; a block still being written is not one).
    static func serverSentEvents(_ text: String) -> [ServerSentEvent] {
        text.components(separatedBy: "\n\n").dropLast().compactMap { block in
            var event = ServerSentEvent()
            for line in block.split(separator: "\n") {
                if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
                if line.hasPrefix("event: ") { event.event = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { event.data = String(line.dropFirst(6)) }
            }
            return event.id == nil && event.event == nil && event.data == nil ? nil : event
        }
    }

    private static func parse(_ output: String) throws -> Response {
        guard let split = output.range(of: "\r\n\r\n") else { throw Failure(description: "no headers in: \(output)") }
        let head = output[..<split.lowerBound].split(separator: "\r\n")
        var rest = String(output[split.upperBound...])
        var version = ""
        if let newline = rest.lastIndex(of: "\n") {
            version = String(rest[rest.index(after: newline)...])
            rest = String(rest[..<newline])
        }
        guard let statusLine = head.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else {
            throw Failure(description: "no status line in: \(output)")
        }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: rest, httpVersion: version)
    }
}
