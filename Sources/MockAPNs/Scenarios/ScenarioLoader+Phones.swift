import Foundation

extension ScenarioLoader.Reader {
    /// The fields of one phone (phone.md §2).
    static let phoneFields = ["online", "locked", "lowPowerMode", "focus", "scheduledSummary", "callActive", "apps"]
    /// The fields of a Focus.
    static let focusFields = ["name", "allowedApps", "timeSensitive", "allowedPeople", "filter"]
    /// The fields of an app on a phone.
    static let appOnPhoneFields = [
        "installed", "state", "authorization", "settings", "backgroundAppRefresh", "debugger", "voipFailures",
        "locationAuthorization", "pttChannel", "complicationOnFace", "lastOpened",
    ]
    /// The fields of an app's `settings`.
    static let notificationSettingsFields = NotificationSettings.switchNames + ["showPreviews"]
    /// How many VoIP failures a phone may be declared with.
    static let voipFailuresRange = 0...1_000_000
    /// The most phones a scenario declares.
    static let phoneLimit = 10_000

    /// The `phones` mapping: each phone's id and declared state.
    func phones(_ field: Field) throws(ScenarioError) -> [String: PhoneState] {
        var phones = [String: PhoneState]()
        let entries = try field.freeMapping()
        guard entries.count <= Self.phoneLimit else {
            throw field.error("at most \(Self.phoneLimit) phones may be declared, got \(entries.count)")
        }
        for (id, phone) in entries {
            try Self.checkPhoneID(id, at: phone)
            guard phones[id] == nil else { throw phone.error("phone '\(id)' is given twice") }
            phones[id] = try phoneState(phone, onto: PhoneState())
        }
        return phones
    }

    /// A phone id: a name a URL path takes as it is (letters, digits, `.`, `-`, `_`), 1 to 128 characters.
    static func checkPhoneID(_ id: String, at field: Field) throws(ScenarioError) {
        let allowed = id.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        guard allowed, (1...128).contains(id.utf8.count) else {
            throw field.error(
                "a phone id is 1 to 128 letters, digits, '.', '-' or '_' (such as alice), got '\(id.prefix(40))'")
        }
    }

    /// A phone's fields written over `base` (a scenario's phone starts from the defaults, a `PATCH` from the
    /// phone's state now); `null` clears the Focus.
    func phoneState(_ field: Field, onto base: PhoneState) throws(ScenarioError) -> PhoneState {
        if field.isNull { return base }
        let fields = try field.mapping(known: Self.phoneFields)
        var state = base
        if let value = fields["online"] { state.online = try value.bool() }
        if let value = fields["locked"] { state.locked = try value.bool() }
        if let value = fields["lowPowerMode"] { state.lowPowerMode = try value.bool() }
        if let entry = fields.entries.first(where: { $0.key == "focus" }) {
            state.focus = entry.field.isNull ? nil : try focus(entry.field)
        }
        if let value = fields["scheduledSummary"] { state.scheduledSummary = try value.bool() }
        if let value = fields["callActive"] { state.callActive = try value.bool() }
        if let apps = fields["apps"] {
            for (bundle, app) in try apps.freeMapping() {
                guard BundleID.isPlausible(bundle) else {
                    throw app.error("expected a bundle id such as com.example.app, got '\(bundle.prefix(40))'")
                }
                guard state.apps[bundle] != nil || state.apps.count < PhoneState.appLimit else {
                    throw app.error("a phone keeps at most \(PhoneState.appLimit) apps")
                }
                state.apps[bundle] = try appOnPhone(app, onto: state.app(bundle))
            }
        }
        return state
    }

