/// What a journal holds at one moment: the sequence numbers of its oldest and newest records, how many it keeps,
/// and how many its limits pushed out since it was last cleared. A page that walks back through the records
/// (`olderThan=`) knows from it where they end and why ("oldest 3,412 dropped by the journal's limit").
public struct JournalHoldings: Sendable, Hashable {
    /// The oldest record's sequence number; `nil` when the journal is empty.
    public var oldest: UInt64?
    /// The newest record's sequence number; `nil` when the journal is empty.
    public var newest: UInt64?
    /// How many records are kept.
    public var held: Int
    /// How many records the capacity or byte budget dropped since the last clear.
    public var dropped: UInt64

    /// The holdings as `GET /v1/requests` writes them: `{"oldest", "newest", "held", "dropped"}`.
    public var json: JSONValue {
        .object([
            ("oldest", oldest.map { .number(String($0)) } ?? .null),
            ("newest", newest.map { .number(String($0)) } ?? .null),
            ("held", .number(String(held))),
            ("dropped", .number(String(dropped))),
        ])
    }
}
