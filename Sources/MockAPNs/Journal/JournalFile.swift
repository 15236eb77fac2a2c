import Foundation
import NIOConcurrencyHelpers

/// A JSON-lines file the journal appends to: one record per line, written as it happens.
///
/// Encoding and writing run on a serial queue of their own, in the order records were appended, so that a
/// journal file costs the event loops no more than handing a record over.
final class JournalFile: Sendable {
    private let handle: NIOLockedValueBox<FileHandle>
    private let queue = DispatchQueue(label: "mock-apns.journal-file")

    init(path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw JournalFileError(path: path, message: "cannot create it")
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw JournalFileError(path: path, message: "cannot open it for writing")
        }
        // Appends to a file that exists; a pipe or terminal (`--journal /dev/stdout`) cannot seek and need not.
        _ = try? handle.seekToEnd()
        self.handle = NIOLockedValueBox(handle)
    }

    /// Queues `record` to be written as one line.
    func write(_ record: JournalRecord) {
        queue.async { [handle] in
            var line = record.jsonText
            line += "\n"
            let data = Data(line.utf8)
            handle.withLockedValue { try? $0.write(contentsOf: data) }
        }
    }

    /// Waits until every queued record is written, then asks the system to put the file on disk.
    func flush() {
        queue.sync {}
        handle.withLockedValue { try? $0.synchronize() }
    }
}

/// A journal file that cannot be written.
public struct JournalFileError: Error, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "journal file \(path): \(message)" }
}
