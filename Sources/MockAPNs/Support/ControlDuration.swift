/// Durations as the control API and the CLI write them: `250ms`, `5s`, `1.5s`, `2m`.
public enum ControlDuration {
    /// The longest wait the control API accepts.
    public static let maximum = Duration.seconds(600)

    /// Reads `250ms`, `5s`, `1.5s`, `2m` or `1h` (at most `maximum`); a number needs its unit.
    public static func parse(_ text: String, name: String = "timeout") throws(InputError) -> Duration {
        switch DurationText.parse(text, maximum: maximum) {
        case .success(let duration): return duration
        case .failure(let problem): throw InputError("\(name): \(problem.message)")
        }
    }

    /// `250ms` below a second, else seconds (`5s`, `1.5s`); never traps, even for `Duration`'s extremes.
    public static func text(_ duration: Duration) -> String {
        let milliseconds = DurationText.milliseconds(duration)
        if milliseconds < 1000 { return "\(milliseconds)ms" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        return "\(Double(milliseconds) / 1000)s"
    }
}
