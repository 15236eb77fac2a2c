/// What a phone's notification centre must list when the run is checked: an `expect:` entry's
/// `notificationCenter:` (issue 23 item 5). The entry's `count` counts the notifications on the list of the phone
/// (and app) given that have every content field given (and the `sender`, for communication notifications), after
/// collapses and deliveries from storage.
///
/// ```yaml
/// expect:
///   - name: one order notification, updated in place
///     notificationCenter: { phone: alice, app: com.example.app, title: Order 42 }
///     count: 1
///   - name: Mum's message is on the list
///     notificationCenter: { phone: alice, sender: Mum }
/// ```
public struct NotificationCenterCondition: Sendable, Hashable {
    /// The phone, by its id (`phones:`); `nil` when `token` names it.
    public var phone: String?
    /// A device token on the phone (lower-case); `nil` when `phone` names it.
    public var token: String?
    /// The app whose notifications count; `nil`: every app's.
    public var app: String?
    /// The title a notification must show (after the service extension).
    public var title: String?
    /// The subtitle it must show.
    public var subtitle: String?
    /// The body it must show.
    public var body: String?
    /// The `thread-id` it must be grouped under.
    public var threadID: String?
    /// The person it must be from: the sender of a communication notification (`serviceExtension.communication`),
    /// compared whole; an ordinary notification, without a sender, never has it.
    public var sender: String?

    /// A condition on the phone `phone` or the phone of `token`.
    public init(phone: String? = nil, token: String? = nil) {
        self.phone = phone
        self.token = token
    }

    /// Whether `notification` has every content field the condition gives.
    func passes(_ notification: PhoneSnapshot.Notification) -> Bool {
        (title == nil || notification.title == title) && (subtitle == nil || notification.subtitle == subtitle)
            && (body == nil || notification.body == body) && (threadID == nil || notification.threadID == threadID)
            && (sender == nil || notification.communicationSender == sender)
    }

    /// `notifications of com.example.app on phone alice with title "Order 42"`.
    var text: String {
        var text = "notifications" + (app.map { " of \($0)" } ?? "")
        text += phone.map { " on phone \($0)" } ?? " on the phone of token \(token ?? "")"
        let fields = [
            ("title", title), ("subtitle", subtitle), ("body", body), ("threadID", threadID), ("sender", sender),
        ]
            .compactMap { name, value in value.map { "\(name) \"\($0)\"" } }
        if !fields.isEmpty { text += " with " + fields.joined(separator: ", ") }
        return text
    }

    /// The condition as a scenario file's `notificationCenter:` mapping.
    public var scenarioJSON: JSONValue {
        let members: [(String, String?)] = [
            ("phone", phone), ("token", token), ("app", app), ("title", title), ("subtitle", subtitle),
            ("body", body), ("threadID", threadID), ("sender", sender),
        ]
        return .object(members.compactMap { name, value in value.map { (name, .string($0)) } })
    }
}
