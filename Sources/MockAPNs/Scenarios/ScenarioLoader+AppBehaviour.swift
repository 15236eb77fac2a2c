import Foundation

extension ScenarioLoader.Reader {
    /// The fields of an `apps:` entry that say what the app's code does (phone.md §3).
    static let appBehaviourFields = [
        "entitlements", "backgroundModes", "appClip", "willPresent", "categories", "sounds", "serviceExtension",
        "backgroundHandler", "voip", "pushToTalk", "locationExtension", "fileProviderDomains", "payload",
    ]
    /// The most File Provider domains an app may declare.
    static let fileProviderDomainLimit = 1_000
    /// The fields of `serviceExtension`.
    static let serviceExtensionFields = ["does", "set", "peakMemory", "protectedData", "communication", "cases"]
    /// The fields of a case.
    static let caseFields = ["match", "does", "set"]
    /// The fields of a service extension's case: a case's, and the communication notification it makes.
    static let serviceExtensionCaseFields = caseFields + ["communication"]
    /// The fields a service extension's `set` writes.
    static let contentChangeFields = ["title", "subtitle", "body", "sound"]
    /// The longest sound a scenario may declare: a day (iOS plays at most 30 s).
    static let soundLengthRange = Duration.zero...Duration.seconds(86_400)
    /// The most cases one behaviour may list.
    static let caseLimit = 1_000

    /// What each app of the `apps` list declares about its code, by bundle id; an app that declares nothing is
    /// left out.
    func appBehaviours(_ field: Field) throws(ScenarioError) -> [String: AppBehaviour] {
        var behaviours = [String: AppBehaviour]()
        for element in try field.list() {
            let fields = try element.mapping(known: ["bundleID", "teamID"] + Self.appBehaviourFields)
            let behaviour = try appBehaviour(fields)
            if !behaviour.isUndeclared { behaviours[try bundleID(try fields.required("bundleID"))] = behaviour }
        }
        return behaviours
    }

    /// One app's declarations.
    private func appBehaviour(_ fields: Fields) throws(ScenarioError) -> AppBehaviour {
        var app = AppBehaviour()
        if let value = fields["entitlements"] { app.entitlements = try names(value) }
        if let value = fields["backgroundModes"] { app.backgroundModes = try names(value) }
        if let value = fields["appClip"] { app.appClip = try value.bool() }
        if let value = fields["willPresent"] { app.willPresent = try willPresent(value) }
        if let value = fields["categories"] {
            var categories = Set<String>()
            for category in try value.list() { categories.insert(try category.string()) }
            app.categories = categories
        }
        if let value = fields["sounds"] { app.sounds = try sounds(value) }
        if let value = fields["serviceExtension"] { app.serviceExtension = try serviceExtension(value) }
        if let value = fields["backgroundHandler"] {
            app.backgroundHandler = try cases(value, otherwise: .completes) { (_, does, set) throws(ScenarioError) in
                if let set { throw set.error("a background handler's case takes no set") }
                let handling: AppBehaviour.BackgroundHandling = try choice(does)
                return handling
            }
        }
        if let value = fields["voip"] {
            app.voip = try cases(value, otherwise: AppBehaviour.VoIPHandling(reports: true)) {
                (_, does, set) throws(ScenarioError) in
                let reports = try does.choice(["reports": true, "doesNotReport": false])
                var handling = AppBehaviour.VoIPHandling(reports: reports)
                if let set {
                    let fields = try set.mapping(known: ["caller"])
                    handling.caller = try fields["caller"]?.string()
                }
                return handling
            }
        }
        if let value = fields["pushToTalk"] {
            app.pushToTalk = try cases(value, otherwise: .activeParticipant) { (_, does, set) throws(ScenarioError) in
                if let set { throw set.error("a Push to Talk case takes no set") }
                let result: AppBehaviour.PushToTalkResult = try choice(does)
                return result
            }
        }
        if let value = fields["locationExtension"] {
            app.locationExtension = try cases(value, otherwise: .completes) { (_, does, set) throws(ScenarioError) in
                if let set { throw set.error("a location extension's case takes no set") }
                let handling: AppBehaviour.LocationExtensionHandling = try choice(does)
                return handling
            }
        }
        if let value = fields["fileProviderDomains"] { app.fileProviderDomains = try domains(value) }
        if let value = fields["payload"] { app.payload = try payloadTypes(value) }
        return app
    }

