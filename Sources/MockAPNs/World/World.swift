import Foundation

/// Whether the world accepts what it has not been told about.
public enum StrictnessPolicy: String, Sendable, Hashable, CaseIterable {
    /// Unknown device tokens are accepted; unknown signing keys are accepted, their tokens marked unverified.
    case lenient
    /// Unknown device tokens get BadDeviceToken and unknown keys InvalidProviderToken, as APNs would.
    case strict
}

/// A token-signing key the world knows (a `.p8` key's public half).
public struct SigningKey: Sendable {
    /// The 10-character team id the key belongs to.
    public var teamID: String
    /// The 10-character key id (`kid`).
    public var keyID: String
    /// The public key that verifies the key's signatures.
    public var publicKey: ES256PublicKey
    /// The environment a team-scoped key is limited to (2024+ keys); `nil` for both.
    public var environment: APNsEnvironment?
    /// The bundle ids a topic-specific key is limited to; empty for all of the team's.
    public var topics: [String]

    public init(
        teamID: String, keyID: String, publicKey: ES256PublicKey, environment: APNsEnvironment? = nil,
        topics: [String] = []
    ) {
        self.teamID = teamID
        self.keyID = keyID
        self.publicKey = publicKey
        self.environment = environment
        self.topics = topics
    }
}

/// An app the world knows: its bundle id and the team that owns it.
public struct AppRecord: Sendable, Hashable {
    public var bundleID: String
    public var teamID: String?

    public init(bundleID: String, teamID: String? = nil) {
        self.bundleID = bundleID
        self.teamID = teamID
    }
}

/// A device token the world knows and what has become of it.
public struct Device: Sendable, Hashable {
    /// What a token was issued for.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// An app's remote-notification token.
        case app
        /// A Live Activity push-to-start token (iOS 17.2+).
        case pushToStart = "push-to-start"
        /// A running Live Activity's update token.
        case liveActivity = "live-activity"
        /// A PushKit VoIP token.
        case voip
    }

    /// The token, lower-case hex.
    public var token: String
    /// The bundle id the token was issued for; `nil` for any.
    public var bundleID: String?
    /// The environment it was issued in; `nil` for the server's.
    public var environment: APNsEnvironment?
    public var kind: Kind
    /// From this time on the token answers 410 Unregistered with this timestamp.
    public var unregisteredAt: Date?
    /// From this time on the token answers 410 ExpiredToken with this timestamp.
    public var expiredAt: Date?
    /// For a push-to-start token: the one attributes type it starts (a start for another does not start); `nil`
    /// for any declared type. For a live-activity token: the type of the activity behind it, which the scenario
    /// load starts (`nil`: no activity, so its pushes get no device part).
    public var attributesType: String?
    /// The phone the token is on (`phones:` in the scenario); `nil`: a phone of its own, named by the token.
    public var phone: String?
    /// For a live-activity token with an `attributesType`: the broadcast channel its activity is subscribed to
    /// (`channel:` in the scenario); `nil`: none.
    public var channel: String?

    public init(
        token: String, bundleID: String? = nil, environment: APNsEnvironment? = nil, kind: Kind = .app,
        unregisteredAt: Date? = nil, expiredAt: Date? = nil, attributesType: String? = nil, phone: String? = nil,
        channel: String? = nil
    ) {
        self.channel = channel
        self.token = token.lowercased()
        self.bundleID = bundleID
        self.environment = environment
        self.kind = kind
        self.unregisteredAt = unregisteredAt
        self.expiredAt = expiredAt
        self.attributesType = attributesType
        self.phone = phone
    }
}

/// Everything the validator knows about the simulated APNs: environment, credentials, apps and devices.
public struct World: Sendable {
    public var environment: APNsEnvironment
    /// Whether unknown devices are accepted.
    public var devicePolicy: StrictnessPolicy
    /// Whether unknown signing keys are accepted (unverified).
    public var keyPolicy: StrictnessPolicy
    /// Keys by key id.
    public var keys: [String: SigningKey]
    /// Apps by bundle id.
    public var apps: [String: AppRecord]
    /// Devices by lower-case token.
    public var devices: [String: Device]
    public var fidelity: FidelitySettings
    /// The simulated phone's settings and the apps' declared code (issue 23).
    public var phone = PhoneSetup()

    public init(
        environment: APNsEnvironment = .sandbox, devicePolicy: StrictnessPolicy = .lenient,
        keyPolicy: StrictnessPolicy = .lenient, keys: [SigningKey] = [], apps: [AppRecord] = [],
        devices: [Device] = [], fidelity: FidelitySettings = FidelitySettings()
    ) {
        self.environment = environment
        self.devicePolicy = devicePolicy
        self.keyPolicy = keyPolicy
        self.keys = Dictionary(keys.map { ($0.keyID, $0) }, uniquingKeysWith: { _, last in last })
        self.apps = Dictionary(apps.map { ($0.bundleID, $0) }, uniquingKeysWith: { _, last in last })
        self.devices = Dictionary(devices.map { ($0.token, $0) }, uniquingKeysWith: { _, last in last })
        self.fidelity = fidelity
    }
}
