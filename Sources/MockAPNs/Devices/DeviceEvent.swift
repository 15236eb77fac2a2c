import Foundation

/// Something that happened to a push after its record was written (phone.md §5, "Events"): delivered from storage,
/// replaced in storage or on the list, expired in storage. The journal writes it as a `device-event` record of its
/// own that points at the push (`JournalRecord(event:receivedAt:)`); the push's record never changes.
struct DeviceEvent: Sendable {
    /// The push it happened to.
    var push: PushNumber
    /// When it happened, on the mock's clock (an expiry: the moment the expiration passed).
    var at: Date
    /// What happened: `delivered`, `replaced` or `expired`, with its rule and reason.
    var event: DeviceOutcome
    /// The other push involved (the one kept instead, the one that collapsed it), numbered once it is recorded.
    var related: PushNumber?
    /// What the phone did with the push once it was delivered (the walk's outcome); `nil` for other events.
    var device: DeviceOutcome?

    /// `events` in the order of their moments on the mock's clock; the events of one moment keep their order.
    static func inOrder(_ events: [DeviceEvent]) -> [DeviceEvent] {
        guard events.count > 1 else { return events }
        return events.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    }

    /// `event` of `push` at `at`, with the other push `related`.
    init(_ push: PushNumber, at: Date, _ event: DeviceOutcome, related: PushNumber? = nil) {
        self.push = push
        self.at = at
        self.event = event
        self.related = related
    }
}
