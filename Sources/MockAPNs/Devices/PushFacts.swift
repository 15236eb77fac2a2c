/// What the phone reads of a push's payload (phone.md §4): the parts it can show and the flags that pick the walk.
/// Worked out once per payload (`ValidationMemo.pushFacts`), from the parsed JSON.
///
/// A member the payload repeats counts by its last occurrence, as the payload check reads it (`PayloadShape`).
struct PushFacts: Sendable {
    /// A sound the push names: `"sound": "chime.caf"` or `"sound": {"critical": 1, "name": …, "volume": …}`.
    struct Sound: Sendable, Hashable {
        /// The file name; `default` for the system sound (and for a critical sound that names none).
        var name: String
        /// `sound.critical: 1`.
        var critical: Bool
    }

    /// The payload as parsed, for the app's cases (`match:`); `nil` when it is not JSON.
    var payload: JSONValue?
    /// Why the phone finds nothing in the payload at all: `the payload has no aps`; `nil` when `aps` is an object.
    var apsProblem: String?
    /// `aps.alert`'s title, subtitle and body as the phone would show them (a localized key as `loc-key NAME`).
    var title: String?
    /// The subtitle, or its localized key.
    var subtitle: String?
    /// The body (a string `alert` is one), or its localized key.
    var body: String?
    /// Whether the alert has text: a title, subtitle or body, or their localized keys.
    var hasAlertText = false
    /// `aps.sound`, when it names one.
    var sound: Sound?
    /// `aps.badge`, when it is a number.
    var badge: Int?
    /// `aps.content-available: 1`.
    var contentAvailable = false
    /// `aps.mutable-content: 1`.
    var mutableContent = false
    /// `aps.interruption-level`.
    var interruptionLevel: String?
    /// `aps.category`.
    var category: String?
    /// `aps.thread-id`.
    var threadID: String?
    /// `aps.filter-criteria`.
    var filterCriteria: String?

    /// The facts of `payload`, the parsed body (`nil` when it is not JSON: nothing the phone can read).
    init(_ payload: JSONValue?) {
        self.payload = payload
        guard let payload, case .object = payload else {
            apsProblem = "the payload is not a JSON object"
            return
        }
        guard let aps = Self.member(payload, "aps") else {
            apsProblem = "the payload has no aps"
            return
        }
        guard case .object = aps else {
            apsProblem = "aps is not a JSON object"
            return
        }
        switch Self.member(aps, "alert") {
        case .string(let text) where !text.isEmpty:
            body = text
            hasAlertText = true
        case .some(let alert):
            title = Self.text(alert, "title", localized: "title-loc-key")
            subtitle = Self.text(alert, "subtitle", localized: "subtitle-loc-key")
            body = Self.text(alert, "body", localized: "loc-key")
            hasAlertText = title != nil || subtitle != nil || body != nil
        case nil:
            break
        }
        switch Self.member(aps, "sound") {
        case .string(let name) where !name.isEmpty:
            sound = Sound(name: name, critical: false)
        case .some(let sound) where Self.isObject(sound):
            let name = Self.member(sound, "name")?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? "default"
            self.sound = Sound(name: name, critical: Self.isOne(Self.member(sound, "critical")))
        default:
            break
        }
        if case .number(let text)? = Self.member(aps, "badge"), let value = Double(text), value.isFinite {
            badge = Int(max(min(value, Double(Int32.max)), Double(Int32.min)))
        }
        contentAvailable = Self.isOne(Self.member(aps, "content-available"))
        mutableContent = Self.isOne(Self.member(aps, "mutable-content"))
        interruptionLevel = Self.member(aps, "interruption-level")?.stringValue
        category = Self.member(aps, "category")?.stringValue
        threadID = Self.member(aps, "thread-id")?.stringValue
        filterCriteria = Self.member(aps, "filter-criteria")?.stringValue
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
