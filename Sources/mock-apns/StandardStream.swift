import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output or error, written the way a command-line tool is expected to behave.
///
/// Not Foundation's `FileHandle.write(_:)`: it ends the program with a fatal error and a backtrace when a write
/// fails, and writes do fail once a reader goes away (`mock-apns requests | head -1`): SwiftNIO ignores SIGPIPE for
/// its sockets, so the write returns EPIPE instead of the signal ending the program. Here a closed standard output
/// ends the program as SIGPIPE would have (no message; status 141 under `set -o pipefail`); a closed standard error
/// loses the text; EINTR and short writes are retried.
enum StandardStream {
    case output
    case error

    /// Writes `text` whole. `endIfClosed: false` is for a final report that must not cut short what follows it
    /// (`run` writes its JUnit, report and record files and exits with the verdict even when nobody reads).
    func write(_ text: String, endIfClosed: Bool = true) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                bytes = bytes.dropFirst(written)
            } else if written < 0, errno == EINTR {
                continue
            } else {
                if written < 0, self == .output, errno == EPIPE, endIfClosed { Self.endAsSIGPIPEWould() }
                return
            }
        }
    }

    private var descriptor: Int32 { self == .output ? STDOUT_FILENO : STDERR_FILENO }

    private static func endAsSIGPIPEWould() -> Never {
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        exit(141)
    }
}

/// `write(2)`, named apart from `StandardStream.write`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