    /// A Focus: `name` (required) and who may interrupt.
    func focus(_ field: Field) throws(ScenarioError) -> PhoneFocus {
        let fields = try field.mapping(known: Self.focusFields)
        let nameField = try fields.required("name")
        let name = try nameField.string()
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw nameField.error("a Focus needs a name, such as Work or Sleep")
        }
        var focus = PhoneFocus(name: name)
        if let value = fields["allowedApps"] {
            for app in try value.list() { focus.allowedApps.append(try bundleID(app)) }
        }
        if let value = fields["timeSensitive"] { focus.timeSensitive = try value.bool() }
        if let value = fields["allowedPeople"] {
            for person in try value.list() { focus.allowedPeople.append(try person.string()) }
        }
        if let value = fields["filter"] { focus.filter = try value.string() }
        return focus
    }

    /// An app on a phone, its fields written over `base`.
    func appOnPhone(_ field: Field, onto base: AppOnPhone) throws(ScenarioError) -> AppOnPhone {
        if field.isNull { return base }
        let fields = try field.mapping(known: Self.appOnPhoneFields)
        var app = base
        if let value = fields["installed"] { app.installed = try value.bool() }
        if let value = fields["state"] { app.state = try choice(value) }
        if let value = fields["authorization"] { app.authorization = try choice(value) }
        if let value = fields["settings"] {
            let settings = try value.mapping(known: Self.notificationSettingsFields)
            for (name, setting) in settings.entries where !setting.isNull {
                if name == "showPreviews" {
                    app.settings.showPreviews = try choice(setting)
                } else {
                    app.settings[switch: name] = try setting.bool()
                }
            }
        }
        if let value = fields["backgroundAppRefresh"] { app.backgroundAppRefresh = try value.bool() }
        if let value = fields["debugger"] { app.debugger = try value.bool() }
        if let value = fields["voipFailures"] { app.voipFailures = try value.integer(in: Self.voipFailuresRange) }
        if let value = fields["locationAuthorization"] { app.locationAuthorization = try choice(value) }
        if let value = fields["pttChannel"] { app.pttChannel = try choice(value) }
        if let value = fields["complicationOnFace"] { app.complicationOnFace = try value.bool() }
        // A time as `since` takes it; `null`: back to the scenario's load time.
        if let entry = fields.entries.first(where: { $0.key == "lastOpened" }) {
            app.lastOpened = entry.field.isNull ? nil : try date(entry.field)
        }
        return app
    }
}

extension PhoneState {
    /// The phone as a scenario file's `phones:` entry: the fields that differ from the defaults, and each app
    /// the phone has state for (its fields that differ). Loading it gives this state back.
    public var scenarioJSON: JSONValue {
        let defaults = PhoneState()
        var members: [(String, JSONValue)] = []
        if online != defaults.online { members.append(("online", .bool(online))) }
        if locked != defaults.locked { members.append(("locked", .bool(locked))) }
        if lowPowerMode != defaults.lowPowerMode { members.append(("lowPowerMode", .bool(lowPowerMode))) }
        if let focus { members.append(("focus", focus.json)) }
        if scheduledSummary { members.append(("scheduledSummary", .bool(true))) }
        if callActive { members.append(("callActive", .bool(true))) }
        if !apps.isEmpty {
            members.append(("apps", .object(apps.sorted { $0.key < $1.key }.map { ($0.key, $0.value.scenarioJSON) })))
        }
        return .object(members)
    }
}

extension AppOnPhone {
    /// The app's fields that differ from the defaults (a scenario's `phones.<id>.apps` entry).
    public var scenarioJSON: JSONValue {
        let defaults = AppOnPhone()
        var members: [(String, JSONValue)] = []
        if installed != defaults.installed { members.append(("installed", .bool(installed))) }
        if state != defaults.state { members.append(("state", .string(state.rawValue))) }
        if authorization != defaults.authorization {
            members.append(("authorization", .string(authorization.rawValue)))
        }
        if settings != defaults.settings { members.append(("settings", settings.changedJSON)) }
        if backgroundAppRefresh != defaults.backgroundAppRefresh {
            members.append(("backgroundAppRefresh", .bool(backgroundAppRefresh)))
        }
        if debugger { members.append(("debugger", .bool(true))) }
        if voipFailures != 0 { members.append(("voipFailures", .number(String(voipFailures)))) }
        if locationAuthorization != defaults.locationAuthorization {
            members.append(("locationAuthorization", .string(locationAuthorization.rawValue)))
        }
        if pttChannel != defaults.pttChannel { members.append(("pttChannel", .string(pttChannel.rawValue))) }
        if !complicationOnFace { members.append(("complicationOnFace", .bool(false))) }
        if let lastOpened { members.append(("lastOpened", .string(Timestamp.text(lastOpened)))) }
        return .object(members)
    }
}

extension NotificationSettings {
    /// The settings that differ from the defaults.
    var changedJSON: JSONValue {
        let defaults = NotificationSettings()
        var members: [(String, JSONValue)] = Self.switchNames.compactMap { name in
            self[switch: name] == defaults[switch: name] ? nil : (name, .bool(self[switch: name]))
        }
        if showPreviews != defaults.showPreviews { members.append(("showPreviews", .string(showPreviews.rawValue))) }
        return .object(members)
    }
}
