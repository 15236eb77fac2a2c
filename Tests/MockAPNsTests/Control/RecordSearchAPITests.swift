import Foundation
import MockAPNsClient
import Testing

@testable import MockAPNs

/// The search text over real sockets: `q=` on the journal's routes (curl), `MockAPNsControlClient`, and
/// `mock-apns requests --query`.
@Suite("Record search over the control API and the CLI", .serialized)
struct RecordSearchAPITests {
    /// Three pushes: #1 accepted, #2 400 BadDeviceToken (a token that is not hex), #3 rejected otherwise (a
    /// liveactivity push on the app's own topic).
    static func pushThree(_ server: MockAPNsServer) async throws {
        #expect(try await sendPush(server) == 200)
        #expect(try await sendPush(server, to: "zz") == 400)
        let third = try await sendPush(
            server, pushType: "liveactivity", body: #"{"aps":{"event":"update","timestamp":1,"content-state":{}}}"#)
        #expect((400...499).contains(third))
        #expect(server.journal.records().map(\.reason) == [nil, "BadDeviceToken", "DeviceTokenNotForTopic"])
    }

    static func sequences(_ answer: ControlCurl.Answer) -> [UInt64] {
        (answer.json?["records"]?.arrayValue ?? []).compactMap { $0["sequence"]?.unsignedValue }
    }

    @Test("q= filters /v1/requests, the wait and the stream; a bad query is a 400 quoting the word")
    func api() async throws {
        try await withControlServer { server, control in
            try await Self.pushThree(server)
            let search = "q=status:4xx%20-reason:BadDeviceToken"
            let list = try await ControlCurl.call("GET", control, "/v1/requests?\(search)")
            #expect(list.status == 200, "\(list.text)")
            #expect(Self.sequences(list) == [3])
            // As a form encodes it (curl --data-urlencode, Python's requests): a '+' is a space, '%2B' a '+'.
            let form = try await ControlCurl.call("GET", control, "/v1/requests?q=status:4xx+-reason:BadDeviceToken")
            #expect(Self.sequences(form) == [3], "\(form.text)")
            let plus = try await ControlCurl.call("GET", control, "/v1/requests/wait?q=%22a%2Bb%22&timeout=10ms")
            #expect(plus.error?.contains("matching q=\"a+b\"; found 0") == true, "\(plus.text)")
            let phrase = try await ControlCurl.call("GET", control, "/v1/requests?q=%22order%20READY%22")
            #expect(Self.sequences(phrase) == [1, 2])
            let combined = try await ControlCurl.call(
                "GET", control, "/v1/requests?status=400&q=-reason:BadDeviceToken")
            #expect(Self.sequences(combined) == [3])

            let wait = try await ControlCurl.call("GET", control, "/v1/requests/wait?q=status:4xx&count=2&timeout=2s")
            #expect(wait.status == 200)
            #expect(wait.json?["found"] == 2)
            let missed = try await ControlCurl.call(
                "GET", control, "/v1/requests/wait?q=status:4xx%20reason:Unregistered&timeout=100ms")
            #expect(missed.status == 408)
            #expect(missed.json?["nearMisses"]?.arrayValue?.first?["field"] == "q")
            #expect(missed.error?.contains("matching q=status:4xx reason:Unregistered; found 0") == true)

            let client = MockAPNsControlClient(url: control.url)
            let query = JournalQuery(search: try RecordSearch("status:4xx -reason:BadDeviceToken"), since: 0)
            #expect(try await client.records(query).map(\.sequence) == [3])
            for try await record in client.streamRecords(query) {
                #expect(record.sequence == 3)
                break
            }

            for (path, message) in [
                ("/v1/requests?q=status:4xx%20-reson:BadDeviceToken",
                    "q: at '-reson:BadDeviceToken' (character 12): unknown field 'reson' (did you mean 'reason'?)"),
                ("/v1/requests?q=status:99", "q: at 'status:99' (character 1): status must be an HTTP status"),
                ("/v1/requests?q=%22open", "q: at '\"open' (character 1): a quote that is never closed"),
                ("/v1/requests?q=", "the filter 'q' is empty"),
                ("/v1/requests/wait?q=type:banner", "q: at 'type:banner' (character 1): type must be one of"),
                ("/v1/requests/stream?q=-", "q: at '-' (character 1): a '-' with nothing to negate"),
            ] {
                let bad = try await ControlCurl.call("GET", control, path)
                #expect(bad.status == 400, "\(path): \(bad.text)")
                #expect(bad.error?.hasPrefix(message) == true, "\(path): \(bad.text)")
            }
            #expect(server.journal.count == 3)
        }
    }

    @Test("requests --query 'status:4xx -reason:BadDeviceToken' lists the other rejections; a bad one is a usage error")
    func cli() async throws {
        try await withControlServer { server, control in
            try await Self.pushThree(server)
            let listed = try await CLITests.run([
                "requests", "--control", control.url, "--json", "--query", "status:4xx -reason:BadDeviceToken",
            ])
            #expect(listed.status == 0, "\(listed.errors)")
            let records = listed.output.split(separator: "\n").map { try? JSONParser.parse(String($0)) }
            #expect(records.map { $0?["sequence"]?.unsignedValue } == [3])

            // A search that starts with '-' is given as --query=…, or the parser takes it for a flag.
            let table = try await CLITests.run(
                ["requests", "--control", control.url, "--query=-status:2xx", "--limit", "1"])
            #expect(table.status == 0, "\(table.errors)")
            // The header and one row (an indented `why:` line under it explains the rejection).
            #expect(table.output.split(separator: "\n").filter { !$0.hasPrefix(" ") }.count == 2, "\(table.output)")

            let bad = try await CLITests.run(
                ["requests", "--control", control.url, "--query", "status:4xx -reson:BadDeviceToken"])
            #expect(bad.status == 64, "\(bad.status) \(bad.errors)")
            #expect(
                bad.errors.contains(
                    "--query: at '-reson:BadDeviceToken' (character 12): unknown field 'reson' (did you mean 'reason'?)"),
                "\(bad.errors)")
        }
    }
}
