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

    /// A random UUID in canonical 8-4-4-4-12 form.
    mutating func uuid(uppercase: Bool) -> String {
        var high = next()
        var low = next()
        high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000  // version 4
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // RFC 4122 variant
        let digits: StaticString = uppercase ? "0123456789ABCDEF" : "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 36) { buffer in
            var index = 0
            func put(_ value: UInt64, nibbles: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) {
                for shift in stride(from: (nibbles - 1) * 4, through: 0, by: -4) {
                    buffer[index] = digits.utf8Start[Int((value >> UInt64(shift)) & 0xF)]
                    index += 1
                }
            }
            put(high >> 32, nibbles: 8, into: buffer)
            buffer[index] = UInt8(ascii: "-")
            index += 1
            put((high >> 16) & 0xFFFF, nibbles: 4, into: buffer)
            buffer[index] = UInt8(ascii: "-")
            index += 1
            put(high & 0xFFFF, nibbles: 4, into: buffer)
            buffer[index] = UInt8(ascii: "-")
            index += 1
            put(low >> 48, nibbles: 4, into: buffer)
            buffer[index] = UInt8(ascii: "-")
            index += 1
            put(low & 0xFFFF_FFFF_FFFF, nibbles: 12, into: buffer)
            return index
        }
    }
}
