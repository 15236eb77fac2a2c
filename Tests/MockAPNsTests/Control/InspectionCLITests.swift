import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import MockAPNs

/// `mock-apns requests` and `mock-apns reset` run as a person runs them, against a real control API.
@Suite("mock-apns requests and reset", .serialized)
struct InspectionCLITests {
    @Test("lists pushes as a table or JSON lines, filters them, and resets the server")
    func requestsAndReset() async throws {
        try await withControlServer { server, control in
            try await sendPush(server)
            try await sendPush(
                server, to: ControlAPITests.other, topic: "com.example.app.push-type.liveactivity",
                pushType: "liveactivity",
                body: #"{"aps":{"event":"update","timestamp":1,"content-state":{"eta":5}}}"#)
            let table = try await CLITests.run(["requests", "--control", control.url])
            #expect(table.status == 0, "\(table.errors)")
            let lines = table.output.split(separator: "\n")
            try #require(lines.count == 3, "\(table.output)")
            #expect(lines[0].hasPrefix("SEQ    TIME"))
            // CONTENT is cut to keep the table within 120 columns (issue 20): the alert's title and the body's start.
            #expect(lines[1].contains("012345…abcdef") && lines[1].hasSuffix("\"Order ready\" / \"Your …"))
            #expect(lines[2].contains("liveactivity") && lines[2].hasSuffix("event update {\"eta\":5}"))
            // Columns line up, even with the long Live Activity topic.
            let content = try #require(lines[0].range(of: "CONTENT")).lowerBound.utf16Offset(in: lines[0])
            #expect(try #require(lines[1].range(of: "\"Order ready\"")).lowerBound.utf16Offset(in: lines[1]) == content)
            #expect(try #require(lines[2].range(of: "event update")).lowerBound.utf16Offset(in: lines[2]) == content)
            #expect(!table.output.contains("\u{1B}["))  // not a terminal: no colour

            let json = try await CLITests.run(["requests", "--control", control.url, "--json", "--push-type", "alert"])
            let records = json.output.split(separator: "\n").map { try? JSONParser.parse(String($0)) }
            #expect(records.count == 1)
            #expect(records.first??["sequence"] == 1)

            let bad = try await CLITests.run(["requests", "--control", control.url, "--status", "9"])
            #expect(bad.status != 0)
            #expect(bad.errors.contains("status must be an HTTP status"))

            let reset = try await CLITests.run(["reset", "--control", control.url])
            #expect(reset.status == 0)
            #expect(reset.output.contains("journal cleared"))
            #expect(server.journal.count == 0)
        }
    }

    @Test("says how to reach the control API when nothing answers")
    func unreachable() async throws {
        let result = try await CLITests.run(["requests", "--control", "http://127.0.0.1:9"])
        #expect(result.status != 0)
        #expect(result.errors.contains("cannot reach the mock-apns control API at http://127.0.0.1:9"))
    }

    @Test("--follow prints records as they arrive")
    func follow() async throws {
        try await withControlServer { server, control in
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: CLITests.executable)
            process.arguments = ["requests", "--follow", "--control", control.url]
            let out = Pipe()
            let errors = Pipe()
            process.standardOutput = out
            process.standardError = errors
            try process.run()
            defer { if process.isRunning { process.terminate() } }
            try await Task.sleep(for: .milliseconds(500))
            try await sendPush(server)
            // The deadline is checked between chunks: on a loaded 2-core CI host the header alone came after 5 s
            // (the debug build starting beside other suites), and the read stopped there.
            // Read off the pool: this server is in-process, and its control API answers the child on the same few
            // threads the test suites share. A blocking read here holds one of two for up to 30 s; in CI
            // (2026-11-27) the child twice got no answer within its 10 s, likely while other blocking reads held
            // the rest.
            let output = await out.fileHandleForReading.read(until: "Order ready", timeout: .seconds(30))
            guard output.contains("\"Order ready\"") else {
                // Once (2026-11-27) the child printed nothing and its output ended after 32 s: say why it stopped.
                if process.isRunning { process.terminate() }
                let said = await errors.fileHandleForReading.read(until: "\u{0}", timeout: .seconds(2))
                Issue.record("no record in 30 s; stdout \(output.debugDescription), stderr \(said.debugDescription)")
                return
            }
        }
    }

    @Test("ends as SIGPIPE would (status 141, no crash) when its reader goes away: requests --follow | head -1")
    func readerGoesAway() async throws {
        try await withControlServer { server, control in
            // head prints the table's header and exits; the next record's line then goes to a closed pipe.
            let script = #""$0" requests --follow --control "$1" | head -1; echo "requests exited ${PIPESTATUS[0]}""#
            let finished = NIOLockedValueBox(false)
            let pipeline = Task {
                defer { finished.withLockedValue { $0 = true } }
                return try await Subprocess.run(
                    "/bin/bash", ["-c", script, CLITests.executable, control.url], timeout: 30)
            }
            let deadline = ContinuousClock.now + .seconds(20)
            while !finished.withLockedValue({ $0 }), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(250))
                try await sendPush(server)
            }
            let result = try await pipeline.value
            #expect(result.output.hasPrefix("SEQ    TIME"), "\(result.output)")
            #expect(result.output.contains("requests exited 141"), "\(result.output)\(result.errors)")
            #expect(!result.errors.contains("Fatal error"), "\(result.errors)")
        }
    }
}
