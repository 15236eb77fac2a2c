/// How Swift's `JSONDecoder` (swift-foundation, the Foundation of iOS 17+ and of Swift 6 on Linux) reads a JSON
/// number into `Int` and `Double`; the text is the number exactly as the payload wrote it (`JSONValue.number`).
///
/// Its rules, from `JSONDecoderImpl.unwrapFixedWidthInteger` and `unwrapFloatingPoint`, checked against the real
/// decoder by `ActivityDecoderDifferentialTests`:
/// - `Int`: a plain integer in Int64's range is itself. Any other number (`3.0`, `1e3`, `9223372036854775808`) is
///   read as a `Double`, which must be a whole number Int64 holds (so `3.5`, `1e-3` and `1e19` fail, while
///   `1.0000000000000000001` rounds to `1` and reads as `1`). Below 2^53 that `Double` is the value; from 2^53 up
///   the text is read again as a `Decimal` whose mantissa must fit 64 bits and whose fraction is cut off.
/// - `Double`: `strtod`, which must be finite, and zero only when every digit is zero (`1e-400` fails).
enum SwiftJSONNumber {
    /// The `Int` the decoder reads from `text`, or `nil` where it throws.
    static func int(_ text: String) -> Int? {
        if isPlainInteger(text) {
            if let value = Int(text) { return value }
        }
        guard let double = Double(text), let value = Int(exactly: double) else { return nil }
        if double.magnitude < 9_007_199_254_740_992 { return value }
        return decimalInteger(text)
    }

    /// The `Double` the decoder reads from `text`, or `nil` where it throws.
    static func double(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        if value == 0 {
            let digits = text.prefix { $0 != "e" && $0 != "E" }
            guard digits.allSatisfy({ $0 == "0" || $0 == "-" || $0 == "." }) else { return nil }
        }
        return value
    }

    /// Whether `text` is an optional minus sign and digits only.
    private static func isPlainInteger(_ text: String) -> Bool {
        let digits = text.hasPrefix("-") ? text.utf8.dropFirst() : text.utf8[...]
        return !digits.isEmpty && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The decoder's `FixedWidthInteger(Decimal)`: the digits as a 64-bit mantissa, scaled by the exponent, the
    /// fraction cut off; a negative number must fit Int64 before its sign is applied (so -2^63 fails here).
    private static func decimalInteger(_ text: String) -> Int? {
        var bytes = Substring(text).utf8[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        var mantissa: UInt64 = 0
        var exponent = 0
        var inFraction = false
        while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") {
                inFraction = true
                continue
            }
            let (shifted, overflow1) = mantissa.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            mantissa = sum
            if inFraction { exponent -= 1 }
        }
        if !bytes.isEmpty {
            // Far beyond Decimal's 8-bit exponent: no whole number of 64 bits comes out (and the loops stay short).
            let written = Int(String(decoding: bytes.dropFirst(), as: UTF8.self))
            guard let written, (-1000...1000).contains(written) else { return nil }
            exponent += written
        }
        if exponent < 0 {
            for _ in 0..<(-exponent) { mantissa /= 10 }
        } else {
            for _ in 0..<exponent {
                let (scaled, overflow) = mantissa.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                mantissa = scaled
            }
        }
        guard let magnitude = Int(exactly: mantissa) else { return nil }
        return negative ? -magnitude : magnitude
    }
}
