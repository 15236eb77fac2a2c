import Foundation
import Testing

@_spi(Fuzzing) @testable import MockAPNs

/// Replays every committed fuzz input (the corpus of each target and every crash, timeout and out-of-memory input
/// the fuzzer ever found) through the entry points the libFuzzer harness calls, as ordinary tests: no fuzz build.
@Suite("Fuzz corpus and crash inputs replay through the fuzz entry points")
struct FuzzCorpusTests {
    /// The repository's `fuzz/` folder.
    static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("fuzz")

    /// The longest one input may take, in a debug build (libFuzzer's own limit, `-timeout=10`, is per input too).
    static let perInputLimit = Duration.seconds(10)

    /// The files under `fuzz/<folder>/<target>/`, hidden ones (`.gitkeep`) left out.
    static func inputs(_ folder: String, _ target: FuzzTarget) -> [URL] {
        let directory = fuzzFolder.appendingPathComponent(folder).appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// Runs every input of `folder` for `target`, each within the time limit, none breaking an invariant.
    static func replay(_ folder: String, _ target: FuzzTarget) throws -> Int {
        let files = inputs(folder, target)
        for file in files {
            let input = try [UInt8](Data(contentsOf: file))
            let clock = ContinuousClock()
            let started = clock.now
            do {
                try target.run(input)
            } catch {
                Issue.record("\(folder)/\(target.rawValue)/\(file.lastPathComponent): \(error)")
            }
            let took = clock.now - started
            #expect(took < perInputLimit, "\(folder)/\(target.rawValue)/\(file.lastPathComponent) took \(took)")
        }
        return files.count
    }

    @Test("every corpus input runs cleanly and quickly", arguments: FuzzTarget.allCases)
    func corpus(target: FuzzTarget) throws {
        let count = try Self.replay("corpus", target)
        #expect(count >= 5, "fuzz/corpus/\(target.rawValue) holds \(count) inputs; it is seeded with at least 5")
    }

    @Test("every input the fuzzer ever crashed on is a regression test", arguments: FuzzTarget.allCases)
    func crashes(target: FuzzTarget) throws {
        _ = try Self.replay("crashes", target)
    }

    @Test("the request target reaches the validator: its good seed is accepted, its pathless one refused")
    func requestSeedsReachTheValidator() throws {
        let goodFile = Self.fuzzFolder.appendingPathComponent("corpus/request/one-good-request")
        let good = try [UInt8](Data(contentsOf: goodFile))
        let decisions = try FuzzTarget.runRequest(good)
        #expect(decisions.map(\.rule) == ["accepted"])
        // Per request: standard headers and the canned body, no more headers, two body cuts (two bytes each).
        let twice = try FuzzTarget.runRequest([0x01, 0xFF, 0, 0, 0, 0, 0, 0xFF, 0, 0, 0, 0, 0])
        #expect(twice.map(\.rule) == ["accepted", "accepted"])
        // Without :path nghttp2 itself refuses the stream: nothing reaches the validator.
        #expect(try FuzzTarget.runRequest([0x00, 0xFB, 0]).isEmpty)
    }

    @Test("the scenario target loads the shipped scenarios and checks their snapshots")
    func scenarioSeedsLoad() throws {
        for file in Self.inputs("corpus", .scenario) where file.pathExtension == "yaml" {
            let scenario = try FuzzTarget.runScenario(try [UInt8](Data(contentsOf: file)))
            #expect(scenario != nil, "\(file.lastPathComponent) does not load")
        }
    }

    @Test("the request target's check catches an assembled request that differs from the one sent")
    func requestCheckCatchesDifferences() throws {
        var sent = FuzzTarget.SentRequest()
        sent.pseudo = [":method": "POST", ":path": "/3/device/ab", ":scheme": "https", ":authority": "a"]
        sent.headers = [APNsHeader("apns-topic", "t"), APNsHeader("apns-id", "x")]
        sent.body = Array("{}".utf8)
        let same = APNsRequest(
            method: "POST", path: "/3/device/ab", authority: "a", headers: sent.headers, body: Array("{}".utf8))
        try FuzzTarget.check(same, against: sent)
        let body = Array("{}".utf8)
        let path = "/3/device/ab"
        let variants = [
            APNsRequest(method: "POST", path: path, authority: "a", headers: sent.headers, body: []),
            APNsRequest(method: "POST", path: path, authority: "a", headers: sent.headers.reversed(), body: body),
            APNsRequest(method: "GET", path: path, authority: "a", headers: sent.headers, body: body),
            APNsRequest(method: "POST", path: path, authority: nil, headers: sent.headers, body: body),
            APNsRequest(method: "POST", path: path + "c", authority: "a", headers: sent.headers, body: body),
        ]
        for variant in variants {
            #expect(throws: FuzzFinding.self) { try FuzzTarget.check(variant, against: sent) }
        }
    }

    @Test("scripts/fuzz lists the same targets, and refuses a bad target or duration with a clear error")
    func script() async throws {
        let script = Self.fuzzFolder.deletingLastPathComponent().appendingPathComponent("scripts/fuzz").path
        let list = try await Subprocess.run(script, ["--list"])
        #expect(list.status == 0)
        let listed = list.output.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        #expect(listed == FuzzTarget.allCases.map(\.rawValue))
        for (target, seconds, message) in [
            ("nope", "5", "no target \"nope\""), ("json", "0", "from 1 to 86400"), ("json", "1e3", "from 1 to 86400"),
            ("json", "86401", "from 1 to 86400"), ("json", "99999999999999999999", "from 1 to 86400"),
        ] {
            let run = try await Subprocess.run(script, [target, seconds])
            #expect(run.status == 2, "\(target) \(seconds)")
            #expect(run.errors.contains(message), "\(target) \(seconds): \(run.errors)")
        }
    }
}
