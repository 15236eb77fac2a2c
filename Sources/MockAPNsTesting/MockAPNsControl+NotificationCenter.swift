import MockAPNs

extension MockAPNsControl {
    /// Waits until the notification centre of the simulated phone `phone` (its id, or one of its device tokens)
    /// lists `count` notifications with every content field given and the `sender` (of the app `app`, or of every
    /// app); throws a readable failure otherwise.
    ///
    /// The list is the one `GET /v1/phones/{id}` gives, after collapses, the service extension and the pushes
    /// delivered from storage: what the person would see. The judging is that of a scenario's `expect:` entry with
    /// `notificationCenter:` (`NotificationCenterCheck`, in `MockAPNs`), so a test and `mock-apns run` fail alike,
    /// and the failure lists the phone's notifications, newest first. The phone is read again every 25 ms until
    /// the list matches or `timeout` passes.
    ///
    /// ```swift
    /// try await server.expectNotificationCenter(on: token, title: "Order ready", count: 1)
    /// try await server.expectNotificationCenter(on: "alice", sender: "Mum")
    /// ```
    ///
    /// `sender` is the person of a communication notification (the app's `serviceExtension.communication`), compared
    /// whole; an ordinary notification has none, so it never matches a `sender`.
    ///
    /// In a Swift Testing test, a failure is recorded as an issue at the line that called
    /// `expectNotificationCenter`, as for `expectPush`.
    ///
    /// - Returns: the matching notifications, newest first.
    @discardableResult
    public func expectNotificationCenter(
        on phone: String, app: String? = nil, title: String? = nil, subtitle: String? = nil, body: String? = nil,
        threadID: String? = nil, sender: String? = nil, count: Int = 1, timeout: Duration = .seconds(2),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async throws -> [PhoneSnapshot.Notification] {
        let caller = CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard count >= 0 else {
            throw MockAPNsExpectationFailure(
                message: "expectNotificationCenter needs a count of 0 or more, got \(count)", at: caller)
        }
        guard sender != "" else {
            throw MockAPNsExpectationFailure(
                message: "expectNotificationCenter needs the sender's name (like Mum), got an empty one", at: caller)
        }
        var condition = NotificationCenterCondition(phone: phone)
        condition.app = app
        condition.title = title
        condition.subtitle = subtitle
        condition.body = body
        condition.threadID = threadID
        condition.sender = sender
        let deadline = ContinuousClock.now + timeout
        while true {
            guard let snapshot = try await self.phone(id: phone) else {
                throw MockAPNsExpectationFailure(
                    message: "no phone '\(phone)': give a phone id from the scenario's phones:, or a device token",
                    at: caller)
            }
            let item = NotificationCenterCheck.item(
                condition, count: count...count, name: "expectNotificationCenter", on: snapshot)
            if item.passed {
                let matching = Set(item.records)
                return snapshot.apps.flatMap(\.notifications).filter { matching.contains($0.sequence) }
                    .sorted { $0.at > $1.at }
            }
            guard ContinuousClock.now < deadline else {
                throw MockAPNsExpectationFailure(message: item.message, at: caller)
            }
            try await Task.sleep(for: .milliseconds(25))
        }
    }
}
