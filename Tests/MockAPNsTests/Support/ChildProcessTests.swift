import Foundation
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
        try await offPool { child.waitUntilExit() }
        let waited = ContinuousClock.now - started
        let sleeper = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        let sleeperRan = kill(sleeper, SIGKILL) == 0
        #expect(sleeperRan, "the background sleep had ended: the wait proves nothing")
        #expect(waited < .seconds(15), "waited \(waited) for a shell that exits at once")
        #expect(child.terminationReason == .exit)
        #expect(child.terminationStatus == 3)
        #expect(!child.isRunning)
    }

    @Test("gives the child no descriptor but 0, 1 and 2, and signals 1-31 unblocked and at their default")
    func cleanStart() throws {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", "ls /proc/$$/fd; grep -E '^Sig(Blk|Ign)' /proc/$$/status"]
        let out = Pipe()
        child.standardOutput = out
        child.standardError = out
        try child.run()
        let output = String(decoding: out.fileHandleForReading.readToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
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
    func signalAndMissingProgram() throws {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["30"]
        try child.run()
        #expect(child.isRunning)
        child.terminate()
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGTERM)

        let missing = ChildProcess()
        missing.executableURL = URL(fileURLWithPath: "/nonexistent/program")
        #expect(throws: ChildProcess.Failure.self) { try missing.run() }
        #expect(!missing.isRunning)
    }
}
