import ArgumentParser
import Logging
import MockAPNs

/// A duration option's value (`250ms`, `10s`, `10m`) parsed and range-checked, or a usage error naming `flag`.
func durationOption(_ text: String, flag: String, range: ClosedRange<Duration>) throws -> Duration {
    switch DurationText.parse(text, in: range) {
    case .success(let duration): return duration
    case .failure(let problem): throw ValidationError("\(flag) \(problem.message)")
    }
}

/// The `transform` of a typed duration option: `@Option(transform: durationArgument("--settle", range))` reads
/// `250ms`, `10s` or `10m` within `range` into a `Duration`, or fails with a usage error naming `flag`.
func durationArgument(_ flag: String, _ range: ClosedRange<Duration>) -> @Sendable (String) throws -> Duration {
    { text in try durationOption(text, flag: flag, range: range) }
}

/// The `transform` of `--log-level`: a `Logger.Level` by name, or a usage error that lists the levels.
@Sendable func logLevelArgument(_ text: String) throws -> Logger.Level {
    guard let level = Logger.Level(rawValue: text) else {
        throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
    }
    return level
}
