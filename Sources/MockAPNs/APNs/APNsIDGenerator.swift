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

    /// The length of the canonical 8-4-4-4-12 form.
    static let textLength = 36

    /// The canonical 8-4-4-4-12 form.
    func text(uppercase: Bool) -> String {
        String(unsafeUninitializedCapacity: Self.textLength) { buffer in
            write(uppercase: uppercase, into: buffer.baseAddress!)
            return Self.textLength
        }
    }

    /// Writes the canonical form's 36 bytes at `buffer`.
    func write(uppercase: Bool, into buffer: UnsafeMutablePointer<UInt8>) {
        // 8-4-4-4-12: four groups of 8 digits, the middle two split by a dash. Unaligned 8- and 4-byte stores.
        let letters: UInt64 = uppercase ? 7 : 39  // from '0' + 10 to 'A' or to 'a'
        let a = Self.hexDigits(UInt32(truncatingIfNeeded: high >> 32), letters)
        let b = Self.hexDigits(UInt32(truncatingIfNeeded: high), letters)
        let c = Self.hexDigits(UInt32(truncatingIfNeeded: low >> 32), letters)
        let d = Self.hexDigits(UInt32(truncatingIfNeeded: low), letters)
        let out = UnsafeMutableRawPointer(buffer)
        out.storeBytes(of: a, toByteOffset: 0, as: UInt64.self)
        out.storeBytes(of: UInt8(ascii: "-"), toByteOffset: 8, as: UInt8.self)
        out.storeBytes(of: UInt32(truncatingIfNeeded: b), toByteOffset: 9, as: UInt32.self)
        out.storeBytes(of: UInt8(ascii: "-"), toByteOffset: 13, as: UInt8.self)
        out.storeBytes(of: UInt32(truncatingIfNeeded: b >> 32), toByteOffset: 14, as: UInt32.self)
        out.storeBytes(of: UInt8(ascii: "-"), toByteOffset: 18, as: UInt8.self)
        out.storeBytes(of: UInt32(truncatingIfNeeded: c), toByteOffset: 19, as: UInt32.self)
        out.storeBytes(of: UInt8(ascii: "-"), toByteOffset: 23, as: UInt8.self)
        out.storeBytes(of: UInt32(truncatingIfNeeded: c >> 32), toByteOffset: 24, as: UInt32.self)
        out.storeBytes(of: d, toByteOffset: 28, as: UInt64.self)
    }

    /// The 8 hex digits of `value`, most significant first, as the bytes of a UInt64 in memory order (the 8 nibbles
    /// are spread one per byte, then each byte gets '0', plus `letters` where it is 10 or more).
    private static func hexDigits(_ value: UInt32, _ letters: UInt64) -> UInt64 {
        var x = UInt64(value)
        x = ((x & 0xFFFF_0000) << 16) | (x & 0xFFFF)
        x = ((x & 0x0000_FF00_0000_FF00) << 8) | (x & 0x0000_00FF_0000_00FF)
        x = ((x & 0x00F0_00F0_00F0_00F0) << 4) | (x & 0x000F_000F_000F_000F)
        let isLetter = ((x &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        x = x &+ 0x3030_3030_3030_3030 &+ isLetter &* letters
        return UInt64(bigEndian: x)  // the most significant nibble's byte first in memory
    }
}
