/// What the phone reads of a push's payload (phone.md §4): the parts it can show and the flags that pick the walk.
/// Worked out once per payload (`ValidationMemo.pushFacts`), from the parsed JSON.
///
/// A member the payload repeats counts by its last occurrence, as the payload check reads it (`PayloadShape`).
///
/// An immutable class: the connection's memo makes one per payload and every walk of that payload holds it by one
/// reference. As a value of ten strings it was copied into each walk (bench/README.md, "ninth session").
final class PushFacts: Sendable {
    /// A sound the push names: `"sound": "chime.caf"` or `"sound": {"critical": 1, "name": …, "volume": …}`.
    struct Sound: Sendable, Hashable {
        /// The file name; `default` for the system sound (and for a critical sound that names none).
        var name: String
        /// `sound.critical: 1`.
        var critical: Bool
    }

    /// The payload as parsed, for the app's cases (`match:`); `nil` when it is not JSON.
    let payload: JSONValue?
    /// Why the phone finds nothing in the payload at all: `the payload has no aps`; `nil` when `aps` is an object.
    let apsProblem: String?
    /// `aps.alert`'s title, subtitle and body as the phone would show them (a localized key as `loc-key NAME`).
    let title: String?
    /// The subtitle, or its localized key.
    let subtitle: String?
    /// The body (a string `alert` is one), or its localized key.
    let body: String?
    /// Whether the alert has text: a title, subtitle or body, or their localized keys.
    let hasAlertText: Bool
    /// `aps.sound`, when it names one.
    let sound: Sound?
    /// `aps.badge`, when it is a number.
    let badge: Int?
    /// `aps.content-available: 1`.
    let contentAvailable: Bool
    /// `aps.mutable-content: 1`.
    let mutableContent: Bool
    /// `aps.interruption-level`.
    let interruptionLevel: String?
    /// `aps.category`.
    let category: String?
    /// `aps.thread-id`.
    let threadID: String?
    /// `aps.filter-criteria`.
    let filterCriteria: String?

    /// The facts of `payload`, the parsed body (`nil` when it is not JSON: nothing the phone can read).
    init(_ payload: JSONValue?) {
        self.payload = payload
        // `aps`, when it is an object: what the phone reads.
        var aps: JSONValue?
        if let payload, case .object = payload {
            switch Self.member(payload, "aps") {
            case nil: apsProblem = "the payload has no aps"
            case let found? where Self.isObject(found): (aps, apsProblem) = (found, nil)
            default: apsProblem = "aps is not a JSON object"
            }
        } else {
            apsProblem = "the payload is not a JSON object"
        }
        let member = { [aps] (name: String) in aps.flatMap { PushFacts.member($0, name) } }
        switch member("alert") {
        case .string(let text) where !text.isEmpty:
            (title, subtitle, body) = (nil, nil, text)
        case .some(let alert):
            title = Self.text(alert, "title", localized: "title-loc-key")
            subtitle = Self.text(alert, "subtitle", localized: "subtitle-loc-key")
            body = Self.text(alert, "body", localized: "loc-key")
        case nil:
            (title, subtitle, body) = (nil, nil, nil)
        }
        hasAlertText = title != nil || subtitle != nil || body != nil
        switch member("sound") {
        case .string(let name) where !name.isEmpty:
            sound = Sound(name: name, critical: false)
        case .some(let sound) where Self.isObject(sound):
            let name = Self.member(sound, "name")?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? "default"
            self.sound = Sound(name: name, critical: Self.isOne(Self.member(sound, "critical")))
        default:
            sound = nil
        }
        if case .number(let text)? = member("badge"), let value = Double(text), value.isFinite {
            badge = Int(max(min(value, Double(Int32.max)), Double(Int32.min)))
        } else {
            badge = nil
        }
        contentAvailable = Self.isOne(member("content-available"))
        mutableContent = Self.isOne(member("mutable-content"))
        interruptionLevel = member("interruption-level")?.stringValue
        category = member("category")?.stringValue
        threadID = member("thread-id")?.stringValue
        filterCriteria = member("filter-criteria")?.stringValue
    }

    /// Whether the push has something to show: alert text, a sound or a badge (doc, *Generating*).
    var hasVisibleContent: Bool { hasAlertText || sound != nil || badge != nil }

    /// Whether `aps` holds nothing but `content-available: 1` as far as the phone shows: the background walk alone.
    var isBackgroundOnly: Bool { contentAvailable && !hasVisibleContent }

    /// Whether the push asks for a critical alert: `interruption-level: critical` or `sound.critical: 1`.
    var asksCritical: Bool { interruptionLevel == "critical" || sound?.critical == true }

    /// The last member `name` of `object`.
    private static func member(_ object: JSONValue, _ name: String) -> JSONValue? {
        guard case .object(let members) = object else { return nil }
        return members.last { $0.0 == name }?.1
    }

    private static func isObject(_ value: JSONValue) -> Bool {
        if case .object = value { return true }
        return false
    }

    /// Whether `value` is the number 1 (`content-available: 1`).
    private static func isOne(_ value: JSONValue?) -> Bool {
        guard case .number(let text)? = value else { return false }
        return Double(text) == 1
    }

    /// The alert's `key` text, else its localized key as `loc-key NAME`; `nil` when neither is a non-empty string.
    private static func text(_ alert: JSONValue, _ key: String, localized: String) -> String? {
        if let text = member(alert, key)?.stringValue, !text.isEmpty { return text }
        if let name = member(alert, localized)?.stringValue, !name.isEmpty { return "\(localized) \(name)" }
        return nil
    }
}
