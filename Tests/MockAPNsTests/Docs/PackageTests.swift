import Foundation
import Testing

/// `scripts/package` as a user without Swift meets it: the archive unpacked in an empty folder, the binary run
/// with an environment that has no Swift toolchain. Builds the static release binary first (several minutes), so
/// it runs only when `MOCK_APNS_PACKAGE_TEST=1` (`.ci/run` sets it).
@Suite(
    "packaged binary",
    .enabled(
        if: ProcessInfo.processInfo.environment["MOCK_APNS_PACKAGE_TEST"] == "1",
        "builds the static release binary (minutes): set MOCK_APNS_PACKAGE_TEST=1 to run it (.ci/run does)"),
    .timeLimit(.minutes(60))
)
struct PackageTests {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    @Test("the archive's binary links no Swift runtime and answers a push from the unpacked folder without Swift")
    func packagedBinaryServes() async throws {
        let root = AuthTestFiles.packageRoot
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("package-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        let packaged = try await Subprocess.run(
            root.appendingPathComponent("scripts/package").path, ["--output", work.path], in: root)
        try #require(packaged.status == 0, "scripts/package failed:\n\(packaged.errors)")
        let archive = packaged.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let version = try String(contentsOf: root.appendingPathComponent("VERSION"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let arch = try await Subprocess.run(
            "/usr/bin/uname", ["-m"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let name = "mock-apns-\(version)-linux-\(arch)"
        #expect(archive == work.appendingPathComponent("\(name).tar.gz").path)

        let unpacked = work.appendingPathComponent("unpacked")
        try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: true)
        let untar = try await Subprocess.run("/usr/bin/tar", ["-xzf", archive, "-C", unpacked.path])
        try #require(untar.status == 0, "\(untar.errors)")
        let folder = unpacked.appendingPathComponent(name)
        let expected = [
            "mock-apns", "README.txt", "certs/ca.pem", "certs/AuthKey_TESTKEY001.p8", "scenarios/strict.yaml",
        ]
        for file in expected {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path), "\(file) missing")
        }
        let binary = folder.appendingPathComponent("mock-apns").path

        let ldd = try await Subprocess.run("/usr/bin/ldd", [binary])
        #expect(ldd.status == 0)
        for runtime in ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime"] {
            #expect(!ldd.output.contains(runtime), "the packaged binary needs \(runtime):\n\(ldd.output)")
        }
        #expect(ldd.output.contains("libnghttp2") && ldd.output.contains("libssl"), "\(ldd.output)")

        // No Swift anywhere: an empty environment but for a PATH of the system's folders.
        let bare = ["PATH": "/usr/bin:/bin", "HOME": work.path]
        let which = try await Subprocess.run(
            "/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", "sh", "-c", "command -v swift"])
        #expect(which.status != 0, "swift is on /usr/bin:/bin: \(which.output)")
        let reported = try await Subprocess.run(
            "/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", binary, "--version"], in: folder)
        #expect(reported.output.trimmingCharacters(in: .whitespacesAndNewlines) == version)
        let token = try await Subprocess.run("/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", binary, "token"], in: folder)
        let jwt = token.output.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(token.status == 0 && !jwt.isEmpty, "\(token.errors)")

        let server = try await MockServerProcess.start(executable: binary, in: folder, environment: bare)
        let controlPort = server.controlPort
        typealias Run = (status: Int32, output: String, errors: String)
        let answers: Result<(Curl.Response, Run, Run), any Error>
        do {
            answers = .success(try await offPool {
                let push = try Curl.requestBlocking(
                    port: server.apnsPort, path: "/3/device/\(DocSnippetRunner.token)",
                    headers: [
                        "apns-topic": "com.example.app", "apns-push-type": "alert", "authorization": "bearer \(jwt)",
                    ],
                    body: #"{"aps":{"alert":"from the package"}}"#
                )
                let records = try Subprocess.runBlocking(
                    "/usr/bin/env",
                    [
                        "-i", "PATH=/usr/bin:/bin", binary, "requests", "--json", "--control",
                        "http://127.0.0.1:\(controlPort)",
                    ],
                    in: folder
                )
                // The inspector's page and files come from inside the binary: nothing beside it holds them.
                let control = "http://127.0.0.1:\(controlPort)"
                let page = try Curl.runBlocking([
                    "-sS", "-o", "/dev/null", "-w", "%{http_code} %{content_type}\n", control + "/push/1",
                    "-o", "/dev/null", "-w", "%{http_code} %{content_type}\n", control + "/assets/app.js",
                ])
                return (push, records, (page.0, page.1, page.2))
            })
        } catch {
            answers = .failure(error)
        }
        await server.stop()
        let (push, records, page) = try answers.get()
        #expect(push.status == 200, "\(push.body)")
        #expect(
            records.status == 0 && records.output.contains("from the package"), "\(records.output)\(records.errors)")
        #expect(
            page.output == "200 text/html; charset=utf-8\n200 text/javascript; charset=utf-8\n",
            "\(page.output)\(page.errors)")
    }
}
