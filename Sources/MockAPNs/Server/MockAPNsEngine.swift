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
    func decide(
        _ request: APNsRequest, validator: APNsValidator, connection: ConnectionInfo, auth: inout ProviderAuthState,
        ids: inout APNsIDGenerator
    ) -> Action {
        let receivedAt = clock.now()
        let apnsID = request.fields.apnsID ?? ids.uuid(uppercase: true)
        var record = JournalRecord(
            sequence: 0, receivedAt: receivedAt, answeredAt: nil, connectionID: connection.id,
            remoteAddress: connection.remoteAddress, streamID: request.streamID, method: request.method,
            path: request.path, authority: request.authority, token: request.deviceToken, headers: request.headers,
            payload: request.body, pushType: request.fields.pushType, topic: request.fields.topic,
            accepted: false, reason: nil, rule: "", explanation: "", notes: [], auth: nil, response: nil, fault: nil)

        if let rule = rules.isEmpty ? nil : rules.ruleApplying(to: request) {
            record.rule = "scripted:\(rule.name)"
            switch rule.action {
            case .respond(let status, let reasonName, let timestamp, let delay):
                let response: APNsResponse
                if status == 200 {
                    response = .success(apnsID: apnsID, uniqueID: uniqueID(validator.world, &ids))
                    record.accepted = true
                    record.explanation = "scripted success by rule '\(rule.name)'"
                } else {
                    let reason = APNsReason(reasonName ?? "InternalServerError", status: status)
                    let millis = reason.carriesTimestamp ? Self.millis(timestamp ?? receivedAt) : nil
                    response = .error(reason, apnsID: apnsID, timestampMillis: millis)
                    record.reason = reason.name
                    record.explanation = "scripted answer \(reason) by rule '\(rule.name)'"
                }
                record.response = response
                return .answer(response, record: record, delay: delay)
            case .fault(let fault, let delay):
                record.fault = fault.rawValue
                record.explanation = "scripted fault \(fault.rawValue) by rule '\(rule.name)'"
                var response: APNsResponse?
                if fault == .goaway {
                    response = .error(.shutdown, apnsID: apnsID)
                    record.reason = APNsReason.shutdown.name
                }
                record.response = response
                return .fault(fault, record: record, response: response, delay: delay)
            }
        }

        let decision = validator.validate(request, connection: connection, auth: &auth, now: receivedAt)
        record.rule = decision.rule
        record.explanation = decision.explanation
        record.notes = decision.notes
        record.auth = decision.auth
        record.pushType = decision.pushType ?? record.pushType
        let response: APNsResponse
        switch decision.outcome {
        case .accepted:
            record.accepted = true
            response = .success(apnsID: apnsID, uniqueID: uniqueID(validator.world, &ids))
        case .rejected(let reason, let timestamp):
            record.reason = reason.name
            response = .error(reason, apnsID: apnsID, timestampMillis: timestamp.map(Self.millis))
        }
        record.response = response
        return .answer(response, record: record, delay: nil)
    }

    private func uniqueID(_ world: World, _ ids: inout APNsIDGenerator) -> String? {
        world.environment == .sandbox && world.fidelity.sandboxUniqueID ? ids.uuid(uppercase: false) : nil
    }

    static func millis(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
