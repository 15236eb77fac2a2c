extension MockAPNsControlForwarding {
    /// Sends record `sequence`'s request again, `edit` applied, and answers the new record.
    public func replay(_ sequence: UInt64, edit: ReplayEdit?) async throws -> JournalRecord {
        try await forwardedControl.replay(sequence, edit: edit)
    }

    /// Record `sequence` as a curl command to the mock's APNs port.
    public func curl(_ sequence: UInt64) async throws -> String { try await forwardedControl.curl(sequence) }

    /// The connections the server's history keeps or a record names, by id.
    public func connections() async throws -> [ConnectionSummary] { try await forwardedControl.connections() }

    /// Connection `id`, or `nil`.
    public func connection(id: UInt64) async throws -> ConnectionSummary? {
        try await forwardedControl.connection(id: id)
    }
}
