import Foundation
import MockAPNs
import Testing

/// What `scripts/install` lays out, with a stand-in `swift` (and `strip`) so that nothing is compiled.
@Suite("install script layout")
struct InstallScriptTests {
    @Test("install puts scenarios/ and certs/ in $PREFIX/share/mock-apns, where the installed binary finds them")
    func installsScenariosWhereTheBinaryLooks() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("install-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let fakeBin = work.appendingPathComponent("fakebin")
        try FileManager.default.createDirectory(at: fakeBin, withIntermediateDirectories: true)
        // `swift build ... --scratch-path X` leaves X/release/mock-apns, as the real build does.
        let swift = """
            #!/bin/sh
            while [ $# -gt 0 ]; do
                if [ "$1" = "--scratch-path" ]; then scratch="$2"; fi
                shift
            done
            mkdir -p "$scratch/release"
            printf '#!/bin/sh\\necho stand-in\\n' > "$scratch/release/mock-apns"
            chmod +x "$scratch/release/mock-apns"
            """
        try Data(swift.utf8).write(to: fakeBin.appendingPathComponent("swift"))
        try Data("#!/bin/sh\nexit 0\n".utf8).write(to: fakeBin.appendingPathComponent("strip"))
        for tool in ["swift", "strip"] {
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o755], ofItemAtPath: fakeBin.appendingPathComponent(tool).path)
        }
        let prefix = work.appendingPathComponent("prefix").path
        let result = try Subprocess.run(
            "/usr/bin/env",
            [
                "-i", "PATH=\(fakeBin.path):/usr/bin:/bin", "HOME=\(work.path)", "PREFIX=\(prefix)",
                "MOCK_APNS_SCRATCH=\(work.appendingPathComponent("scratch").path)", ScriptErrorTests.script("install"),
            ])
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
        let again = try Subprocess.run(
            "/usr/bin/env",
            [
                "-i", "PATH=\(fakeBin.path):/usr/bin:/bin", "HOME=\(work.path)", "PREFIX=\(prefix)",
                "MOCK_APNS_SCRATCH=\(work.appendingPathComponent("scratch").path)", ScriptErrorTests.script("install"),
            ])
        #expect(again.status == 0, "\(again.errors)")
        #expect(!FileManager.default.fileExists(atPath: "\(share)/scenarios/scenarios"))
    }
}