    /// `fileProviderDomains`: the domain identifiers the app adds, each once.
    private func domains(_ field: Field) throws(ScenarioError) -> Set<String> {
        let elements = try field.list()
        guard elements.count <= Self.fileProviderDomainLimit else {
            throw field.error("at most \(Self.fileProviderDomainLimit) domains, got \(elements.count)")
        }
        var domains = Set<String>()
        for element in elements {
            let domain = try element.string()
            guard !domain.isEmpty else { throw element.error("a domain identifier cannot be empty") }
            guard domains.insert(domain).inserted else { throw element.error("\(domain) is given twice") }
        }
        return domains
    }

    /// A list of an enumeration's names, each once.
    private func names<Value: RawRepresentable & CaseIterable & Hashable>(
        _ field: Field
    ) throws(ScenarioError)
        -> Set<Value> where Value.RawValue == String
    {
        var values = Set<Value>()
        for element in try field.list() {
            let value: Value = try choice(element)
            guard values.insert(value).inserted else { throw element.error("\(value.rawValue) is given twice") }
        }
        return values
    }

    /// `willPresent`: a list of options (`[]` presents nothing), `notImplemented` or `noDelegate`.
    private func willPresent(_ field: Field) throws(ScenarioError) -> AppBehaviour.WillPresent {
        if case .sequence = field.node { return .options(try names(field)) }
        return try field.choice(["notImplemented": .notImplemented, "noDelegate": .noDelegate])
    }

    /// `sounds`: a list of file names, or file names mapped to their lengths (`siren.caf: 45s`, or null).
    private func sounds(_ field: Field) throws(ScenarioError) -> [String: Double?] {
        var sounds = [String: Double?]()
        if case .sequence = field.node {
            for element in try field.list() { sounds[try element.string()] = .some(nil) }
            return sounds
        }
        for (name, length) in try field.freeMapping() {
            sounds[name] =
                length.isNull ? .some(nil) : DurationText.seconds(try duration(length, in: Self.soundLengthRange))
        }
        return sounds
    }

    /// `serviceExtension`: `none`, or how it behaves.
    private func serviceExtension(_ field: Field) throws(ScenarioError) -> AppBehaviour.ExtensionDeclaration {
        if case .scalar = field.node {
            guard try field.string() == "none" else {
                throw field.error(
                    "expected none or a mapping with \(Self.serviceExtensionFields.joined(separator: ", ")); got "
                        + field.shortDescription)
            }
            return .absent
        }
        let fields = try field.mapping(known: Self.serviceExtensionFields)
        var declared = ServiceExtension()
        var otherwise = ServiceExtension.Handling(.modify)
        if let does = fields["does"] { otherwise.does = try choice(does) }
        if let set = fields["set"] { otherwise.set = try contentChange(set) }
        if let value = fields["communication"] { otherwise.communicationSender = try communicationSender(value) }
        declared.handling = AppCases(otherwise)
        if let value = fields["cases"] {
            declared.handling.cases = try caseList(value, known: Self.serviceExtensionCaseFields) {
                (entry, does, set) throws(ScenarioError) in
                var handling = ServiceExtension.Handling(try choice(does))
                if let set { handling.set = try contentChange(set) }
                if let value = try entry.mapping(known: Self.serviceExtensionCaseFields)["communication"] {
                    handling.communicationSender = try communicationSender(value)
                }
                return handling
            }
        }
        if let value = fields["peakMemory"] { declared.peakMemory = try size(value, in: 0...(1 << 40)) }
        if let value = fields["protectedData"] { declared.protectedData = try value.bool() }
        return .present(declared)
    }

