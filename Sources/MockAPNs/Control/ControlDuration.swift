/// Durations as the control API and the CLI write them: `250ms`, `5s`, `1.5s`, `2m`.
public enum ControlDuration {
    /// The longest wait the control API accepts.
    public static let maximum = Duration.seconds(600)

    /// Reads `250ms`, `5s`, `1.5s` or `2m`; a number needs its unit.
    public static func parse(_ text: String, name: String = "timeout") throws(MockAPNsControlError) -> Duration {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]
        for unit in units where text.hasSuffix(unit.suffix) {
            let number = text.dropLast(unit.suffix.count)
            guard let value = Double(number), value.isFinite, value >= 0, number.first?.isNumber == true else { break }
            let duration = Duration.milliseconds(Int64((value * unit.seconds * 1000).rounded()))
            guard duration <= maximum else {
                throw .badRequest("\(name) must be at most \(self.text(maximum)), got \(text)")
            }
            return duration
        }
        if Double(text) != nil {
            throw .badRequest("\(name) needs a unit: write \(text)s or \(text)ms")
        }
        throw .badRequest("\(name) must be a duration such as 500ms, 5s or 1m; got '\(text)'")
    }

    /// `250ms` below a second, else seconds (`5s`, `1.5s`).
    public static func text(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds < 1000 { return "\(milliseconds)ms" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        return "\(Double(milliseconds) / 1000)s"
    }
}
