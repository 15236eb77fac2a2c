import Foundation

extension MockAPNsServer {
    /// The running scenario's `expect:`, `unexpected:` and `checks:` checked against the journal as it is now.
    ///
    /// - Parameter startedAt: when the run started, for `within:`; `nil` for when the server started.
    public func verify(startedAt: Date? = nil) -> VerifyReport {
        journal.flush()
        let dropped = journal.droppedCount > UInt64(Int.max) ? Int.max : Int(journal.droppedCount)
        return currentScenario.verify(
            journal.records(), startedAt: startedAt ?? self.startedAt, droppedRecords: dropped)
    }

    /// `verify(startedAt:)` from the server's start: what `POST /v1/verify` answers.
    public func verify() async throws -> VerifyReport { verify(startedAt: nil) }
}
