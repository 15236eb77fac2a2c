import Foundation
import Testing

/// Record mode's file (`mock-apns run --record`) and the terminal's colour rules. The replay of a recorded file
/// needs `expect:` support and is in `RunVerdictTests`.
@Suite("mock-apns run --record and colour", .serialized)
struct RunRecordTests {
    typealias Support = RunTestSupport

    static let token = "5984de83fef02c9ae624a1a84d3c486cceb0ea1086f6bf8c39efad11ec251979"

    @Test("--record keeps the scenario's text and appends one quoted expectation per token, push type and topic")
    func recordedText() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try Support.write("# kept\nname: shop\nmode: lenient", "shop.yaml", in: folder)
        let recorded = folder.appendingPathComponent("recorded.yaml").path
        let script = """
            mock-apns push \(Self.token) --payload - --topic 'com.example.app' > /dev/null <<'JSON'
            {"aps":{"alert":{"title":"Order \\"ready\\"\\n"},"badge":1},"n":1,"a.b":"x","nothing":null,"items":[true]}
            JSON
            mock-apns push \(Self.token) --payload - > /dev/null <<'JSON'
            {"aps":{"alert":{"title":"Order \\"ready\\"\\n"},"badge":2},"n":1,"items":[true]}
            JSON
            mock-apns push \(Support.device) --live-activity update --content-state '{"eta":3}' > /dev/null
            """
        let result = try await Support.mockAPNs(["run", scenario, "--record", recorded, "--", "sh", "-c", script])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        let text = try String(contentsOfFile: recorded, encoding: .utf8)
        let expected = """
            # kept
            name: shop
            mode: lenient

            # Recorded by mock-apns run --record: what the provider sent. Review and trim before committing.
            expect:
              - name: "1. alert to 5984de83fef0…"
                match:
                  token: "\(Self.token)"
                  pushType: "alert"
                  topic: "com.example.app"
                  payload:
                    "aps.alert.title": "Order \\"ready\\"\\n"
                    "n": "1"
                    "items.0": "true"
                count: 2
              - name: "2. liveactivity to 0123456789ab…"
                match:
                  token: "\(Support.device)"
                  pushType: "liveactivity"
                  topic: "com.example.app.push-type.liveactivity"
                  payload:
                    "aps.event": "update"
                    "aps.content-state.eta": "3"
                count: 1

            """
        #expect(text == expected)
    }

    @Test("--record of the default world with no push writes an empty expect: list")
    func recordNothing() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorded = folder.appendingPathComponent("recorded.yaml").path
        let result = try await Support.mockAPNs(["run", "--record", recorded, "--", "true"])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        let text = try String(contentsOfFile: recorded, encoding: .utf8)
        #expect(text.hasPrefix("# Recorded by mock-apns run --record"))
        #expect(text.hasSuffix("\nexpect: []\n"))
        let check = try await Support.mockAPNs(["run", "--record", "/dev/null/x.yaml", "--", "true"])
        #expect(check.status == 2)
        #expect(check.errors.contains("--record /dev/null/x.yaml"), "\(check.errors)")
    }

    @Test("colour on a terminal, none with NO_COLOR set")
    func colour() async throws {
        func onTerminal(noColor: Bool) async throws -> String {
            let command = "\(CLITests.executable) run -- true"
            var environment = Support.environment()
            environment["NO_COLOR"] = noColor ? "1" : nil
            let result = try await Subprocess.run(
                "/usr/bin/script", ["-qec", command, "/dev/null"], in: AuthTestFiles.packageRoot,
                environment: environment, timeout: 60)
            #expect(result.status == 0, "\(result.output)\(result.errors)")
            return result.output
        }
        let coloured = try await onTerminal(noColor: false)
        #expect(coloured.contains("\u{1B}[32m✓\u{1B}[0m command true exited 0"), "\(coloured.debugDescription)")
        await #expect(!(try onTerminal(noColor: true).contains("\u{1B}[")))
    }

    @Test("a port another process holds exits 2 naming it")
    func portInUse() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let portFile = folder.appendingPathComponent("port").path
        let holder = ChildProcess()
        holder.executableURL = URL(fileURLWithPath: CLITests.executable)
        holder.arguments = ["run", "--", "sh", "-c", "echo $MOCK_APNS_PORT > '\(portFile)'; exec sleep 30"]
        holder.environment = Support.environment()
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        let result: (status: Int32, output: String, errors: String)
        let taken: String
        do {
            taken = try #require(try await Self.port(in: portFile), "no port in \(portFile) within 30 s")
            result = try await Support.mockAPNs(["run", "--port", taken, "--", "true"])
        } catch {
            holder.interrupt()
            await holder.waitUntilExit()
            throw error
        }
        // `run` ends its command and its server on SIGINT, which may take the server's grace: awaited, not in a
        // defer that would block a pool thread meanwhile.
        holder.interrupt()
        await holder.waitUntilExit()
        #expect(result.status == 2)
        #expect(result.errors.contains(taken), "\(result.errors)")
    }

    /// The port `mock-apns run`'s command wrote to `file`, waiting up to 30 s for it.
    static func port(in file: String) async throws -> String? {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let port = (try? String(contentsOfFile: file, encoding: .utf8))?.trimmingCharacters(in: .newlines)
            if let port, !port.isEmpty { return port }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }
}
