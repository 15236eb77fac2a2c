import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `mock-apns run SCENARIO -- COMMAND` as a process: the environment COMMAND gets, free ports, exit codes,
/// timeouts and signals.
@Suite("mock-apns run", .serialized)
struct RunCommandTests {
    typealias Support = RunTestSupport

    @Test("a passing run exits 0 and COMMAND sees every MOCK_APNS_ variable, with files that exist")
    func environment() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dump = folder.appendingPathComponent("env").path
        let result = try await Support.mockAPNs(["run", "--", "sh", "-c", "env > '\(dump)'"])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        #expect(result.output.contains("✓ command sh -c"), "\(result.output)")
        let variables = Support.variables(try String(contentsOfFile: dump, encoding: .utf8))
        let port = try #require(variables["MOCK_APNS_PORT"].flatMap(Int.init))
        #expect(port > 0 && port != 2197)
        #expect(variables["MOCK_APNS_URL"] == "https://127.0.0.1:\(port)")
        #expect(variables["MOCK_APNS_HOST"] == "127.0.0.1")
        #expect(variables["MOCK_APNS_CONTROL_URL"]?.hasPrefix("http://127.0.0.1:") == true)
        #expect(variables["MOCK_APNS_CONTROL_URL"] != "http://127.0.0.1:2190")
        #expect(variables["MOCK_APNS_KEY_ID"] == "TESTKEY001")
        #expect(variables["MOCK_APNS_TEAM_ID"] == "TESTTEAM01")
        #expect(variables["MOCK_APNS_BUNDLE_ID"] == nil, "the default world lists more than one app")
        for name in ["MOCK_APNS_CA_FILE", "MOCK_APNS_KEY_FILE"] {
            let path = try #require(variables[name])
            #expect(path.hasPrefix("/"), "\(name) is absolute")
            #expect(!FileManager.default.fileExists(atPath: path), "\(name) is removed after the run")
        }
    }

    @Test("a scenario with one app and a .p8 key hands over its bundle id and that key; COMMAND's files are readable")
    func scenarioKey() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let certs = AuthTestFiles.packageRoot.appendingPathComponent("certs").path
        let p8 = certs + "/AuthKey_TESTKEY001.p8"
        let scenario = try Support.write(
            """
            name: one-app
            apps:
              - { bundleID: com.example.shop, teamID: OTHERTEAM1 }
            keys:
              - { teamID: OTHERTEAM1, keyID: OTHERKEY01, publicKey: \(certs)/AuthKey_OTHERKEY01.pub.pem }
              - { teamID: OTHERTEAM1, keyID: TESTKEY001, p8: \(p8) }
            """, "one-app.yaml", in: folder)
        let dump = folder.appendingPathComponent("env").path
        let journal = folder.appendingPathComponent("run.jsonl").path
        let result = try await Support.mockAPNs([
            "run", scenario, "--journal", journal, "--", "sh", "-c",
            "env > '\(dump)' && grep -q 'BEGIN CERTIFICATE' \"$MOCK_APNS_CA_FILE\" && "
                + "mock-apns push \(Support.device) --alert hi",
        ])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        let variables = Support.variables(try String(contentsOfFile: dump, encoding: .utf8))
        #expect(variables["MOCK_APNS_BUNDLE_ID"] == "com.example.shop")
        #expect(variables["MOCK_APNS_KEY_FILE"] == p8)
        #expect(variables["MOCK_APNS_KEY_ID"] == "TESTKEY001")
        #expect(variables["MOCK_APNS_TEAM_ID"] == "OTHERTEAM1")
        let record = try #require(try Support.journal(journal).first)
        #expect(record["topic"] as? String == "com.example.shop")
        #expect((record["auth"] as? [String: Any])?["verified"] as? Bool == true)
        #expect((record["auth"] as? [String: Any])?["teamID"] as? String == "OTHERTEAM1")
    }

    @Test("two runs at once listen on different ports")
    func parallelRuns() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func command(_ name: String) -> [String] {
            let path = folder.appendingPathComponent(name).path
            return ["run", "--", "sh", "-c", "echo $MOCK_APNS_PORT $MOCK_APNS_CONTROL_URL > '\(path)'; sleep 2"]
        }
        async let first = Support.mockAPNs(command("a"))
        async let second = Support.mockAPNs(command("b"))
        let results = try await [first, second]
        #expect(results.map(\.status) == [0, 0], "\(results.map(\.errors))")
        let a = try String(contentsOf: folder.appendingPathComponent("a"), encoding: .utf8)
        let b = try String(contentsOf: folder.appendingPathComponent("b"), encoding: .utf8)
        let aWords = a.split(separator: " ")
        let bWords = b.split(separator: " ")
        #expect(aWords.count == 2 && bWords.count == 2)
        #expect(aWords.first != bWords.first)
        #expect(aWords.last != bWords.last)
    }

    @Test("a scenario error exits 2 before COMMAND runs, with file:line:column")
    func scenarioError() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try Support.write(
            "name: broken\nmode: lenient\nrules:\n  - respnd: {}\n", "broken.yaml", in: folder)
        let marker = folder.appendingPathComponent("ran").path
        let result = try await Support.mockAPNs(["run", scenario, "--", "touch", marker])
        #expect(result.status == 2)
        #expect(result.errors.contains("broken.yaml:4:5"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test(
        "a bad flag, duration or COMMAND exits 2 with a usage error",
        arguments: [
            ["run", "--settle", "5h", "--", "true"], ["run", "--settle", "soon", "--", "true"],
            ["run", "--timeout", "0s", "--", "true"], ["run", "--timeout", "99999999999999h", "--", "true"],
            ["run", "--port", "70000", "--", "true"], ["run", "--control-port", "-1", "--", "true"],
            ["run", "--bogus", "--", "true"], ["run", "--", "no-such-command-anywhere"],
            ["run", "--", ""], ["verify"], ["verify", "scenarios/default.yaml"],
        ])
    func usageErrors(arguments: [String]) async throws {
        let result = try await Support.mockAPNs(arguments)
        #expect(result.status == 2, "\(result.output)\(result.errors)")
        #expect(result.errors.contains("Error:"), "\(result.errors)")
    }

    @Test(
        "a COMMAND that fails, crashes or is killed exits 3 and says how it ended",
        arguments: [
            (["sh", "-c", "exit 7"], "exited 7"), (["sh", "-c", "kill -9 $$"], "killed by signal 9"),
            (["sh", "-c", "kill -SEGV $$"], "killed by signal 11"),
        ])
    func failedCommand(command: [String], words: String) async throws {
        let result = try await Support.mockAPNs(["run", "--"] + command)
        #expect(result.status == 3, "\(result.output)\(result.errors)")
        #expect(result.output.contains("✗ command"), "\(result.output)")
        #expect(result.output.contains(words), "\(result.output)")
    }

    @Test("--timeout 1s stops a COMMAND that sleeps 30s within a few seconds, exit 3")
    func timeout() async throws {
        let (result, took) = try await offPool(since: .now) {
            try Support.mockAPNsBlocking(["run", "--timeout", "1s", "--", "sleep", "30"], timeout: 60)
        }
        #expect(took < .seconds(8))
        #expect(result.status == 3, "\(result.output)\(result.errors)")
        #expect(result.output.contains("ran past --timeout 1s"), "\(result.output)")
    }

    @Test("SIGTERM to run reaches COMMAND first, the server stops cleanly and the journal file is written")
    func sigterm() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appendingPathComponent("run.jsonl").path
        let caught = folder.appendingPathComponent("caught").path
        let pushed = folder.appendingPathComponent("pushed").path
        let script = """
            trap 'echo TERM > "\(caught)"; exit 0' TERM
            mock-apns push \(Support.device) --alert hi > /dev/null && touch "\(pushed)"
            while :; do sleep 0.1; done
            """
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: CLITests.executable)
        process.arguments = ["run", "--journal", journal, "--", "sh", "-c", script]
        process.environment = Support.environment()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while !FileManager.default.fileExists(atPath: pushed), ContinuousClock.now < deadline, process.isRunning {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(FileManager.default.fileExists(atPath: pushed))
        kill(process.processIdentifier, SIGTERM)
        await process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect((try? String(contentsOfFile: caught, encoding: .utf8)) == "TERM\n")
        let records = try Support.journal(journal)
        #expect(records.count == 1)
        #expect(records.first?["token"] as? String == Support.device)
    }

    @Test("run s.yaml -- mock-apns push TOKEN --alert hi records the push, signed with the key run hands over")
    func pushUnderRun() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appendingPathComponent("run.jsonl").path
        let result = try await Support.mockAPNs([
            "run", "scenarios/unregistered-after-first.yaml", "--journal", journal, "--", "mock-apns", "push",
            Support.device,
            "--alert", "hi",
        ])
        let records = try Support.journal(journal)
        #expect(records.count == 1)
        let record = try #require(records.first)
        #expect(record["payload"] as? String == #"{"aps":{"alert":"hi"}}"#)
        #expect((record["auth"] as? [String: Any])?["verified"] as? Bool == true)
        #expect(result.output.contains("1 record checked"), "\(result.output)\(result.errors)")
    }

    @Test("without COMMAND it prints the variables to export, serves until SIGINT, then verifies and exits 0")
    func interactive() async throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: CLITests.executable)
        process.arguments = ["run"]
        process.environment = Support.environment()
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let banner = await out.fileHandleForReading.read(timeout: .seconds(60)) {
            $0.contains("MOCK_APNS_BUNDLE_ID") || $0.contains("MOCK_APNS_TEAM_ID=")
        }
        #expect(banner.contains("export MOCK_APNS_URL=https://127.0.0.1:"), "\(banner)")
        #expect(banner.hasPrefix("inspector: http://127.0.0.1:"), "the inspector's URL comes first: \(banner)")
        // At once after the banner: a signal in the first moments must be caught too (a dispatch source armed
        // later once lost it, and this test then waited for ever). A run still alive after 30 s fails the test.
        kill(process.processIdentifier, SIGINT)
        let killer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: killer)
        let rest = await out.fileHandleForReading.readToEndOfFile()
        await process.waitUntilExit()
        killer.cancel()
        #expect(process.terminationReason == .exit, "run did not stop on SIGINT")
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: rest, as: UTF8.self).contains("0 records checked"))
    }
}
