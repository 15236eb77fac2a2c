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

    /// Decides one request, received at `receivedAt`: a scripted rule if one applies, else the APNs rules.
    ///
    /// The request is taken, not lent: its shared content moves into the journal record, built last.
    /// `verdict` is the connection's previous record's verdict, shared by this record when it says the same.
    func decide(
        _ request: consuming APNsRequest, receivedAt: Date, validator: APNsValidator, connection: ConnectionInfo,
        auth: inout ProviderAuthState, memo: ValidationMemo, ids: inout APNsIDGenerator,
        verdict: inout JournalRecord.Verdict?
    ) -> Action {
        let apnsID: APNsResponse.ID = request.fields.apnsID.map { .text($0) } ?? .generated(ids.uuid(), uppercase: true)
        var outcome = Outcome()
        outcome.verdict.topic = request.fields.topic

        if let rule = rules.isEmpty ? nil : rules.ruleApplying(to: request) {
            outcome.verdict.rule = "scripted:\(rule.name)"
            // As the checks would take it: a missing apns-push-type is alert (`missingPushTypeIsAlert`).
            let implied = validator.world.fidelity.missingPushTypeIsAlert ? APNsPushType.alert.name : nil
            outcome.verdict.pushType = request.fields.pushType ?? implied
            switch rule.action {
            case .respond(let status, let reasonName, let timestamp, let delay):
                let response: APNsResponse
                if status == 200 {
                    response = .success(id: apnsID, uniqueID: uniqueID(validator.world, &ids))
                    outcome.verdict.accepted = true
                    outcome.verdict.explanation = "scripted success by rule '\(rule.name)'"
                } else {
                    let reason = APNsReason(reasonName ?? "InternalServerError", status: status)
                    let millis = reason.carriesTimestamp ? Self.millis(timestamp ?? receivedAt) : nil
                    response = .error(reason, id: apnsID, timestampMillis: millis)
                    outcome.verdict.reason = reason.name
                    outcome.verdict.explanation = "scripted answer \(reason) by rule '\(rule.name)'"
                }
                outcome.response = response
                let record = record(of: request, receivedAt: receivedAt, connection: connection, outcome, &verdict)
                return .answer(response, record: record, delay: delay)
            case .fault(let fault, let delay):
                outcome.fault = fault
                outcome.verdict.explanation = "scripted fault \(fault.rawValue) by rule '\(rule.name)'"
                if fault == .goaway {
                    outcome.response = .error(.shutdown, id: apnsID)
                    outcome.verdict.reason = APNsReason.shutdown.name
                }
                let response = outcome.response
                let record = record(of: request, receivedAt: receivedAt, connection: connection, outcome, &verdict)
                return .fault(fault, record: record, response: response, delay: delay)
            }
        }

        let decided = validator.decide(
            request, connection: connection, auth: &auth, memo: memo, now: receivedAt, into: &outcome.verdict)
        if outcome.verdict.pushType == nil { outcome.verdict.pushType = request.fields.pushType }
        let response: APNsResponse
        switch decided {
        case .accepted:
            outcome.verdict.accepted = true
            response = .success(id: apnsID, uniqueID: uniqueID(validator.world, &ids))
        case .rejected(let reason, let timestamp):
            outcome.verdict.reason = reason.name
            response = .error(reason, id: apnsID, timestampMillis: timestamp.map(Self.millis))
        }
        outcome.response = response
        let record = record(of: request, receivedAt: receivedAt, connection: connection, outcome, &verdict)
        return .answer(response, record: record, delay: nil)
    }

    /// What was decided about a request, gathered before its record is built.
    private struct Outcome {
        var verdict = JournalRecord.Verdict.Parts()
        var response: APNsResponse?
        var fault: RuleFault?
    }

    /// The journal record of `request`, which it takes apart.
    private func record(
        of request: consuming APNsRequest, receivedAt: Date, connection: ConnectionInfo, _ outcome: consuming Outcome,
        _ verdict: inout JournalRecord.Verdict?
    ) -> JournalRecord {
        let shared = JournalRecord.Verdict.reusing(verdict, for: outcome.verdict)
        verdict = shared
        return JournalRecord(
            sequence: 0, receivedAt: receivedAt, answeredAt: nil, connectionID: connection.id,
            remoteAddress: connection.remoteAddress, streamID: request.streamID,
            request: JournalRecord.kept(request.content), verdict: shared, response: outcome.response,
            injectedFault: outcome.fault)
    }

    private func uniqueID(_ world: World, _ ids: inout APNsIDGenerator) -> APNsResponse.ID? {
        world.environment == .sandbox && world.fidelity.sandboxUniqueID ? .generated(ids.uuid(), uppercase: false) : nil
    }

    static func millis(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
