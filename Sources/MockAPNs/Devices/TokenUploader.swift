import Foundation
import Logging
import NIOConcurrencyHelpers

/// Plays the app's side of token upload: POSTs each update token the simulated phone issues to the provider's
/// server (`tokenUpload:`), retries failures, and records every result on the activity.
///
/// `enqueue` is called on the request path (an event loop, inside `decide`), so it only queues and returns; the
/// uploads run in tasks of their own, one per activity with uploads waiting, so the uploads of one activity go
/// out in order and a slow provider never holds a push's answer. At most `queueLimit` uploads wait at once;
/// beyond that an upload is recorded as failed ("upload queue full") rather than kept.
///
/// Each try goes through a `TokenUploadTransport`: the server's (`MockAPNsServer.start(tokenUploadTransport:)`),
/// else the core's `PlainHTTPTokenUploadTransport`, which takes `http://` URLs and fails each `https://` try with a
/// reason that says a TLS transport is needed.
public final class TokenUploader: Sendable {
    /// One upload waiting for, or in, its tries.
    struct Job: Sendable {
        var uploadID: UInt64
        var activityID: String
        var body: String
        var settings: TokenUploadSettings
    }

    private struct State {
        /// Waiting uploads by activity, oldest first; the first of each is the one being tried.
        var queues: [String: [Job]] = [:]
        /// The task working through each activity's queue.
        var workers: [String: Task<Void, Never>] = [:]
        /// Uploads queued or being tried, over every activity.
        var pending = 0
        var nextID: UInt64 = 0
        var stopped = false
        var logger = Logger(label: "mock-apns")
    }

    /// The most uploads that may wait at once by default (10,000): far more than a test starts, and a bound on
    /// memory when a load test starts activities faster than the provider's server takes their tokens.
    public static let defaultQueueLimit = 10_000
    /// The longest `POST /v1/verify` and `mock-apns run` wait for pending uploads before they report them.
    public static let settleLimit = Duration.seconds(5)

    private let state = NIOLockedValueBox(State())
    private let registry: ActivityRegistry
    private let clock: any APNsClock
    private let queueFullLog = RateLimitedLog()
    /// How each try reaches the provider's server.
    private let transport: any TokenUploadTransport
    /// The most uploads that may be queued or tried at once.
    let queueLimit: Int

    /// An uploader that sends through `transport` (the core's plain-HTTP one when `nil`) and records results on
    /// the activities of `registry`, at times read from `clock`.
    init(
        registry: ActivityRegistry, clock: any APNsClock, transport: (any TokenUploadTransport)? = nil,
        queueLimit: Int = TokenUploader.defaultQueueLimit
    ) {
        self.registry = registry
        self.clock = clock
        self.transport = transport ?? PlainHTTPTokenUploadTransport()
        self.queueLimit = queueLimit
    }

    /// Logs each failed upload on `logger` (the server's).
    func useLogger(_ logger: Logger) {
        state.withLockedValue { $0.logger = logger }
    }

    /// How many uploads are queued or being tried.
    public var pendingCount: Int { state.withLockedValue { $0.pending } }

    /// Queues the upload of `activity`'s update token to `settings.url` and returns at once.
    ///
    /// The upload is on the activity (`pending`) before this returns; over `queueLimit`, or once the server
    /// stopped, it is recorded as failed instead of queued.
    func enqueue(_ activity: LiveActivity, event: ActivityTokenEvent, settings: TokenUploadSettings) {
        let id = state.withLockedValue { state in
            state.nextID += 1
            return state.nextID
        }
        let upload = TokenUpload(
            id: id, activityID: activity.id, event: event, token: activity.updateToken, url: settings.url,
            maxAttempts: settings.attempts, at: clock.now())
        // On the activity before the job can run, so that every result finds its upload.
        guard registry.withActivity(id: activity.id, { $0.tokenUploads.append(upload) }) != nil else { return }
        let job = Job(
            uploadID: id, activityID: activity.id, body: Self.body(activity, event: event), settings: settings)
        enum Admission { case queued, full, stopped }
        let admission = state.withLockedValue { state -> Admission in
            if state.stopped { return .stopped }
            if state.pending >= self.queueLimit { return .full }
            state.pending += 1
            state.queues[job.activityID, default: []].append(job)
            if state.workers[job.activityID] == nil {
                // Started under the lock the queue is in: `drain` removes it under that lock when the queue is empty.
                let activityID = job.activityID
                state.workers[activityID] = Task { await self.drain(activityID) }
            }
            return .queued
        }
        switch admission {
        case .queued:
            break
        case .full:
            let logger = state.withLockedValue { $0.logger }
            finish(job, status: .failed, httpStatus: nil, error: "upload queue full", log: false)
            queueFullLog.log(
                logger, level: .warning, kind: "queue full",
                "token upload queue full (\(self.queueLimit) waiting): an upload to \(settings.url) was recorded as "
                    + "failed without a try; is the provider's token endpoint answering?")
        case .stopped:
            finish(job, status: .failed, httpStatus: nil, error: Self.stoppedReason, log: false)
        }
    }

    /// Why an upload the server's shutdown cut short failed.
    static let stoppedReason = "the server stopped before the upload finished"

    /// The JSON body the app sends: `activityID`, `attributesType`, `token`, `pushToStartToken` (`null` for a local
    /// start), `event`.
    static func body(_ activity: LiveActivity, event: ActivityTokenEvent) -> String {
        JSONValue.object([
            ("activityID", .string(activity.id)),
            ("attributesType", .string(activity.attributesType)),
            ("token", .string(activity.updateToken)),
            ("pushToStartToken", activity.pushToStartToken.map { .string($0) } ?? .null),
            ("event", .string(event.rawValue)),
        ]).jsonText
    }

