import Foundation
import NIOConcurrencyHelpers

/// The state every connection shares: the world, the scripted rules, the journal and the clock; and the
/// decision pipeline for one request (scripted rule, else validator; then the record and the answer).
public final class MockAPNsEngine: Sendable {
    /// What a connection must do with a decided request.
    enum Action {
        /// Answer with `response`, after `delay` when given. `record` is not yet in the journal.
        case answer(APNsResponse, record: JournalRecord, delay: Duration?)
        /// Inject a transport fault, after `delay`. For `.goaway` `response` is the answer of the stream itself.
        case fault(RuleFault, record: JournalRecord, response: APNsResponse?, delay: Duration?)
    }

    public let journal: Journal
    public let rules: ScriptedRuleEngine
    public let clock: any APNsClock
    private let worldBox: NIOLockedValueBox<World>
    /// Bumped whenever the world changes, so connections drop cached token verdicts.
    private let worldGeneration = NIOLockedValueBox<UInt64>(0)

    public init(world: World, rules: [ScriptedRule], journal: Journal, clock: any APNsClock = SystemClock()) {
        self.worldBox = NIOLockedValueBox(world)
        self.rules = ScriptedRuleEngine(rules: rules)
        self.journal = journal
        self.clock = clock
    }

    /// The world as it is now.
    public var world: World { worldBox.withLockedValue { $0 } }

    /// Changes the world (devices, keys, settings) for every connection, from the next request on.
    public func updateWorld(_ change: (inout World) -> Void) {
        worldBox.withLockedValue { change(&$0) }
        worldGeneration.withLockedValue { $0 += 1 }
    }

    var generation: UInt64 { worldGeneration.withLockedValue { $0 } }

    /// Decides one request: a scripted rule if one applies, else the APNs rules.
    ///
    /// The request is taken, not lent: its fields move into the journal record, built last, instead of being
    /// retained for the record and released with the request.
    func decide(
        _ request: consuming APNsRequest, validator: APNsValidator, connection: ConnectionInfo,
        auth: inout ProviderAuthState, ids: inout APNsIDGenerator
    ) -> Action {
        let receivedAt = clock.now()
        let apnsID = request.fields.apnsID ?? ids.uuid(uppercase: true)
        var outcome = Outcome()

        if let rule = rules.isEmpty ? nil : rules.ruleApplying(to: request) {
            outcome.rule = "scripted:\(rule.name)"
            switch rule.action {
            case .respond(let status, let reasonName, let timestamp, let delay):
                let response: APNsResponse
                if status == 200 {
                    response = .success(apnsID: apnsID, uniqueID: uniqueID(validator.world, &ids))
                    outcome.accepted = true
                    outcome.explanation = "scripted success by rule '\(rule.name)'"
                } else {
                    let reason = APNsReason(reasonName ?? "InternalServerError", status: status)
                    let millis = reason.carriesTimestamp ? Self.millis(timestamp ?? receivedAt) : nil
                    response = .error(reason, apnsID: apnsID, timestampMillis: millis)
                    outcome.reason = reason.name
                    outcome.explanation = "scripted answer \(reason) by rule '\(rule.name)'"
                }
                outcome.response = response
                let record = Self.record(of: request, receivedAt: receivedAt, connection: connection, outcome: outcome)
                return .answer(response, record: record, delay: delay)
            case .fault(let fault, let delay):
                outcome.fault = fault.rawValue
                outcome.explanation = "scripted fault \(fault.rawValue) by rule '\(rule.name)'"
                if fault == .goaway {
                    outcome.response = .error(.shutdown, apnsID: apnsID)
                    outcome.reason = APNsReason.shutdown.name
                }
                let response = outcome.response
                let record = Self.record(of: request, receivedAt: receivedAt, connection: connection, outcome: outcome)
                return .fault(fault, record: record, response: response, delay: delay)
            }
        }

        let decision = validator.validate(request, connection: connection, auth: &auth, now: receivedAt)
        outcome.rule = decision.rule
        outcome.explanation = decision.explanation
        outcome.notes = decision.notes
        outcome.auth = decision.auth
        outcome.pushType = decision.pushType
        let response: APNsResponse
        switch decision.outcome {
        case .accepted:
            outcome.accepted = true
            response = .success(apnsID: apnsID, uniqueID: uniqueID(validator.world, &ids))
        case .rejected(let reason, let timestamp):
            outcome.reason = reason.name
            response = .error(reason, apnsID: apnsID, timestampMillis: timestamp.map(Self.millis))
        }
        outcome.response = response
        let record = Self.record(of: request, receivedAt: receivedAt, connection: connection, outcome: outcome)
        return .answer(response, record: record, delay: nil)
    }

    /// What was decided about a request, gathered before its record is built.
    private struct Outcome {
        var accepted = false
        var reason: String?
        var rule = ""
        var explanation = ""
        var notes: [String] = []
        var auth: AuthSummary?
        /// The push type the request was taken as, when the rules decided it.
        var pushType: String?
        var response: APNsResponse?
        var fault: String?
    }

    /// The journal record of `request`, which it takes apart.
    private static func record(
        of request: consuming APNsRequest, receivedAt: Date, connection: ConnectionInfo, outcome: consuming Outcome
    ) -> JournalRecord {
        JournalRecord(
            sequence: 0, receivedAt: receivedAt, answeredAt: nil, connectionID: connection.id,
            remoteAddress: connection.remoteAddress, streamID: request.streamID, method: request.method,
            path: request.path, authority: request.authority, token: request.deviceToken, headers: request.headers,
            payload: request.body, pushType: outcome.pushType ?? request.fields.pushType, topic: request.fields.topic,
            accepted: outcome.accepted, reason: outcome.reason, rule: outcome.rule, explanation: outcome.explanation,
            notes: outcome.notes, auth: outcome.auth, response: outcome.response, fault: outcome.fault)
    }

    private func uniqueID(_ world: World, _ ids: inout APNsIDGenerator) -> String? {
        world.environment == .sandbox && world.fidelity.sandboxUniqueID ? ids.uuid(uppercase: false) : nil
    }

    static func millis(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
