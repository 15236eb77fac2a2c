import Foundation

extension ScenarioLoader.Reader {
    /// The fields of `simulation:`, one per `SimulationSettings` setting.
    static let simulationFields = [
        "enabled", "backgroundWhenDenied", "backgroundBudget", "backgroundBudgetWindow", "backgroundBudgetCountsAlerts",
        "heldRelease", "powerStorage", "backgroundPriorityTen", "inactiveAppAfter", "voipSuspendAfter",
        "voipMustReport",
        "criticalWithoutEntitlement", "timeSensitiveWithoutEntitlement", "serviceExtensionMemoryLimit",
        "serviceExtensionWhenProvisional", "storageKeeps", "storageSlot", "storageWithoutExpiration",
        "expirationZeroGrace", "unregisteredAfter", "notificationCenterLimit", "pttAfterForceQuit",
        "complicationPerDay", "widgetPushesPerDay",
    ]

    /// The budget window: a second to a day.
    static let budgetWindowRange = Duration.seconds(1)...Duration.seconds(86_400)
    /// A service extension's memory limit: 1 MiB to 1 GiB.
    static let extensionMemoryRange = (1 << 20)...(1 << 30)
    /// How long storage keeps a push without `apns-expiration`: a second to 30 days (APNs's cap).
    static let storageRange = Duration.seconds(1)...Duration.seconds(30 * 86_400)
    /// `expirationZeroGrace`: none to an hour.
    static let zeroGraceRange = Duration.zero...Duration.seconds(3600)
    /// `inactiveAppAfter`: a minute to a year.
    static let inactiveAppRange = Duration.seconds(60)...Duration.seconds(366 * 86_400)
    /// `unregisteredAfter`: at once to a year.
    static let unregisteredRange = Duration.zero...Duration.seconds(366 * 86_400)

    /// `notificationCenterLimit`: 1 to 100,000 notifications listed per app.
    static let notificationListRange = 1...100_000

    /// A count of pushes (`backgroundBudget`, `voipSuspendAfter`): at least one.
    static let pushCountRange = 1...1_000_000
    /// A daily budget (`complicationPerDay`, `widgetPushesPerDay`): 1 to 10,000 pushes per app per day, each of
    /// which the phone remembers for a day.
    static let dailyBudgetRange = 1...10_000

    /// The `simulation` section: the phone's settings for what Apple leaves open.
    func simulation(_ field: Field) throws(ScenarioError) -> SimulationSettings {
        let fields = try field.mapping(known: Self.simulationFields)
        var settings = SimulationSettings()
        if let value = fields["enabled"] { settings.enabled = try value.bool() }
        if let value = fields["backgroundWhenDenied"] { settings.backgroundWhenDenied = try choice(value) }
        if let value = fields["backgroundBudget"] {
            settings.backgroundBudget = try count(value, orWord: "unlimited")
        }
        if let value = fields["backgroundBudgetWindow"] {
            settings.backgroundBudgetWindow = DurationText.seconds(try duration(value, in: Self.budgetWindowRange))
        }
        if let value = fields["backgroundBudgetCountsAlerts"] {
            settings.backgroundBudgetCountsAlerts = try value.bool()
        }
        if let value = fields["heldRelease"] { settings.heldRelease = try choice(value) }
        if let value = fields["powerStorage"] { settings.powerStorage = try choice(value) }
        if let value = fields["backgroundPriorityTen"] { settings.backgroundPriorityTen = try choice(value) }
        if let value = fields["inactiveAppAfter"] {
            if case .scalar(let scalar) = value.node, scalar.string == "off", !value.isQuoted {
                settings.inactiveAppAfter = nil
            } else {
                settings.inactiveAppAfter = DurationText.seconds(try duration(value, in: Self.inactiveAppRange))
            }
        }
        if let value = fields["voipSuspendAfter"] { settings.voipSuspendAfter = try count(value, orWord: "off") }
        if let value = fields["voipMustReport"] { settings.voipMustReport = try choice(value) }
        if let value = fields["criticalWithoutEntitlement"] { settings.criticalWithoutEntitlement = try choice(value) }
        if let value = fields["timeSensitiveWithoutEntitlement"] {
            settings.timeSensitiveWithoutEntitlement = try choice(value)
        }
        if let value = fields["serviceExtensionMemoryLimit"] {
            settings.serviceExtensionMemoryLimit = try size(value, in: Self.extensionMemoryRange)
        }
        if let value = fields["serviceExtensionWhenProvisional"] {
            settings.serviceExtensionWhenProvisional = try choice(value)
        }
        if let value = fields["storageKeeps"] { settings.storageKeeps = try choice(value) }
        if let value = fields["storageSlot"] { settings.storageSlot = try choice(value) }
        if let value = fields["storageWithoutExpiration"] {
            settings.storageWithoutExpiration = DurationText.seconds(try duration(value, in: Self.storageRange))
        }
        if let value = fields["expirationZeroGrace"] {
            settings.expirationZeroGrace = DurationText.seconds(try duration(value, in: Self.zeroGraceRange))
        }
        if let value = fields["unregisteredAfter"] {
            if case .scalar(let scalar) = value.node, scalar.string == "never", !value.isQuoted {
                settings.unregisteredAfter = nil
            } else {
                settings.unregisteredAfter = DurationText.seconds(try duration(value, in: Self.unregisteredRange))
            }
        }
        if let value = fields["notificationCenterLimit"] {
            settings.notificationCenterLimit = try value.integer(in: Self.notificationListRange)
        }
        if let value = fields["pttAfterForceQuit"] { settings.pttAfterForceQuit = try choice(value) }
        if let value = fields["complicationPerDay"] {
            settings.complicationPerDay = try count(value, orWord: "unlimited", in: Self.dailyBudgetRange)
        }
        if let value = fields["widgetPushesPerDay"] {
            settings.widgetPushesPerDay = try count(value, orWord: "unlimited", in: Self.dailyBudgetRange)
        }
        return settings
    }

