import Foundation

/// One request as the journal keeps it: what arrived, what was decided and why, and what was answered.
///
/// Stored in parts: what arrived is the request's shared `APNsRequest.Content`, what was decided a `Verdict.Shared`
/// (a connection's accepted pushes share one), and generated ids stay 16-byte values. A record then holds a few
/// references instead of twenty, which the journal pays for on every append, every dropped record and every read.
///
/// Made on every push: its optional properties are spelled `Optional<…>`, never `T?`, whose implicit `nil` made
/// Swift build the value aside and copy it out (`HotPathOptionalsTests` says why).
public struct JournalRecord: Sendable {
    /// 1, 2, 3, … in the order requests were decided, never reused within a server run.
    public var sequence: UInt64
    /// When the request was complete and read (requests completed by one read of the connection share the time).
    public internal(set) var receivedAt: Date
    /// When the answer was handed to HTTP/2 (the answers to one read share the time); `nil` when a scripted fault
    /// sent none.
    public var answeredAt: Optional<Date>
    /// The connection's number, 1, 2, 3, … in the order connections were accepted; 0 for a request that came on no
    /// connection (a replay through the control API, `replayOf`).
    public internal(set) var connectionID: UInt64
    /// The client's address and port.
    public internal(set) var remoteAddress: String
    /// The HTTP/2 stream the request came on; 0 for a request that came on no connection.
    public internal(set) var streamID: Int32
    var request: APNsRequest.Content
    var sharedVerdict: Verdict.Shared
    /// The answer; `nil` when a scripted fault sent none.
    public var response: Optional<APNsResponse>
    /// The scripted fault injected, if any.
    public var injectedFault: Optional<RuleFault>
    /// Why no answer was sent although one was decided ("stream closed by the client before the answer").
    public var note: Optional<String>
    /// Boxed so that records of ordinary pushes pay one `nil` reference for it, not the outcome's size.
    private var deviceBox: Optional<DeviceOutcomeBox>
    /// The replayed record's number, boxed for the same reason: replays are rare.
    private var replayBox: Optional<ReplayOfBox>
    /// A record of a kind other than a device push, as read; `nil` (one reference) for every device push.
    var otherKind: Optional<OtherKindPart>

    /// What the record is of: `.devicePush` for every push the server records.
    public var kind: Kind { otherKind?.kind ?? .devicePush }

    /// What the simulated phone did with the push; `nil` for pushes that reach no phone.
    public var device: DeviceOutcome? {
        get { deviceBox?.value }
        set { deviceBox = newValue.map { DeviceOutcomeBox($0, historyEntry: nil) } }
    }

    /// The activity history entry of the push, which the journal numbers on append; `nil` for records the engine
    /// did not decide (read back from JSON, built in tests).
    var activityHistoryEntry: ActivityHistoryEntry? { deviceBox?.historyEntry }

    /// The outcomes the push reached through its later `device-event` records, in order, or a broadcast's
    /// activities' outcomes from its `fan-out` records (`withLaterOutcomes`); empty for a record the checker did not
    /// join with its events.
    public var laterOutcomes: [DeviceOutcome] { deviceBox?.later ?? otherKind?.later ?? [] }

    /// The record with `later`, the outcomes of its `device-event` records, beside its device part (the
    /// expectation checker joins them so that `device:` sees what happened after the answer).
    func withLaterOutcomes(_ later: [DeviceOutcome]) -> JournalRecord {
        if let part = otherKind {
            // A broadcast: its activities' outcomes, from its fan-out records.
            var copy = self
            copy.otherKind = OtherKindPart(
                kind: part.kind, json: part.json, numbered: part.numbered, fanOut: part.fanOut, later: later)
            return copy
        }
        guard let box = deviceBox else { return self }
        var copy = self
        copy.deviceBox = DeviceOutcomeBox(
            box.value, historyEntry: box.historyEntry, number: box.number, events: box.events,
            unregisteredSince: box.unregisteredSince, later: later)
        return copy
    }

    /// Gives the phone the record's sequence number, when the phone keeps a reference to the push (`Journal`
    /// calls it as it numbers the record).
    func noteSequence(_ sequence: UInt64) {
        deviceBox?.number?.set(sequence)
        otherKind?.fanOut?.number.set(sequence)
    }

    /// The later events of other pushes this push's arrival gave, to append right after it (empty for most).
    var followingEvents: [DeviceEvent] { deviceBox?.events ?? [] }

    /// The sequence number of the record this one replays (`POST /v1/requests/{seq}/replay`): the request came
    /// through the control API, on no connection (`connectionID` 0); `nil` for a request that came on a connection.
    public var replayOf: UInt64? {
        get { replayBox?.sequence }
        set { replayBox = newValue.map(ReplayOfBox.init) }
    }

    /// The record's `fault` member: the injected fault's name, else the note; `nil` when neither.
    public var fault: String? { injectedFault?.rawValue ?? note }

