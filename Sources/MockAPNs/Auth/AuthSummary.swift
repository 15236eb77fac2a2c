import Foundation

/// How a request authenticated, as recorded in the journal.
///
/// A value, stored in one shared immutable box: every push on a connection carries the same summary, into its
/// decision and its journal record, and copying it is one reference instead of four.
public struct AuthSummary: Sendable, Hashable, Codable {
    /// The summary's parts: what its storage holds, and what reading its JSON fills in.
    public struct Fields: Sendable, Hashable, Codable {
        fileprivate var kind: String
        fileprivate var teamID: String?
        fileprivate var keyID: String?
        fileprivate var issuedAt: Int64?
        fileprivate var verified: Bool
        fileprivate var certificateTopics: [String]?
    }

    private final class Storage: Sendable {
        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    private let storage: Storage

    /// `token` or `certificate`.
    public var kind: String { storage.fields.kind }
    /// The token's team (`iss`), for token connections.
    public var teamID: String? { storage.fields.teamID }
    /// The token's key (`kid`), for token connections.
    public var keyID: String? { storage.fields.keyID }
    /// The token's `iat`, seconds since the epoch.
    public var issuedAt: Int64? { storage.fields.issuedAt }
    /// Whether a signature was checked against a known key (false for an unknown key in lenient mode).
    public var verified: Bool { storage.fields.verified }
    /// The certificate's topics, for certificate connections.
    public var certificateTopics: [String]? { storage.fields.certificateTopics }

    /// A summary of these parts.
    init(_ fields: Fields) {
        storage = Storage(fields)
    }

    public init(
        kind: String, teamID: String? = nil, keyID: String? = nil, issuedAt: Int64? = nil, verified: Bool,
        certificateTopics: [String]? = nil
    ) {
        storage = Storage(
            Fields(
                kind: kind, teamID: teamID, keyID: keyID, issuedAt: issuedAt, verified: verified,
                certificateTopics: certificateTopics))
    }

    public static func == (lhs: AuthSummary, rhs: AuthSummary) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) {
        storage.fields.hash(into: &hasher)
    }

    /// The same keys as the fields themselves: `kind`, `teamID`, `keyID`, `issuedAt`, `verified`, `certificateTopics`.
    public init(from decoder: any Decoder) throws {
        storage = Storage(try Fields(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try storage.fields.encode(to: encoder)
    }
}

extension AuthSummary: JSONMapped {
    /// The summary as a record writes it: `kind`, `teamID`, `keyID`, `issuedAt`, `verified`, and
    /// `certificateTopics` when there are any; read back `nil` without a `kind` text and a `verified` boolean. An
    /// `issuedAt` out of `Int64`'s range reads as none.
    public static let jsonMapping = JSONMapping<AuthSummary, Fields>(
        start: { Fields(kind: "", verified: false) },
        [
            .member("kind", \.kind, \.kind, .string, required: true),
            .member("teamID", \.teamID, \.teamID, .optional(.string)),
            .member("keyID", \.keyID, \.keyID, .optional(.string)),
            .member("issuedAt", \.issuedAt, \.issuedAt, .optional(.integer)),
            .member("verified", \.verified, \.verified, .bool, required: true),
            .member(
                "certificateTopics", \.certificateTopics, \.certificateTopics, .omittedWhenNil(.compactArray(.string))),
        ],
        finish: { AuthSummary($0) })
}
