/// Makes the ids APNs answers with: `apns-id` (upper-case UUID) and `apns-unique-id` (lower-case UUID).
///
/// Foundation's `UUID()` opens `/dev/urandom` on Linux for every id, which cost a quarter of the server's time
/// per request; this generator is seeded once per connection from the system's random source and then runs a
/// xoshiro256** sequence. The ids are random version-4 UUIDs; they are not secrets.
struct APNsIDGenerator {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    init() {
        var system = SystemRandomNumberGenerator()
        state = (system.next(), system.next(), system.next(), system.next())
        if state == (0, 0, 0, 0) { state.0 = 1 }
    }

    private mutating func next() -> UInt64 {
        let result = rotate(state.1 &* 5, 7) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = rotate(state.3, 45)
        return result
    }

    private func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }

    /// A random version-4 UUID.
    mutating func uuid() -> GeneratedUUID {
        let high = (next() & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000  // version 4
        let low = (next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // RFC 4122 variant
        return GeneratedUUID(high: high, low: low)
    }
}

/// A generated UUID as its 16 bytes: kept so in answers and journal records, and written out as text only where
/// text is needed (the response header, a record read back). Two 36-character strings per push were two
/// allocations, and their release when the journal dropped the record.
struct GeneratedUUID: Sendable, Hashable {
    var high: UInt64
    var low: UInt64

    /// The canonical 8-4-4-4-12 form, 36 bytes, through `body`.
    func withText<Result>(uppercase: Bool, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { buffer in
            write(uppercase: uppercase, into: buffer)
            return body(UnsafeBufferPointer(buffer))
        }
    }

    /// The canonical 8-4-4-4-12 form.
    func text(uppercase: Bool) -> String {
        String(unsafeUninitializedCapacity: 36) { buffer in
            write(uppercase: uppercase, into: buffer)
            return 36
        }
    }

    private func write(uppercase: Bool, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        let letters = uppercase ? UInt8(ascii: "A") - 10 : UInt8(ascii: "a") - 10
        func digit(_ nibble: UInt64) -> UInt8 {
            let value = UInt8(truncatingIfNeeded: nibble)
            return value < 10 ? UInt8(ascii: "0") + value : letters + value
        }
        // 16 bytes, 2 digits each, with a dash before bytes 4, 6, 8 and 10: 8-4-4-4-12.
        var index = 0
        for byte in 0..<16 {
            if byte == 4 || byte == 6 || byte == 8 || byte == 10 {
                buffer[index] = UInt8(ascii: "-")
                index += 1
            }
            let word = byte < 8 ? high : low
            let value = word >> UInt64(56 - 8 * (byte & 7))
            buffer[index] = digit((value >> 4) & 0xF)
            buffer[index + 1] = digit(value & 0xF)
            index += 2
        }
    }
}
