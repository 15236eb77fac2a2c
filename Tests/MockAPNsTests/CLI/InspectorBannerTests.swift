import Foundation
import Testing

@testable import MockAPNs

/// Where `serve` and `run` say the inspector is: the banner's first line, `run`'s standard error while COMMAND
/// runs, and the journal file in `run --report`.
@Suite("The inspector's URL in serve's banner and run's output", .serialized)
struct InspectorBannerTests {
    typealias Support = RunTestSupport

    @Test("serve's banner starts with the inspector's URL, which answers the page; /v1/info names the --journal file")
    func serveBanner() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appendingPathComponent("serve.jsonl").path
        let server = try await ServeProcess(
            ["--port", "0", "--control-port", "0", "--log-level", "warning", "--journal", journal],
            in: AuthTestFiles.packageRoot)
        defer { server.stop() }
        let control = try #require(server.controlURL, "\(server.banner)")
        let first = server.banner.split(separator: "\n").first.map(String.init)
        #expect(first == "inspector: \(control)/", "\(server.banner)")
        let page = try await InspectorCurl.call(control, "/")
        #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
        let info = try JSONParser.parse(Array(try await InspectorCurl.call(control, "/v1/info").body))
        #expect(info["mode"] == "live" && info["file"] == .string(journal) && info["run"] == false, "\(info)")
        #expect(info["apnsURL"] == .string("https://127.0.0.1:\(server.port)"))
    }

    @Test("with --control-token the first line says the page asks for it; --no-control has no inspector")
    func tokenAndNoControl() async throws {
        let guarded = try await ServeProcess(
            ["--port", "0", "--control-port", "0", "--log-level", "warning", "--control-token", "s3cret"],
            in: AuthTestFiles.packageRoot)
        defer { guarded.stop() }
        let first = guarded.banner.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("inspector: http://127.0.0.1:"), "\(guarded.banner)")
        #expect(first.hasSuffix("/  (the page asks for the control token)"), "\(guarded.banner)")
        let off = try await ServeProcess(["--port", "0", "--no-control"], in: AuthTestFiles.packageRoot)
        defer { off.stop() }
        #expect(!off.banner.contains("inspector: "), "\(off.banner)")
        #expect(off.banner.contains("off (--no-control): no inspector"), "\(off.banner)")
    }

    @Test("run prints the inspector's URL on standard error while COMMAND runs, and /v1/info says run")
    func runPrintsTheURL() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let info = folder.appendingPathComponent("info.json").path
        let command = #"curl -sS "$MOCK_APNS_CONTROL_URL/v1/info" > '\#(info)'"#
        let result = try await Support.mockAPNs(["run", "--", "sh", "-c", command])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        let line = result.errors.split(separator: "\n").first { $0.hasPrefix("mock-apns: inspector http://") }
        #expect(line?.contains("/ while the scenario runs (give --journal FILE to open the run later") == true,
            "\(result.errors)")
        let answer = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: info))))
        #expect(answer["run"] == true && answer["mode"] == "live" && answer["file"] == .null, "\(answer)")
        #expect(line?.contains(answer["controlURL"]?.stringValue ?? "?") == true)
    }

    @Test("run --report with --journal names the journal file and the command that opens it; without, neither")
    func reportNamesTheJournal() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appendingPathComponent("ci run.jsonl").path
        let report = folder.appendingPathComponent("apns.md").path
        let result = try await Support.mockAPNs(["run", "--journal", journal, "--report", report, "--", "true"])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        let markdown = try String(contentsOfFile: report, encoding: .utf8)
        #expect(
            markdown.contains(
                "Journal: `\(journal)`; open it in the inspector with `mock-apns inspect '\(journal)'`"),
            "\(markdown)")
        let later = "open the journal later with mock-apns inspect '\(journal)'"
        #expect(result.errors.contains(later), "\(result.errors)")
        let verify = try await Support.mockAPNs(
            ["verify", "scenarios/default.yaml", "--journal", journal, "--report", report])
        #expect(verify.status == 0, "\(verify.output)\(verify.errors)")
        #expect(try String(contentsOfFile: report, encoding: .utf8).contains("mock-apns inspect '\(journal)'"))
        let plain = try await Support.mockAPNs(["run", "--report", report, "--", "true"])
        #expect(plain.status == 0)
        #expect(!(try String(contentsOfFile: report, encoding: .utf8)).contains("Journal:"))
    }
}
