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
}

extension TokenUpload: JSONMapped {
    /// The upload as JSON, for the activity's `tokenUploads`: `event`, `token`, `url`, `status`, `attempts`,
    /// `maxAttempts`, `httpStatus`, `error`, `at`, `finishedAt`, always in this order (`null` when unset). The `id` is
    /// the uploader's own and not in the JSON: it reads back as 0; `activityID` reads back empty
    /// (`init?(json:activityID:)` takes it from the caller).
    public static let jsonMapping = JSONMapping<TokenUpload, TokenUpload>(
        TokenUpload(id: 0, activityID: "", event: .started, token: "", url: "", maxAttempts: 0, at: .distantPast),
        [
            .member("event", \.event, .rawValue, required: true),
            .member("token", \.token, .string, required: true),
            .member("url", \.url, .string, required: true),
            .member("status", \.status, .rawValue, required: true),
            .member("attempts", \.attempts, .integer, required: true),
            .member("maxAttempts", \.maxAttempts, .integer, required: true),
            .member("httpStatus", \.httpStatus, .optional(.integer)),
            .member("error", \.error, .optional(.string)),
            .member("at", \.at, .timestamp, required: true),
            .member("finishedAt", \.finishedAt, .optional(.timestamp)),
        ])

    /// Reads an upload back from its `json` (the HTTP client's reading of an activity) as an upload of the activity
    /// `activityID`; `nil` when a required member is missing or malformed.
    public init?(json: JSONValue, activityID: String) {
        guard let upload = Self.jsonMapping.read(json) else { return nil }
        self = upload
        self.activityID = activityID
    }
}

extension TokenUpload {
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
