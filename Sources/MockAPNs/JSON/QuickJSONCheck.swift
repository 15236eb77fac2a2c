/// A one-pass check that a payload is plainly a JSON object: ASCII, no `\u` escapes, nesting within the parser's
/// limit. It answers `true` only when `JSONParser.validate` would accept the text as an object; anything else
/// (non-ASCII text, `\u` escapes, deep nesting, an error) is left to `JSONParser`, which also words the errors.
///
/// It runs for every push, where the general parser's generality (values it could build, typed errors) cost more
/// than the scan itself.
struct QuickJSONCheck {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    private static let maxDepth = 256

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Whether `body` is, certainly, one JSON object surrounded by optional white space.
    static func isPlainObject(_ body: [UInt8]) -> Bool {
        body.withUnsafeBufferPointer { buffer in
            var check = QuickJSONCheck(buffer)
            check.skipWhitespace()
            guard check.index < buffer.count, buffer[check.index] == UInt8(ascii: "{"), check.value() else {
                return false
            }
            check.skipWhitespace()
            return check.index == buffer.count
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func value() -> Bool {
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return false
        }
    }

    private mutating func object() -> Bool {
        container(closing: UInt8(ascii: "}")) { check in
            guard check.index < check.bytes.count, check.bytes[check.index] == UInt8(ascii: "\""), check.string() else {
                return false
            }
            check.skipWhitespace()
            guard check.index < check.bytes.count, check.bytes[check.index] == UInt8(ascii: ":") else { return false }
            check.index += 1
            check.skipWhitespace()
            return check.value()
        }
    }

    private mutating func array() -> Bool {
        container(closing: UInt8(ascii: "]")) { check in check.value() }
    }

    /// An object or array: the opening byte, then `element`s separated by commas up to `closing`.
    private mutating func container(closing: UInt8, element: (inout QuickJSONCheck) -> Bool) -> Bool {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { return false }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == closing {
            index += 1
            return true
        }
        while true {
            skipWhitespace()
            guard element(&self) else { return false }
            skipWhitespace()
            guard index < bytes.count else { return false }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == closing {
                index += 1
                return true
            } else {
                return false
            }
        }
    }

    /// A string of printable ASCII and the one-character escapes; `\u` and non-ASCII bytes are left to the parser.
    private mutating func string() -> Bool {
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return true
            }
            guard byte >= 0x20, byte < 0x80 else { return false }
            if byte == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { return false }
                switch bytes[index] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                default:
                    return false
                }
            }
            index += 1
        }
        return false
    }

    private mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for i in 0..<count where bytes[index + i] != text.utf8Start[i] { return false }
        index += count
        return true
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func number() -> Bool {
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard digit() else { return false }
        if bytes[index - 1] != UInt8(ascii: "0") { while digit() {} }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digit() else { return false }
            while digit() {}
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digit() else { return false }
            while digit() {}
        }
        return true
    }

    /// Consumes one ASCII digit, if there is one.
    private mutating func digit() -> Bool {
        guard index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else {
            return false
        }
        index += 1
        return true
    }
}