    /// A record of `request` (its stream included), decided as `verdict` and answered `response`; `fault` is the
    /// scripted fault injected and `note` why no answer was sent, if either.
    public init(
        sequence: UInt64, receivedAt: Date, answeredAt: Date?, connectionID: UInt64, remoteAddress: String,
        request: APNsRequest, verdict: Verdict, response: APNsResponse?, fault: RuleFault? = nil, note: String? = nil
    ) {
        self.init(
            sequence: sequence, receivedAt: receivedAt, answeredAt: answeredAt, connectionID: connectionID,
            remoteAddress: remoteAddress, streamID: request.streamID, request: request.content,
            verdict: Verdict.Shared(verdict), response: response, injectedFault: fault)
        self.note = note
    }

    init(
        sequence: UInt64, receivedAt: Date, answeredAt: Date?, connectionID: UInt64, remoteAddress: String,
        streamID: Int32, request: APNsRequest.Content, verdict: Verdict.Shared, response: APNsResponse?,
        injectedFault: RuleFault?, device: DeviceOutcomeBox? = nil
    ) {
        self.sequence = sequence
        self.receivedAt = receivedAt
        self.answeredAt = answeredAt
        self.connectionID = connectionID
        self.remoteAddress = remoteAddress
        self.streamID = streamID
        self.request = request
        self.sharedVerdict = verdict
        self.response = response
        self.injectedFault = injectedFault
        self.note = nil
        self.deviceBox = device
        self.replayBox = nil
        self.otherKind = nil
    }

    /// `:method` as sent.
    public var method: String { request.method }
    /// `:path` as sent.
    public var path: String { request.path }
    /// `:authority` (or `host`) as sent.
    public var authority: String? { request.authority }
    /// The device token from the path, as sent.
    public var deviceToken: String? { request.deviceToken }
    /// All regular headers in arrival order.
    public var headers: [APNsHeader] { request.headers }
    /// The payload bytes as sent; of a payload over `keptPayloadLimit` bytes only that many (`payloadTruncated`).
    public var payload: [UInt8] { request.body }
    /// What was decided, and why.
    public var verdict: Verdict { sharedVerdict.value }
    /// The push type the request was taken as.
    public var pushType: String? { sharedVerdict.value.pushType }
    /// `apns-topic` as sent.
    public var topic: String? { sharedVerdict.value.topic }
    /// Whether the push was accepted.
    public var accepted: Bool { sharedVerdict.isAccepted }
    /// The rejection reason, if any.
    public var reason: String? { sharedVerdict.reasonName }
    /// The rule that decided (`scripted:<name>` for scripted answers).
    public var rule: String { sharedVerdict.value.rule }
    /// Why, in a sentence.
    public var explanation: String { sharedVerdict.value.explanation }
    /// Oddities that were accepted.
    public var notes: [String] { sharedVerdict.value.notes }
    /// How the request authenticated, once that was checked.
    public var auth: AuthSummary? { sharedVerdict.value.auth }

    /// The outcome of a record written as `accepted` and `reason`; a rejection's status is its answer's, else
    /// the one APNs answers the reason with.
    static func outcome(accepted: Bool, reason: String?, status: Int?) -> Verdict.Decision {
        if accepted { return .accepted }
        guard let reason else { return .noAnswer }
        return .rejected(APNsReason(reason, status: status ?? APNsReason.named(reason)?.status ?? 0), timestamp: nil)
    }

    /// The payload parsed as JSON, or `nil` when it is not JSON.
    public var payloadJSON: JSONValue? { try? JSONParser.parse(payload) }

    /// The payload as text (invalid UTF-8 repaired).
    public var payloadText: String { String(decoding: payload, as: UTF8.self) }

    /// The `apns-id` the request carried.
    public var requestAPNsID: String? { headers.first { $0.name == "apns-id" }?.value }
}

/// A record's device outcome behind one reference (`JournalRecord.device`), with where the push went in its
/// activity's history, or the number the phone refers to it by.
final class DeviceOutcomeBox: Sendable {
    /// The outcome.
    let value: DeviceOutcome
    /// Where the push went in its activity's history (a Live Activity push).
    let historyEntry: ActivityHistoryEntry?
    /// The push's number, when the phone keeps a reference to it (a collapse id, a held push).
    let number: PushNumber?
    /// What the push did to earlier pushes (replaced one in storage or on the list) and what the phone settled
    /// before it (an expiry, a delivery): the journal appends them as `device-event` records right after the push.
    let events: [DeviceEvent]
    /// When the push's token went out of use (an uninstalled app, past `unregisteredAfter`): APNs answers 410
    /// with this time instead of 200, and the push reaches nothing.
    let unregisteredSince: Date?
    /// The outcomes of the push's later events, when a reader joined them (`JournalRecord.withLaterOutcomes`).
    let later: [DeviceOutcome]

    /// A box of `value`.
    init(
        _ value: DeviceOutcome, historyEntry: ActivityHistoryEntry? = nil, number: PushNumber? = nil,
        events: [DeviceEvent] = [], unregisteredSince: Date? = nil, later: [DeviceOutcome] = []
    ) {
        self.later = later
        self.value = value
        self.historyEntry = historyEntry
        self.number = number
        self.events = events
        self.unregisteredSince = unregisteredSince
    }
}

/// The number of the record a replay replays (`JournalRecord.replayOf`), behind one reference.
private final class ReplayOfBox: Sendable {
    let sequence: UInt64

    init(_ sequence: UInt64) {
        self.sequence = sequence
    }
}
