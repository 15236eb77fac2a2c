import Foundation
import Testing

/// `run`'s output files, with the installed binary in a fresh folder (issue 20, item 2): the README's CI line with
/// no `build/` folder.
@Suite("installed binary: run's output files")
struct InstalledRunOutputTests {
    @Test("run makes the missing folders of --junit, --report, --journal and --record, and passes")
    func makesMissingFolders() async throws {
        try await InstalledMockAPNs.with { installed in
            let token = "5984de83fef02c9ae624a1a84d3c486cceb0ea1086f6bf8c39efad11ec251979"
            let result = try await installed.run([
                "run", "scenarios/unregistered-after-first.yaml", "--junit", "build/apns.xml",
                "--report", "build/reports/apns.md", "--journal", "logs/apns.jsonl", "--record", "recorded/x.yaml",
                "--", "mock-apns", "push", token, "--alert", "hi",
            ])
            #expect(result.status == 0, "\(result.output)\(result.errors)")
            for file in ["build/apns.xml", "build/reports/apns.md", "logs/apns.jsonl", "recorded/x.yaml"] {
                let path = installed.workingDirectory.appendingPathComponent(file).path
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                #expect(size > 0, "\(file) was not written: \(result.errors)")
            }
        }
    }

    @Test("a folder that cannot be made stops run before COMMAND starts, naming the flag and the folder")
    func refusesUpFront() async throws {
        try await InstalledMockAPNs.with { installed in
            _ = try installed.write("", "plain-file")
            for flag in ["--junit", "--report", "--journal", "--record"] {
                let result = try await installed.run(["run", flag, "plain-file/out", "--", "touch", "command-ran"])
                #expect(result.status == 2, "\(flag): \(result.output)\(result.errors)")
                #expect(
                    result.errors.contains("\(flag) plain-file/out: plain-file is a file, not a folder"),
                    "\(result.errors)")
                let ran = installed.workingDirectory.appendingPathComponent("command-ran").path
                #expect(!FileManager.default.fileExists(atPath: ran), "\(flag): COMMAND ran")
            }
            let folder = try await installed.run(["run", "--junit", ".", "--", "true"])
            #expect(folder.status == 2)
            #expect(
                folder.errors.contains("--junit .: it is a folder; give the path of a file in it"), "\(folder.errors)")
        }
    }

    @Test("a passing run whose --junit still fails at the end exits 2 and says that the verdict passed")
    func lateFailureIsExplained() async throws {
        try await InstalledMockAPNs.with { installed in
            // COMMAND puts a file where the folder was made: the write at the end cannot succeed.
            let result = try await installed.run([
                "run", "--junit", "build/apns.xml", "--", "sh", "-c", "rm -r build && touch build",
            ])
            #expect(result.status == 2, "\(result.output)\(result.errors)")
            #expect(result.output.contains(" 0 failed"), "\(result.output)")
            #expect(result.errors.contains("--junit build/apns.xml: build is a file, not a folder"), "\(result.errors)")
            let explained = "the verdict passed, but exit status 2: an output file asked for was not written"
            #expect(result.errors.contains(explained), "\(result.errors)")
        }
    }
}
