import Foundation
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `serve --exit-on-stdin-close`: a service that reads and discards standard input and returns when it reaches end
/// of file (or fails), so that the service group shuts the mock down as SIGTERM would. A test helper keeps a pipe to
/// the mock's standard input open; when the helper's process ends, however it ends, the kernel closes the pipe.
struct StandardInputWatch: Service {
    /// Returns at end of file on standard input, or when the group shuts down for another reason (a signal).
    func run() async throws {
        let endOfFile = AsyncStream<Void> { continuation in
            // A blocking read on a thread of its own: standard input may be a pipe, a terminal or a file.
            Thread.detachNewThread {
                Self.readUntilEndOfFile()
                continuation.yield()
                continuation.finish()
            }
        }
        // A signal's graceful shutdown ends the wait too (the thread stays blocked until the process exits).
        await cancelWhenGracefulShutdown {
            for await _ in endOfFile { return }
        }
    }

    /// Reads standard input until `read(2)` answers 0 (end of file) or fails with anything but EINTR.
    private static func readUntilEndOfFile() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count > 0 || (count < 0 && errno == EINTR) { continue }
            return
        }
    }
}
