import Foundation

extension InProcessControl {
    /// The running scenario's `expect:`, `unexpected:` and `checks:` checked against the journal as it is now, and
    /// the token uploads that failed or are still being tried.
    ///
    /// - Parameter startedAt: when the run started, for `within:`; `nil` for when the server started.
    public func verify(startedAt: Date? = nil) -> VerifyReport {
        journal.flush()
        let dropped = journal.droppedCount > UInt64(Int.max) ? Int.max : Int(journal.droppedCount)
        return currentScenario.verify(
            journal.records(), startedAt: startedAt ?? self.startedAt, droppedRecords: dropped,
            tokenUploads: engine.activities.activities.flatMap(\.tokenUploads))
    }

    /// `verify(startedAt:)` from the server's start, once the token uploads settled (at most
    /// `TokenUploader.settleLimit`): what `POST /v1/verify` answers.
    public func verify() async throws -> VerifyReport {
        await engine.tokenUploads.waitUntilSettled()
        return verify(startedAt: nil)
    }
}
