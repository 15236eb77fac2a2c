extension VerifyReport {
    /// The report read back from its `json` (`POST /v1/verify`'s answer); `nil` when `json` is not one.
    public init?(json: JSONValue) {
        guard let elements = json["items"]?.arrayValue, let records = json["records"]?.unsignedValue,
            let dropped = json["droppedRecords"]?.unsignedValue
        else { return nil }
        var items: [Item] = []
        for element in elements {
            guard let item = Item(json: element) else { return nil }
            items.append(item)
        }
        self.init(
            items: items, recordCount: Int(clamping: records), droppedRecords: Int(clamping: dropped))
    }
}

extension VerifyReport.Item {
    /// The item read back from its `json`; `nil` when `json` is not one.
    public init?(json: JSONValue) {
        guard let kind = json["kind"]?.stringValue.flatMap(Kind.init(rawValue:)),
            let name = json["name"]?.stringValue, case .bool(let passed)? = json["passed"],
            let summary = json["summary"]?.stringValue
        else { return nil }
        let details = (json["details"]?.arrayValue ?? []).compactMap(\.stringValue)
        let records = (json["records"]?.arrayValue ?? []).compactMap(\.unsignedValue)
        self.init(kind: kind, name: name, passed: passed, summary: summary, details: details, records: records)
    }
}
