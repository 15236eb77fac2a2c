import Foundation

/// Something the server did to a connection that the journal's records do not say: a GOAWAY, a stream reset or
/// a stream-limit announcement, each a frame the server sent (`GET /v1/connections`).
public struct ConnectionEvent: Sendable, Hashable {
    /// When the frame went out, on the mock's clock.
    public var at: Date
    /// What kind of frame it was.
    public var kind: Kind
    /// The frame in words: its error code, stream, last-stream-id, debug data or new limit.
    public var detail: String

    /// An event of `kind` at `at`.
    public init(at: Date, kind: Kind, detail: String) {
        self.at = at
        self.kind = kind
        self.detail = detail
    }

    /// What a connection event is of: an open set of names, like push types.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The name, as the event's `kind` member writes it.
        public var name: String

        /// The kind called `name`.
        public init(_ name: String) {
            self.name = name
        }

        /// The name.
        public var description: String { name }

        /// A GOAWAY the server sent (a scripted fault, an idle timeout, a shutdown, a protocol error).
        public static let goaway = Kind("goaway")
        /// An RST_STREAM the server sent (a refused stream, a scripted reset, oversized headers).
        public static let reset = Kind("reset")
        /// A SETTINGS frame with SETTINGS_MAX_CONCURRENT_STREAMS: the connection's first limit, or a change of it.
        public static let streamLimit = Kind("stream-limit")
    }
}

extension ConnectionEvent: JSONMapped {
    /// An event as `GET /v1/connections` writes it: `at`, `kind`, `detail`; read back `nil` without all three.
    public static let jsonMapping = JSONMapping<ConnectionEvent, ConnectionEvent>(
        ConnectionEvent(at: .distantPast, kind: Kind(""), detail: ""),
        [
            .member("at", \.at, .timestamp, required: true),
            .member("kind", \.kind.name, .string, required: true),
            .member("detail", \.detail, .string, required: true),
        ])
}