    /// `communication: { sender }`: the person a communication notification is from (a Focus's `allowedPeople`
    /// names them the same way).
    private func communicationSender(_ field: Field) throws(ScenarioError) -> String {
        let fields = try field.mapping(known: ["sender"])
        let sender = try fields.required("sender")
        let name = try sender.string()
        guard !name.isEmpty else { throw sender.error("the sender cannot be empty: name the person, like Mum") }
        return name
    }

    /// What a service extension writes: `title`, `subtitle`, `body`, `sound`.
    private func contentChange(_ field: Field) throws(ScenarioError) -> ServiceExtension.ContentChange {
        let fields = try field.mapping(known: Self.contentChangeFields)
        return ServiceExtension.ContentChange(
            title: try fields["title"]?.string(), subtitle: try fields["subtitle"]?.string(),
            body: try fields["body"]?.string(), sound: try fields["sound"]?.string())
    }

    /// A behaviour given as one word (`reports`) or as a list of cases; a last case without `match` is the default
    /// for the pushes no other case takes.
    private func cases<Action: Sendable & Hashable>(
        _ field: Field, otherwise: Action,
        _ read: (_ case: Field, _ does: Field, _ set: Field?) throws(ScenarioError) -> Action
    ) throws(ScenarioError) -> AppCases<Action> {
        guard case .sequence = field.node else { return AppCases(try read(field, field, nil)) }
        var cases = try caseList(field, read)
        // A last case without `match` takes every push left: it is the default (as the document writes it back).
        if let last = cases.last, last.match == nil {
            cases.removeLast()
            return AppCases(last.action, cases: cases)
        }
        return AppCases(otherwise, cases: cases)
    }

    /// `[{ match, does, set }]`: `match` is the `rules[].match` grammar (none: every push), `does` required; `known`
    /// is every field a case of this behaviour takes (a service extension's also takes `communication`).
    private func caseList<Action: Sendable & Hashable>(
        _ field: Field, known: [String] = caseFields,
        _ read: (_ case: Field, _ does: Field, _ set: Field?) throws(ScenarioError) -> Action
    ) throws(ScenarioError) -> [AppCases<Action>.Case] {
        let elements = try field.list()
        guard elements.count <= Self.caseLimit else {
            throw field.error("at most \(Self.caseLimit) cases, got \(elements.count)")
        }
        var cases = [AppCases<Action>.Case]()
        for element in elements {
            let fields = try element.mapping(known: known)
            let match = try fields["match"].map { (match: Field) throws(ScenarioError) in
                try self.match(match, allowsDevice: false)
            }
            cases.append(.init(match: match, action: try read(element, try fields.required("does"), fields["set"])))
        }
        return cases
    }
}

