/// A signing key the scenario names by its private key file (`keys[].p8`), with its ids.
public struct SigningKeyFile: Sendable, Hashable {
    /// The `.p8` file, resolved against the scenario's folder.
    public var path: String
    /// The key's 10-character Key ID.
    public var keyID: String
    /// The key's 10-character Team ID.
    public var teamID: String

    public init(path: String, keyID: String, teamID: String) {
        self.path = path
        self.keyID = keyID
        self.teamID = teamID
    }
}

extension ScenarioLoader.Reader {
    /// The first entry of the `keys` list given with `p8` (a private key file); `nil` when none is. Runs after
    /// `signingKeys`, which has already checked every field.
    func firstSigningKeyFile(_ field: Field) throws(ScenarioError) -> SigningKeyFile? {
        for element in try field.list() {
            let fields = try element.mapping(known: Self.signingKeyFields)
            guard let p8 = fields["p8"] else { continue }
            return SigningKeyFile(
                path: try resolvedPath(p8), keyID: try fields.required("keyID").string(),
                teamID: try fields.required("teamID").string())
        }
        return nil
    }
}
