/// What the payload scan keeps of one JSON value: its kind, and for an object what it holds in each role it could
/// play (the payload, its `aps`, an alert dictionary). Worked out bottom-up as the grammar reads, in a few bytes,
/// with no allocation (`PayloadShapeSink`).
struct PayloadShape {
    /// The kind of JSON value.
    enum Kind: UInt8 {
        case null, bool, number, emptyString, string, object, array
    }

    /// Whether an `alert` value has text.
    enum Alert: UInt8 {
        /// No `alert` member (or `null`).
        case absent
        /// An alert with no text: an empty string, a dictionary without title, subtitle, body or their loc-keys.
        case withoutText
        /// A non-empty string, or a dictionary with text.
        case withText
    }

    var kind: Kind
    /// As an alert dictionary: a non-empty `title`, `subtitle`, `body`, `title-loc-key`, `subtitle-loc-key` or
    /// `loc-key`.
    var hasAlertText = false
    /// As `aps`: its `alert`.
    var alert = Alert.absent
    /// As `aps`: a `sound` (a non-empty name, or a dictionary for a critical sound).
    var hasSound = false
    /// As `aps`: a numeric `badge` (0 clears the badge, which the phone shows too).
    var hasBadge = false
    /// As the payload: what its `aps` member gives the phone to show.
    var display = PayloadDisplay.noAPS

    init(_ kind: Kind) {
        self.kind = kind
    }

    /// Whether this value, as a string, is non-empty.
    var isNonEmptyString: Bool { kind == .string }

    /// What the phone shows for this value as `aps`.
    var displayAsAPS: PayloadDisplay {
        guard kind == .object else { return .apsNotAnObject }
        if alert == .withText || hasSound || hasBadge { return .visible }
        return alert == .withoutText ? .alertWithoutText : .nothingInAPS
    }

    /// This value as an `alert`.
    var asAlert: Alert {
        switch kind {
        case .null: .absent
        case .string: .withText
        case .object: hasAlertText ? .withText : .withoutText
        case .emptyString, .bool, .number, .array: .withoutText
        }
    }

    /// Records `value`, an object member named `key`, in this object's roles. A later member of the same name wins.
    mutating func add(_ key: PayloadShapeSink.Key, _ value: PayloadShape) {
        switch key {
        case .aps: display = value.displayAsAPS
        case .alert: alert = value.asAlert
        case .sound: hasSound = value.isNonEmptyString || value.kind == .object
        case .badge: hasBadge = value.kind == .number
        case .alertText: if value.isNonEmptyString { hasAlertText = true }
        case .empty, .other: break
        }
    }
}
