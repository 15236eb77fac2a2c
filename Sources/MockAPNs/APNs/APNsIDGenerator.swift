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
        let digits = (uppercase ? "0123456789ABCDEF" : "0123456789abcdef" as StaticString).utf8Start
        // 32 digits, with a dash before digits 8, 12, 16 and 20: 8-4-4-4-12.
        var position = 0
        for index in 0..<32 {
            if index == 8 || index == 12 || index == 16 || index == 20 {
                buffer[position] = UInt8(ascii: "-")
                position += 1
            }
            let word = index < 16 ? high : low
            buffer[position] = digits[Int(truncatingIfNeeded: (word >> UInt64(60 - 4 * (index & 15))) & 0xF)]
            position += 1
        }
    }
}
