import Foundation

@testable import MockAPNs

/// curl over HTTP/1.1 as a browser's requests would reach the control port: status, headers and the body's bytes.
enum InspectorCurl {
    /// What curl received.
    struct Answer {
        var status: Int
        /// Header names lower-case; the last value wins.
        var headers: [String: String]
        var body: Data
        /// The body as text.
        var text: String { String(decoding: body, as: UTF8.self) }
        /// The `error` member of a JSON body.
        var error: String? { (try? JSONParser.parse(Array(body)))?["error"]?.stringValue }
    }

    /// `curl -X method url+path`; `--path-as-is` sends `..` segments as written, as an attacker's client would.
    static func call(
        _ url: String, _ path: String, method: String = "GET", headers: [String: String] = [:],
        body: String? = nil, pathAsIs: Bool = false
    ) async throws -> Answer {
        // Files, not standard output: the body may be binary (an image) and the headers are kept apart from it.
        let stem = FileManager.default.temporaryDirectory.appendingPathComponent("inspector-\(UUID())")
        let headerFile = stem.appendingPathExtension("head")
        let bodyFile = stem.appendingPathExtension("body")
        defer {
            try? FileManager.default.removeItem(at: headerFile)
            try? FileManager.default.removeItem(at: bodyFile)
        }
        var arguments = [
            "-sS", "--http1.1", "--max-time", "15", "-X", method, "-D", headerFile.path, "-o", bodyFile.path,
        ]
        if pathAsIs { arguments.append("--path-as-is") }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(name): \(value)"] }
        if let body { arguments += ["--data-binary", body] }
        arguments.append(url + path)
        let (exit, _, errors) = try await Curl.run(arguments)
        guard exit == 0 else { throw Curl.Failure(description: "curl exited \(exit): \(errors)") }
        let head = try String(contentsOf: headerFile, encoding: .utf8).split(separator: "\r\n")
        guard let statusLine = head.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "")
        else { throw Curl.Failure(description: "no status line in: \(head)") }
        var fields: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] =
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Answer(status: status, headers: fields, body: (try? Data(contentsOf: bodyFile)) ?? Data())
    }
}
