import Foundation
import Testing

@testable import MockAPNs

/// What `mock-apns serve` prints once it listens, pasted as a user pastes it: from another folder, with the
/// commands it names on the PATH.
@Suite("serve's banner", .serialized)
struct StartBannerTests {
    /// The command of `banner` that starts with `prefix` (indented), with its `\`-continued lines.
    static func command(startingWith prefix: String, in banner: String) -> String? {
        let lines = banner.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(prefix) })
        else { return nil }
        var end = first
        while end + 1 < lines.count, lines[end].hasSuffix("\\") { end += 1 }
        return lines[first...end].joined(separator: "\n")
    }

    /// Runs `command` with bash in a new empty folder outside the checkout, `mock-apns` (the build under test) first
    /// on the PATH.
    static func paste(_ command: String) async throws -> (status: Int32, output: String, errors: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("banner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = DocSnippetRunner.executableFolder + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["MOCK_APNS_URL"] = nil
        let settled = environment
        return try await Subprocess.run("/bin/bash", ["-c", command], in: folder, environment: settled, timeout: 60)
    }

    @Test("the curl it prints names the CA by absolute path and shows the status, pasted in another folder")
    func curlShowsTheStatus() async throws {
        let server = try await ServeProcess(
            ["--port", "0", "--control-port", "0", "--log-level", "warning"], in: AuthTestFiles.packageRoot)
        defer { server.stop() }
        let trust = server.bannerLine(containing: "trust this CA")
        #expect(trust?.hasSuffix("  \(Curl.caFile)") == true, "\(server.banner)")
        let curl = try #require(Self.command(startingWith: "curl ", in: server.banner), "\(server.banner)")
        let sent = try await Self.paste(curl)
        #expect(sent.status == 0, "\(curl)\n\(sent.errors)")
        #expect(sent.output.hasPrefix("HTTP/2 200"), "\(sent.output)")
        #expect(Self.command(startingWith: "mock-apns push", in: server.banner) == nil, "no push-to-start device")
    }

    @Test("with a push-to-start device it prints a mock-apns push --live-activity start that starts one as pasted")
    func pushToStartLine() async throws {
        let server = try await ServeProcess(
            ["--scenario", "scenarios/taxi-ride.yaml", "--port", "0", "--control-port", "0", "--log-level", "warning"],
            in: AuthTestFiles.packageRoot)
        defer { server.stop() }
        let push = try #require(Self.command(startingWith: "mock-apns push ", in: server.banner), "\(server.banner)")
        #expect(push.contains(LiveActivityEndToEndTests.taxiStartToken) && push.contains("--live-activity start"))
        let sent = try await Self.paste(push)
        #expect(sent.status == 0, "\(push)\n\(sent.output)\(sent.errors)")
        #expect(sent.output.hasPrefix("200"), "\(sent.output)")

        let control = try #require(server.controlURL)
        let (_, text, _) = try await Curl.run(["-sS", control + "/v1/requests"])
        let record = try #require(try JSONParser.parse(text)["records"]?.arrayValue?.last, "\(text)")
        #expect(record["device"]?["outcome"] == "started", "\(text)")
        #expect(record["device"]?["notes"] == [] && record["device"]?["warnings"] == [], "\(text)")
        let (_, listed, _) = try await Curl.run(["-sS", control + "/v1/activities?state=active"])
        #expect(try JSONParser.parse(listed)["count"] == 1, "\(listed)")
    }

    @Test("a client that does not trust the certificate is logged with the CA file the banner printed")
    func handshakeLogNamesTheCA() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("banner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await ServeProcess(
            ["--port", "0", "--control-port", "0", "--log-level", "info"], in: folder)
        defer { server.stop() }
        let line = try #require(server.bannerLine(containing: "trust this CA"))
        let caFile = try #require(line.split(separator: " ").first { $0.hasPrefix("/") }.map(String.init))
        #expect(caFile != "certs/ca.pem" && FileManager.default.fileExists(atPath: caFile), "\(line)")

        // curl trusts only the system CAs here: it refuses the certificate with an "unknown CA" alert.
        let port = server.port
        let refused = try await Curl.run(["-sS", "--http2", "https://127.0.0.1:\(port)/"])
        #expect(refused.0 != 0)
        let expected = "does not trust the server certificate (does it trust \(caFile)?"
        let deadline = Date().addingTimeInterval(5)
        while !server.errors.contains(expected), Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(server.errors.contains(expected), "\(server.errors)")
    }
}
