import Foundation

/// What was decided about one request, and why: the one answer of the decision stage.
///
/// The validator returns it, a scripted rule makes one, and the journal record keeps it (in a `Shared` box that a
/// connection's records share while it says the same). It says what was decided, not what happened on the wire:
/// the answer, its time and a fault are the record's.
///
/// Made on every push: its optional properties are spelled `Optional<…>`, never `T?`, whose implicit `nil` made
/// Swift build the value aside and copy it out (`HotPathOptionalsTests` says why).
public struct Verdict: Sendable, Hashable {
    /// Accepted, or rejected with a reason, or (a scripted fault) no answer of its own.
    public enum Decision: Sendable, Hashable {
        case accepted
        /// Rejected; `timestamp` is set for 410 answers.
        case rejected(APNsReason, timestamp: Date?)
        /// No answer was decided: a scripted fault (`no-response`, `reset-stream`, `close-connection`) takes its
        /// place; the record's `injectedFault` says which. The validator never decides this.
        case noAnswer
    }

    /// What the rule of a scripted answer starts with: `scripted:<rule name>`.
    public static let scriptedRulePrefix = "scripted:"

    public var outcome: Decision
    /// The rule that decided, e.g. `apns-priority`, `provider-token.expired`, `device.unregistered`, or
    /// `scripted:<rule name>` (`scriptedRulePrefix`).
    public var rule: String
    /// A sentence saying why, for records and failing tests.
    public var explanation: String
    /// Remarks on accepted oddities (a string `iat`, a payload that is not JSON, an unverified key).
    public var notes: [String]
    /// How the request authenticated, once that was checked.
    public var auth: Optional<AuthSummary>
    /// The push type the request was taken as.
    public var pushType: Optional<String>
    /// `apns-topic` as sent.
    public var topic: Optional<String>

    public init(
        outcome: Decision, rule: String, explanation: String, notes: [String] = [], auth: AuthSummary? = nil,
        pushType: String? = nil, topic: String? = nil
    ) {
        self.outcome = outcome
        self.rule = rule
        self.explanation = explanation
        self.notes = notes
        self.auth = auth
        self.pushType = pushType
        self.topic = topic
    }

    /// Whether the push was accepted.
    public var isAccepted: Bool {
        if case .accepted = outcome { return true }
        return false
    }

    /// The reason of a rejection.
    public var reason: APNsReason? {
        if case .rejected(let reason, _) = outcome { return reason }
        return nil
    }

    /// A verdict in an immutable box, shared by a connection's records while the verdict stays the same: a record
    /// then holds one reference for it instead of a dozen, which the journal pays for on every append, every
    /// dropped record and every read.
    final class Shared: Sendable {
        let value: Verdict
        /// `value.isAccepted` and `value.reason?.name`, worked out once per box: the journal's counters read them
        /// for every record, and reading them through `value` copied the whole verdict.
        let isAccepted: Bool
        let reasonName: String?

        init(_ value: Verdict) {
            self.value = value
            isAccepted = value.isAccepted
            reasonName = value.reason?.name
        }

        /// `previous` when it says the same as `verdict` (compared field by field; the strings of a repeated
        /// decision are the same storage, so each comparison is one), else a new box.
        static func reusing(_ previous: Shared?, for verdict: consuming Verdict) -> Shared {
            if let previous, previous.value == verdict { return previous }
            return Shared(verdict)
        }
    }
}