extension AppBehaviour {
    /// The declared fields as members of a scenario file's `apps:` entry, in the order of phone.md §3 (none for
    /// an app that declares nothing). Loading them gives this behaviour back.
    public var scenarioMembers: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        func names<T: RawRepresentable & CaseIterable & Hashable>(_ set: Set<T>) -> JSONValue
        where T.RawValue == String {
            .array(T.allCases.filter(set.contains).map { .string($0.rawValue) })
        }
        if let entitlements { members.append(("entitlements", names(entitlements))) }
        if let backgroundModes { members.append(("backgroundModes", names(backgroundModes))) }
        if appClip { members.append(("appClip", .bool(true))) }
        switch willPresent {
        case .noDelegate: break
        case .notImplemented: members.append(("willPresent", "notImplemented"))
        case .options(let options): members.append(("willPresent", names(options)))
        }
        if let categories { members.append(("categories", .array(categories.sorted().map { .string($0) }))) }
        if let sounds {
            members.append(
                (
                    "sounds",
                    .object(
                        sounds.sorted { $0.key < $1.key }.map { name, length in
                            (name, length.map { .string(ScenarioLoader.Reader.durationText($0)) } ?? .null)
                        })
                ))
        }
        switch serviceExtension {
        case .undeclared: break
        case .absent: members.append(("serviceExtension", "none"))
        case .present(let declared): members.append(("serviceExtension", declared.scenarioJSON))
        }
        if !backgroundHandler.isPlain(.completes) {
            members.append(("backgroundHandler", backgroundHandler.scenarioJSON { .string($0.rawValue) }))
        }
        if !voip.isPlain(VoIPHandling(reports: true)) {
            let caller: (VoIPHandling) -> JSONValue? = { $0.caller.map { .object([("caller", .string($0))]) } }
            members.append(("voip", voip.scenarioJSON(set: caller) { $0.reports ? "reports" : "doesNotReport" }))
        }
        if !pushToTalk.isPlain(.activeParticipant) {
            members.append(("pushToTalk", pushToTalk.scenarioJSON { .string($0.rawValue) }))
        }
        if !locationExtension.isPlain(.completes) {
            members.append(("locationExtension", locationExtension.scenarioJSON { .string($0.rawValue) }))
        }
        if let fileProviderDomains {
            members.append(("fileProviderDomains", .array(fileProviderDomains.sorted().map { .string($0) })))
        }
        if let payload { members.append(("payload", payload.scenarioJSON)) }
        return members
    }
}

extension AppCases {
    /// The behaviour as a scenario writes it: the word for `otherwise` alone, else the list of cases (the last
    /// one without `match` when `otherwise` is not the field's default). `does` gives an action's word; an action
    /// with a `set` writes it through `set`.
    func scenarioJSON(
        set: (Action) -> JSONValue? = { _ in nil }, more: (Action) -> [(String, JSONValue)] = { _ in [] },
        _ does: (Action) -> JSONValue
    ) -> JSONValue {
        guard !cases.isEmpty else { return does(otherwise) }
        func entry(_ match: RuleMatch?, _ action: Action) -> JSONValue {
            var members: [(String, JSONValue)] = []
            if let match { members.append(("match", match.scenarioJSON)) }
            members.append(("does", does(action)))
            if let written = set(action) { members.append(("set", written)) }
            return .object(members + more(action))
        }
        return .array(cases.map { entry($0.match, $0.action) } + [entry(nil, otherwise)])
    }
}

extension ServiceExtension {
    /// The extension as a scenario's `serviceExtension:` mapping.
    var scenarioJSON: JSONValue {
        var members: [(String, JSONValue)] = [("does", .string(handling.otherwise.does.rawValue))]
        if !handling.otherwise.set.isEmpty { members.append(("set", handling.otherwise.set.scenarioJSON)) }
        if let peakMemory { members.append(("peakMemory", .string(ByteSizeText.text(peakMemory)))) }
        if protectedData { members.append(("protectedData", .bool(true))) }
        members += handling.otherwise.communicationJSON
        if !handling.cases.isEmpty {
            let cases = AppCases(handling.otherwise, cases: handling.cases)
            guard
                case .array(var entries) = cases.scenarioJSON(
                    set: { $0.set.isEmpty ? Optional<JSONValue>.none : $0.set.scenarioJSON },
                    more: \.communicationJSON, { .string($0.does.rawValue) })
            else { return .object(members) }
            entries.removeLast()  // `otherwise` is the mapping's own does and set
            members.append(("cases", .array(entries)))
        }
        return .object(members)
    }
}

extension ServiceExtension.Handling {
    /// `communication: { sender }` as a scenario writes it, when the handling makes a communication notification.
    var communicationJSON: [(String, JSONValue)] {
        communicationSender.map { [("communication", .object([("sender", .string($0))]))] } ?? []
    }
}

extension ServiceExtension.ContentChange {
    /// The parts set, as a scenario's `set:` mapping.
    var scenarioJSON: JSONValue {
        .object(
            [("title", title), ("subtitle", subtitle), ("body", body), ("sound", sound)].compactMap { name, value in
                value.map { (name, .string($0)) }
            })
    }
}
