/// The URL-safe base64 alphabet of RFC 4648 §5, as JWTs use it (RFC 7515 §2): `-` and `_` instead of `+` and
/// `/`, no `=` padding.
///
/// Written by hand rather than through `Data(base64Encoded:)` because that one wants the standard alphabet and
/// padding, and converting every token first would cost an extra copy per distinct token.
enum Base64URL {
    /// The 64 characters of the alphabet, indexed by 6-bit value.
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8
    )

    /// The 6-bit value of each ASCII byte, or `invalid` for bytes outside the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (index, character) in alphabet.enumerated() {
            table[Int(character)] = UInt8(index)
        }
        return table
    }()

    private static let invalid: UInt8 = 0xFF
    private static let padding = UInt8(ascii: "=")

    /// Encodes bytes as unpadded base64url.
    static func encode(_ bytes: some Collection<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(alphabet[Int(group >> 18 & 0x3F)])
            output.append(alphabet[Int(group >> 12 & 0x3F)])
            if second != nil {
                output.append(alphabet[Int(group >> 6 & 0x3F)])
            }
            if third != nil {
                output.append(alphabet[Int(group & 0x3F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes base64url, with or without `=` padding; `nil` when a character is outside the alphabet or the
    /// length cannot come from an encoding.
    ///
    /// Padding, when present, must be the correct amount and only at the end. Unused low bits of the last
    /// character are ignored, as most JWT libraries do.
    static func decode(_ string: some StringProtocol) -> [UInt8]? {
        var input = Array(string.utf8)
        var paddingCount = 0
        while input.last == padding {
            input.removeLast()
            paddingCount += 1
        }
        if paddingCount > 0 {
            guard paddingCount <= 2, (input.count + paddingCount) % 4 == 0 else {
                return nil
            }
        }
        // One leftover character carries only 6 bits: no byte count encodes to that.
        guard input.count % 4 != 1 else {
            return nil
        }

        var output: [UInt8] = []
        output.reserveCapacity(input.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bitCount = 0
        for character in input {
            let value = values[Int(character)]
            guard value != invalid else {
                return nil
            }
            accumulator = accumulator << 6 | UInt32(value)
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bitCount)))
            }
        }
        return output
    }
}
