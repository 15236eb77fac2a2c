import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a child's pipe without Foundation's traps: `readDataToEndOfFile()` and `availableData` end the whole test
/// process with a fatal error when `read` fails, EINTR included (a CI run lost every test that way: a reader thread
/// of `Subprocess` got EINTR during the documentation snippets). These read with `read(2)`, retry EINTR and treat any
/// other error as the end of the output.
extension FileHandle {
    /// Everything up to end of file. Blocks: for code already off the pool; a test awaits
    /// `readToEndOfFile()`.
    func readToEndOfFileBlocking() -> Data {
        var data = Data()
        while true {
            let chunk = nextChunk()
            if chunk.isEmpty { return data }
            data.append(chunk)
        }
    }

    /// `text` and what arrives after it, up to the chunk that contains `marker`; less if the output ends first or
    /// (checked between chunks) `timeout` passes. Blocks: for code already off the pool.
    func readBlocking(until marker: String, after text: String = "", timeout: Duration) -> String {
        readBlocking(after: text, timeout: timeout) { $0.contains(marker) }
    }

    /// `readToEndOfFile()` on a thread of its own, awaited (see `offPool`: no test blocks).
    func readToEndOfFile() async -> Data {
        await offPool { self.readToEndOfFileBlocking() }
    }

    /// `readBlocking(until:after:timeout:)` on a thread of its own, awaited: a child talking to an in-process
    /// server got no answer in CI while two such reads held the pool.
    func read(until marker: String, after text: String = "", timeout: Duration) async -> String {
        await offPool { self.readBlocking(until: marker, after: text, timeout: timeout) }
    }

    /// `readBlocking(after:timeout:until:)` on a thread of its own, awaited.
    func read(after text: String = "", timeout: Duration, until done: @escaping @Sendable (String) -> Bool) async
        -> String
    {
        await offPool { self.readBlocking(after: text, timeout: timeout, until: done) }
    }

    /// `text` and what arrives after it, until `done` holds for all of it, the output ends or (checked between
    /// chunks) `timeout` passes. Blocks: for code already off the pool.
    func readBlocking(after text: String = "", timeout: Duration, until done: (String) -> Bool) -> String {
        var text = text
        let deadline = ContinuousClock.now + timeout
        while !done(text), ContinuousClock.now < deadline {
            let chunk = nextChunk()
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return text
    }

    /// What one `read` returns (at most 64 KiB, waiting until something is there); empty at end of file.
    func nextChunk() -> Data {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(fileDescriptor, $0.baseAddress, $0.count) }
            if count >= 0 { return Data(buffer[0..<count]) }
            if errno != EINTR { return Data() }
        }
    }
}

/// `read(2)`, named apart from `FileHandle.read(upToCount:)`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
