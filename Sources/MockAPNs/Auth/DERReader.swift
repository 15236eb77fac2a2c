/// A bounds-checked reader of DER tag-length-value elements, just enough for Apple's certificate extensions.
///
/// Handles single-byte tags and definite lengths up to four bytes; anything else (high tag numbers, the
/// indefinite form BER allows, lengths past the end) is reported as malformed instead of read.
struct DERReader {
    /// One element: its tag byte and the bytes of its value.
    struct Element {
        /// The identifier byte, e.g. `0x30` for SEQUENCE or `0x0C` for UTF8String.
        var tag: UInt8
        /// The value's bytes, without tag and length.
        var value: ArraySlice<UInt8>
    }

    /// Why the bytes are not well-formed DER.
    struct Malformed: Error, Hashable {
        /// What was wrong, and where.
        var message: String
    }

    /// DER tag of a SEQUENCE (constructed).
    static let sequenceTag: UInt8 = 0x30
    /// DER tag of a UTF8String.
    static let utf8StringTag: UInt8 = 0x0C

    private var remaining: ArraySlice<UInt8>

    /// A reader over `bytes`, from their first byte.
    init(_ bytes: ArraySlice<UInt8>) {
        self.remaining = bytes
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { remaining.isEmpty }

    /// Reads the next element and moves past it.
    mutating func readElement() throws(Malformed) -> Element {
        var cursor = remaining.startIndex
        let end = remaining.endIndex
        guard cursor < end else {
            throw Malformed(message: "expected an element, found the end")
        }
        let tag = remaining[cursor]
        cursor += 1
        // Tag number 31 in the low bits announces a multi-byte tag, which nothing Apple writes here uses.
        guard tag & 0x1F != 0x1F else {
            throw Malformed(message: "multi-byte tag at offset \(cursor - 1)")
        }
        guard cursor < end else {
            throw Malformed(message: "tag without a length at offset \(cursor - 1)")
        }
        let first = remaining[cursor]
        cursor += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard count >= 1, count <= 4 else {
                throw Malformed(
                    message: "unsupported length form 0x\(String(first, radix: 16)) at offset \(cursor - 1)"
                )
            }
            guard end - cursor >= count else {
                throw Malformed(message: "length runs past the end at offset \(cursor - 1)")
            }
            for _ in 0..<count {
                length = length << 8 | Int(remaining[cursor])
                cursor += 1
            }
        }
        guard length <= end - cursor else {
            throw Malformed(message: "element of \(length) bytes runs past the end at offset \(cursor)")
        }
        let value = remaining[cursor..<(cursor + length)]
        remaining = remaining[(cursor + length)...]
        return Element(tag: tag, value: value)
    }
}
