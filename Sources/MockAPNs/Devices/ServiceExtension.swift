/// An app's notification service extension as the scenario declares it (phone.md §3, `serviceExtension`): what it
/// does with a push it runs for, maybe case by case, and what can make it fail.
public struct ServiceExtension: Sendable {
    /// What the extension does with one push.
    public enum Does: String, Sendable, Hashable, CaseIterable {
        /// Calls the content handler in time with `set` written over the content.
        case modify
        /// Runs out of time; `serviceExtensionTimeWillExpire()` hands back `set` as its best attempt.
        case expire
        /// Calls neither handler: the original content is shown.
        case hang
        /// Is killed at start-up, with no expiry callback: the original content is shown.
        case crash
        /// Hands back empty content (needs the filtering entitlement to hide the notification).
        case suppress
    }

    /// What the extension writes over the content (`set`): each part it sets.
    public struct ContentChange: Sendable, Hashable {
        /// The title it writes.
        public var title: String?
        /// The subtitle it writes.
        public var subtitle: String?
        /// The body it writes.
        public var body: String?
        /// The sound it names.
        public var sound: String?

        /// A change of the parts given.
        public init(title: String? = nil, subtitle: String? = nil, body: String? = nil, sound: String? = nil) {
            self.title = title
            self.subtitle = subtitle
            self.body = body
            self.sound = sound
        }

        /// Whether it changes nothing.
        public var isEmpty: Bool { title == nil && subtitle == nil && body == nil && sound == nil }
    }

    /// One handling of a push: what it does and what it writes.
    public struct Handling: Sendable, Hashable {
        /// What it does.
        public var does: Does
        /// What it writes over the content (for `modify` and `expire`).
        public var set: ContentChange
        /// `communication: { sender }`: the content it hands back (for `modify` and `expire`) is a communication
        /// notification from this person (`INSendMessageIntent`, `content.updating(from:)`), which needs the
        /// `communication` entitlement; `nil`: an ordinary notification.
        public var communicationSender: String?

        /// A handling that `does`, writing `set`, and making a communication notification from `communicationSender`
        /// when one is given.
        public init(_ does: Does, set: ContentChange = ContentChange(), communicationSender: String? = nil) {
            self.does = does
            self.set = set
            self.communicationSender = communicationSender
        }
    }

    /// What it does, push by push (`does` and `set` are the default, `cases` the exceptions).
    public var handling: AppCases<Handling>
    /// The most memory it uses, in bytes; above `serviceExtensionMemoryLimit` every case is a crash.
    public var peakMemory: Int?
    /// It reads Keychain items or files that a locked phone protects: on a locked phone it fails silently.
    public var protectedData: Bool

    /// An extension that modifies every push, writing nothing (the content as sent).
    public init(
        handling: AppCases<Handling> = AppCases(Handling(.modify)), peakMemory: Int? = nil, protectedData: Bool = false
    ) {
        self.handling = handling
        self.peakMemory = peakMemory
        self.protectedData = protectedData
    }
}
