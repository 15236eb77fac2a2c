import ArgumentParser
import MockAPNs

/// A duration option's value (`250ms`, `10s`, `10m`) parsed and range-checked, or a usage error naming `flag`.
func durationOption(_ text: String, flag: String, range: ClosedRange<Duration>) throws -> Duration {
    switch DurationText.parse(text, in: range) {
    case .success(let duration): return duration
    case .failure(let problem): throw ValidationError("\(flag) \(problem.message)")
    }
}
