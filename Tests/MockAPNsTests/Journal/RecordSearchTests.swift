import Foundation
import Testing

@testable import MockAPNs

/// The search text (`q=`, `requests --query`) read into terms, and the terms tested against records.
@Suite("Record search text")
struct RecordSearchTests {
    static func record(
        sequence: UInt64 = 1, token: String = "aa", status: Int = 200, reason: String? = nil,
        headers: [APNsHeader] = [], body: String = #"{"aps":{"alert":"Order ready"}}"#, rule: String = "accepted"
    ) -> JournalRecord {
        JournalRecord(
            sequence: sequence, receivedAt: Date(), answeredAt: Date(), connectionID: 3, remoteAddress: "127.0.0.1:1",
            request: APNsRequest(
                method: "POST", path: "/3/device/\(token)", authority: "localhost", headers: headers,
                body: Array(body.utf8)),
            verdict: Verdict(
                outcome: reason.map { .rejected(APNsReason($0, status: status), timestamp: nil) } ?? .accepted,
                rule: rule, explanation: "", pushType: "alert", topic: "com.example.app"),
            response: APNsResponse(status: status, apnsID: "ID"))
    }

    @Test("event: reads aps.event of the payload, not the word elsewhere; the byte scan finds the key anywhere")
    func eventWord() throws {
        let term = try #require(try RecordSearch("event:update").terms.first)
        for (body, event) in [
            (#"{"aps":{"event":"update","content-state":{}}}"#, "update"),
            (#"{"aps":{"timestamp":1,"event":"end"}}"#, "end"),
            (#"{"aps":{"alert":""event": update"}}"#, nil),
            (#"{"event":"update"}"#, nil),
            (#"{"aps":{"event":7}}"#, nil),
            (#"""event""#, nil),
            ("", nil),
        ] as [(String, String?)] {
            let record = Self.record(body: body)
            #expect(record.apsEvent == event, "\(body)")
            #expect(term.passes(record) == (event == "update"), "\(body)")
        }
        let key = Array(#""event""#.utf8)
        for (text, expected) in [
            (#""event""#, true), (#"x"event""#, true), (#""event"x"#, true), (#"""event"#, false),
            (#""even"event""#, true), (#""even"#, false), ("", false), (#""eventful"#, false),
        ] {
            #expect(JournalRecord.contains(Array(text.utf8), key) == expected, "\(text)")
        }
        #expect(!JournalRecord.contains(Array("abc".utf8), []))
    }

    @Test("reads fields, free words, quoted phrases, escapes and negation, in order")
    func words() throws {
        let search = try RecordSearch(#"status:4xx -reason:BadDeviceToken "order ready" -Hello reason:"Bad \"x\"" Type:alert"#)
        #expect(
            search.terms == [
                MatchTerm(field: .status, value: "4xx"),
                MatchTerm(field: .reason, value: "BadDeviceToken", negated: true),
                MatchTerm(field: .text, value: "order ready"),
                MatchTerm(field: .text, value: "Hello", negated: true),
                MatchTerm(field: .reason, value: #"Bad "x""#),
                MatchTerm(field: .type, value: "alert"),
            ])
        // Each term's text reads back as the same term.
        let again = try RecordSearch(search.terms.map(\.text).joined(separator: " "))
        #expect(again.terms == search.terms)
        #expect(try RecordSearch("pushType:alert apnsID:X token:ABCD").terms.map(\.value) == ["alert", "X", "abcd"])
        #expect(try RecordSearch("   ").terms.isEmpty)
    }

    @Test(
        "refuses a word it cannot read, quoting the word and where it starts",
        arguments: [
            ("status:4xx -reson:BadDeviceToken",
                "at '-reson:BadDeviceToken' (character 12): unknown field 'reson' (did you mean 'reason'?)"),
            ("status:9xx", "at 'status:9xx' (character 1): status must be an HTTP status from 100 to 599"),
            ("status:", "at 'status:' (character 1): status: needs a value, such as status:4xx"),
            ("ok \"order ready", "at '\"order ready' (character 4): a quote that is never closed"),
            ("type:banner", "at 'type:banner' (character 1): type must be one of: alert"),
            ("token:xyz", "token must be an even number of hex digits (a device token), got 'xyz'"),
            ("device:aplied", "(did you mean 'applied'?)"),
            (":x", "at ':x' (character 1): a colon with no field name before it"),
            ("a - b", "at '-' (character 3): a '-' with nothing to negate"),
            ("\"\"", "an empty phrase"),
            ("connection:-1", "connection must be a whole number"),
        ])
    func badWords(text: String, message: String) {
        #expect(throws: RecordSearch.Failure.self) { try RecordSearch(text) }
        do {
            _ = try RecordSearch(text)
        } catch {
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test("refuses a text over the length or word limit")
    func limits() {
        #expect(throws: RecordSearch.Failure.self) {
            try RecordSearch(String(repeating: "a", count: RecordSearch.maximumLength + 1))
        }
        #expect(throws: RecordSearch.Failure.self) {
            try RecordSearch(Array(repeating: "a", count: RecordSearch.maximumWords + 1).joined(separator: " "))
        }
    }

    @Test("terms test the record: a status class, negation, payload words ignoring case, rules, headers")
    func terms() throws {
        let rejected = Self.record(sequence: 2, token: "zz", status: 400, reason: "BadDeviceToken", rule: "token.format")
        let unregistered = Self.record(sequence: 3, status: 410, reason: "Unregistered", rule: "scripted:gone")
        let ok = Self.record(
            headers: [APNsHeader("apns-priority", "5"), APNsHeader("apns-collapse-id", "c1")])
        let records = [ok, rejected, unregistered]
        func matching(_ text: String) throws -> [UInt64] {
            let match = JournalQuery(search: try RecordSearch(text)).match
            return records.filter(match.matches).map(\.sequence)
        }
        #expect(try matching("status:4xx -reason:BadDeviceToken") == [3])
        #expect(try matching("status:4xx") == [2, 3])
        #expect(try matching("-status:2xx -status:410") == [2])
        #expect(try matching("ORDER") == [1, 2, 3])
        #expect(try matching("\"order ready\" -\"order ready\"") == [])
        #expect(try matching("rule:gone") == [3])
        #expect(try matching("rule:token.format") == [2])
        #expect(try matching("priority:5 collapse-id:c1 connection:3 apns-id:id") == [1])
        #expect(try matching("accepted:false") == [2, 3])
        #expect(try matching("device:applied") == [])
        #expect(try matching("-device:applied") == [1, 2, 3])
    }

    @Test("a search combines with the filters, and names the words a near miss failed")
    func withFilters() throws {
        let journal = try Journal(capacity: 10)
        journal.append(Self.record(status: 410, reason: "Unregistered"))
        journal.append(Self.record(status: 400, reason: "BadDeviceToken"))
        let query = JournalQuery(status: 400, search: try RecordSearch("-reason:BadDeviceToken"))
        #expect(journal.records(matching: query).isEmpty)
        #expect(query.summary == "status=400 q=-reason:BadDeviceToken")
        #expect(
            journal.nearMisses(for: query).map(\.summary) == [
                "#2 differs in q: expected -reason:BadDeviceToken, got reason:BadDeviceToken",
                "#1 differs in status: expected 400, got 410",
            ])
    }
}
