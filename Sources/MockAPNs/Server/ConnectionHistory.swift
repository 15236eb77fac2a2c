import Foundation
import NIOConcurrencyHelpers

/// What the server knows of its recent APNs connections beyond their records: when each opened and closed, its
/// ALPN and client certificate, and the GOAWAY, RST_STREAM and stream-limit frames sent on it.
///
/// Written at a connection's turning points (accepted, handshake done, control frames sent, closed), never per
/// push: the frames are gathered by the connection and handed over when it writes them out. Bounded: the newest
/// `capacity` connections (a closed one leaves first), each with its newest `eventCapacity` events. A journal
/// clear or a reset leaves it as it is; it covers the server's run.
public final class ConnectionHistory: Sendable {
    /// How many connections are kept.
    public static let capacity = 1000
    /// How many events are kept per connection (the newest; the older are counted in `eventsDropped`).
    public static let eventCapacity = 64

    /// One connection as the history knows it.
    public struct Entry: Sendable {
        /// The connection's number (the records' `connection`).
        public var id: UInt64
        /// The client's address and port.
        public var remoteAddress: String
        /// TLS, or the cleartext prior-knowledge port.
        public var transport: ConnectionInfo.Transport
        /// When the connection was accepted.
        public var openedAt: Date
        /// When it closed; `nil` while it is open.
        public var closedAt: Date?
        /// The ALPN protocol agreed (`h2`; `h2c` on the cleartext port); `nil` when the client offered none or the
        /// handshake did not finish.
        public var alpn: String?
        /// The client certificate presented over mutual TLS, if any.
        public var clientCertificate: APNsClientCertificate?
        /// The newest events, oldest first.
        public var events: [ConnectionEvent] = []
        /// Events left out for `eventCapacity`.
        public var eventsDropped = 0
        /// The control frames the client sent on it, by type.
        public var framesReceived = HTTP2FrameCounts(.received)
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        /// The ids in the order they were added.
        var order: [UInt64] = []
    }

    private let state = NIOLockedValueBox(State())

    /// An empty history.
    public init() {}

    /// A connection was accepted at `at`; the oldest entry leaves when the history is full (a closed one first).
    func opened(_ info: ConnectionInfo, at: Date) {
        let entry = Entry(
            id: info.id, remoteAddress: info.remoteAddress, transport: info.transport, openedAt: at,
            alpn: info.alpn, clientCertificate: info.clientCertificate)
        state.withLockedValue { state in
            if state.entries.updateValue(entry, forKey: info.id) == nil { state.order.append(info.id) }
            guard state.order.count > Self.capacity else { return }
            let leaving = state.order.firstIndex { state.entries[$0]?.closedAt != nil } ?? 0
            state.entries[state.order.remove(at: leaving)] = nil
        }
    }

    /// The TLS handshake of connection `id` finished: what it agreed.
    func identified(_ id: UInt64, alpn: String?, certificate: APNsClientCertificate?) {
        state.withLockedValue { state in
            state.entries[id]?.alpn = alpn
            state.entries[id]?.clientCertificate = certificate
        }
    }

    /// Frames sent on connection `id` at `at` (`dropped` more were left out before they got here).
    func sent(_ frames: [HTTP2Session.SentFrame], dropped: Int, on id: UInt64, at: Date) {
        state.withLockedValue { state in
            guard var entry = state.entries.removeValue(forKey: id) else { return }
            entry.events.append(contentsOf: frames.map { ConnectionEvent(at: at, kind: $0.kind, detail: $0.detail) })
            let over = entry.events.count - Self.eventCapacity
            if over > 0 { entry.events.removeFirst(over) }
            entry.eventsDropped += max(over, 0) + dropped
            state.entries[id] = entry
        }
    }

    /// The client sent control frames on connection `id`: `frames` are its counts so far.
    func received(_ frames: HTTP2FrameCounts, on id: UInt64) {
        state.withLockedValue { state in state.entries[id]?.framesReceived = frames }
    }

    /// The connection `id` closed at `at` (its first close counts).
    func closed(_ id: UInt64, at: Date) {
        state.withLockedValue { state in
            if state.entries[id]?.closedAt == nil { state.entries[id]?.closedAt = at }
        }
    }

    /// The connections kept, by id.
    public func entries() -> [Entry] {
        state.withLockedValue { state in state.entries.values.sorted { $0.id < $1.id } }
    }

    /// Connection `id`, if it is kept.
    public func entry(id: UInt64) -> Entry? {
        state.withLockedValue { $0.entries[id] }
    }
}
