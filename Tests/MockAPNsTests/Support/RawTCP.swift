import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP client for feeding a server bytes no well-behaved client would send.
enum RawTCP {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A blocking TCP socket connected to 127.0.0.1:`port`; the caller closes it.
    static func connected(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw Failure(description: "connect failed")
        }
        return fd
    }

    /// Connects to 127.0.0.1:`port`, writes `bytes`, optionally closes at once (a client that vanishes),
    /// else reads what comes back until the server closes or `timeout` passes. Blocks: for code already off the
    /// pool; a test awaits `exchange`.
    @discardableResult
    static func exchangeBlocking(
        port: Int, bytes: [UInt8], abort: Bool = false, timeout: TimeInterval = 2
    ) throws -> [UInt8] {
        let fd = try connected(port: port)
        defer { close(fd) }
        var seconds = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        if !bytes.isEmpty {
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        if abort {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)  // close with RST, as a crashed client would
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            return []
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return received
    }

    /// `exchangeBlocking` on a thread of its own, awaited (see `offPool`: no test blocks).
    @discardableResult
    static func exchange(port: Int, bytes: [UInt8], abort: Bool = false, timeout: TimeInterval = 2) async throws
        -> [UInt8]
    {
        try await offPool { try exchangeBlocking(port: port, bytes: bytes, abort: abort, timeout: timeout) }
    }

    /// The HTTP/2 client connection preface.
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// An HTTP/2 frame header and payload.
    static func frame(type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, payload: [UInt8] = []) -> [UInt8] {
        let length = UInt32(payload.count)
        return [
            UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags,
            UInt8(stream >> 24 & 0x7F), UInt8(stream >> 16 & 0xFF), UInt8(stream >> 8 & 0xFF), UInt8(stream & 0xFF),
        ] + payload
    }
}
