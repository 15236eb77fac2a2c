extension InProcessControl {
    /// Every connection the server's history keeps or a record in the journal names, by id (`ConnectionSummary`).
    public func connections() async throws -> [ConnectionSummary] {
        ConnectionSummary.all(records: journal.records(), history: engine.connectionHistory.entries())
    }

    /// Connection `id`, or `nil` when neither the history nor a record knows it.
    public func connection(id: UInt64) async throws -> ConnectionSummary? {
        guard id != 0 else { return nil }
        let history = engine.connectionHistory.entry(id: id).map { [$0] } ?? []
        let records = journal.records().filter { $0.connectionID == id }
        return ConnectionSummary.all(records: records, history: history).first
    }
}
