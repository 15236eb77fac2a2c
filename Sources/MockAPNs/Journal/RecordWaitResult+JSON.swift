extension NearMiss: JSONMapped {
    /// The near miss as the control API answers it: `sequence`, `field`, `expected`, `actual`, `summary` and the
    /// whole `record`; read back `nil` without a known `field` and a readable `record`.
    public static let jsonMapping = JSONMapping<NearMiss, NearMiss>(
        NearMiss(record: .blank, field: .topic, expected: "", actual: ""),
        [
            .written("sequence") { .number(String($0.record.sequence)) },
            .member("field", \.field, .rawValue, required: true),
            .member("expected", \.expected, .string),
            .member("actual", \.actual, .string),
            .written("summary") { .string($0.summary) },
            .member("record", \.record, .object, required: true),
        ])
}

extension RecordWaitResult: JSONMapped {
    /// The result as JSON: `satisfied`, `count`, `found`, `records`, `nearMisses`; read back `nil` without
    /// `satisfied`, `count` and `records`. The control API adds an `error` first when it is not satisfied
    /// (`json(query:timeout:)`).
    public static let jsonMapping = JSONMapping<RecordWaitResult, RecordWaitResult>(
        RecordWaitResult(satisfied: false, count: 0, records: [], nearMisses: []),
        [
            .member("satisfied", \.satisfied, .bool, required: true),
            .member("count", \.count, .integer, required: true),
            .written("found") { .number(String($0.records.count)) },
            .member("records", \.records, .compactArray(.object), required: true),
            .member("nearMisses", \.nearMisses, .compactArray(.object)),
        ])

    /// The result as the control API answers it (200 when satisfied, 408 with an `error` otherwise).
    public func json(query: JournalQuery, timeout: Duration) -> JSONValue {
        guard !satisfied, case .object(let members) = json else { return json }
        return .object([("error", .string(failureSummary(query: query, timeout: timeout)))] + members)
    }

    /// One line: what was waited for, what was found, and the nearest miss.
    public func failureSummary(query: JournalQuery, timeout: Duration) -> String {
        var text = "timed out after \(ControlDuration.text(timeout)) waiting for \(count) request(s) matching "
        text += "\(query.summary); found \(records.count)"
        if let nearest = nearMisses.first {
            text += "; nearest miss: \(nearest.summary)"
        }
        return text
    }
}
