/// The fuzz targets: one entry point per attack surface, called both by the libFuzzer harness (`fuzz/`, built
/// and run by `scripts/fuzz`) and by `FuzzCorpusTests`, which replays every committed corpus and crash input
/// through the same code on every `swift test`.
///
/// An entry point must accept any bytes. A trap (a crash) is a finding; so is a broken invariant, which the
/// entry point reports by throwing `FuzzFinding` (the harness then aborts, so libFuzzer keeps the input).
@_spi(Fuzzing) public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Provider tokens: `ProviderToken.parse`, ES256 verification (raw and DER), DER ↔ raw conversion, PEM keys.
    case jwt
    /// Payloads: `JSONParser.parse`/`validate`, `PayloadScan`, and that they all agree.
    case json
    /// Scenario files: `ScenarioLoader.parse` on arbitrary YAML text.
    case scenario
    /// Requests: HTTP/2 frames into `HTTP2Session`, the assembled `APNsRequest`s into `APNsValidator`.
    case request

    /// What each target covers, for `scripts/fuzz --list`.
    public var summary: String {
        switch self {
        case .jwt: "provider-token parsing, ES256 verification (raw/DER), DER<->raw, PEM keys"
        case .json: "JSONParser (parse and validate) and PayloadScan, and that they agree"
        case .scenario: "ScenarioLoader on arbitrary YAML text"
        case .request: "HTTP2Session request assembly from frames, then APNsValidator"
        }
    }

    /// Runs one input.
    ///
    /// - Throws: `FuzzFinding` when an invariant does not hold for `input`.
    public func run(_ input: [UInt8]) throws(FuzzFinding) {
        switch self {
        case .jwt: try Self.runJWT(input)
        case .json: try Self.runJSON(input)
        case .scenario: try Self.runScenario(input)
        case .request: try Self.runRequest(input)
        }
    }
}

/// A broken invariant found by a fuzz target: the input is accepted without a crash, but the answers disagree.
@_spi(Fuzzing) public struct FuzzFinding: Error, Sendable, CustomStringConvertible {
    /// What does not hold, naming the values.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Reads a fuzz input as a sequence of choices: bytes, small numbers and byte runs. Past the end it reads zeros,
/// so every input decodes to something.
struct FuzzInputReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte was read.
    var isAtEnd: Bool { index >= bytes.count }

    /// The next byte, or 0 past the end.
    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// A number in `0..<bound` (bound 1...256) from one byte.
    mutating func number(below bound: Int) -> Int {
        Int(byte()) % max(1, min(bound, 256))
    }

    /// A length from two bytes (little-endian), at most `limit`.
    mutating func length(upTo limit: Int) -> Int {
        let value = Int(byte()) | Int(byte()) << 8
        return value % (limit + 1)
    }

    /// The next `count` bytes (fewer at the end).
    mutating func bytes(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, index + max(0, count))
        defer { index = max(index, end) }
        return index < end ? Array(bytes[index..<end]) : []
    }

    /// All bytes not read yet.
    mutating func rest() -> [UInt8] {
        bytes(bytes.count - index)
    }
}
