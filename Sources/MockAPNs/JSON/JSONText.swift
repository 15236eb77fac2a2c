/// Writing JSON strings by hand where building a `JSONValue` would be waste (hot paths, fixed shapes).
///
/// Besides what JSON requires (`"`, `\`, U+0000-U+001F), the characters YAML does not take raw in a quoted
/// string are written as `\u` escapes: DEL and the C1 controls (U+007F-U+009F), the byte-order mark U+FEFF,
/// U+FFFE, U+FFFF, and the line separators U+2028 and U+2029 (YAML folds U+0085, U+2028 and U+2029 like a
/// newline). The output is then also YAML that reads back as the same text, which scenario snapshots rely on
/// (`PUT /v1/scenario` takes back what `GET /v1/scenario` answered); found by the `scenario` fuzz target.
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
        // 0xC2 leads U+0080-U+00BF, 0xE2 U+2000-U+2FFF, 0xEF U+F000-U+FFFF: the slow path decides per scalar.
        for byte in string.utf8
        where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F || byte == 0xC2
            || byte == 0xE2 || byte == 0xEF
        {
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
            case _ where scalar.value < 0x20 || needsUnicodeEscape(scalar):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
    }

    /// Whether YAML would not read `scalar` back from a quoted string (beyond the C0 controls JSON escapes anyway).
    private static func needsUnicodeEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF: true
        default: false
        }
    }
}
