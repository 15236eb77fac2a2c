/// The verdict of a run: the scenario's `expect:`, `unexpected:` and `checks:` checked against the journal.
///
/// One value for every front end: `mock-apns run` and `mock-apns verify` print it and write it as JUnit and
/// Markdown, `POST /v1/verify` answers its `json`, and `MockAPNsTesting`'s `server.verify()` returns it.
public struct VerifyReport: Sendable {
    /// One expectation, the `unexpected: fail` rule, one provider check, or one failed token upload, and how it
    /// turned out.
    public struct Item: Sendable {
        /// What an item checks.
        public enum Kind: String, Sendable, Hashable {
            /// One entry of `expect:`.
            case expectation
            /// `unexpected: fail`: every request must match some expectation.
            case unexpected
            /// One entry of `checks:`.
            case check
            /// One upload of `tokenUpload:` that failed (or had not finished): the provider's token endpoint did
            /// not take a token the app would have sent.
            case tokenUpload
        }

        public var kind: Kind
        /// The expectation's or check's name, as the scenario gives it (or the default it was given).
        public var name: String
        public var passed: Bool
        /// One line on what was counted: `1 push`, `0 of 1 pushes`, `2 records broke it`.
        public var summary: String
        /// For a failure: what was expected, what arrived, the nearest miss field by field; one line each.
        /// Empty for a pass.
        public var details: [String]
        /// The sequence numbers of the records the item is about: the matches, or the records that broke a check.
        public var records: [UInt64]

        public init(
            kind: Kind, name: String, passed: Bool, summary: String, details: [String] = [], records: [UInt64] = []
        ) {
            self.kind = kind
            self.name = name
            self.passed = passed
            self.summary = summary
            self.details = details
            self.records = records
        }
    }

    /// The items in scenario order: expectations, then `unexpected`, then checks, then failed token uploads.
    public var items: [Item]
    /// How many records were checked.
    public var recordCount: Int
    /// How many records the journal dropped (capacity) before they could be checked; a non-zero count makes every
    /// count above a lower bound, and fails the report.
    public var droppedRecords: Int

    public init(items: [Item], recordCount: Int, droppedRecords: Int = 0) {
        self.items = items
        self.recordCount = recordCount
        self.droppedRecords = droppedRecords
    }

    /// Whether every item passed and no record was dropped.
    public var passed: Bool { droppedRecords == 0 && items.allSatisfy(\.passed) }

    /// The items that failed.
    public var failures: [Item] { items.filter { !$0.passed } }

    /// `3 passed, 1 failed, 12 records checked` (and the dropped records, when there were any).
    public var summaryLine: String {
        var line = "\(items.count - failures.count) passed, \(failures.count) failed, \(recordCount) record"
            + "\(recordCount == 1 ? "" : "s") checked"
        if droppedRecords > 0 {
            line += "; the journal dropped \(droppedRecords) record(s) before they were checked: raise "
                + "journal.capacity"
        }
        return line
    }
}

extension VerifyReport: CustomStringConvertible {
    /// The terminal text without colour: one line per item (`✓`/`✗`, name, summary), each failure's details
    /// indented below it, and the summary line.
    public var description: String { text(failuresOnly: false) }

    /// The terminal text; `failuresOnly` leaves out the lines of items that passed (`--quiet`).
    public func text(failuresOnly: Bool) -> String {
        var lines: [String] = []
        for item in items where !(failuresOnly && item.passed) {
            lines.append("\(item.passed ? "✓" : "✗") \(item.kind.label)\(item.name): \(item.summary)")
            lines += item.details.map { "    \($0)" }
        }
        lines.append(summaryLine)
        return lines.joined(separator: "\n")
    }
}

extension VerifyReport.Item.Kind {
    /// The word before an item's name in text: checks are named `check stops-after-unregistered`.
    var label: String {
        switch self {
        case .expectation: ""
        case .unexpected: ""
        case .check: "check "
        case .tokenUpload: ""
        }
    }
}