    /// One of an enumeration's names, with a suggestion when it is close to one.
    func choice<Value: RawRepresentable & CaseIterable>(_ field: Field) throws(ScenarioError) -> Value
    where Value.RawValue == String {
        let text = try field.string()
        if let value = Value(rawValue: text) { return value }
        let names = Value.allCases.map(\.rawValue)
        throw field.error(
            "must be one of: \(names.joined(separator: ", ")); got \(field.shortDescription)"
                + NameSuggestion.hint(for: text, among: names))
    }

    /// A count within `range` (`pushCountRange` unless given), or `word` (`unlimited`, `off`) for `nil`.
    func count(
        _ field: Field, orWord word: String, in range: ClosedRange<Int> = ScenarioLoader.Reader.pushCountRange
    ) throws(ScenarioError) -> Int? {
        if case .scalar(let scalar) = field.node, scalar.string == word, !field.isQuoted { return nil }
        guard field.tagName == .int, !field.isQuoted else {
            throw field.error(
                "expected a number (at least \(range.lowerBound)) or \(word); got " + field.shortDescription)
        }
        return try field.integer(in: range)
    }

    /// A size (`24MiB`, `4096`) within `range`, in bytes.
    func size(_ field: Field, in range: ClosedRange<Int>) throws(ScenarioError) -> Int {
        switch ByteSizeText.parse(try field.string(), in: range) {
        case .success(let bytes): return bytes
        case .failure(let problem): throw field.error(problem.message)
        }
    }
}

extension SimulationSettings {
    /// The settings as a scenario file's `simulation:` section: only those that differ from the defaults, in the
    /// order of the scenario documentation (an empty mapping for the defaults). Loading it gives these back.
    public var scenarioJSON: JSONValue {
        let defaults = SimulationSettings()
        var members: [(String, JSONValue)] = []
        func add<T: Equatable>(_ name: String, _ value: T, _ standard: T, _ json: (T) -> JSONValue) {
            if value != standard { members.append((name, json(value))) }
        }
        func count(_ word: String) -> (Int?) -> JSONValue { { $0.map { .number(String($0)) } ?? .string(word) } }
        add("enabled", enabled, defaults.enabled) { .bool($0) }
        add("backgroundWhenDenied", backgroundWhenDenied, defaults.backgroundWhenDenied) { .string($0.rawValue) }
        add("backgroundBudget", backgroundBudget, defaults.backgroundBudget, count("unlimited"))
        add("backgroundBudgetWindow", backgroundBudgetWindow, defaults.backgroundBudgetWindow) {
            .string(ScenarioLoader.Reader.durationText($0))
        }
        add("backgroundBudgetCountsAlerts", backgroundBudgetCountsAlerts, defaults.backgroundBudgetCountsAlerts) {
            .bool($0)
        }
        add("heldRelease", heldRelease, defaults.heldRelease) { .string($0.rawValue) }
        add("powerStorage", powerStorage, defaults.powerStorage) { .string($0.rawValue) }
        add("backgroundPriorityTen", backgroundPriorityTen, defaults.backgroundPriorityTen) { .string($0.rawValue) }
        add("inactiveAppAfter", inactiveAppAfter, defaults.inactiveAppAfter) {
            $0.map { .string(ScenarioLoader.Reader.durationText($0)) } ?? .string("off")
        }
        add("voipSuspendAfter", voipSuspendAfter, defaults.voipSuspendAfter, count("off"))
        add("voipMustReport", voipMustReport, defaults.voipMustReport) { .string($0.rawValue) }
        add("criticalWithoutEntitlement", criticalWithoutEntitlement, defaults.criticalWithoutEntitlement) {
            .string($0.rawValue)
        }
        add(
            "timeSensitiveWithoutEntitlement", timeSensitiveWithoutEntitlement,
            defaults.timeSensitiveWithoutEntitlement
        ) { .string($0.rawValue) }
        add("serviceExtensionMemoryLimit", serviceExtensionMemoryLimit, defaults.serviceExtensionMemoryLimit) {
            .string(ByteSizeText.text($0))
        }
        add(
            "serviceExtensionWhenProvisional", serviceExtensionWhenProvisional,
            defaults.serviceExtensionWhenProvisional
        ) { .string($0.rawValue) }
        let duration: (TimeInterval) -> JSONValue = { .string(ScenarioLoader.Reader.durationText($0)) }
        add("storageKeeps", storageKeeps, defaults.storageKeeps) { .string($0.rawValue) }
        add("storageSlot", storageSlot, defaults.storageSlot) { .string($0.rawValue) }
        add("storageWithoutExpiration", storageWithoutExpiration, defaults.storageWithoutExpiration, duration)
        add("expirationZeroGrace", expirationZeroGrace, defaults.expirationZeroGrace, duration)
        add("unregisteredAfter", unregisteredAfter, defaults.unregisteredAfter) { $0.map(duration) ?? .string("never") }
        add("notificationCenterLimit", notificationCenterLimit, defaults.notificationCenterLimit) {
            .number(String($0))
        }
        add("pttAfterForceQuit", pttAfterForceQuit, defaults.pttAfterForceQuit) { .string($0.rawValue) }
        add("complicationPerDay", complicationPerDay, defaults.complicationPerDay, count("unlimited"))
        add("widgetPushesPerDay", widgetPushesPerDay, defaults.widgetPushesPerDay, count("unlimited"))
        return .object(members)
    }
}
