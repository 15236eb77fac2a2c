/// What a scenario declares about an app's code (phone.md §3): its entitlements and background modes, what its
/// delegate and extensions do, what it registers and bundles. Every field is optional: an absent one is unknown,
/// and a rule that needs it adds a note and changes nothing (phone.md, principle 3).
public struct AppBehaviour: Sendable {
    /// An entitlement or capability the app may have.
    public enum Entitlement: String, Sendable, Hashable, CaseIterable {
        /// `com.apple.developer.usernotifications.critical-alerts`.
        case criticalAlerts
        /// `com.apple.developer.usernotifications.time-sensitive`.
        case timeSensitive
        /// `com.apple.developer.usernotifications.communication`: the service extension may turn a notification into a
        /// communication notification (from a person, with their avatar; a Focus may allow that person).
        case communication
        /// `com.apple.developer.usernotifications.filtering`: the service extension may suppress a notification.
        case filtering
        /// `com.apple.developer.location.push`.
        case locationPush
        /// Push to Talk.
        case pushToTalk
    }

    /// A background mode in the app's `UIBackgroundModes`.
    public enum BackgroundMode: String, Sendable, Hashable, CaseIterable {
        /// Background pushes launch the app.
        case remoteNotification = "remote-notification"
        /// VoIP pushes.
        case voip
        /// Push to Talk.
        case pushToTalk = "push-to-talk"
        /// Location updates.
        case location
    }

    /// What `userNotificationCenter(_:willPresent:)` does while the app is in the foreground.
    public enum WillPresent: Sendable, Hashable {
        /// It returns these options; an empty set presents nothing.
        case options(Set<PresentOption>)
        /// The delegate does not implement it: nothing is presented.
        case notImplemented
        /// No delegate is set: the notification's own options (open, phone.md §4).
        case noDelegate
    }

    /// One option `willPresent` can return.
    public enum PresentOption: String, Sendable, Hashable, CaseIterable {
        /// A banner.
        case banner
        /// Into Notification Center.
        case list
        /// The sound.
        case sound
        /// The badge.
        case badge
    }

    /// The entitlements the app has; `nil`: not declared (each assumed present, with a note).
    public var entitlements: Set<Entitlement>?
    /// The background modes; `nil`: not declared (assumed present).
    public var backgroundModes: Set<BackgroundMode>?
    /// Whether the app is an App Clip: its notification permission lasts 8 hours after each launch
    /// (`ephemeral-expired`), and it has no notification service extension (`nse-app-clip`).
    public var appClip = false
    /// What the foreground delegate does.
    public var willPresent = WillPresent.noDelegate
    /// The notification categories the app registers at launch; `nil`: not checked.
    public var categories: Set<String>?
    /// The sound files the app bundles, with their length in seconds when given; `nil`: not checked.
    public var sounds: [String: Double?]?
    /// The notification service extension, as far as the scenario says.
    public var serviceExtension = ExtensionDeclaration.undeclared
    /// What `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)` does.
    public var backgroundHandler = AppCases(BackgroundHandling.completes)
    /// What `pushRegistry(_:didReceiveIncomingPushWith:for:completion:)` does.
    public var voip = AppCases(VoIPHandling(reports: true))
    /// What the Push to Talk delegate's `incomingPushResult` returns.
    public var pushToTalk = AppCases(PushToTalkResult.activeParticipant)
    /// What the location push service extension does.
    public var locationExtension = AppCases(LocationExtensionHandling.completes)
    /// The non-default File Provider domains the app adds with `addDomain`; `nil`: not declared (none checked).
    public var fileProviderDomains: Set<String>?
    /// The custom payload keys its code reads, per push type, with their types; `nil`: not declared (no check).
    public var payload: AppPayloadTypes?

    /// An app that declares nothing.
    public init() {}

    /// Whether the scenario declares nothing about the app: its pushes take the default walk.
    public var isUndeclared: Bool {
        entitlements == nil && backgroundModes == nil && !appClip && willPresent == .noDelegate && categories == nil
            && sounds == nil && serviceExtension.isUndeclared && backgroundHandler.isPlain(.completes)
            && voip.isPlain(VoIPHandling(reports: true)) && pushToTalk.isPlain(.activeParticipant)
            && locationExtension.isPlain(.completes) && fileProviderDomains == nil && payload == nil
    }

    /// Whether the app has a notification service extension.
    public enum ExtensionDeclaration: Sendable {
        /// The scenario does not say: the content is shown as sent, with a note.
        case undeclared
        /// The app has none (`serviceExtension: none`).
        case absent
        /// The app has this one.
        case present(ServiceExtension)

        /// Whether the scenario does not say.
        var isUndeclared: Bool {
            if case .undeclared = self { return true }
            return false
        }
    }

    /// What the background handler does with a push.
    public enum BackgroundHandling: String, Sendable, Hashable, CaseIterable {
        /// Calls the completion handler in time.
        case completes
        /// Does not call it within 30 s: the app is killed.
        case timesOut
    }

    /// What the Push to Talk delegate's `incomingPushResult(channelManager:channelUUID:pushPayload:)` returns
    /// (doc, Creating a Push to Talk app).
    public enum PushToTalkResult: String, Sendable, Hashable, CaseIterable {
        /// `.activeRemoteParticipant`: someone speaks; the system activates the audio session.
        case activeParticipant
        /// `.leaveChannel`: the app leaves the channel.
        case leaveChannel
    }

    /// What the location push service extension does with a push (doc, Creating a location push service
    /// extension).
    public enum LocationExtensionHandling: String, Sendable, Hashable, CaseIterable {
        /// Calls the completion handler in time.
        case completes
        /// Runs out of time: `serviceExtensionWillTerminate()`, then the system kills it.
        case slow
    }

    /// What the PushKit delegate does with a VoIP push.
    public struct VoIPHandling: Sendable, Hashable {
        /// Whether it reports a call to CallKit before returning.
        public var reports: Bool
        /// The handle it reports (`set: { caller }`), for a Focus's `allowedPeople`; `nil`: not declared.
        public var caller: String?

        /// Reports (or not) a call from `caller`.
        public init(reports: Bool, caller: String? = nil) {
            self.reports = reports
            self.caller = caller
        }
    }
}

/// A behaviour that may depend on the push: cases tried in order (`match` is the `rules[].match` grammar), the
/// first that matches decides; a push matching none gets `otherwise` (phone.md §3).
public struct AppCases<Action: Sendable & Hashable>: Sendable {
    /// One case: a match (`nil` matches every push) and what the app then does.
    public struct Case: Sendable {
        /// Which pushes it takes.
        public var match: RuleMatch?
        /// What the app does with them.
        public var action: Action

        /// The case that does `action` for pushes matching `match`.
        public init(match: RuleMatch?, action: Action) {
            self.match = match
            self.action = action
        }
    }

    /// The cases, in order.
    public var cases: [Case]
    /// What the app does with a push no case matches.
    public var otherwise: Action

    /// A behaviour that does `action` with every push.
    public init(_ action: Action, cases: [Case] = []) {
        self.otherwise = action
        self.cases = cases
    }

    /// Whether it does `action` with every push.
    func isPlain(_ action: Action) -> Bool { cases.isEmpty && otherwise == action }

    /// What the app does with `request`, whose payload `payload` caches once parsed.
    func action(for request: APNsRequest.Content, payload: inout JSONValue??) -> Action {
        for entry in cases {
            guard let match = entry.match else { return entry.action }
            if match.matches(request, payload: &payload) { return entry.action }
        }
        return otherwise
    }
}
