import Foundation
import Testing

@testable import MockAPNs

/// `JournalFileReader`: strict for `verify --journal`, lenient for `mock-apns inspect`; and the renumbering of a
/// file whose sequence numbers start over.
@Suite("Journal file reader")
struct JournalFileReaderTests {
    static func line(_ sequence: UInt64) -> String {
        #"{"sequence":\#(sequence),"receivedAt":"2026-11-25T10:00:00.000Z","connection":1,"method":"POST","#
            + #""path":"/3/device/aa","accepted":true,"rule":"accepted"}"#
    }

    /// Writes `text` to a new file and reads it in `mode`: the sequence numbers and line numbers read, the
    /// warnings, or the failure.
    static func read(_ text: String, _ mode: JournalFileReader.Mode) throws -> (
        records: [(UInt64, Int)], warnings: [String], failure: JournalFileReader.Failure?
    ) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reader-\(UUID()).jsonl")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var reader = JournalFileReader(path: file.path, mode: mode)
        var records: [(UInt64, Int)] = []
        do {
            try reader.read { record, line in records.append((record.sequence, line)) }
        } catch {
            return (records, reader.warnings, error)
        }
        return (records, reader.warnings, nil)
    }

    @Test("reads records line by line: blank lines, CRLF and a last line without a newline are fine")
    func wholeFile() throws {
        let text = Self.line(1) + "\r\n\n   \n" + Self.line(2) + "\n" + Self.line(3)
        for mode in [JournalFileReader.Mode.strict, .lenient] {
            let read = try Self.read(text, mode)
            #expect(read.failure == nil, "\(String(describing: read.failure))")
            #expect(read.records.map(\.0) == [1, 2, 3] && read.records.map(\.1) == [1, 4, 5])
            #expect(read.warnings.isEmpty)
        }
        #expect(try Self.read("", .strict).records.isEmpty)
    }

    @Test(
        "a hand-edited fan-out line with extreme subscribers or counts neither traps nor allocates without bound",
        arguments: [
            ("-9223372036854775808", "9223372036854775807", 1),
            ("9223372036854775807", "9223372036854775807", FanOutTally.readLimit),
            ("3", "9223372036854775807", 3),
        ])
    func extremeFanOut(subscribers: String, count: String, expected: Int) throws {
        let line =
            #"{"sequence":2,"kind":"fan-out","receivedAt":"2026-11-25T10:00:00.000Z","broadcast":1,"#
            + #""subscribers":\#(subscribers),"counts":[{"outcome":"applied","rule":"activity.applied","#
            + #""count":\#(count)}],"activities":[{"activity":"a","outcome":"applied","rule":"activity.applied"}]}"#
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fan-out-\(UUID()).jsonl")
        try Data((line + "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var reader = JournalFileReader(path: file.path, mode: .strict)
        var outcomes: Int?
        try reader.read { record, _ in outcomes = record.fanOutOutcomes?.outcomes.count }
        // The one listed activity always counts; past it, at most the subscribers the line gives, capped.
        #expect(outcomes == expected)
    }

    @Test("a last line cut short fails a strict read and is skipped, with a warning, by a lenient one")
    func cutShort() throws {
        let text = Self.line(1) + "\n" + Self.line(2).prefix(40)
        let strict = try Self.read(text, .strict)
        #expect(strict.failure?.line == 2 && strict.failure?.message.hasPrefix("not JSON: ") == true)
        let lenient = try Self.read(text, .lenient)
        #expect(lenient.failure == nil && lenient.records.map(\.0) == [1])
        let warning = "the last line (2) is cut short, as when the run was killed while writing it: skipped"
        #expect(lenient.warnings == [warning])
        // With its newline the same line was written whole, so it is an error in both modes.
        #expect(try Self.read(text + "\n", .lenient).failure?.line == 2)
        #expect(try Self.read(Self.line(1) + "\n{\"a\":1}", .lenient).warnings.count == 1)
    }

    @Test("a line over 1 MiB fails a strict read and is skipped, counted once, by a lenient one")
    func overlong() throws {
        let long = String(repeating: "y", count: JournalFileReader.maximumLineBytes + 1)
        let text = Self.line(1) + "\n" + long + "\n" + Self.line(2) + "\n" + long + long
        let strict = try Self.read(text, .strict)
        #expect(strict.failure?.line == 2 && strict.failure?.message.hasPrefix("longer than 1048576 bytes") == true)
        let lenient = try Self.read(text, .lenient)
        #expect(lenient.failure == nil && lenient.records.map(\.0) == [1, 2])
        #expect(lenient.warnings == [
            "2 line(s) longer than 1048576 bytes skipped (first: line 2): no journal record is that long",
        ])
        let exact = String(repeating: " ", count: JournalFileReader.maximumLineBytes - Self.line(3).utf8.count)
        #expect(try Self.read(Self.line(3) + exact + "\n", .strict).records.map(\.0) == [3])
    }

    @Test("a line in the middle that is not a record fails either read, naming the line")
    func badLine() throws {
        for bad in ["{oops", #"{"sequence": 2}"#, "[1,2]", "\u{0}\u{1}"] {
            let text = Self.line(1) + "\n" + bad + "\n" + Self.line(3) + "\n"
            for mode in [JournalFileReader.Mode.strict, .lenient] {
                let read = try Self.read(text, mode)
                #expect(read.failure?.line == 2, "\(bad)")
                #expect(read.records.map(\.0) == [1])
            }
        }
    }

    @Test("sequence numbers that start over or run out are numbered on without trapping")
    func renumbering() throws {
        var renumbering = JournalFileInspector.Renumbering()
        var record = try #require(JournalRecord(json: try JSONParser.parse(Self.line(1))))
        var numbers: [UInt64?] = []
        for (line, sequence) in [1, 2, 1, 2, 0, UInt64.max - 5, 7, UInt64.max, UInt64.max - 1, 3].enumerated() {
            record.sequence = sequence
            numbers.append(renumbering.number(&record, line: line + 1) ? record.sequence : nil)
        }
        #expect(numbers == [1, 2, 3, 4, 5, nil, 12, 13, 14, 19])
        let restarts = "sequence numbers start over at line 3 (4 time(s) in all"
        #expect(renumbering.warnings.first?.hasPrefix(restarts) == true, "\(renumbering.warnings)")
        #expect(renumbering.warnings.last == "1 record(s) left out: their sequence numbers run past the largest one")
    }
}
