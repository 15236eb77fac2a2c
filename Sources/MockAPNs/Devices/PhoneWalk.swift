import Foundation

/// One push's way through APNs's storage and the phone (phone.md §1, §4): the walk per push type, run on the
/// phone the push goes to, giving the record's `DeviceOutcome`.
///
/// The first step with an outcome ends the walk; modifiers (a sound the app does not bundle, a downgraded level)
/// add to the trace with a warning or a note. The walk changes the phone where the push leaves something behind
/// (a background push in the budget window, a held push, a collapse id, a VoIP failure, a stored push) and says so
/// (`changed`); what it does to other pushes (replaced in storage or on the list) it gives as `events`.
///
/// Made on every push: its optional properties are spelled `Optional<…>`, never `T?`, whose implicit `nil` made
/// Swift build the value aside and copy it out (`HotPathOptionalsTests` says why).
struct PhoneWalk {
    /// What the push is.
    let request: APNsRequest.Content
    /// What the phone reads of its payload.
    let facts: PushFacts
    /// The push type it was taken as.
    let pushType: APNsPushType
    /// `apns-priority`, 10 when absent.
    let priority: Int
    /// The app the push is for: the topic without a push-type suffix.
    let bundleID: String
    /// The device token it was sent to (lower-case): with the topic, its storage slot.
    let token: String
    /// What the app's code does, as the scenario declares it (behind one reference: the walk is copied).
    let appCode: PhoneSetup.AppCode
    /// What the app's code does.
    var app: AppBehaviour { appCode.behaviour }
    /// The settings for what Apple leaves open.
    let settings: SimulationSettings
    /// The mock's clock when the push arrived.
    let now: Date
    /// When the scenario was loaded: an app's `lastOpened` until the person opens it.
    let loadedAt: Date
    /// The words kept from the last walks on the connection (`Texts`); a fresh set for a walk on its own.
    let texts: Texts

    /// Every rule that fired so far, in order.
    var trace: [DeviceRule] = []
    /// The warnings so far (likely provider or app bugs).
    var warnings: [String] = []
    /// The notes so far (facts, open settings that decided).
    var notes: [String] = []
    /// Whether the walk changed the phone.
    var changed = false
    /// The first modifier that warned, or a collapse: the record's rule when the kind is the plain result.
    var notable: Optional<DeviceRule> = nil
    /// This push's number, made when the phone keeps a reference to it.
    var number: Optional<PushNumber> = nil
    /// The payload, once a case of the app's parsed it (`AppCases.action`).
    var payload: Optional<JSONValue?>
    /// What the push did to other pushes (replaced one in storage or on the list), and what the phone settled
    /// before it: appended to the journal after the push's record.
    var events: [DeviceEvent] = []
    /// When the token went out of use: set when APNs answers 410 instead of 200 (an uninstalled app).
    var unregisteredSince: Optional<Date> = nil
    /// Whether the outcome counted from the app's `lastOpened` (an App Clip's 8 hours, `inactiveAppAfter`): it
    /// then changes as the clock moves, so the connection's memo must not keep it for the next push like it.
    var readLastOpened = false
    /// Why the push reaches the phone late (from storage, within `expirationZeroGrace`); `nil` when it arrives as
    /// sent. A late VoIP push need not be reported under `voipMustReport: ios26`.
    var late: Optional<String> = nil
    /// The person a communication notification is from, once the service extension made the alert one (and the
    /// app has the entitlement): a Focus lets it through when it allows them.
    var communication: Optional<String> = nil

    /// The walk of `request` to `token` for `bundleID`, whose code does what `app` declares, at `now`; `texts` are
    /// the connection's (`ValidationMemo.walkTexts`), or a fresh set.
    init(
        request: APNsRequest.Content, facts: PushFacts, pushType: APNsPushType, bundleID: String, token: String,
        app: PhoneSetup.AppCode, settings: SimulationSettings, now: Date, loadedAt: Date, texts: Texts = Texts()
    ) {
        self.request = request
        self.facts = facts
        self.pushType = pushType
        self.priority = request.fields.priority.flatMap { Int($0) } ?? 10
        self.bundleID = bundleID
        self.token = token
        self.appCode = app
        self.settings = settings
        self.now = now
        self.loadedAt = loadedAt
        self.texts = texts
        self.payload = .some(facts.payload)
    }

