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
            ("handshakeTimeout", .string(DurationText.text(handshakeTimeout))),
            ("idleTimeout", .string(DurationText.text(idleTimeout))),
            ("maxConnections", .number(String(maxConnections))),
        ])
    }
}
