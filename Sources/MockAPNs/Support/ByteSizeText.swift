/// Sizes as people type them in scenarios and CLI options: `4096` (bytes), `512KiB`, `256MiB`, `1GiB`.
///
/// Read without arithmetic that can trap: the number is checked against the range before it is multiplied.
public enum ByteSizeText {
    /// The units, by suffix; binary multiples, as memory is counted.
    private static let units: [(suffix: String, bytes: Int)] = [
        ("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("TiB", 1 << 40), ("B", 1),
    ]

    /// Reads a whole number of bytes with an optional unit (`B`, `KiB`, `MiB`, `GiB`, `TiB`) within `range`.
    public static func parse(_ text: String, in range: ClosedRange<Int>) -> Result<Int, DurationText.Problem> {
        var number = Substring(text)
        var multiplier = 1
        for unit in units where number.hasSuffix(unit.suffix) {
            number = number.dropLast(unit.suffix.count)
            multiplier = unit.bytes
            break
        }
        while number.last == " " { number = number.dropLast() }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return .failure(
                DurationText.Problem(message: "expected a size such as 4096, 512KiB, 256MiB or 1GiB; got '\(text)'"))
        }
        // Digits that do not fit an Int are out of range like a product that overflows.
        let (bytes, overflow) = Int(number)?.multipliedReportingOverflow(by: multiplier) ?? (0, true)
        guard !overflow, range.contains(bytes) else {
            return .failure(
                DurationText.Problem(
                    message: "must be between \(self.text(range.lowerBound)) and \(self.text(range.upperBound)), "
                        + "got '\(text)'"))
        }
        return .success(bytes)
    }

    /// `256MiB` when `bytes` is a whole number of a unit, else the bytes (`4100`).
    public static func text(_ bytes: Int) -> String {
        for unit in units.reversed() where unit.bytes > 1 && bytes >= unit.bytes && bytes % unit.bytes == 0 {
            // Reversed order is B, TiB, GiB, MiB, KiB: the first whole match is the largest unit.
            return "\(bytes / unit.bytes)\(unit.suffix)"
        }
        return String(bytes)
    }
}