    /// This push's number, made on first use: the phone is about to keep a reference to the push.
    mutating func pushNumber() -> PushNumber {
        if let number { return number }
        let made = PushNumber()
        number = made
        return made
    }

    /// Walks the push through APNs's stage and the phone's; `nil` for a push type the phone does not play here
    /// (Live Activities have their own walk).
    mutating func run(on phone: inout Phone) -> DeviceOutcome? {
        // Room for a step and a few modifiers at once: growing from one rule to two was an allocation of its own on
        // every background push past the rate Apple advises (`bench/alloc-count.sh`).
        trace.reserveCapacity(4)
        // phone.md §3: custom keys that do not decode into the app's `payload` types (only when it declares them).
        if let types = app.payload { checkPayloadTypes(types) }
        let isVoIP = pushType == .voip
        guard isVoIP || pushType == .alert || pushType == .background else { return runOther(on: &phone) }
        let appState = phone.state.app(bundleID)
        // §1 step 1: "the app is uninstalled on the token's phone" (seen).
        if !appState.installed { return uninstalled(on: &phone) }
        // §1 step 2: "authorization: denied. APNs discards an alert and still answers 200" (doc, *Metrics*).
        var alertDiscarded = false
        if !isVoIP, appState.authorization == .denied {
            let denied =
                "the person turned off notifications for \(bundleID): APNs discards the push (Discarded – Disabled) "
                + "and still answers 200"
            // Only a push that would launch the app has a part that is not an alert.
            let launches = facts.contentAvailable
            if !launches || settings.backgroundWhenDenied == .discard {
                if launches { notes.append("open: backgroundWhenDenied = discard") }
                return decided(.discarded, .notificationsDisabled, denied)
            }
            notes.append("open: backgroundWhenDenied = deliver")
            if !facts.isBackgroundOnly {
                alertDiscarded = true
                trace.append(.notificationsDisabled)
                notes.append("notifications-disabled: the alert part is discarded; the launch goes on")
            }
        }
        // §1 steps 3 and 4: an offline phone.
        if !phone.state.online { return store(on: &phone) }
        // §1 step 5: "priority 5 and 1 wait while Low Power Mode is on" (doc, *Metrics*), under `powerStorage`.
        if phone.state.lowPowerMode, settings.powerStorage == .lowPriority, let stored = powerStep(on: &phone) {
            return stored
        }
        return deviceStage(on: &phone, alertDiscarded: alertDiscarded)
    }

    /// The device stage (phone.md §4): the walk of the push's type.
    private mutating func deviceStage(on phone: inout Phone, alertDiscarded: Bool) -> DeviceOutcome {
        if pushType == .voip { return voip(on: &phone) }
        noteTypeMismatch()
        if facts.isBackgroundOnly || alertDiscarded { return background(on: &phone) }
        return alert(on: &phone)
    }

    /// The walk of the push types that are not notifications (phone.md §4, "The others"): APNs's stage (§1 steps
    /// 1, 3, 4 and 5; the person's notification setting does not apply to them), then the push type's own walk.
    private mutating func runOther(on phone: inout Phone) -> DeviceOutcome? {
        switch pushType {
        case .pushtotalk, .location, .complication, .widgets, .controls, .fileprovider, .mdm: break
        default: return nil
        }
        if !phone.state.app(bundleID).installed { return uninstalled(on: &phone) }
        if !phone.state.online { return store(on: &phone) }
        if phone.state.lowPowerMode, settings.powerStorage == .lowPriority, let stored = powerStep(on: &phone) {
            return stored
        }
        switch pushType {
        case .pushtotalk: return pushToTalk(on: &phone)
        case .location: return location(on: &phone)
        case .complication: return complication(on: &phone)
        case .widgets, .controls: return widgets(on: &phone)
        case .fileprovider: return fileProvider()
        default: return mdm()
        }
    }

