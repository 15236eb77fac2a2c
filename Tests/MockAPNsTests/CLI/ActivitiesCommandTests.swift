import Foundation
import Testing

@testable import MockAPNs

/// `mock-apns activities` run as a person runs it, against a real control API.
@Suite("mock-apns activities", .serialized)
struct ActivitiesCommandTests {
    func run(_ arguments: [String], _ control: MockAPNsControlAPI) async throws -> (
        status: Int32, output: String, errors: String
    ) {
        try await CLITests.run(["activities"] + arguments + ["--control-url", control.url])
    }

    @Test("a table of type, state, short token, last content-state and outcome counts; filters; JSON lines")
    func tableAndJSON() async throws {
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let (id, token) = try await ActivityAPITests.startTaxi(server)
            _ = try await ActivityAPITests.update(server, token, #"{"status":"2","eta":"5"}"#)
            _ = try await ActivityAPITests.update(server, token, after: -100)

            let table = try await run([], control)
            #expect(table.status == 0, "\(table.errors)")
            let lines = table.output.split(separator: "\n")
            try #require(lines.count == 2, "\(table.output)")
            #expect(lines[0].hasPrefix("ID       TYPE"))
            #expect(lines[0].contains("STATE") && lines[0].contains("CONTENT-STATE") && lines[0].contains("OUTCOMES"))
            #expect(lines[1].hasPrefix(String(id.prefix(8)).lowercased()))
            #expect(lines[1].contains("mpushTaxiAttributes") && lines[1].contains("active"))
            #expect(lines[1].contains("\(token.prefix(8))…\(token.suffix(4))"))
            #expect(lines[1].contains(#"{"status":"2","eta":"5"}"#))
            #expect(lines[1].hasSuffix("started 1, applied 1, ignored 1"), "\(lines[1])")
            let outcomes = try #require(lines[0].range(of: "OUTCOMES")).lowerBound.utf16Offset(in: lines[0])
            #expect(try #require(lines[1].range(of: "started 1")).lowerBound.utf16Offset(in: lines[1]) == outcomes)
            #expect(!table.output.contains("\u{1B}["))

            #expect(try await run(["--state", "ended"], control).output.split(separator: "\n").count == 1)
            let filtered = try await run(["--type", "mpushTaxiAttributes", "--token", token], control)
            #expect(filtered.output.split(separator: "\n").count == 2)

            let json = try await run(["--json"], control)
            let parsed = json.output.split(separator: "\n").map { try? JSONParser.parse(String($0)) }
            #expect(parsed.count == 1 && parsed.first??["id"] == .string(id))
            #expect(parsed.first??["outcomes"]?["applied"] == 1)
        }
    }

    @Test("the short id the table prints finds the activity on GET /v1/activities/{id}")
    func shortIDFindsTheActivity() async throws {
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let (id, _) = try await ActivityAPITests.startTaxi(server)
            let table = try await run([], control)
            let row = try #require(table.output.split(separator: "\n").dropFirst().first, "\(table.output)")
            let short = String(try #require(row.split(separator: " ").first))
            let answer = try await ControlCurl.call("GET", control, "/v1/activities/\(short)")
            #expect(answer.status == 200, "\(short): \(answer.text)")
            #expect(answer.json?["id"] == .string(id))
        }
    }

    @Test("a footer counts the starts the phone dropped, with a requests command that lists them as printed")
    func droppedStartsFooter() async throws {
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let (_, token) = try await ActivityAPITests.startTaxi(server)
            #expect(try await ActivityAPITests.update(server, token, #"{"status":3}"#).device?.kind == .dropped)
            let now = Int(Date().timeIntervalSince1970)
            let typo = try await LiveActivityEndToEndTests.push(
                server, to: LiveActivityEndToEndTests.taxiStartToken,
                #"{"event":"start","timestamp":\#(now),"attributes-type":"mpushTaxiAttribute","#
                    + #""attributes":{"appName":"Taxi","appLogo":"logo"},"content-state":{"status":"1"},"#
                    + #""alert":{"title":"Your ride"},"input-push-token":1}"#)
            #expect(typo.status == 200 && typo.device?.kind == .dropped)

            let table = try await run([], control)
            #expect(table.status == 0, "\(table.errors)")
            let lines = table.output.split(separator: "\n").map(String.init)
            try #require(lines.count == 4, "\(table.output)")
            #expect(
                lines[2] == "1 push to a push-to-start token started nothing (dropped 1), so no row above; see why with:")
            let command = lines[3].trimmingCharacters(in: .whitespaces)
            #expect(
                command == "mock-apns requests --device dropped --token \(LiveActivityEndToEndTests.taxiStartToken) "
                    + "--control-url \(control.url)")

            // The command, pasted: it lists exactly that start, whose reason names the declared types.
            let path = DocSnippetRunner.executableFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
            let listed = try await Subprocess.run(
                "/usr/bin/env", ["PATH=\(path)", "NO_COLOR=1", "bash", "-c", command + " --json"])
            #expect(listed.status == 0, "\(listed.errors)")
            let records = listed.output.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
            try #require(records.count == 1, "\(listed.output)")
            #expect(records[0]["device"]?["outcome"] == "dropped")
            #expect(
                records[0]["device"]?["reason"]?.stringValue
                    == "attributes-type 'mpushTaxiAttribute' is not a type the app declares (did you mean "
                    + "'mpushTaxiAttributes'? declared: mpushTakeoutAttributes, mpushTaxiAttributes)")

            let json = try await run(["--json"], control)
            #expect(json.output.split(separator: "\n").allSatisfy { (try? JSONParser.parse(String($0))) != nil })
            let other = try await run(["--token", token], control)
            #expect(other.output.split(separator: "\n").count == 2, "\(other.output)")
        }
    }

    @Test("--follow prints each change as it happens")
    func follow() async throws {
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: CLITests.executable)
            process.arguments = ["activities", "--follow", "--control", control.url]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            defer { if process.isRunning { process.terminate() } }
            try await ActivityAPITests.waitForWatchers(server, count: 1)
            let (_, token) = try await ActivityAPITests.startTaxi(server)
            _ = try await ActivityAPITests.update(server, token)
            // Off the pool, as in InspectionCLITests' --follow: the in-process server answers the child there.
            let output = await out.fileHandleForReading.read(until: "pushed (applied)", timeout: .seconds(5))
            #expect(output.hasPrefix("CHANGE "), "\(output)")
            #expect(output.contains("\nstarted "), "\(output)")
            #expect(output.contains("\npushed (applied) "), "\(output)")
        }
    }

    @Test(
        "refuses bad filters and flags with exit 2, before calling the server",
        arguments: [
            (["--state", "gone"], "--state must be one of: active, stale, ended, dismissed; got 'gone'"),
            (["--token", "xyz"], "--token must be an even number of hex digits"),
            (["--type", ""], "the filter 'type' is empty"),
            (["--colour"], "Unknown option '--colour'"),
        ])
    func badFlags(arguments: [String], message: String) async throws {
        // Nothing listens on port 9: the message is the flag's, so it was checked first.
        let result = try await CLITests.run(["activities"] + arguments + ["--control-url", "http://127.0.0.1:9"])
        #expect(result.status == 2, "\(result.errors)")
        #expect(result.errors.contains(message), "\(result.errors)")
    }
}
