import Foundation

/// One upload of an update token to the provider's server (`tokenUpload:`), and how it went.
///
/// Kept on its activity (`LiveActivity.tokenUploads`) from the moment the token is issued, so an upload is never
/// lost silently: it is `pending` while it is queued or being tried, then `delivered` or `failed`. A failed one
/// also fails `POST /v1/verify` and `mock-apns run`.
public struct TokenUpload: Sendable, Hashable {
    /// Where an upload stands.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Queued or being tried.
        case pending
        /// The provider's server answered 2xx.
        case delivered
        /// Every try failed, or it never got a try (the queue was full, the server stopped).
        case failed
    }

    /// The uploader's number for it, unique in the server's life: how its result finds it on the activity.
    public var id: UInt64
    /// The activity whose token it carries.
    public var activityID: String
    /// Why there is a new token: the activity started, or its token rotated.
    public var event: ActivityTokenEvent
    /// The update token uploaded.
    public var token: String
    /// The endpoint it goes to (`tokenUpload.url`).
    public var url: String
    public var status: Status
    /// Tries made so far.
    public var attempts: Int
    /// Tries allowed (`tokenUpload.attempts`).
    public var maxAttempts: Int
    /// The HTTP status of the last answer, when there was one.
    public var httpStatus: Int?
    /// Why the last try failed, in plain words (`HTTP 503`, `connection refused`); `nil` after a delivery.
    public var error: String?
    /// When the token was issued, by the mock's clock.
    public var at: Date
    /// When it was delivered or given up, by the mock's clock.
    public var finishedAt: Date?

    public init(
        id: UInt64, activityID: String, event: ActivityTokenEvent, token: String, url: String, maxAttempts: Int,
        at: Date
    ) {
        self.id = id
        self.activityID = activityID
        self.event = event
        self.token = token
        self.url = url
        self.status = .pending
        self.attempts = 0
        self.maxAttempts = maxAttempts
        self.at = at
    }

    /// `token upload (started) for activity 5E1…`: the name a verify item and a log line give it.
    public var title: String {
        "token upload (\(event.rawValue)) for activity \(activityID)"
    }

    /// `to http://… failed after 3 attempts: HTTP 503`, `… still pending after 1 of 3 attempts`, or `delivered`.
    public var summary: String {
        switch status {
        case .delivered:
            return "to \(url) delivered after \(attempts) attempt\(attempts == 1 ? "" : "s")"
        case .failed:
            let tries = attempts == 0 ? "without an attempt" : "after \(attempts) attempt\(attempts == 1 ? "" : "s")"
            return "to \(url) failed \(tries): \(error ?? "unknown error")"
        case .pending:
            let last = error.map { "; last: \($0)" } ?? ""
            return "to \(url) still pending after \(attempts) of \(maxAttempts) attempts\(last)"
        }
    }

    /// The upload as JSON, for the activity's `tokenUploads`: `event`, `token`, `url`, `status`, `attempts`,
    /// `maxAttempts`, `httpStatus`, `error`, `at`, `finishedAt`, always in this order (`null` when unset).
    public var json: JSONValue {
        .object([
            ("event", .string(event.rawValue)),
            ("token", .string(token)),
            ("url", .string(url)),
            ("status", .string(status.rawValue)),
            ("attempts", .number(String(attempts))),
            ("maxAttempts", .number(String(maxAttempts))),
            ("httpStatus", httpStatus.map { .number(String($0)) } ?? .null),
            ("error", error.map { .string($0) } ?? .null),
            ("at", .string(Timestamp.text(at))),
            ("finishedAt", finishedAt.map { .string(Timestamp.text($0)) } ?? .null),
        ])
    }
}

extension TokenUpload {
    /// Reads an upload back from its `json` (the HTTP client's reading of an activity); `nil` when a required
    /// member is missing or malformed. The `id` is the uploader's own and not in the JSON: it reads back as 0, and
    /// the activity comes from the caller.
    public init?(json: JSONValue, activityID: String) {
        guard let event = json["event"]?.stringValue.flatMap(ActivityTokenEvent.init(rawValue:)),
            let token = json["token"]?.stringValue, let url = json["url"]?.stringValue,
            let status = json["status"]?.stringValue.flatMap(Status.init(rawValue:)),
            let attempts = json["attempts"]?.unsignedValue, let maxAttempts = json["maxAttempts"]?.unsignedValue,
            let at = json["at"]?.stringValue.flatMap(Timestamp.date(fromText:))
        else { return nil }
        self.init(
            id: 0, activityID: activityID, event: event, token: token, url: url,
            maxAttempts: Int(clamping: maxAttempts), at: at)
        self.status = status
        self.attempts = Int(clamping: attempts)
        self.httpStatus = json["httpStatus"]?.unsignedValue.map { Int(clamping: $0) }
        self.error = json["error"]?.stringValue
        self.finishedAt = json["finishedAt"]?.stringValue.flatMap(Timestamp.date(fromText:))
    }

    /// The failed verify item of an upload that did not get through: `token upload (started) for activity …: to
    /// http://… failed after 3 attempts: HTTP 503`, with the token and the activity's record in the details.
    public var verifyItem: VerifyReport.Item {
        var details = ["token \(token)", "issued at \(Timestamp.text(at))"]
        if status == .pending {
            details.append("still being tried when the run was verified: is the provider's token endpoint slow?")
        }
        return VerifyReport.Item(kind: .tokenUpload, name: title, passed: false, summary: summary, details: details)
    }
}
