import Foundation

/// The text form of a record match: `status:4xx -reason:BadDeviceToken "order ready"`, as `q=` on the journal's
/// routes and `mock-apns requests --query` take it.
///
/// Words are separated by spaces; every word must hold. A word is `field:value` (the fields of `MatchTerm.Field`,
/// plus `pushType` and `apnsID` as the query parameters spell them), or a free word that the payload must contain
/// (ignoring case); `"…"` quotes a phrase or a value with spaces (`\"` and `\\` inside), and a leading `-` negates
/// the word. A bad word is refused with an error that quotes it and says where it starts.
///
/// ```swift
/// let search = try RecordSearch("status:4xx -reason:BadDeviceToken")
/// let failures = try await server.records(JournalQuery(search: search))
/// ```
public struct RecordSearch: Sendable, Hashable, CustomStringConvertible {
    /// The longest search text accepted, in UTF-8 bytes, and the most words: it is user input.
    public static let maximumLength = 2048
    /// The most words a search may have.
    public static let maximumWords = 32

    /// The text as given.
    public let text: String
    /// Its words as terms, in order.
    public let terms: [MatchTerm]

    /// Reads `text`; throws `RecordSearch.Failure`, quoting the first bad word, for a text it cannot read.
    public init(_ text: String) throws(Failure) {
        guard text.utf8.count <= Self.maximumLength else {
            throw Failure(
                message: "the query is \(text.utf8.count) bytes long; the limit is \(Self.maximumLength)", word: "",
                position: 1)
        }
        var terms: [MatchTerm] = []
        for word in try Self.words(of: text) {
            guard terms.count < Self.maximumWords else {
                throw Failure(
                    message: "more than \(Self.maximumWords) words; give fewer", word: word.text,
                    position: word.position)
            }
            terms.append(try Self.term(word))
        }
        self.text = text
        self.terms = terms
    }

    /// The text.
    public var description: String { text }

    /// The search with its `after:` and `before:` words fixed to dates against `now` (`MatchTerm.resolvingTime`).
    public func resolvingTimes(now: Date) -> RecordSearch {
        RecordSearch(text: text, terms: terms.map { $0.resolvingTime(now: now) })
    }

    private init(text: String, terms: [MatchTerm]) {
        self.text = text
        self.terms = terms
    }

    /// A word of a search that cannot be read, and why.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, in words.
        public var message: String
        /// The word as written (empty when the whole text is at fault).
        public var word: String
        /// Where the word starts: 1 for the first character.
        public var position: Int

        /// `at 'reson:BadDeviceToken' (character 12): unknown field 'reson' (did you mean 'reason'?); …`.
        public var description: String {
            word.isEmpty ? message : "at '\(word)' (character \(position)): \(message)"
        }
    }

    /// Field names the text takes besides `MatchTerm.Field`'s own: the query parameters' spellings (field names
    /// are read ignoring case).
    static let aliases: [String: MatchTerm.Field] = ["pushtype": .type, "apnsid": .apnsID]

    /// Every field name the text takes, for messages.
    static let fieldNames = MatchTerm.Field.allCases.filter { $0 != .text }.map(\.rawValue)

    /// The term of one word.
    private static func term(_ word: Word) throws(Failure) -> MatchTerm {
        func failure(_ message: String) -> Failure {
            Failure(message: message, word: word.text, position: word.position)
        }
        guard let name = word.field else {
            guard !word.value.isEmpty else { throw failure("an empty phrase; put words between the quotes") }
            return MatchTerm(field: .text, value: word.value, negated: word.negated)
        }
        let lowered = name.lowercased()
        guard let field = MatchTerm.Field(rawValue: lowered).flatMap({ $0 == .text ? nil : $0 }) ?? aliases[lowered]
        else {
            throw failure(
                "unknown field '\(name)'\(NameSuggestion.hint(for: name, among: fieldNames)); the fields are: "
                    + fieldNames.joined(separator: ", ") + " (quote a word with a colon to search the payload for it)")
        }
        guard !word.value.isEmpty else { throw failure("\(name): needs a value, such as \(name):\(example(field))") }
        switch MatchTerm.checked(field, word.value, negated: word.negated) {
        case .success(let term): return term
        case .failure(let problem): throw failure(problem.message)
        }
    }

    /// A value of `field` for messages.
    private static func example(_ field: MatchTerm.Field) -> String {
        switch field {
        case .status: "4xx"
        case .reason: "BadDeviceToken"
        case .type: "alert"
        case .device: "applied"
        case .deviceRule: "alert-shown"
        case .warnings: "none"
        case .kind: "push"
        case .channel: "dGVzdA=="
        case .operation: "create"
        case .activity: "0c6f1a2b"
        case .event: "update"
        case .accepted: "true"
        case .priority: "10"
        case .connection: "1"
        case .after: "-5m"
        case .before: "16:10"
        default: "…"
        }
    }
}
