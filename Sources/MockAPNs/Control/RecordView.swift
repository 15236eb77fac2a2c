/// How the record routes write each record (`view=` on `GET /v1/requests` and `GET /v1/requests/stream`).
enum RecordView: String, Sendable, CaseIterable {
    /// The whole record, as journal files write it (the default).
    case full
    /// `RecordSummary`: what a list row shows.
    case summary

    /// The view named by the `view` parameter (`full` when it is absent), or a 400 that lists the views.
    static func named(_ text: String?) throws(MockAPNsControlError) -> RecordView {
        guard let text else { return .full }
        guard let view = RecordView(rawValue: text) else {
            throw .badRequest(
                "view must be \(allCases.map(\.rawValue).joined(separator: " or ")), got '\(text)'"
                    + NameSuggestion.hint(for: text, among: allCases.map(\.rawValue)))
        }
        return view
    }

    /// `record` in this view, as JSON.
    func json(_ record: JournalRecord) -> JSONValue {
        switch self {
        case .full: record.json
        case .summary: RecordSummary(record).json
        }
    }
}