    /// Works through `activityID`'s queue in order until it is empty.
    private func drain(_ activityID: String) async {
        while let job = state.withLockedValue({ $0.queues[activityID]?.first }) {
            await run(job)
            let more = state.withLockedValue { state -> Bool in
                state.pending -= 1
                state.queues[activityID]?.removeFirst()
                if state.queues[activityID]?.isEmpty ?? true {
                    state.queues[activityID] = nil
                    state.workers[activityID] = nil
                    return false
                }
                return true
            }
            if !more { return }
        }
    }

    /// Tries `job` up to its `attempts`, pausing between tries, and records the result.
    private func run(_ job: Job) async {
        var lastError: String?
        var lastStatus: Int?
        for attempt in 1...job.settings.attempts {
            guard !state.withLockedValue({ $0.stopped }) else { break }
            // A reset forgot the activity: the upload's result goes with it.
            let known = registry.withActivity(id: job.activityID) { activity in
                Self.update(&activity, job.uploadID) { $0.attempts = attempt }
            }
            guard known != nil else { return }
            switch await post(job) {
            case .success(let status):
                finish(job, status: .delivered, httpStatus: status, error: nil, log: false)
                return
            case .failure(let failure):
                lastError = failure.reason
                lastStatus = failure.status
                _ = registry.withActivity(id: job.activityID) { activity in  // a removed activity needs no note
                    Self.update(&activity, job.uploadID) {
                        $0.error = failure.reason
                        $0.httpStatus = failure.status
                    }
                }
            }
            guard attempt < job.settings.attempts else { break }
            do { try await Task.sleep(for: TokenUploadSettings.backoff(after: attempt)) } catch { break }
        }
        if state.withLockedValue({ $0.stopped }) {
            let last = lastError.map { " (last try: \($0))" } ?? ""
            finish(job, status: .failed, httpStatus: lastStatus, error: Self.stoppedReason + last, log: false)
        } else {
            finish(job, status: .failed, httpStatus: lastStatus, error: lastError ?? "not tried", log: true)
        }
    }

    /// Why one try failed: the answer's status when there was one.
    struct Failure: Error {
        var reason: String
        var status: Int?
    }

    /// One POST of `job`'s body; success is a 2xx answer read in full within the timeout.
    private func post(_ job: Job) async -> Result<Int, Failure> {
        var headers = [(name: "Content-Type", value: "application/json")]
        for (name, value) in job.settings.headers.sorted(by: { $0.key < $1.key }) {
            headers.append((name, value))
        }
        let request = TokenUploadRequest(
            url: job.settings.url, headers: headers, body: Array(job.body.utf8), timeout: job.settings.timeout)
        let transport = self.transport
        let timeout = job.settings.timeout
        do {
            // Raced against a timer, whatever the transport: a server that stalls its answer's body must not hold
            // the activity's queue.
            let status = try await withThrowingTaskGroup(of: Int?.self) { group in
                group.addTask { try await transport.post(request) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            guard let status else {
                return .failure(Failure(reason: TokenUploadError.timedOut.reason(timeout: timeout)))
            }
            guard (200..<300).contains(status) else {
                return .failure(Failure(reason: "HTTP \(status)", status: status))
            }
            return .success(status)
        } catch {
            return .failure(Failure(reason: Self.describe(error, timeout: timeout)))
        }
    }

    /// A transport error in a few words.
    static func describe(_ error: any Error, timeout: Duration) -> String {
        if let error = error as? TokenUploadError { return error.reason(timeout: timeout) }
        if error is CancellationError { return "cancelled" }
        let text = String(describing: error)
        if text.contains("connectionRefused") || text.contains("Connection refused") || text.contains("ECONNREFUSED") {
            return TokenUploadError.connectionRefused.reason(timeout: timeout)
        }
        return text
    }

    /// Records `job`'s final result on its activity, and logs a failure on the server's logger when `log`.
    private func finish(_ job: Job, status: TokenUpload.Status, httpStatus: Int?, error: String?, log: Bool) {
        let now = clock.now()
        let recorded = registry.withActivity(id: job.activityID) { activity -> TokenUpload? in
            Self.update(&activity, job.uploadID) { upload in
                upload.status = status
                if let httpStatus { upload.httpStatus = httpStatus }
                upload.error = error
                upload.finishedAt = now
            }
        }
        guard log, status == .failed, let upload = recorded ?? nil else { return }
        let logger = state.withLockedValue { $0.logger }
        logger.warning(
            "\(upload.title) \(upload.summary)",
            metadata: ["activity": "\(upload.activityID)", "url": "\(upload.url)", "attempts": "\(upload.attempts)"])
    }

    /// Changes the upload numbered `id` on `activity`; returns it as changed, `nil` when it is not there.
    @discardableResult
    private static func update(_ activity: inout LiveActivity, _ id: UInt64, _ change: (inout TokenUpload) -> Void)
        -> TokenUpload?
    {
        guard let index = activity.tokenUploads.lastIndex(where: { $0.id == id }) else { return nil }
        change(&activity.tokenUploads[index])
        return activity.tokenUploads[index]
    }

    /// Returns once no upload is queued or being tried, or after `timeout`.
    public func waitUntilSettled(timeout: Duration = TokenUploader.settleLimit) async {
        let clock = ContinuousClock()
        let giveUp = clock.now + timeout
        while pendingCount > 0, clock.now < giveUp {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Stops every upload (those still waiting are recorded as failed) and shuts the transport down: part of the
    /// server's shutdown.
    func shutdown() async {
        let workers = state.withLockedValue { state in
            state.stopped = true
            return Array(state.workers.values)
        }
        for worker in workers { worker.cancel() }
        for worker in workers { await worker.value }
        await transport.shutdown()
    }
}
