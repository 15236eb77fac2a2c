import Foundation

/// One entry of a scenario's `expect:`: how many requests matching `match` (or `sequence`, in order) the run must
/// have received, how they must have been answered, and by when.
///
/// Checked after the run by `Scenario.verify(_:startedAt:droppedRecords:)`; see `scenarios/README.md`.
public struct ScenarioExpectation: Sendable {
    /// The name messages and reports use; defaults to `expectation <index>`.
    public var name: String
    /// What a request must look like to count: the grammar of `rules[].match`. Left empty when `sequence` is given.
    public var match: RuleMatch
    /// How many matching requests must have arrived: `count: 1` is 1...1, `{ min: 1 }` is 1...Int.max, and 0...0
    /// means never.
    public var count: ClosedRange<Int>
    /// How the matching requests must have been answered, if given.
    public var answered: AnswerCondition?
    /// By when, from the start of the run (the start of COMMAND, or the server's start).
    public var within: Duration?
    /// These matches, in this order, interleaved with anything else; empty for a plain `match`.
    public var sequence: [RuleMatch]
    /// The line of the entry in the scenario file, for messages; 0 when it came from no file.
    public var line: Int
    /// What a phone's notification centre must list (`notificationCenter:`); then `count` counts notifications,
    /// not requests, and `match` is not given.
    public var notificationCenter: NotificationCenterCondition?

    public init(
        name: String, match: RuleMatch = RuleMatch(), count: ClosedRange<Int> = 1...1,
        answered: AnswerCondition? = nil, within: Duration? = nil, sequence: [RuleMatch] = [], line: Int = 0
    ) {
        self.name = name
        self.match = match
        self.count = count
        self.answered = answered
        self.within = within
        self.sequence = sequence
        self.line = line
    }

    /// How an expected request must have been answered: `answered: 200`, `answered: Unregistered` or both.
    public struct AnswerCondition: Sendable, Hashable {
        /// The HTTP status answered.
        public var status: Int?
        /// The rejection reason answered.
        public var reason: String?

        public init(status: Int? = nil, reason: String? = nil) {
            self.status = status
            self.reason = reason
        }
    }
}

/// What a run does with a request no expectation matches (`unexpected:`).
public enum UnexpectedRequests: String, Sendable, Hashable, CaseIterable {
    /// Allow it (the default).
    case allow
    /// Fail the run, naming each such request.
    case fail
}