    /// §1 step 5 on a phone in Low Power Mode under `powerStorage: lowPriority`: APNs stores a priority-5 or
    /// priority-1 push until Low Power Mode ends; `nil` for any other, which goes on to the device stage.
    private mutating func powerStep(on phone: inout Phone) -> DeviceOutcome? {
        let zero = request.fields.expiration == "0"
        if settings.storesForPower(priority: priority, zeroExpiration: zero) { return store(on: &phone, power: true) }
        if zero, priority == 5 || priority == 1 {
            notes.append(
                "powerStorage: apns-expiration 0 is now or never, so APNs does not store the push for Low Power "
                    + "Mode: the phone gets it now")
        }
        return nil
    }

    /// A push type the payload disagrees with: what the same tests saw (phone.md §1, open; the payload decides).
    private mutating func noteTypeMismatch() {
        if pushType == .background, facts.hasVisibleContent {
            notes.append(
                "a background push with alert content: the payload decides here, but tests saw such a push not "
                    + "shown, though the app woke (forums/745345)")
        } else if pushType == .alert, priority == 5, facts.isBackgroundOnly {
            notes.append(
                "an alert push with only content-available: the payload decides here, but tests saw such a push "
                    + "at priority 5 not wake the app (forums/745345)")
        }
    }

    /// Where a walk ends: the kind, the rule that set it, and why.
    struct Step {
        /// What happened.
        var kind: DeviceOutcome.Kind
        /// The rule that decided.
        var rule: DeviceRule
        /// Why, in plain words.
        var reason: String

        /// A step of `kind`, decided by `rule`, for `reason`.
        init(_ kind: DeviceOutcome.Kind, _ rule: DeviceRule, _ reason: String) {
            self.kind = kind
            self.rule = rule
            self.reason = reason
        }
    }

    /// The outcome of `kind`, decided by `rule`, with the trace, warnings and notes gathered so far.
    mutating func decided(_ kind: DeviceOutcome.Kind, _ rule: DeviceRule, _ reason: String) -> DeviceOutcome {
        trace.append(rule)
        return outcome(Step(kind, rule, reason), related: nil)
    }

    /// The outcome of `step`, whose rule is in the trace already. When the step is the push type's plain result
    /// (`alert-shown`, `background-launched`), the record's rule is the first modifier that warned or collapsed,
    /// if any (phone.md §5, "Fields").
    func outcome(_ step: Step, related: UInt64?) -> DeviceOutcome {
        let plain = step.rule == .alertShown || step.rule == .backgroundLaunched
        // Made whole: set up after it was made, it was copied once more per walk (its arrays retained and released).
        return DeviceOutcome(
            step.kind, rule: plain ? notable ?? step.rule : step.rule, reason: step.reason, trace: trace,
            related: related, warnings: warnings, notes: notes, communicationSender: communication)
    }

    /// Adds a modifier: its rule to the trace, its words to the warnings or the notes (prefixed with its id).
    mutating func modifier(_ rule: DeviceRule, warning: Bool, _ text: String) {
        modifier(rule, warning: warning, worded: Self.worded(rule, text))
    }

    /// Adds a modifier whose words carry their prefix already (`worded(_:_:)`): words the walk's `texts` kept.
    mutating func modifier(_ rule: DeviceRule, warning: Bool, worded: String) {
        trace.append(rule)
        if warning {
            warnings.append(worded)
            notable = notable ?? rule
        } else {
            notes.append(worded)
        }
    }

    /// A modifier's words as the record shows them: prefixed with its rule's id.
    static func worded(_ rule: DeviceRule, _ text: String) -> String { "\(rule.id): \(text)" }

    /// Whether the app has `entitlement`; an app that declares none is assumed to, with a note.
    mutating func has(_ entitlement: AppBehaviour.Entitlement, for what: String) -> Bool {
        guard let entitlements = app.entitlements else {
            notes.append(
                "\(bundleID) declares no entitlements: \(entitlement.rawValue) is assumed for \(what)")
            return true
        }
        return entitlements.contains(entitlement)
    }
}
