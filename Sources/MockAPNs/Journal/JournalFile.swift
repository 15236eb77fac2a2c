import Foundation
import NIOConcurrencyHelpers

/// A JSON-lines file the journal appends to: one record per line, written as it happens.
final class JournalFile: Sendable {
    private let handle: NIOLockedValueBox<FileHandle>

    init(path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw JournalFileError(path: path, message: "cannot create it")
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw JournalFileError(path: path, message: "cannot open it for writing")
        }
        handle.seekToEndOfFile()
        self.handle = NIOLockedValueBox(handle)
    }

    func write(_ record: JournalRecord) {
        var line = record.json.jsonText
        line += "\n"
        let data = Data(line.utf8)
        handle.withLockedValue { try? $0.write(contentsOf: data) }
    }

    func flush() {
        handle.withLockedValue { try? $0.synchronize() }
    }
}

/// A journal file that cannot be written.
public struct JournalFileError: Error, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "journal file \(path): \(message)" }
}
