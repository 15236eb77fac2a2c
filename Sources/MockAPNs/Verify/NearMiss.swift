/// A record that failed a query on exactly one field: most likely the one the test meant.
///
/// Like WireMock's near misses, these turn "expected 1, found 0" into "found one, but its topic was
/// com.example.other".
public struct NearMiss: Sendable {
    /// The record that almost matched.
    public var record: JournalRecord
    /// The one field it failed on.
    public var field: JournalQuery.Field
    /// What the query asked for.
    public var expected: String
    /// What the record had.
    public var actual: String

    /// A near miss of `record` on `field`.
    public init(record: JournalRecord, field: JournalQuery.Field, expected: String, actual: String) {
        self.record = record
        self.field = field
        self.expected = expected
        self.actual = actual
    }

    /// `#12 differs in topic: expected com.example.app, got com.example.other`.
    public var summary: String {
        "#\(record.sequence) differs in \(field.rawValue): expected \(expected), got \(actual)"
    }
}

extension NearMiss {
    /// One field a record failed: its name, what was asked and what the record had. A query's near miss has one;
    /// an expectation's nearest miss (`expect:`) lists every field its record failed.
    public struct Difference: Sendable, Hashable {
        /// The field, as messages name it (`topic`, `aps.alert.title`, `header apns-priority`).
        public var field: String
        public var expected: String
        public var actual: String

        public init(field: String, expected: String, actual: String) {
            self.field = field
            self.expected = expected
            self.actual = actual
        }

        /// `aps.alert.title was "Order Ready" (expected "Order ready")`.
        public var text: String { "\(field) was \(actual) (expected \(expected))" }
    }

    /// The field this near miss failed, as a difference.
    public var difference: Difference { Difference(field: field.rawValue, expected: expected, actual: actual) }
}
