import Foundation

/// Runs nghttp (from nghttp2-client) with `-v`, to see the HTTP/2 frames a server sends.
enum Nghttp {
    /// Whether nghttp is installed (`apt-get install nghttp2-client`; `.ci/run` installs it).
    static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/nghttp")
    }

    /// Runs `nghttp -v` with `arguments` and returns its output (frames and body). Blocks: for code already off the
    /// pool; a test awaits `run`.
    static func runBlocking(_ arguments: [String]) throws -> String {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nghttp")
        process.arguments = ["-v", "--timeout=5"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readToEndOfFileBlocking()
        process.waitUntilExitBlocking()
        return String(decoding: data, as: UTF8.self)
    }

    /// `runBlocking` on a thread of its own, awaited (see `offPool`: no test blocks).
    static func run(_ arguments: [String]) async throws -> String {
        try await offPool { try runBlocking(arguments) }
    }
}
