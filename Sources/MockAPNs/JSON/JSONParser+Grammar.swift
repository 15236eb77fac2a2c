extension JSONParser {
    /// The JSON grammar (RFC 8259), once, over a borrowed buffer: what a text must be, the errors and their offsets.
    ///
    /// Generic over what it makes of the values (`Sink`); the compiler specialises it for each sink (the type is
    /// internal and used in this module only), so `JSONValidator`'s no-op calls vanish and nothing is allocated for
    /// a valid text.
    struct Grammar<Sink: JSONSink> {
        /// The text, borrowed for the duration of one `parse` or `validate` call (it never escapes that call).
        private let bytes: UnsafeBufferPointer<UInt8>
        /// Where the grammar has read to.
        private(set) var index = 0
        private var depth = 0

        /// A grammar at the start of `bytes`.
        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// One value surrounded by optional white space, and nothing else.
        mutating func document() throws(Error) -> Sink.Value {
            skipWhitespace()
            let value = try parseValue()
            skipWhitespace()
            guard index == bytes.count else { throw error("unexpected text after the JSON value") }
            return value
        }

        private func error(_ message: String) -> Error {
            Error(message: message, offset: index)
        }

        /// Moves past spaces, tabs, carriage returns and line feeds.
        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        private mutating func parseValue() throws(Error) -> Sink.Value {
            guard index < bytes.count else { throw error("unexpected end of JSON") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try parseObject()
            case UInt8(ascii: "["): return try parseArray()
            case UInt8(ascii: "\""): return Sink.string(try parseString())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                return Sink.bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                return Sink.bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                return Sink.null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
            default: throw error("unexpected character")
            }
        }

        private mutating func expectLiteral(_ literal: StaticString) throws(Error) {
            let count = literal.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw error("unexpected end of JSON") }
            let start = literal.utf8Start
            for i in 0..<count where bytes[index + i] != start[i] {
                throw error("invalid literal")
            }
            index += count
        }

        private mutating func enter() throws(Error) {
            depth += 1
            if depth > JSONParser.maxDepth { throw error("nesting deeper than \(JSONParser.maxDepth)") }
        }

        private mutating func parseObject() throws(Error) -> Sink.Value {
            try enter()
            defer { depth -= 1 }
            index += 1
            var members = Sink.members()
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return Sink.object(members)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw error("expected a member name")
                }
                let name = try parseString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
                index += 1
                skipWhitespace()
                Sink.append(member: name, try parseValue(), to: &members)
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of JSON") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return Sink.object(members)
                } else {
                    throw error("expected ',' or '}'")
                }
            }
        }

        private mutating func parseArray() throws(Error) -> Sink.Value {
            try enter()
            defer { depth -= 1 }
            index += 1
            var elements = Sink.elements()
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return Sink.array(elements)
            }
            while true {
                skipWhitespace()
                Sink.append(element: try parseValue(), to: &elements)
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of JSON") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return Sink.array(elements)
                } else {
                    throw error("expected ',' or ']'")
                }
            }
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        private mutating func parseNumber() throws(Error) -> Sink.Value {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            return Sink.number(bytes[start..<index])
        }

        private func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }

        /// A string, from its opening quote. The bytes between escapes must be UTF-8; each run of them is checked
        /// when it ends (at a quote or a backslash), and an error names that position. Inlined into its two callers
        /// (member names, values): payloads are mostly short strings (bench/README.md, "The JSON check alone").
        @inline(__always)
        private mutating func parseString() throws(Error) -> Sink.Text {
            index += 1
            let start = index
            var bitsSeen: UInt8 = 0  // the bits of every byte, ORed: the top one says whether all are ASCII
            // Fast path: no escapes.
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    guard let text = Sink.text(bytes[start..<index], ascii: bitsSeen < 0x80) else {
                        throw error("string is not valid UTF-8")
                    }
                    index += 1
                    return text
                }
                bitsSeen |= byte
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { throw error("control character in string") }
                index += 1
            }
            var buffer = Sink.textBuffer()
            guard Sink.append(raw: bytes[start..<index], to: &buffer) else { throw error("string is not valid UTF-8") }
            var runStart = index
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    guard Sink.append(raw: bytes[runStart..<index], to: &buffer) else {
                        throw error("string is not valid UTF-8")
                    }
                    index += 1
                    return Sink.text(buffer)
                case UInt8(ascii: "\\"):
                    guard Sink.append(raw: bytes[runStart..<index], to: &buffer) else {
                        throw error("string is not valid UTF-8")
                    }
                    index += 1
                    Sink.append(try parseEscape(), to: &buffer)
                    runStart = index
                default:
                    if byte < 0x20 { throw error("control character in string") }
                    index += 1
                }
            }
            throw error("unterminated string")
        }

        /// The character an escape stands for, from the byte after its backslash.
        private mutating func parseEscape() throws(Error) -> Unicode.Scalar {
            guard index < bytes.count else { throw error("unexpected end of JSON") }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xD800...0xDBFF).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw error("unpaired surrogate") }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(code) {
                    throw error("unpaired surrogate")
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                return scalar
            default:
                throw error("invalid escape")
            }
        }

        private mutating func parseHex4() throws(Error) -> UInt32 {
            guard index + 4 <= bytes.count else { throw error("unexpected end of JSON") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw error("invalid \\u escape")
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }
    }
}
