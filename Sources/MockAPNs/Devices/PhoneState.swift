/// What a phone is and what its person chose (phone.md §2): the phone's own fields and each app as the phone has
/// it. A scenario declares it (`phones:`), `PATCH /v1/phones/{id}` changes it, a reset restores the declared one.
public struct PhoneState: Sendable, Hashable {
    /// Whether the phone is reachable: APNs stores the pushes of an offline phone and delivers them when it is back.
    public var online = true
    /// Whether the phone is locked.
    public var locked = false
    /// Low Power Mode.
    public var lowPowerMode = false
    /// The Focus that is on; `nil` for none.
    public var focus: PhoneFocus?
    /// Whether the person has a Scheduled Summary.
    public var scheduledSummary = false
    /// Whether a call is in progress.
    public var callActive = false
    /// The apps the phone has something on record for, by bundle id; any other app has `AppOnPhone()`.
    public var apps: [String: AppOnPhone] = [:]

    /// Online, unlocked, no Focus, no summary, no call, every app as `AppOnPhone()`: the default phone.
    public init() {}

    /// The app `bundleID` as this phone has it.
    public func app(_ bundleID: String) -> AppOnPhone {
        apps[bundleID] ?? AppOnPhone()
    }

    /// The most apps one phone keeps state for (a phone with hundreds of apps is already unusual).
    public static let appLimit = 1_000
}
