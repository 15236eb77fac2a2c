import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RawTCP {
    /// Connects to 127.0.0.1:`port` and writes each of `writes` in turn, reading for `pause` seconds after each
    /// but the last, then reads until the server closes or `timeout` passes. Returns everything read. Blocks: for
    /// code already off the pool; a test awaits `converse`.
    static func converseBlocking(
        port: Int, writes: [[UInt8]], pause: TimeInterval = 0.3, timeout: TimeInterval = 2
    ) throws -> [UInt8] {
        let fd = try connected(port: port)
        defer { close(fd) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        /// Reads until the server closes or `seconds` pass without data; false once the server has closed.
        func read(for seconds: TimeInterval) -> Bool {
            var wait = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count == 0 { return false }
                if count < 0 { return true }
                received += buffer[0..<count]
            }
        }
        for (index, bytes) in writes.enumerated() {
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if index < writes.count - 1, !read(for: pause) { return received }
        }
        _ = read(for: timeout)
        return received
    }

    /// `converseBlocking` on a thread of its own, awaited (see `offPool`: no test blocks).
    static func converse(
        port: Int, writes: [[UInt8]], pause: TimeInterval = 0.3, timeout: TimeInterval = 2
    ) async throws -> [UInt8] {
        try await offPool { try converseBlocking(port: port, writes: writes, pause: pause, timeout: timeout) }
    }

    /// The first GOAWAY in a server's output: its last-stream-id, error code and debug data.
    static func goaway(in bytes: [UInt8]) -> (lastStreamID: UInt32, errorCode: UInt32, debug: String)? {
        var index = 0
        while index + 9 <= bytes.count {
            let length = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
            guard index + 9 + length <= bytes.count else { return nil }
            if bytes[index + 3] == 0x7, length >= 8 {
                let payload = Array(bytes[(index + 9)..<(index + 9 + length)])
                let last = payload[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF
                let code = payload[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                return (last, code, String(decoding: payload[8...], as: UTF8.self))
            }
            index += 9 + length
        }
        return nil
    }

    /// The RST_STREAM frames in a server's output, as (stream, error code).
    static func resets(in bytes: [UInt8]) -> [(stream: UInt32, errorCode: UInt32)] {
        var resets: [(stream: UInt32, errorCode: UInt32)] = []
        var index = 0
        while index + 9 <= bytes.count {
            let length = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
            guard index + 9 + length <= bytes.count else { break }
            if bytes[index + 3] == 0x3, length == 4 {
                let stream = bytes[(index + 5)..<(index + 9)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF
                let code = bytes[(index + 9)..<(index + 13)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                resets.append((stream, code))
            }
            index += 9 + length
        }
        return resets
    }
}
