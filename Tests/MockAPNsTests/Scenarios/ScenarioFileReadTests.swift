import Foundation
import Testing

@testable import MockAPNs

/// The files a scenario names (and the scenario file itself) are read only when they are regular files of a sane
/// size: a device such as /dev/zero would be read forever, a FIFO would block the load.
@Suite("Scenario files: only regular files of at most 16 MiB are read")
struct ScenarioFileReadTests {
    func keyScenario(_ path: String) -> String {
        "keys:\n  - teamID: TESTTEAM01\n    keyID: TESTKEY001\n    publicKey: \(path)\n"
    }

    @Test("a key file that is a device or a pipe is refused at once, naming the field")
    func devicesAndPipes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-read-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("key.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for path in ["/dev/zero", "/dev/urandom", fifo] {
            let clock = ContinuousClock()
            let started = clock.now
            let error = try #require(throws: ScenarioError.self) {
                try ScenarioLoader.parse(yaml: keyScenario(path), sourcePath: nil, baseDirectory: "/")
            }
            #expect(error.field == "keys[0].publicKey")
            #expect(error.message == "cannot read \(path): it is not a regular file (a device, pipe or socket)")
            #expect(clock.now - started < .seconds(5))
        }
        let scenarioFromDevice = #expect(throws: ScenarioError.self) { try ScenarioLoader.load(file: "/dev/zero") }
        #expect(scenarioFromDevice?.message.hasSuffix("it is not a regular file (a device, pipe or socket)") == true)
    }

    @Test("a file over 16 MiB is refused before it is read, with its size")
    func oversizedFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-big-\(UUID()).pem")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(ScenarioLoader.maximumFileBytes) + 1)  // sparse: no disk used
        try handle.close()
        let error = try #require(throws: ScenarioError.self) {
            try ScenarioLoader.parse(yaml: keyScenario(file.path), sourcePath: nil, baseDirectory: "/")
        }
        #expect(error.message == "cannot read \(file.path): it is 16777217 bytes, more than the 16777216 a scenario, "
            + "key or certificate file may have")
    }
}
