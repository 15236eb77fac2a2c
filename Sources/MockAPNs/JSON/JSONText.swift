/// Writing JSON strings by hand where building a `JSONValue` would be waste (hot paths, fixed shapes).
public enum JSONText {
    /// `string` escaped for use between JSON quotes.
    public static func escape(_ string: String) -> String {
        var out = ""
        appendEscaped(string, to: &out)
        return out
    }

    /// Appends `"string"`, escaped, to `out`.
    public static func appendQuoted(_ string: String, to out: inout String) {
        out += "\""
        appendEscaped(string, to: &out)
        out += "\""
    }

    private static func appendEscaped(_ string: String, to out: inout String) {
        var needsEscaping = false
        for byte in string.utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            needsEscaping = true
            break
        }
        guard needsEscaping else {
            out += string
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
    }
}
