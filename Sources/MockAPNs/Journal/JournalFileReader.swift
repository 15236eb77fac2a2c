import Foundation

/// Reads a journal file (JSON lines, one record each, as `--journal` writes them) line by line, in bounded memory:
/// one chunk and one line at a time, and no line longer than `maximumLineBytes` is kept.
///
/// `verify --journal` reads `strict`ly: every line must be a record. `mock-apns inspect` reads `lenient`ly, since
/// the file may come from a run that was killed: a last line cut short (no newline, and not a whole record) and a
/// line over the limit are skipped and said in `warnings`; any other line that is not a record is still an error.
public struct JournalFileReader {
    /// The longest line read: 1 MiB. A record is at most a few hundred KiB (a payload is kept up to 5120 bytes,
    /// headers up to 16 KiB, both escaped), so a longer line is not one.
    public static let maximumLineBytes = 1 << 20
    /// How much of the file is read at a time.
    static let chunkBytes = 1 << 20

    /// How lines that are not records are taken.
    public enum Mode: Sendable {
        /// Every line that is not blank must be a record.
        case strict
        /// A last line cut short and lines over `maximumLineBytes` are skipped, with a warning.
        case lenient
    }

    /// A file that cannot be read, or a line that is not a record: `file:line: what is wrong`.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The file.
        public var path: String
        /// The line at fault (1 for the first); `nil` when the file itself cannot be read.
        public var line: Int?
        /// What is wrong.
        public var message: String

        /// `run.jsonl:3: not a journal record (…)`, or `run.jsonl: cannot read it: …`.
        public var description: String { line.map { "\(path):\($0): \(message)" } ?? "\(path): \(message)" }
    }

    /// The file.
    public let path: String
    /// How it is read.
    public let mode: Mode
    /// What was skipped, in sentences (always empty in `strict` mode).
    public private(set) var warnings: [String] = []
    /// The lines read so far.
    public private(set) var lines = 0

    private var overlongLines = 0
    private var firstOverlongLine = 0

    /// A reader of the file at `path`.
    public init(path: String, mode: Mode) {
        self.path = path
        self.mode = mode
    }

    /// Reads the whole file, handing each record and its line number to `body` in file order; throws a `Failure`
    /// for a file that cannot be read or a line that is not a record (then `body` has seen the records before it).
    public mutating func read(_ body: (JournalRecord, Int) throws(Failure) -> Void) throws(Failure) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw Failure(path: path, line: nil, message: "cannot read it: there is no such file")
        }
        guard !isFolder.boolValue else {
            throw Failure(path: path, line: nil, message: "cannot read it: it is a folder")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw Failure(path: path, line: nil, message: "cannot read it: permission denied or not a file")
        }
        defer { try? handle.close() }
        var line: [UInt8] = []
        var overlong = false
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: Self.chunkBytes) ?? Data() } catch {
                throw Failure(path: path, line: nil, message: "cannot read it: \(error.localizedDescription)")
            }
            if chunk.isEmpty { break }
            var start = chunk.startIndex
            while start < chunk.endIndex {
                let newline = chunk[start...].firstIndex(of: UInt8(ascii: "\n"))
                let end = newline ?? chunk.endIndex
                if !overlong {
                    if line.count + (end - start) > Self.maximumLineBytes {
                        overlong = true
                        line = []
                    } else {
                        line.append(contentsOf: chunk[start..<end])
                    }
                }
                guard let newline else { break }
                try take(line, overlong: overlong, ended: true, body)
                line.removeAll(keepingCapacity: line.count <= 64 << 10)
                overlong = false
                start = chunk.index(after: newline)
            }
        }
        if overlong || !line.isEmpty { try take(line, overlong: overlong, ended: false, body) }
        if overlongLines > 0 {
            warnings.append(
                "\(overlongLines) line(s) longer than \(Self.maximumLineBytes) bytes skipped (first: line "
                    + "\(firstOverlongLine)): no journal record is that long")
        }
    }

    /// Reads one line (`ended`: it had its newline) into a record for `body`, or skips or refuses it.
    private mutating func take(
        _ line: [UInt8], overlong: Bool, ended: Bool, _ body: (JournalRecord, Int) throws(Failure) -> Void
    ) throws(Failure) {
        lines += 1
        let number = lines
        if overlong {
            guard mode == .lenient else {
                throw Failure(
                    path: path, line: number,
                    message: "longer than \(Self.maximumLineBytes) bytes: not a journal record (none is that long)")
            }
            if overlongLines == 0 { firstOverlongLine = number }
            overlongLines += 1
            return
        }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        let cutShort =
            "the last line (\(number)) is cut short, as when the run was killed while writing it: skipped"
        let json: JSONValue
        do { json = try JSONParser.parse(line) } catch {
            if mode == .lenient, !ended {
                warnings.append(cutShort)
                return
            }
            throw Failure(path: path, line: number, message: "not JSON: \(error.message) at byte \(error.offset)")
        }
        guard let record = JournalRecord(json: json) else {
            if mode == .lenient, !ended {
                warnings.append(cutShort)
                return
            }
            throw Failure(
                path: path, line: number, message: "not a journal record (as /v1/requests and --journal write them)")
        }
        try body(record, number)
    }
}
