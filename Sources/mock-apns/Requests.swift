import ArgumentParser
import Foundation
import MockAPNs
import MockAPNsClient

/// `mock-apns requests`: lists (or follows) the pushes a running server recorded.
struct Requests: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the pushes a running mock-apns recorded, as a table or JSON lines; --follow tails them.",
        discussion: """
            Talks to the control API of `mock-apns serve` (default http://127.0.0.1:2190; --control-url for \
            another). Filters combine: \
            `mock-apns requests --token 0123... --status 410` shows that device's 410 answers; \
            `mock-apns requests --last 5m --accepted false` the rejections of the last five minutes. \
            `mock-apns requests 7` explains record 7 in words.
            """)

    @Argument(help: "Explain this one record (its sequence number, the table's SEQ) instead of listing.")
    var sequence: String?

    @Flag(name: [.short, .long], help: "Keep running and print records as they arrive (server-sent events).")
    var follow = false

    @Flag(name: .long, help: "Print each record as one JSON line instead of a table.")
    var json = false

    @Option(name: .long, help: "Only this device token.")
    var token: String?

    @Option(name: .long, help: "Only this apns-topic.")
    var topic: String?

    @Option(name: .long, help: "Only this push type (alert, background, liveactivity, ...).")
    var pushType: String?

    @Option(name: .long, help: "Only this apns-id.")
    var apnsID: String?

    @Option(name: .long, help: "Only answers with this HTTP status.")
    var status: Int?

    @Option(name: .long, help: "Only answers with this reason (Unregistered, BadDeviceToken, ...).")
    var reason: String?

    @Option(name: .long, help: "Only accepted (true) or rejected (false) pushes.")
    var accepted: Bool?

    @Option(name: .long, help: "Only requests on this connection id.")
    var connection: UInt64?

    @Option(
        name: .long,
        help: "Only pushes the simulated phone handled so: started, applied, ended, ignored, dropped, throttled.")
    var device: String?

    @Option(name: .long, help: "Only device outcomes without warnings (none) or with some (some).")
    var warnings: String?

    @Option(
        name: .customLong("query"),
        help: ArgumentHelp(
            "Only records matching this search: fields (status:4xx, reason:, token:, topic:, type:, priority:, rule:, "
                + "apns-id:, collapse-id:, connection:, device:), payload words, \"quoted phrases\", - to negate.",
            valueName: "search"))
    var search: String?

    @Option(name: .long, help: "Only records after this sequence number.")
    var since: UInt64?

    @Option(
        name: .long, parsing: .unconditional,
        help: "Only records received at or after: 16:10 (today, the server's time zone), an ISO 8601 time, or -5m.")
    var after: String?

    @Option(
        name: .long, parsing: .unconditional, help: "Only records received before: 16:10, an ISO 8601 time, or -5m.")
    var before: String?

    @Option(
        name: .long, parsing: .unconditional,
        help: "Only records of the last DURATION (5m, 90s, 2h): the same as --after -DURATION.")
    var last: String?

    @Option(name: .long, help: "At most this many records, the newest. Default: all (with --follow: the last 10).")
    var limit: Int?

    @OptionGroup var control: ControlOptions

    func validate() throws {
        if let sequence {
            guard UInt64(sequence) != nil else {
                throw ValidationError("SEQ must be a record's sequence number (the table's SEQ), such as 7; got '\(sequence)'")
            }
            let listing: [(String, Bool)] = [
                ("--follow", follow), ("--token", token != nil), ("--topic", topic != nil),
                ("--push-type", pushType != nil), ("--apns-id", apnsID != nil), ("--status", status != nil),
                ("--reason", reason != nil), ("--accepted", accepted != nil), ("--connection", connection != nil),
                ("--device", device != nil), ("--warnings", warnings != nil), ("--since", since != nil),
                ("--after", after != nil), ("--before", before != nil), ("--last", last != nil),
                ("--query", search != nil), ("--limit", limit != nil),
            ]
            if let flag = listing.first(where: { $0.1 })?.0 {
                throw ValidationError("\(flag) filters a listing; `requests SEQ` shows one record: give one or the other")
            }
        }
        if let last {
            guard after == nil else { throw ValidationError("--last DURATION is --after -DURATION: give one of them") }
            if case .failure(let problem) = DurationText.parse(last, maximum: TimePoint.maximumAgo) {
                throw ValidationError("--last: \(problem.message)")
            }
        }
        for (flag, value) in [("--after", after), ("--before", before)] {
            if let value, case .failure(let problem) = TimePoint.parse(value) {
                throw ValidationError("\(flag): \(problem.message)")
            }
        }
        if let search {
            do throws(RecordSearch.Failure) {
                _ = try RecordSearch(search)
            } catch {
                throw ValidationError("--query: \(error)")
            }
        }
    }

    func run() async throws {
        if let sequence, let number = UInt64(sequence) {
            return try await RecordExplainer(client: control.client(), json: json).explain(number)
        }
        var query = JournalQuery(
            token: token, topic: topic, pushType: pushType, apnsID: apnsID, status: status, reason: reason,
            accepted: accepted, connection: connection, since: since, limit: limit ?? (follow ? 10 : nil))
        // The server checks the filters; parsing them here too gives the same messages before any network call.
        do {
            var parameters = query.parameters
            if let device { parameters.append(("device", device)) }
            if let warnings { parameters.append(("warnings", warnings)) }
            if let search { parameters.append(("q", search)) }
            if let after = after ?? last.map({ "-" + $0 }) { parameters.append(("after", after)) }
            if let before { parameters.append(("before", before)) }
            query = try JournalQuery.parse(parameters).query
        } catch {
            throw CLIError(error.message)
        }
        let client = control.client()
        let printer = RecordPrinter(json: json, color: Terminal.wantsColor)
        // Read the total before listing: following from there can repeat a record (skipped) but never miss one.
        let total = follow ? try await controlCall { try await client.stats().total } : 0
        let records = try await controlCall { try await client.records(query) }
        if !json { printer.header() }
        for record in records { printer.print(record) }
        guard follow else { return printer.legend(records) }
        var live = query
        live.limit = nil
        var lastPrinted = max(records.last?.sequence ?? 0, query.since ?? 0)
        live.since = min(lastPrinted == 0 ? total : lastPrinted, total)
        do {
            for try await record in client.streamRecords(live) where record.sequence > lastPrinted {
                printer.print(record)
                lastPrinted = record.sequence
            }
        } catch let error as MockAPNsControlError {
            throw CLIError(commandLineMessage(error))
        }
    }
}
