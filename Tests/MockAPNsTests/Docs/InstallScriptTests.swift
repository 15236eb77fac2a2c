import Foundation
import MockAPNs
import Testing

/// What `scripts/install` lays out, with a stand-in `swift` (and `strip`) so that nothing is compiled
/// (`InstalledMockAPNs` installs the real debug binary the same way).
@Suite("install script layout")
struct InstallScriptTests {
    @Test("install puts scenarios/ and certs/ in $PREFIX/share/mock-apns, where the installed binary finds them")
    func installsScenariosWhereTheBinaryLooks() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("install-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let fakeBin = work.appendingPathComponent("fakebin")
        let built = work.appendingPathComponent("built-mock-apns")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try Data("#!/bin/sh\necho stand-in\n".utf8).write(to: built)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: built.path)
        try InstalledMockAPNs.writeStandIns(in: fakeBin, built: built.path)
        let prefix = work.appendingPathComponent("prefix").path
        let scratch = work.appendingPathComponent("scratch").path
        let result = try await offPool {
            try InstalledMockAPNs.runInstallBlocking(
                prefix: prefix, home: work.path, scratch: scratch, standIns: fakeBin.path)
        }
        #expect(result.status == 0, "\(result.errors)")
        let share = "\(prefix)/share/mock-apns"
        #expect(FileManager.default.isExecutableFile(atPath: "\(prefix)/bin/mock-apns"))
        #expect(FileManager.default.fileExists(atPath: "\(share)/scenarios/default.yaml"))
        #expect(FileManager.default.fileExists(atPath: "\(share)/certs/AuthKey_TESTKEY001.p8"))
        // The installed binary's lookup, from a working directory without scenarios/, lands on them.
        let found = ScenarioFolder.project(
            executable: URL(fileURLWithPath: "\(prefix)/bin/mock-apns"), workingDirectory: work.path)
        #expect(found == URL(fileURLWithPath: "\(share)/scenarios").standardizedFileURL.path)
        // The shipped scenarios load from there: their relative key paths reach the installed certs/.
        #expect(throws: Never.self) {
            _ = try ScenarioLoader.load(file: "\(share)/scenarios/default.yaml")
        }
        // Run again: the folders are replaced, not nested.
        let again = try await offPool {
            try InstalledMockAPNs.runInstallBlocking(
                prefix: prefix, home: work.path, scratch: scratch, standIns: fakeBin.path)
        }
        #expect(again.status == 0, "\(again.errors)")
        #expect(!FileManager.default.fileExists(atPath: "\(share)/scenarios/scenarios"))
    }
}
