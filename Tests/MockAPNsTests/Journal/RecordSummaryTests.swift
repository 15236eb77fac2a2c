import Foundation
import Testing

@testable import MockAPNs

/// `RecordSummary.text`: what a list row shows of a payload.
@Suite("Record summary text")
struct RecordSummaryTests {
    static func text(_ payload: String) throws -> String? {
        RecordSummary.text(of: try JSONParser.parse(payload))
    }

    @Test("shows an alert's title and body, a text alert, else the content-state; nil for neither")
    func alertOrContentState() throws {
        #expect(try Self.text(#"{"aps":{"alert":{"title":"Hi","subtitle":"s","body":"there"}}}"#) == "Hi — there")
        #expect(try Self.text(#"{"aps":{"alert":{"body":"only body"}}}"#) == "only body")
        #expect(try Self.text(#"{"aps":{"alert":"plain"}}"#) == "plain")
        #expect(try Self.text(#"{"aps":{"event":"update","content-state":{"eta":3}}}"#) == #"{"eta":3}"#)
        #expect(try Self.text(#"{"aps":{"alert":{"title":"T"},"content-state":{"eta":3}}}"#) == "T")
        #expect(try Self.text(#"{"aps":{"alert":{"loc-key":"K"}}}"#) == nil)
        #expect(try Self.text(#"{"aps":{"content-available":1}}"#) == nil)
        #expect(try Self.text(#"{"aps":{"alert":""}}"#) == nil)
        #expect(try Self.text(#"{"other":1}"#) == nil)
        #expect(try Self.text(#"[1]"#) == nil)
        #expect(RecordSummary.text(of: nil) == nil)
    }

    @Test("keeps to 120 characters on one line, ending a cut text with an ellipsis")
    func boundedAndOneLine() throws {
        let long = String(repeating: "é", count: 200)
        let cut = try #require(try Self.text(#"{"aps":{"alert":"\#(long)"}}"#))
        #expect(cut.count == RecordSummary.textLimit && cut.hasSuffix("…"))
        let exact = String(repeating: "a", count: 120)
        #expect(try Self.text(#"{"aps":{"alert":"\#(exact)"}}"#) == exact)
        #expect(try Self.text(#"{"aps":{"alert":"two\nlines\r\nhere"}}"#) == "two lines here")
    }
}
