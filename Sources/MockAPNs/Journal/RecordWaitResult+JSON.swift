extension NearMiss {
    /// The near miss as the control API answers it, with the whole record.
    public var json: JSONValue {
        .object([
            ("sequence", .number(String(record.sequence))),
            ("field", .string(field.rawValue)),
            ("expected", .string(expected)),
            ("actual", .string(actual)),
            ("summary", .string(summary)),
            ("record", record.json),
        ])
    }

    /// Reads a near miss from the control API's JSON.
    public init?(json: JSONValue) {
        guard let recordJSON = json["record"], let record = JournalRecord(json: recordJSON),
            let fieldName = json["field"]?.stringValue, let field = JournalQuery.Field(rawValue: fieldName)
        else { return nil }
        self.init(
            record: record, field: field, expected: json["expected"]?.stringValue ?? "",
            actual: json["actual"]?.stringValue ?? "")
    }
}

extension RecordWaitResult {
    /// The result as the control API answers it (200 when satisfied, 408 with an `error` otherwise).
    public func json(query: JournalQuery, timeout: Duration) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if !satisfied { members.append(("error", .string(failureSummary(query: query, timeout: timeout)))) }
        members += [
            ("satisfied", .bool(satisfied)),
            ("count", .number(String(count))),
            ("found", .number(String(records.count))),
            ("records", .array(records.map(\.json))),
            ("nearMisses", .array(nearMisses.map(\.json))),
        ]
        return .object(members)
    }

    /// Reads a result from the control API's JSON.
    public init?(json: JSONValue) {
        guard case .bool(let satisfied)? = json["satisfied"], let count = json["count"]?.unsignedValue,
            let records = json["records"]?.arrayValue
        else { return nil }
        self.init(
            satisfied: satisfied, count: Int(count), records: records.compactMap(JournalRecord.init(json:)),
            nearMisses: (json["nearMisses"]?.arrayValue ?? []).compactMap(NearMiss.init(json:)))
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
