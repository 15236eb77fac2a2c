/// Text written as one word of a POSIX shell command, for the commands mock-apns prints to be pasted.
public enum ShellWord {
    /// The characters a word may have bare.
    private static let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:/=+@%,".utf8)

    /// `text` as one word: bare when every character is safe, else in single quotes, where nothing is special (a
    /// single quote itself is written `'\''`). Quotes, `$`, backticks, backslashes, newlines and non-ASCII text
    /// come through as they are.
    public static func quoted(_ text: String) -> String {
        if !text.isEmpty, text.utf8.allSatisfy({ safe.contains($0) }) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// A `printf` format, single-quoted, that prints exactly `bytes`: for bytes no shell word can carry (a NUL, text
    /// that is not UTF-8). Printable ASCII stays as it is, but for `'`, `\` and `%`; every other byte is a
    /// three-digit octal escape.
    public static func printfFormat(_ bytes: [UInt8]) -> String {
        var format = "'"
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "%"): format += "%%"
            case UInt8(ascii: "\\"): format += #"\\"#
            case UInt8(ascii: "'"), 0..<0x20, 0x7F...0xFF:
                let octal = String(byte, radix: 8)
                format += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            default: format += String(UnicodeScalar(byte))
            }
        }
        return format + "'"
    }
}
