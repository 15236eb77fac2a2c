import Foundation

/// How long a connection may take to start, how long it may stay silent, and how many may be open at once: the
/// `limits:` section of a scenario and the `serve` flags `--handshake-timeout`, `--idle-timeout`, `--max-connections`.
///
/// The defaults are far above what a real provider meets (scenarios/README.md gives the reasons), so that only a
/// stuck or hostile client is ever cut off.
public struct ConnectionLimits: Sendable, Hashable {
    /// The TLS handshake and the client's HTTP/2 preface must both be done within this after the TCP accept.
    public var handshakeTimeout: Duration = Self.defaultHandshakeTimeout
    /// A connection from which nothing at all (not even a PING) arrived for this long gets GOAWAY NO_ERROR
    /// `{"reason":"IdleTimeout"}` and is closed, as APNs closes idle connections.
    public var idleTimeout: Duration = Self.defaultIdleTimeout
    /// Connections open at once per listener; one more is accepted and closed at once.
    public var maxConnections: Int = Self.defaultMaxConnections

    /// 10 s: a handshake on loopback takes a few milliseconds, across the world well under a second.
    public static let defaultHandshakeTimeout = Duration.seconds(10)
    /// 1 h: clients that keep a connection PING every 15-60 s or push far more often.
    public static let defaultIdleTimeout = Duration.seconds(3600)
    /// 1000: providers keep a handful of connections; load tests a few hundred.
    public static let defaultMaxConnections = 1000

    /// The values `handshakeTimeout` may take.
    public static let handshakeTimeoutRange = Duration.milliseconds(10)...Duration.seconds(600)
    /// The values `idleTimeout` may take.
    public static let idleTimeoutRange = Duration.milliseconds(10)...Duration.seconds(86_400)
    /// The values `maxConnections` may take.
    public static let maxConnectionsRange = 1...1_000_000

    /// The defaults.
    public init() {}

    /// The limits as scenario fields, as `GET /v1/scenario` shows them.
    public var scenarioJSON: JSONValue {
        .object([
            ("handshakeTimeout", .string(LimitDuration.text(handshakeTimeout))),
            ("idleTimeout", .string(LimitDuration.text(idleTimeout))),
            ("maxConnections", .number(String(maxConnections))),
        ])
    }
}

/// The durations of `limits:` and of the matching `serve` flags: a number with a unit, `ms`, `s`, `m` or `h`
/// (`250ms`, `10s`, `1.5m`, `1h`), within a stated range.
public enum LimitDuration {
    /// Reads `text`; the error says what was wrong, naming the setting as `name`.
    public static func parse(
        _ text: String, name: String, range: ClosedRange<Duration>
    ) -> Result<Duration, LimitError> {
        let text = text.trimmingCharacters(in: .whitespaces)
        let units: [(suffix: String, milliseconds: Double)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]
        for unit in units where text.hasSuffix(unit.suffix) {
            let number = text.dropLast(unit.suffix.count)
            guard let value = Double(number), value.isFinite, value >= 0, number.first?.isNumber == true else { break }
            let given = value * unit.milliseconds
            // Compared as a Double first: a huge value must not trap when made into an integer.
            let lowest = Double(Self.milliseconds(range.lowerBound))
            let highest = Double(Self.milliseconds(range.upperBound))
            guard given >= lowest, given <= highest else {
                return .failure(
                    LimitError(
                        "\(name) must be from \(self.text(range.lowerBound)) to \(self.text(range.upperBound)), "
                            + "got \(text)"))
            }
            return .success(.milliseconds(Int64(given.rounded())))
        }
        if Double(text) != nil {
            return .failure(LimitError("\(name) needs a unit (ms, s, m or h): for example \(text)s"))
        }
        return .failure(LimitError("\(name) must be a duration such as 500ms, 10s, 5m or 1h; got '\(text)'"))
    }

    /// The shortest exact spelling: `250ms`, `10s`, `5m`, `1h`, `1.5s`.
    public static func text(_ duration: Duration) -> String {
        let total = milliseconds(duration)
        if total % 3_600_000 == 0, total > 0 { return "\(total / 3_600_000)h" }
        if total % 60_000 == 0, total > 0 { return "\(total / 60_000)m" }
        if total % 1000 == 0, total > 0 { return "\(total / 1000)s" }
        if total < 1000 { return "\(total)ms" }
        return "\(Double(total) / 1000)s"
    }

    /// Whole milliseconds of a (range-checked, so small) duration.
    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds.multipliedReportingOverflow(by: 1000).partialValue + attoseconds / 1_000_000_000_000_000
    }
}

/// A limit given out of range or in the wrong form.
public struct LimitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and what is allowed.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
