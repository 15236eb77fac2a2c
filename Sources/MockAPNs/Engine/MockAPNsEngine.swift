import Foundation
import NIOConcurrencyHelpers

/// The state every connection shares: the world, the scripted rules, the journal and the clock; and the
/// decision pipeline for one request (scripted rule, else validator; then the record and the answer).
public final class MockAPNsEngine: Sendable {
    /// What the client gets back for a decided request: an answer or a fault. ("Action" is a scripted rule's,
    /// `RuleAction`.)
    enum Reply {
        /// Answer with `response`, after `delay` when given. `record` is not yet in the journal.
        case answer(APNsResponse, record: JournalRecord, delay: Duration?)
        /// Inject a transport fault, after `delay`. For `.goaway` `response` is the answer of the stream itself.
        case fault(RuleFault, record: JournalRecord, response: APNsResponse?, delay: Duration?)
    }

    public let journal: Journal
    public let rules: ScriptedRules
    public let clock: any APNsClock
    /// Where provider tokens' `iat` values fall on `clock`, decided on first sight for every connection.
    public let providerTokenClock: ProviderTokenClock
    /// The simulated phone's Live Activities and the update tokens it issued (issue 12). Kept out of the world:
    /// minting a token must not bump the world generation (structure.md §3.2b).
    public let activities = ActivityRegistry()
    /// The simulated phones' state (issue 23), kept out of the world like the activities.
    public let phones = PhoneRegistry()
    /// The broadcast channels (issue 24), kept out of the world like the activities.
    public let channels = ChannelStore()
    /// Where accepted broadcasts fan out to the subscribed activities, one after another in the order they were
    /// recorded, off the connections' event loops (`MockAPNsEngine+FanOut`).
    let fanOutQueue = DispatchQueue(label: "mock-apns.broadcast-fan-out")
    /// How many accepted broadcasts wait on `fanOutQueue`, bounded (429 past `FanOutBacklog.limit`).
    let fanOutBacklog = FanOutBacklog()
    /// The app's side of token upload (`tokenUpload:`): posts each new update token to the provider's server.
    public let tokenUploads: TokenUploader
    /// The recent connections: when they opened and closed, their ALPN and certificate, the control frames sent on
    /// them (`GET /v1/connections`). Written at a connection's turning points, never per push.
    public let connectionHistory = ConnectionHistory()
    /// The app's activity types and the phone's settings the device stage decides with.
    let activityConfig = NIOLockedValueBox(ActivityConfig())
    private let worldBox: NIOLockedValueBox<World>
    /// Bumped whenever the world changes, so connections drop cached token verdicts.
    private let worldGeneration = NIOLockedValueBox<UInt64>(0)

    /// An engine for `world` and `rules`, recording into `journal` at times read from `clock`; token uploads go
    /// through `tokenUploadTransport` (the core's plain-HTTP one when `nil`).
    public init(
        world: World, rules: [ScriptedRule], journal: Journal, clock: any APNsClock = SystemClock(),
        tokenUploadTransport: (any TokenUploadTransport)? = nil
    ) {
        self.worldBox = NIOLockedValueBox(world)
        self.rules = ScriptedRules(rules: rules)
        self.journal = journal
        self.clock = clock
        self.tokenUploads = TokenUploader(registry: activities, clock: clock, transport: tokenUploadTransport)
        self.providerTokenClock = ProviderTokenClock(clock: clock)
    }

    /// The world as it is now.
    public var world: World { worldBox.withLockedValue { $0 } }

    /// Changes the world (devices, keys, settings) for every connection, from the next request on.
    public func updateWorld(_ change: (inout World) -> Void) {
        worldBox.withLockedValue { change(&$0) }
        worldGeneration.withLockedValue { $0 += 1 }
    }

    var generation: UInt64 { worldGeneration.withLockedValue { $0 } }

