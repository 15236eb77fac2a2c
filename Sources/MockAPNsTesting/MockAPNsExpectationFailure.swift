import Testing

/// An expectation on the pushes received that was not met; its description says what was received instead.
///
/// Inside a Swift Testing test it is recorded as an issue at the line that called `expectPush` or `expectNoPush`
/// when it is made, with the whole explanation; the error, which ends the test, is then reported at the test
/// function and only points at that line. Outside one (XCTest, a plain program) its description is the whole
/// explanation.
public struct MockAPNsExpectationFailure: Error, CustomStringConvertible {
    /// The whole explanation, several lines.
    public var message: String
    /// Where the expectation was called, if it was recorded there as an issue.
    public var recordedAt: String?

    /// A failure that says `message`; recorded as an issue at `caller` when a Swift Testing test is running.
    init(message: String, at caller: CallerLocation? = nil) {
        self.message = message
        guard let caller, Test.current != nil else { return }
        Issue.record(
            Comment(rawValue: message),
            sourceLocation: SourceLocation(
                fileID: caller.fileID, filePath: caller.filePath, line: caller.line, column: caller.column))
        recordedAt = "\(caller.fileID):\(caller.line)"
    }

    /// The explanation; for one already recorded as an issue, where.
    public var description: String {
        guard let recordedAt else { return message }
        return "the expectation at \(recordedAt) failed; the issue recorded there says why"
    }
}

/// The source location of a helper's caller, as `#fileID`, `#filePath`, `#line` and `#column` give it.
struct CallerLocation: Sendable {
    var fileID: String
    var filePath: String
    var line: Int
    var column: Int
}
