extension MockAPNsControl {
    /// Sends record `sequence`'s request again as it was recorded (`replay(_:edit:)` with no edit).
    public func replay(_ sequence: UInt64) async throws -> JournalRecord {
        try await replay(sequence, edit: nil)
    }
}
