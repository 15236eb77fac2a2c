/// A small, strict JSON parser (RFC 8259) over bytes, with positions in its errors.
///
/// Written for payloads: it never traps on input, limits nesting, and is cheap enough to run per request.
public struct JSONParser {
    /// Why a text is not JSON, and where.
    public struct Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        public var message: String
        /// The byte offset where parsing stopped.
        public var offset: Int
        public var description: String { "\(message) at byte \(offset)" }
    }

    /// The text, borrowed for the duration of one `parse` or `validate` call (it never escapes that call).
    private let bytes: UnsafeBufferPointer<UInt8>
    /// Whether values are built; when not, the text is only checked (no allocation for ASCII text).
    private let build: Bool
    private var index = 0
    private var depth = 0
    private static let maxDepth = 256

    /// Parses `bytes` as one JSON value surrounded by optional white space.
    public static func parse(_ bytes: [UInt8]) throws(Error) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(Error) in
            var parser = JSONParser(bytes: buffer, build: true)
            return try parser.parseDocument()
        }
    }

    /// Checks that `bytes` are one JSON value, as `parse` would, without building it. Returns whether the value
    /// is an object.
    @discardableResult
    public static func validate(_ bytes: [UInt8]) throws(Error) -> Bool {
        // Over a borrowed buffer: it runs for every push, and array access with its checks cost more than the scan.
        try bytes.withUnsafeBufferPointer { buffer throws(Error) in
            var parser = JSONParser(bytes: buffer, build: false)
            parser.skipWhitespace()
            let isObject = parser.index < buffer.count && buffer[parser.index] == UInt8(ascii: "{")
            _ = try parser.parseDocument()
            return isObject
        }
    }

    private mutating func parseDocument() throws(Error) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected text after the JSON value") }
        return value
    }

    /// Parses a string as JSON.
    public static func parse(_ text: String) throws(Error) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, build: Bool) {
        self.bytes = bytes
        self.build = build
    }

    private func error(_ message: String) -> Error {
        Error(message: message, offset: index)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(Error) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of JSON") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""):
            let string = try parseString()
            return build ? .string(string) : .null
        case UInt8(ascii: "t"): try expectLiteral("true"); return build ? .bool(true) : .null
        case UInt8(ascii: "f"): try expectLiteral("false"); return build ? .bool(false) : .null
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
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
        if depth > Self.maxDepth { throw error("nesting deeper than \(Self.maxDepth)") }
    }

    private mutating func parseObject() throws(Error) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            if build { members.append((key, value)) }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of JSON") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return build ? .object(members) : .null
            } else {
                throw error("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray() throws(Error) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            let element = try parseValue()
            if build { elements.append(element) }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of JSON") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return build ? .array(elements) : .null
            } else {
                throw error("expected ',' or ']'")
            }
        }
    }

    private mutating func parseNumber() throws(Error) -> JSONValue {
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
        return build ? .number(String(decoding: bytes[start..<index], as: UTF8.self)) : .null
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func parseString() throws(Error) -> String {
        index += 1
        let start = index
        var ascii = true
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                if !build && ascii {
                    index += 1
                    return ""
                }
                guard let s = String(validating: bytes[start..<index], as: UTF8.self) else {
                    throw error("string is not valid UTF-8")
                }
                index += 1
                return s
            }
            if byte >= 0x80 { ascii = false }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in string") }
            index += 1
        }
        var scalars = String.UnicodeScalarView()
        guard let prefix = String(validating: bytes[start..<index], as: UTF8.self) else {
            throw error("string is not valid UTF-8")
        }
        scalars.append(contentsOf: prefix.unicodeScalars)
        var pending: [UInt8] = []
        func flush(_ pending: inout [UInt8], into scalars: inout String.UnicodeScalarView) -> Bool {
            guard !pending.isEmpty else { return true }
            guard let s = String(validating: pending, as: UTF8.self) else { return false }
            scalars.append(contentsOf: s.unicodeScalars)
            pending.removeAll(keepingCapacity: true)
            return true
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                guard flush(&pending, into: &scalars) else { throw error("string is not valid UTF-8") }
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                guard flush(&pending, into: &scalars) else { throw error("string is not valid UTF-8") }
                index += 1
                guard index < bytes.count else { throw error("unexpected end of JSON") }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
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
                    scalars.append(scalar)
                default:
                    throw error("invalid escape")
                }
            default:
                if byte < 0x20 { throw error("control character in string") }
                pending.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
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
