extension VerifyReport: JSONMapped {
    /// The report as JSON (`POST /v1/verify`'s answer): `{"passed", "summary", "records", "droppedRecords",
    /// "items": [...]}`; read back `nil` without `records`, `droppedRecords` and `items`.
    public static let jsonMapping = JSONMapping<VerifyReport, VerifyReport>(
        VerifyReport(items: [], recordCount: 0),
        [
            .written("passed") { .bool($0.passed) },
            .written("summary") { .string($0.summaryLine) },
            .member("records", \.recordCount, .integer, required: true),
            .member("droppedRecords", \.droppedRecords, .integer, required: true),
            .member("items", \.items, .array(.object), required: true),
        ])
}

extension VerifyReport.Item: JSONMapped {
    /// The item as `VerifyReport`'s JSON lists it: `{"kind", "name", "passed", "summary", "details", "records"}`;
    /// read back `nil` without a known `kind`, a `name`, `passed` and a `summary`.
    public static let jsonMapping = JSONMapping<VerifyReport.Item, VerifyReport.Item>(
        VerifyReport.Item(kind: .check, name: "", passed: false, summary: ""),
        [
            .member("kind", \.kind, .rawValue, required: true),
            .member("name", \.name, .string, required: true),
            .member("passed", \.passed, .bool, required: true),
            .member("summary", \.summary, .string, required: true),
            .member("details", \.details, .compactArray(.string)),
            .member("records", \.records, .compactArray(.integer)),
        ])
}
