import Foundation

/// What the checks worked out from one value, kept per connection for the next request that carries the same
/// value: a provider sends the same topic and push type push after push, and often one payload to many devices.
///
/// Each entry depends on its value alone (the world is fixed for the validator's life, and a connection makes a
/// new memo with a new validator), so a hit answers exactly as the check would. Strings are compared in full
/// (equal storage makes that one comparison); a payload is the same when it is the same array storage, which the
/// request assembler shares between requests whose bodies are equal, and which the memo keeps alive.
///
/// A class: the validator's check context holds it by reference, instead of moving a value in and out per request.
final class ValidationMemo {
    /// What a default phone did with a push like the last one walked on it (`defaultPhone(for:pushType:)`).
    enum DefaultPhone {
        /// It left the phone unchanged, with this outcome: the same again for a push like it, whatever the token,
        /// on any phone that acts as a default one (`Phone.actsAsDefault`).
        case outcome(DeviceOutcomeBox)
        /// It changed the phone (a background push in the budget window): a push like it is walked on the phone
        /// the registry keeps, without first trying a default phone.
        case changes
    }

    /// The push type named by an `apns-push-type` value.
    private var named: Entry<String, APNsPushType?>?
    /// The push type whose suffix a topic carries.
    private var suffixed: Entry<String, APNsPushType?>?
    /// What is wrong with a payload, if anything, and what the phone would show for it.
    private var payload: Entry<[UInt8], PayloadScan.Result>?
    /// The last device token checked, and what it is made of: two plain fields, not an `Entry`, because the token
    /// changes on nearly every push of a fan-out and an entry per token was one allocation per push
    /// (`bench/alloc-count.sh`).
    private var lastToken: String?
    private var lastTokenDigits = DeviceToken.Digits(isHex: false, hasUppercase: false)
    /// Whether a payload is a Live Activity start without `aps.alert`.
    private var liveActivity: Entry<[UInt8], Bool>?
    /// What the phone reads of a payload.
    private var facts: Entry<[UInt8], PushFacts>?
    /// What the default phone did with the last push walked on it, and what that push was.
    private var defaultPhone: DefaultPhoneEntry?
    /// The words of the connection's last phone walks (`PhoneWalk.Texts`).
    let walkTexts = PhoneWalk.Texts()
    /// The last outcome a walk on a kept phone gave that the phone keeps no reference to (`outcomeBox`).
    private var lastWalked: DeviceOutcomeBox?

    /// One value and what was worked out from it (also the words `PhoneWalk.Texts` keeps). Entries are classes, not
    /// tuples: reading a tuple of optionals out of the memo went through the runtime's generic copy of each member on
    /// every push (about 60 ns for the default phone's entry in `bench/profile.sh`); reading an entry is one
    /// reference.
    final class Entry<Key, Value> {
        let key: Key
        let value: Value

        init(_ key: Key, _ value: Value) {
            self.key = key
            self.value = value
        }
    }

    /// The default phone's entry: what a push was (its payload, topic, push type and priority) and what the phone
    /// did with it.
    private final class DefaultPhoneEntry {
        let body: [UInt8]
        let topic: String?
        let pushType: String
        let priority: String?
        let did: DefaultPhone

        init(body: [UInt8], topic: String?, pushType: String, priority: String?, did: DefaultPhone) {
            self.body = body
            self.topic = topic
            self.pushType = pushType
            self.priority = priority
            self.did = did
        }
    }

    init() {}

    func pushType(named value: String) -> APNsPushType? {
        if let named, named.key == value { return named.value }
        let type = APNsPushType.named(value)
        named = Entry(value, type)
        return type
    }

    func typeWithSuffix(ofTopic topic: String) -> APNsPushType? {
        if let suffixed, suffixed.key == topic { return suffixed.value }
        let type = APNsPushType.typeWithSuffix(ofTopic: topic)
        suffixed = Entry(topic, type)
        return type
    }

    /// `PayloadScan.scan(body)`: one scan per payload.
    func payloadScan(_ body: [UInt8]) -> PayloadScan.Result {
        if let payload, Self.sameStorage(payload.key, body) { return payload.value }
        let result = PayloadScan.scan(body)
        payload = Entry(body, result)
        return result
    }

    /// Whether `body` is a Live Activity start (`aps.event` "start") without `aps.alert`: one parse per payload.
    func isLiveActivityStartWithoutAlert(_ body: [UInt8]) -> Bool {
        if let liveActivity, Self.sameStorage(liveActivity.key, body) { return liveActivity.value }
        let found = APNsValidator.isLiveActivityStartWithoutAlert(body)
        liveActivity = Entry(body, found)
        return found
    }

    /// `PushFacts` of `body`: one parse per payload.
    func pushFacts(_ body: [UInt8]) -> PushFacts {
        if let facts, Self.sameStorage(facts.key, body) { return facts.value }
        let found = PushFacts(try? JSONParser.parse(body))
        facts = Entry(body, found)
        return found
    }

    /// What a default phone did with a push like `request` (the same payload, topic, push type and priority, no
    /// collapse id); `nil` when the last push walked was not like it.
    func defaultPhone(for request: APNsRequest.Content, pushType: String) -> DefaultPhone? {
        guard let memo = defaultPhone, request.fields.collapseID == nil, memo.pushType == pushType,
            memo.topic == request.fields.topic, memo.priority == request.fields.priority,
            Self.sameStorage(memo.body, request.body)
        else { return nil }
        return memo.did
    }

    /// Keeps what a default phone did with pushes like `request` (`defaultPhone(for:pushType:)`).
    func keepDefaultPhone(_ did: DefaultPhone, for request: APNsRequest.Content, pushType: String) {
        guard request.fields.collapseID == nil else { return }
        defaultPhone = DefaultPhoneEntry(
            body: request.body, topic: request.fields.topic, pushType: pushType, priority: request.fields.priority,
            did: did)
    }

    /// The device part of a walk's `outcome`: the box of the last walk that said the same, when there is one, so the
    /// records of pushes that end alike share one device part, as they share a verdict (a background push on each of
    /// a thousand phones: the same launch and the same over-rate warning, push after push). Only an outcome the phone
    /// keeps no reference to is shared (no `number`, no `events`, answered 200, not `unregisteredSince`): a shared
    /// box is never changed, and the journal numbers only those with a number. The box is made only when none is
    /// shared: one allocation per background push less (`bench/alloc-count.sh`).
    func outcomeBox(
        _ outcome: DeviceOutcome, number: PushNumber?, events: [DeviceEvent], unregisteredSince: Date?
    ) -> DeviceOutcomeBox {
        guard number == nil, events.isEmpty, unregisteredSince == nil else {
            return DeviceOutcomeBox(outcome, number: number, events: events, unregisteredSince: unregisteredSince)
        }
        if let last = lastWalked, last.value == outcome { return last }
        let box = DeviceOutcomeBox(outcome)
        lastWalked = box
        return box
    }

    /// What a device token's digits are (`DeviceToken.digits(in:)`), worked out once while the token repeats.
    func digits(ofToken value: String) -> DeviceToken.Digits {
        if lastToken == value { return lastTokenDigits }
        // Over the contiguous bytes: a walk over String.UTF8View's indices cost more than the rest of the check.
        let digits = value.withUTF8Bytes(DeviceToken.digits(in:))
        lastToken = value
        lastTokenDigits = digits
        return digits
    }

    private static func sameStorage(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { a.baseAddress == $0.baseAddress } }
    }
}
