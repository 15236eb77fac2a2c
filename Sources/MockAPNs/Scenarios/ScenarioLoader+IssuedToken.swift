import Yams

extension ScenarioLoader.Reader {
    /// The fields of a `token: { issuedFrom: … }` mapping.
    static let issuedTokenFields = ["issuedFrom", "start"]

    /// Whether a match's `token:` is an `issuedFrom` mapping rather than a literal or a value operator.
    func isIssuedToken(_ field: Field) throws(ScenarioError) -> Bool {
        guard case .mapping = field.node else { return false }
        return try field.freeMapping().contains { Self.issuedTokenFields.contains($0.key) }
    }

    /// `token: { issuedFrom: <push-to-start token>, start: n }`: the push-to-start token (hex, as a device's) and,
    /// optionally, which of the activities it started in the run (1 for the first).
    func issuedToken(_ field: Field) throws(ScenarioError) -> IssuedTokenCondition {
        let fields = try field.mapping(known: Self.issuedTokenFields)
        let from = try deviceToken(try fields.required("issuedFrom"))
        let start = try fields["start"].map { (f: Field) throws(ScenarioError) in try f.integer(in: 1...1_000_000) }
        return IssuedTokenCondition(pushToStartToken: from, start: start)
    }
}
