/// How Swift's `JSONDecoder` (swift-foundation, the Foundation of iOS 17+ and of Swift 6 on Linux) reads a JSON
/// number into `Int` and `Double`; the text is the number exactly as the payload wrote it (`JSONValue.number`).
///
/// Its rules, from `JSONDecoderImpl.unwrapFixedWidthInteger` and `unwrapFloatingPoint`, checked against the real
/// decoder by `ActivityDecoderDifferentialTests`:
/// - `Int`: a plain integer in Int64's range is itself. Any other number (`3.0`, `1e3`, `9223372036854775808`) is
///   read as a `Double`, which must be a whole number Int64 holds (so `3.5`, `1e-3` and `1e19` fail, while
///   `1.0000000000000000001` rounds to `1` and reads as `1`). Below 2^53 that `Double` is the value; from 2^53 up
///   the text is read again as a `Decimal` whose mantissa must fit 64 bits and whose fraction is cut off.
/// - `Double`: `strtod`, which must be finite, and zero only when the number is a true zero (`1e-400` fails);
///   see `isTrueZero(_:)` for the quirk in that check.
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
        guard value != 0 || isTrueZero(Array(text.utf8)) else { return nil }
        return value
    }

    /// `JSONDecoderImpl.isTrueZero` as Swift 6.3's Foundation has it: it scans the text four bytes at a time, each
    /// group in order, for a digit 1-9 (not a zero) or an `e` (a zero: exponent digits do not count), and scans the
    /// last `count % 4` bytes from the end backwards. So `0e8` (three bytes, `8` seen first) is not a zero and
    /// fails to decode as a `Double`, while `0e400` (`e` within the first four) decodes as 0.
    static func isTrueZero(_ bytes: [UInt8]) -> Bool {
        func check(_ byte: UInt8) -> Bool? {
            switch byte {
            case UInt8(ascii: "1")...UInt8(ascii: "9"): false
            case UInt8(ascii: "e"), UInt8(ascii: "E"): true
            default: nil
            }
        }
        let whole = bytes.count - bytes.count % 4
        for byte in bytes[..<whole] {
            if let answer = check(byte) { return answer }
        }
        for byte in bytes[whole...].reversed() {
            if let answer = check(byte) { return answer }
        }
        return true
    }

    /// Whether `text` is an optional minus sign and digits only.
    private static func isPlainInteger(_ text: String) -> Bool {
        let digits = text.hasPrefix("-") ? text.utf8.dropFirst() : text.utf8[...]
        return !digits.isEmpty && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The decoder's `FixedWidthInteger(Decimal)`: the digits as a 64-bit mantissa without its trailing zeros (the
    /// `Decimal` parse drops them), scaled by the exponent, the fraction cut off; a negative number must fit Int64
    /// before its sign is applied (so -2^63 fails here).
    private static func decimalInteger(_ text: String) -> Int? {
        var bytes = Substring(text).utf8[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        var digits = [UInt8]()
        var exponent = 0
        var inFraction = false
        while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") {
                inFraction = true
                continue
            }
            if inFraction { exponent -= 1 }
            if digits.isEmpty, byte == UInt8(ascii: "0") { continue }
            digits.append(byte - UInt8(ascii: "0"))
        }
        while digits.last == 0 {
            digits.removeLast()
            exponent += 1
        }
        var mantissa: UInt64 = 0
        for digit in digits {
            let (shifted, overflow1) = mantissa.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { return nil }
            mantissa = sum
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
