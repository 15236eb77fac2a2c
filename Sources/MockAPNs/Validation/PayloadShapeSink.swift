/// The payload scan (`PayloadScan`): the JSON grammar's checks, as `JSONValidator` makes them, plus a `PayloadShape`
/// per value, so that one pass over a new payload says both whether it is a JSON object and what the phone would
/// show. Names are classified as they are read (`Key`), against the few that matter; nothing is allocated.
enum PayloadShapeSink: JSONSink {
    /// An object member's name, as far as the phone's display goes; also a string value's emptiness.
    enum Key: UInt8 {
        /// The empty string.
        case empty
        /// Any other name.
        case other
        case aps, alert, sound, badge
        /// `title`, `subtitle`, `body`, `title-loc-key`, `subtitle-loc-key`, `loc-key`.
        case alertText

        /// The key spelled by `count` bytes whose first 8 are `low` and next 8 `high` (little-endian, zero past
        /// `count`). The names that matter are ASCII and at most 16 bytes, so two word compares tell each.
        init(count: Int, low: UInt64, high: UInt64) {
            switch (count, low, high) {
            case (0, _, _): self = .empty
            case (3, 0x73_7061, 0): self = .aps
            case (4, 0x7964_6f62, 0): self = .alertText  // body
            case (5, 0x74_7265_6c61, 0): self = .alert
            case (5, 0x64_6e75_6f73, 0): self = .sound
            case (5, 0x65_6764_6162, 0): self = .badge
            case (5, 0x65_6c74_6974, 0): self = .alertText  // title
            case (7, 0x79_656b_2d63_6f6c, 0): self = .alertText  // loc-key
            case (8, 0x656c_7469_7462_7573, 0): self = .alertText  // subtitle
            case (13, 0x6f6c_2d65_6c74_6974, 0x79_656b_2d63): self = .alertText  // title-loc-key
            case (16, 0x656c_7469_7462_7573, 0x7965_6b2d_636f_6c2d): self = .alertText  // subtitle-loc-key
            default: self = .other
            }
        }

        /// The key a string's bytes (between its quotes, without escapes) spell.
        init(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
            let count = bytes.count
            guard count <= 16 else {
                self = .other
                return
            }
            var low: UInt64 = 0
            var high: UInt64 = 0
            let whole = UnsafeRawBufferPointer(bytes.base)
            if bytes.startIndex + 16 <= whole.count {
                // Two loads, then the bytes past the string masked off.
                low = UInt64(littleEndian: whole.loadUnaligned(fromByteOffset: bytes.startIndex, as: UInt64.self))
                high = UInt64(littleEndian: whole.loadUnaligned(fromByteOffset: bytes.startIndex + 8, as: UInt64.self))
                low &= count >= 8 ? .max : (1 &<< UInt64(8 * count)) &- 1
                high &= count >= 16 ? .max : count <= 8 ? 0 : (1 &<< UInt64(8 * (count - 8))) &- 1
            } else {
                // Near the end of the payload: byte by byte.
                for (offset, byte) in bytes.enumerated() {
                    if offset < 8 {
                        low |= UInt64(byte) &<< UInt64(8 * offset)
                    } else {
                        high |= UInt64(byte) &<< UInt64(8 * (offset - 8))
                    }
                }
            }
            self.init(count: count, low: low, high: high)
        }
    }

    /// A string with escapes, put together up to the longest name that matters (16 bytes); longer is `other`.
    struct KeyBuffer {
        var bytes = SIMD16<UInt8>()
        var count = 0

        mutating func append(_ byte: UInt8) {
            if count < 16 { bytes[count] = byte }
            count = min(count + 1, 17)
        }

        var key: Key {
            if count > 16 { return .other }
            // The lanes past `count` were never written: zero, as `Key(count:low:high:)` wants.
            let words = unsafeBitCast(bytes, to: (UInt64, UInt64).self)
            return Key(count: count, low: UInt64(littleEndian: words.0), high: UInt64(littleEndian: words.1))
        }
    }

    static var null: PayloadShape { PayloadShape(.null) }
    static func bool(_ value: Bool) -> PayloadShape { PayloadShape(.bool) }
    static func number(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> PayloadShape { PayloadShape(.number) }
    static func string(_ text: Key) -> PayloadShape { PayloadShape(text == .empty ? .emptyString : .string) }

    static func text(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, ascii: Bool) -> Key? {
        guard ascii || JSONValidator.isUTF8(bytes) else { return nil }
        return Key(bytes)
    }
    static func textBuffer() -> KeyBuffer { KeyBuffer() }
    static func append(raw bytes: Slice<UnsafeBufferPointer<UInt8>>, to buffer: inout KeyBuffer) -> Bool {
        guard JSONValidator.isUTF8(bytes) else { return false }
        for byte in bytes.prefix(17) { buffer.append(byte) }
        return true
    }
    static func append(_ scalar: Unicode.Scalar, to buffer: inout KeyBuffer) {
        for byte in scalar.utf8 { buffer.append(byte) }
    }
    static func text(_ buffer: KeyBuffer) -> Key { buffer.key }

    static func members() -> PayloadShape { PayloadShape(.object) }
    static func append(member name: Key, _ value: PayloadShape, to members: inout PayloadShape) {
        members.add(name, value)
    }
    static func object(_ members: PayloadShape) -> PayloadShape { members }

    static func elements() {}
    static func append(element value: PayloadShape, to elements: inout Void) {}
    static func array(_ elements: Void) -> PayloadShape { PayloadShape(.array) }
}
