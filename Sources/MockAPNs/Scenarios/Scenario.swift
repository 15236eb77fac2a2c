/// Where and how a server listens.
public struct ListenSettings: Sendable, Hashable {
    /// The address of the APNs (TLS) port.
    public var host: String = "127.0.0.1"
    /// The APNs port; 0 picks a free one.
    public var port: Int = 2197
    /// Whether the scenario gives `listen.port` (rather than leaving the default): `mock-apns run` keeps such a
    /// port and otherwise picks a free one.
    public var portIsPinned = false
    /// A cleartext HTTP/2 (prior knowledge) port for local debugging; `nil` for none.
    public var cleartextPort: Int?
    /// The broadcast channel management port (APNs's `api-manage-broadcast` host, 2195 in the sandbox); 0 picks a
    /// free one, as does an APNs `port` of 0 when the channels port is not pinned (`effectiveChannelsPort`).
    public var channelsPort: Int = Self.defaultChannelsPort
    /// Whether the scenario (or `serve --channels-port`) gives `channelsPort` rather than leaving the default.
    public var channelsPortIsPinned = false
    /// Apple's sandbox channel management port.
    public static let defaultChannelsPort = 2195
    /// The server certificate chain (PEM file); `nil` for the embedded test certificate.
    public var certificateFile: String?
    /// The server private key (PEM file); `nil` for the embedded test key.
    public var privateKeyFile: String?
    /// The CA to tell clients to trust, when the certificate is not the embedded one.
    public var caFile: String?
    /// Ask clients for a certificate (optional for them): those that present one are certificate connections.
    public var requestClientCertificate = true

    public init() {}

    /// The channels port to bind: `channelsPort`, or a free one (0) when the APNs port is 0 and the channels port
    /// is not pinned, so that a test server on a free port never takes the fixed 2195 (nor collides on it).
    public var effectiveChannelsPort: Int {
        port == 0 && !channelsPortIsPinned ? 0 : channelsPort
    }
}

/// A whole simulated world plus its script: what a scenario file describes.
public struct Scenario: Sendable {
    /// A name for logs and records.
    public var name: String
    /// The file it was read from, if any.
    public var sourcePath: String?
    public var world: World
    public var rules: [ScriptedRule]
    public var listen: ListenSettings
    /// How many records the in-memory journal keeps before dropping the oldest.
    public var journalCapacity: Int
    /// How many bytes of records (payloads, headers and a fixed overhead each) the journal keeps before dropping
    /// the oldest; see `Journal.maxBytes`.
    public var journalMaxBytes: Int = Journal.defaultMaxBytes
    /// Handshake and idle timeouts and the connection cap (`limits:`).
    public var limits = ConnectionLimits()
    /// What the run must have received (`expect:`), checked by `verify`.
    public var expectations: [ScenarioExpectation] = []
    /// Whether a request no expectation matches fails the run (`unexpected:`).
    public var unexpected: UnexpectedRequests = .allow
    /// Provider behaviour checked after the run (`checks:`).
    public var checks: [ProviderCheck] = []
    /// The file paths the scenario file names relative to its folder, where they are written in it.
    public var relativeFilePaths: [ScenarioFilePath] = []
    /// The first key of `keys:` given as a `.p8` file (a private key): what `mock-apns run` hands the provider.
    public var signingKeyFile: SigningKeyFile?
    /// The app's Live Activity attributes types (`activityTypes:`), in file order.
    public var declaredActivityTypes: [ActivitySchema] = []
    /// The simulated phone's settings (`liveActivity:`): lifetimes, budgets, the open facts of live-activities.md.
    public var liveActivity = LiveActivitySettings()
    /// Where the simulated app uploads each new update token (`tokenUpload:`); `nil`: nowhere.
    public var tokenUpload: TokenUploadSettings?
    /// The simulated phones the scenario describes (`phones:`), by id, in their declared state.
    public var phones: [String: PhoneState] = [:]
    /// The broadcast channels the scenario declares (`channels:`), live from the start and after every reset.
    public var channels: [ChannelDeclaration] = []

    /// The declared Live Activity attributes types by Swift name.
    public var activityTypes: [String: ActivitySchema] {
        Dictionary(declaredActivityTypes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public init(
        name: String, sourcePath: String? = nil, world: World = World(), rules: [ScriptedRule] = [],
        listen: ListenSettings = ListenSettings(), journalCapacity: Int = 100_000
    ) {
        self.name = name
        self.sourcePath = sourcePath
        self.world = world
        self.rules = rules
        self.listen = listen
        self.journalCapacity = journalCapacity
    }
}