    /// Decides one request, received at `receivedAt`: a scripted rule if one applies, else the APNs rules.
    ///
    /// The request is taken, not lent: its shared content moves into the journal record, built last.
    /// `connection` is the state of the connection it came on (its validator, provider tokens, ids); its last
    /// record's verdict is shared by this record when it says the same.
    func decide(_ request: consuming APNsRequest, receivedAt: Date, connection: inout APNsConnection) -> Reply {
        // The router (structure.md §8b): the device API, unless the connection is the channel port's or the path a
        // broadcast's. A device push pays one comparison for each.
        if connection.listener == .channels {
            return decideChannelRequest(request, receivedAt: receivedAt, connection: &connection)
        }
        if request.deviceToken == nil, request.path.hasPrefix(BroadcastValidator.pathPrefix) {
            return decideBroadcast(request, receivedAt: receivedAt, connection: &connection)
        }
        let apnsID: APNsResponse.ID =
            request.fields.apnsID.map { .text($0) } ?? .generated(connection.ids.uuid(), uppercase: true)

        if let rule = rules.isEmpty ? nil : rules.ruleApplying(to: request) {
            let name = Verdict.scriptedRulePrefix + rule.name
            // As the checks would take it: a missing apns-push-type is alert (`missingPushTypeIsAlert`).
            let implied = connection.validator.world.fidelity.missingPushTypeIsAlert ? APNsPushType.alert.name : nil
            let pushType = request.fields.pushType ?? implied
            let topic = request.fields.topic
            switch rule.action {
            case .respond(let status, let reasonName, let timestamp, let delay):
                let response: APNsResponse
                let decided: Verdict
                var device: DeviceOutcomeBox?
                if status == 200 {
                    // "A scripted 200 reaches the phone like any other accepted push" (issue 23), unless the
                    // rule says `phone: false`.
                    if rule.phone, let token = request.deviceToken.flatMap(DeviceToken.init) {
                        device = deviceStage(
                            request, token: token, pushType: pushType, connection: &connection, now: receivedAt)
                    }
                    response = .success(id: apnsID, uniqueID: uniqueID(&connection))
                    decided = Verdict(
                        outcome: .accepted, rule: name, explanation: "scripted success by rule '\(rule.name)'",
                        pushType: pushType, topic: topic)
                } else {
                    let reason = APNsReason(reasonName ?? "InternalServerError", status: status)
                    let since = reason.carriesTimestamp ? timestamp ?? receivedAt : nil
                    response = .error(reason, id: apnsID, timestampMillis: since.map(Timestamp.millis))
                    decided = Verdict(
                        outcome: .rejected(reason, timestamp: since), rule: name,
                        explanation: "scripted answer \(reason) by rule '\(rule.name)'", pushType: pushType,
                        topic: topic)
                }
                let record = record(
                    of: request, receivedAt: receivedAt, connection: connection.info, decided, response: response,
                    fault: nil, device: device, &connection.lastVerdict)
                return .answer(response, record: record, delay: delay)
            case .fault(let fault, let delay):
                // GOAWAY still answers its own stream 503 Shutdown; the other faults answer nothing.
                let response: APNsResponse? = fault == .goaway ? .error(.shutdown, id: apnsID) : nil
                let decided = Verdict(
                    outcome: fault == .goaway ? .rejected(.shutdown, timestamp: nil) : .noAnswer, rule: name,
                    explanation: "scripted fault \(fault.rawValue) by rule '\(rule.name)'", pushType: pushType,
                    topic: topic)
                let record = record(
                    of: request, receivedAt: receivedAt, connection: connection.info, decided, response: response,
                    fault: fault, device: nil, &connection.lastVerdict)
                return .fault(fault, record: record, response: response, delay: delay)
            }
        }

        var token: DeviceToken?
        var decided = connection.validator.validate(
            request, connection: connection.info, auth: &connection.auth, memo: connection.memo, now: receivedAt,
            acceptedToken: &token)
        if decided.pushType == nil { decided.pushType = request.fields.pushType }
        // The device stage (issues 12 and 23): only accepted pushes have a token here.
        var device: DeviceOutcomeBox?
        if let token {
            device = deviceStage(
                request, token: token, pushType: decided.pushType, connection: &connection, now: receivedAt)
            // An uninstalled app's token out of use (phone.md §1 step 1): APNs answers 410, and nothing reaches
            // the phone.
            if let box = device, let since = box.unregisteredSince {
                // What the phone settled before this push (other pushes' expiries) is kept all the same.
                journal.append(events: box.events, receivedAt: receivedAt)
                decided.outcome = .rejected(.unregistered, timestamp: since)
                decided.rule = "phone.app-uninstalled"
                decided.explanation =
                    "the app is not installed on the token's phone: the token is out of use since the first push "
                    + "after the deletion, unregisteredAfter ago"
                device = nil
            }
        }
        let response: APNsResponse =
            switch decided.outcome {
            case .accepted: .success(id: apnsID, uniqueID: uniqueID(&connection))
            case .rejected(let reason, let timestamp):
                .error(reason, id: apnsID, timestampMillis: timestamp.map(Timestamp.millis))
            case .noAnswer: .error(.internalServerError, id: apnsID)  // the validator always answers
            }
        let record = record(
            of: request, receivedAt: receivedAt, connection: connection.info, decided, response: response,
            fault: nil, device: device, &connection.lastVerdict)
        return .answer(response, record: record, delay: nil)
    }

    /// What the simulated phone does with an accepted push to `token`: its Live Activity, or the phone's walk for
    /// the other push types it plays (`nil` for the rest).
    private func deviceStage(
        _ request: borrowing APNsRequest, token: DeviceToken, pushType: String?, connection: inout APNsConnection,
        now: Date
    ) -> DeviceOutcomeBox? {
        if pushType == APNsPushType.liveactivity.name {
            return deviceOutcome(of: request, to: token, world: connection.validator.world, now: now).map {
                DeviceOutcomeBox($0.outcome, historyEntry: $0.entry)
            }
        }
        return phoneOutcome(
            of: request.content, to: token, pushType: pushType, setup: connection.validator.world.phone,
            devices: connection.validator.world.devices, memo: connection.memo, now: now)
    }

    /// The journal record of `request`, which it takes apart: its content moves into the record (cut only when
    /// the payload is over `JournalRecord.keptPayloadLimit`), and `decided` shares `verdict` when it says the same;
    /// `device` is what the phone did.
    private func record(
        of request: consuming APNsRequest, receivedAt: Date, connection: ConnectionInfo, _ decided: consuming Verdict,
        response: APNsResponse?, fault: RuleFault?, device: DeviceOutcomeBox?, _ verdict: inout Verdict.Shared?
    ) -> JournalRecord {
        let shared = Verdict.Shared.reusing(verdict, for: decided)
        verdict = shared
        let streamID = request.streamID
        return JournalRecord(
            sequence: 0, receivedAt: receivedAt, answeredAt: nil, connectionID: connection.id,
            remoteAddress: connection.remoteAddress, streamID: streamID,
            request: JournalRecord.kept(request.content), verdict: shared, response: response, injectedFault: fault,
            device: device)
    }

    /// The `apns-unique-id` of an answer on `connection`: sandbox only (`fidelity.sandboxUniqueID`). Reads the two
    /// settings, not the world: passing the world beside `&connection.ids` copied it on every push.
    private func uniqueID(_ connection: inout APNsConnection) -> APNsResponse.ID? {
        let sandbox = connection.validator.world.environment == .sandbox
        guard sandbox, connection.validator.world.fidelity.sandboxUniqueID else { return nil }
        return .generated(connection.ids.uuid(), uppercase: false)
    }
}
