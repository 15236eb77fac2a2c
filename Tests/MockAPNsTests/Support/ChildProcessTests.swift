import Foundation
import Spawn
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The tests' way of starting programs, which every CLI, snippet and client test leans on.
@Suite("ChildProcess (the tests' programs)")
struct ChildProcessTests {
    @Test("notices a child's exit while a program the child started in the background still runs")
    func exitWithBackgroundGrandchild() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pidFile = folder.appendingPathComponent("sleep.pid").path
        // The shell inherits every descriptor it has to the sleep: Foundation's `Process` waited here until the
        // sleep ended, 30 s later (swift-corelibs-foundation issue 4795).
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", "sleep 30 & echo $! > '\(pidFile)'; exit 3"]
        child.standardOutput = nil
        child.standardError = nil
        let started = ContinuousClock.now
        try child.run()
        let (_, waited) = try await offPool(since: started) { child.waitUntilExitBlocking() }
        let sleeper = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        let sleeperRan = kill(sleeper, SIGKILL) == 0
        #expect(sleeperRan, "the background sleep had ended: the wait proves nothing")
        #expect(waited < .seconds(15), "waited \(waited) for a shell that exits at once")
        #expect(child.terminationReason == .exit)
        #expect(child.terminationStatus == 3)
        #expect(!child.isRunning)
    }

    @Test("gives the child no descriptor but 0, 1 and 2, and signals 1-31 unblocked and at their default")
    func cleanStart() async throws {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        // grep replaces the shell (exec) and reads its own status: read while dash waits for a child, the shell's
        // mask can be dash's all-blocked one around sigsuspend, which made this test fail under load.
        child.arguments = ["-c", "ls /proc/$$/fd; exec grep -E '^Sig(Blk|Ign)' /proc/self/status"]
        let out = Pipe()
        child.standardOutput = out
        child.standardError = out
        try child.run()
        let output = String(decoding: await out.fileHandleForReading.readToEndOfFile(), as: UTF8.self)
        await child.waitUntilExit()
        #expect(child.terminationStatus == 0, "\(output)")
        let lines = output.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(3)) == ["0", "1", "2"], "\(output)")
        // Bit n - 1 is signal n. Signals 32 and 33 are glibc's own (thread cancellation, set-id broadcast), which
        // `sigfillset` leaves out, so a spawn cannot reset them: the test process ignores them.
        let masks = lines.dropFirst(3).map { line in
            UInt64(line.split(separator: "\t").last ?? "", radix: 16).map { $0 & 0x7fff_ffff }
        }
        #expect(masks == [0, 0], "\(output)")
    }

    @Test("reports a signal that ended the child, and refuses a program that does not exist")
    func signalAndMissingProgram() async throws {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["30"]
        try child.run()
        #expect(child.isRunning)
        child.terminate()
        await child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGTERM)

        let missing = ChildProcess()
        missing.executableURL = URL(fileURLWithPath: "/nonexistent/program")
        #expect(throws: ChildProcess.Failure.self) { try missing.run() }
        #expect(!missing.isRunning)
    }

    @Test("stop(grace:): SIGTERM ends a child at once; one that ignores SIGTERM is killed when the grace is over")
    func stopWithGrace() async throws {
        let polite = ChildProcess()
        polite.executableURL = URL(fileURLWithPath: "/bin/sleep")
        polite.arguments = ["30"]
        try polite.run()
        let (_, took) = try await offPool(since: .now) { polite.stop(grace: .seconds(20)) }
        #expect(took < .seconds(10), "SIGTERM alone ends a sleep")
        #expect(polite.terminationReason == .uncaughtSignal && polite.terminationStatus == SIGTERM)

        let stubborn = ChildProcess()
        stubborn.executableURL = URL(fileURLWithPath: "/bin/sh")
        stubborn.arguments = ["-c", "trap '' TERM; exec sleep 30"]
        try stubborn.run()
        try await Task.sleep(for: .milliseconds(300))  // past the trap: the sleep ignores SIGTERM
        let (_, waited) = try await offPool(since: .now) { stubborn.stop(grace: .milliseconds(500)) }
        #expect(stubborn.terminationReason == .uncaughtSignal && stubborn.terminationStatus == SIGKILL)
        #expect(waited >= .milliseconds(500) && waited < .seconds(10), "\(waited)")
        await stubborn.stop(grace: .seconds(5))  // once ended: returns at once
    }

    @Test("Subprocess.run stops a program past its timeout, SIGKILL for one that ignores SIGTERM, keeping its output")
    func subprocessTimeout() async throws {
        let (result, waited) = try await offPool(since: .now) {
            try Subprocess.runBlocking(
                "/bin/sh", ["-c", "trap '' TERM; echo before; echo oops >&2; exec sleep 30"], timeout: 0.5)
        }
        #expect(result.status == SIGKILL, "\(result)")
        #expect(result.output == "before\n" && result.errors == "oops\n", "\(result)")
        #expect(waited >= .milliseconds(500) + Subprocess.stopGrace && waited < .seconds(20), "\(waited)")
        let quick = try await Subprocess.run("/bin/sh", ["-c", "echo done; exit 4"], timeout: 30)
        #expect(quick.status == 4 && quick.output == "done\n", "\(quick)")
    }

    @Test("Spawn.executable finds a program as a shell does: a path as is, else the first PATH folder that has it")
    func pathLookup() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("path-\(UUID().uuidString)")
        let first = folder.appendingPathComponent("a")
        let second = folder.appendingPathComponent("b")
        for directory in [first, second] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = first.appendingPathComponent("tool").path
        let runnable = second.appendingPathComponent("tool").path
        FileManager.default.createFile(atPath: plain, contents: Data("#!/bin/sh\n".utf8))
        FileManager.default.createFile(
            atPath: runnable, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        let path = "\(first.path):\(second.path)"
        #expect(try Spawn.executable("tool", path: path) == runnable, "a file that is not executable is skipped")
        let shell = try Spawn.executable("sh", path: nil)
        #expect(["/usr/local/bin/sh", "/usr/bin/sh", "/bin/sh"].contains(shell), "the default PATH: \(shell)")
        #expect(try Spawn.executable(runnable, path: "") == runnable)
        #expect(throws: Spawn.LookupFailure.notExecutable) { try Spawn.executable(plain, path: path) }
        #expect(throws: Spawn.LookupFailure.notFound) { try Spawn.executable("no-such-tool", path: path) }
        #expect(throws: Spawn.LookupFailure.notFound) { try Spawn.executable("tool", path: first.path) }
    }
}
