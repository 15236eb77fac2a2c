import Foundation
import Testing

@testable import MockAPNs

/// `mock-apns inspect JOURNAL.jsonl` as a person opens a CI artifact: a journal written by `run --journal`, served
/// read-only by a real process, read with curl.
@Suite("mock-apns inspect", .serialized)
struct InspectCommandTests {
    typealias Support = RunTestSupport

    /// A journal of three pushes (#1 accepted, #2 400 BadDeviceToken, #3 accepted) written by `run --journal`.
    static func runJournal(in folder: URL, name: String = "run.jsonl") async throws -> String {
        let path = folder.appendingPathComponent(name).path
        let token = Support.device
        let command = "mock-apns push \(token) --alert one >/dev/null; mock-apns push zz --alert two >/dev/null; "
            + "mock-apns push \(token) --alert three >/dev/null; true"
        let run = try await Support.mockAPNs(["run", "--journal", path, "--", "sh", "-c", command])
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count == 3)
        return path
    }

    static func json(_ answer: InspectorCurl.Answer) -> JSONValue? { try? JSONParser.parse(Array(answer.body)) }

    static func sequences(_ answer: InspectorCurl.Answer) -> [UInt64] {
        (json(answer)?["records"]?.arrayValue ?? []).compactMap { $0["sequence"]?.unsignedValue }
    }

    @Test("serves a run's journal: the page, /v1/info in file mode, the records, summaries and the stream")
    func servesTheFile() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try await Self.runJournal(in: folder)
        let inspect = try await InspectProcess([path, "--port", "0"])
        defer { inspect.stop() }
        #expect(inspect.banner.contains("mock-apns inspect: \(path), 3 record(s) (#1 to #3), read-only"))
        let page = try await InspectorCurl.call(inspect.url, "/push/2")
        #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.headers["content-security-policy"]?.hasPrefix("default-src 'self'") == true)

        let info = try #require(Self.json(try await InspectorCurl.call(inspect.url, "/v1/info")))
        #expect(info["mode"] == "file" && info["file"] == .string(path) && info["warnings"] == [], "\(info)")
        #expect(info["readOnly"] == true && info["run"] == false && info["apnsURL"] == .null, "\(info)")
        #expect(info["controlURL"] == .string(inspect.url))

        let list = try await InspectorCurl.call(inspect.url, "/v1/requests?view=summary")
        #expect(Self.sequences(list) == [1, 2, 3], "\(list.text)")
        #expect(Self.json(list)?["journal"] == ["oldest": 1, "newest": 3, "held": 3, "dropped": 0])
        #expect(Self.json(list)?["records"]?.arrayValue?[1]["reason"] == "BadDeviceToken")
        #expect(Self.sequences(try await InspectorCurl.call(inspect.url, "/v1/requests?q=status:4xx")) == [2])
        let paged = try await InspectorCurl.call(inspect.url, "/v1/requests?olderThan=3&limit=1")
        #expect(Self.sequences(paged) == [2])
        let one = try await InspectorCurl.call(inspect.url, "/v1/requests/3")
        #expect(one.status == 200 && Self.json(one)?["payloadJSON"]?.value(atPath: "aps.alert") == "three")
        #expect(try await InspectorCurl.call(inspect.url, "/v1/requests/9").status == 404)
        let url = inspect.url
        let streamed = try await Curl.stream(url + "/v1/requests/stream?since=1&view=summary") {
            $0.last?.id == "3"
        }
        #expect(streamed.contains("id: 2\n") && streamed.contains("id: 3\n") && !streamed.contains("id: 1\n"))
        #expect(try await InspectorCurl.call(inspect.url, "/healthz").status == 200)
    }

    @Test("a call that changes something is 409 read-only, a running mock's route 404 saying why, a foreign page 403")
    func readOnly() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try await Self.runJournal(in: folder)
        let inspect = try await InspectProcess([path, "--port", "0"])
        defer { inspect.stop() }
        for (method, route, body) in [
            ("POST", "/v1/reset", nil), ("DELETE", "/v1/requests", nil), ("PUT", "/v1/scenario", "{}"),
            ("POST", "/v1/clock", #"{"advance": "1h"}"#), ("POST", "/v1/devices", "{}"), ("DELETE", "/v1/rules", nil),
            ("POST", "/v1/requests/1/replay", "{}"), ("POST", "/v1/activities/x/dismiss", nil),
            ("POST", "/v1/verify", nil),
        ] as [(String, String, String?)] {
            let answer = try await InspectorCurl.call(inspect.url, route, method: method, body: body)
            #expect(answer.status == 409, "\(method) \(route): \(answer.text)")
            #expect(
                answer.error == "read-only: mock-apns inspect shows the journal file \(path); \(method) \(route) "
                    + "changes a running mock (mock-apns serve)", "\(answer.text)")
        }
        for route in ["/v1/scenario", "/v1/rules", "/v1/clock", "/v1/activities", "/v1/activities/abcd", "/v1/phones"] {
            let answer = try await InspectorCurl.call(inspect.url, route)
            #expect(answer.status == 404, "\(route): \(answer.text)")
            #expect(answer.error?.hasPrefix("GET \(route) is not in a journal file: ") == true, "\(answer.text)")
        }
        // What the records show is served: their counts and their connections.
        let stats = try await InspectorCurl.call(inspect.url, "/v1/stats")
        let counts = Self.json(stats)
        #expect(stats.status == 200, "\(stats.text)")
        #expect(
            [counts?["records"], counts?["accepted"], counts?["rejected"]].map { $0?.unsignedValue } == [3, 2, 1],
            "\(stats.text)")
        let connections = try await InspectorCurl.call(inspect.url, "/v1/connections")
        #expect(connections.status == 200, "\(connections.text)")
        #expect(Self.json(connections)?["count"]?.unsignedValue == 3, "one per push command: \(connections.text)")
        let connection = try await InspectorCurl.call(inspect.url, "/v1/connections/999")
        #expect(connection.status == 404, "\(connection.text)")
        let metrics = try await InspectorCurl.call(inspect.url, "/metrics")
        #expect(metrics.status == 404 && metrics.error?.contains("GET /v1/requests/stream") == true)
        let foreign = try await InspectorCurl.call(
            inspect.url, "/v1/reset", method: "POST", headers: ["Origin": "http://evil.example"])
        #expect(foreign.status == 403)
        #expect(Self.sequences(try await InspectorCurl.call(inspect.url, "/v1/requests")) == [1, 2, 3])
    }

    @Test("a last line cut short is skipped, with a warning on standard error and in /v1/info")
    func truncatedLastLine() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try await Self.runJournal(in: folder)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n")
        // As a killed run leaves it: the third record half written, no newline.
        try (lines[0] + "\n" + lines[1] + "\n" + lines[2].prefix(lines[2].count / 2))
            .write(toFile: path, atomically: true, encoding: .utf8)
        let inspect = try await InspectProcess([path, "--port", "0"])
        defer { inspect.stop() }
        let warning = "the last line (3) is cut short, as when the run was killed while writing it: skipped"
        #expect(inspect.errors.contains("mock-apns: \(path): \(warning)"), "\(inspect.errors)")
        let info = try #require(Self.json(try await InspectorCurl.call(inspect.url, "/v1/info")))
        #expect(info["warnings"] == [.string(warning)], "\(info)")
        #expect(Self.sequences(try await InspectorCurl.call(inspect.url, "/v1/requests")) == [1, 2])
    }

    @Test("a file that cannot be read or is not a journal is an error naming it, exit status 2")
    func badFiles() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = try await Self.runJournal(in: folder)
        let record = try String(contentsOfFile: good, encoding: .utf8).split(separator: "\n")[0]
        let png = folder.appendingPathComponent("shot.png").path
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]).write(to: URL(fileURLWithPath: png))
        let notRecord = try Support.write("{\"hello\": 1}\n", "other.jsonl", in: folder)
        let badMiddle = try Support.write(record + "\n{oops\n" + record + "\n", "middle.jsonl", in: folder)
        for (arguments, message) in [
            (
                [folder.appendingPathComponent("missing.jsonl").path],
                "missing.jsonl: cannot read it: there is no such file"
            ),
            ([folder.path], ": cannot read it: it is a folder"),
            ([png], "shot.png:1: not JSON"),
            ([notRecord], "other.jsonl:1: not a journal record (as /v1/requests and --journal write them)"),
            ([badMiddle], "middle.jsonl:2: not JSON"),
            ([good, "--port", "70000"], "--port must be 0 to 65535, got 70000"),
            ([good, "--journal-capacity", "0"], "--journal-capacity must be between 1 and 10000000, got 0"),
            ([good, "--control-token", ""], "--control-token must not be empty"),
            ([], "Missing expected argument '<journal>'"),
        ] {
            let port = arguments.contains("--port") ? [] : ["-p", "0"]
            let result = try await Support.mockAPNs(["inspect"] + arguments + port, timeout: 30)
            #expect(result.status == 2, "\(arguments): \(result.output)\(result.errors)")
            #expect(result.errors.contains(message), "\(arguments): \(result.errors)")
            #expect(!result.output.contains("ready"), "\(arguments): it served anyway")
        }
    }

    @Test("a line over 1 MiB is skipped without being held, and the newest --journal-capacity records are kept")
    func boundedMemory() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = try await Self.runJournal(in: folder)
        let lines = try String(contentsOfFile: good, encoding: .utf8).split(separator: "\n").map(String.init)
        let baseline = try await InspectProcess([good, "--port", "0"])
        let baselinePeak = baseline.peakMemory
        await baseline.stop()

        // 64 MiB on one line between the records, and a record with a payload of 2 MiB.
        let huge = folder.appendingPathComponent("huge.jsonl")
        _ = FileManager.default.createFile(atPath: huge.path, contents: nil)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.write(contentsOf: Data((lines[0] + "\n").utf8))
        let block = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        try handle.write(contentsOf: Data("{\"sequence\": 2, \"payload\": \"".utf8))
        for _ in 0..<64 { try handle.write(contentsOf: block) }
        try handle.write(contentsOf: Data("\"}\n".utf8))
        try handle.write(contentsOf: Data((lines[1] + "\n" + lines[2] + "\n").utf8))
        try handle.close()
        let inspect = try await InspectProcess([huge.path, "--port", "0", "--journal-capacity", "2"])
        defer { inspect.stop() }
        let peak = inspect.peakMemory
        #expect(baselinePeak > 0 && peak > 0, "no VmHWM in /proc")
        #expect(peak - baselinePeak < 16 << 10, "peak \(peak) KiB against \(baselinePeak) KiB for a small file")
        let skipped = "1 line(s) longer than 1048576 bytes skipped (first: line 2)"
        #expect(inspect.errors.contains(skipped), "\(inspect.errors)")
        #expect(inspect.errors.contains("the file holds 3 records; the oldest 1 are not shown"), "\(inspect.errors)")
        let list = try await InspectorCurl.call(inspect.url, "/v1/requests")
        #expect(Self.sequences(list) == [2, 3])
        #expect(Self.json(list)?["journal"] == ["oldest": 2, "newest": 3, "held": 2, "dropped": 1])
        #expect(inspect.banner.contains("2 record(s) (#2 to #3)"), "\(inspect.banner)")
    }

    @Test("records of several runs appended to one file are numbered on, and the warning says where")
    func severalRuns() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try await String(contentsOfFile: try Self.runJournal(in: folder, name: "a.jsonl"), encoding: .utf8)
        let second = try await String(contentsOfFile: try Self.runJournal(in: folder, name: "b.jsonl"), encoding: .utf8)
        let both = try Support.write(first + second, "both.jsonl", in: folder)
        let inspect = try await InspectProcess([both, "--port", "0"])
        defer { inspect.stop() }
        #expect(Self.sequences(try await InspectorCurl.call(inspect.url, "/v1/requests")) == [1, 2, 3, 4, 5, 6])
        let fourth = try await InspectorCurl.call(inspect.url, "/v1/requests/4")
        #expect(Self.json(fourth)?["payloadJSON"]?.value(atPath: "aps.alert") == "one")
        #expect(
            inspect.errors.contains("sequence numbers start over at line 4 (1 time(s) in all"), "\(inspect.errors)")
        #expect(inspect.errors.contains("#1 of line 4 is #4 here"), "\(inspect.errors)")
    }

    @Test("without --port it takes 2190, or a free port when 2190 is taken, and says so; a taken --port is an error")
    func defaultPort() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try await Self.runJournal(in: folder)
        // Hold 2190 (unless something here already does) so that the default is taken.
        let holder = try? await ServeProcess(
            ["--port", "0", "--control-port", String(ControlRoutes.defaultPort), "--log-level", "error"],
            in: AuthTestFiles.packageRoot)
        defer { holder?.stop() }
        let inspect = try await InspectProcess([path])
        defer { inspect.stop() }
        #expect(!inspect.url.hasSuffix(":\(ControlRoutes.defaultPort)"), "\(inspect.banner)")
        #expect(
            inspect.errors.contains("port 2190 is taken (a mock-apns serve?): the inspector listens on a free port"),
            "\(inspect.errors)")
        #expect(try await InspectorCurl.call(inspect.url, "/v1/info").status == 200)
        let port = String(inspect.url.split(separator: ":").last ?? "")
        let taken = try await Support.mockAPNs(["inspect", path, "--port", port], timeout: 30)
        #expect(taken.status == 1, "\(taken.output)\(taken.errors)")
        #expect(taken.errors.contains("cannot listen on 127.0.0.1:\(port) for the inspector"), "\(taken.errors)")
    }
}
