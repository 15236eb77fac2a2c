import Foundation
import Testing

@testable import MockAPNs

/// `AppPayloadTypes.problem(in:pushType:)`: what default `JSONDecoder` rules say about a push's custom keys, and where
/// a missing key was put instead (phone.md §3).
@Suite("AppPayloadTypes")
struct AppPayloadTypesTests {
    static let types = AppPayloadTypes([
        "alert": [
            ActivityField("orderID", .string), ActivityField("deepLink", .optional(.url)),
            ActivityField("order", .optional(.object([ActivityField("id", .int), ActivityField("total", .double)]))),
        ],
        "voip": [ActivityField("callerName", .string), ActivityField("at", .optional(.date))],
    ])

    func problem(_ payload: String, _ pushType: String = "alert") throws -> String? {
        Self.types.problem(in: try JSONParser.parse(payload), pushType: pushType)
    }

    @Test("keys that decode, extra keys and an undeclared push type give no problem")
    func decodes() throws {
        #expect(try problem(#"{"aps":{"alert":"x"},"orderID":"42","extra":[1,2]}"#) == nil)
        #expect(try problem(#"{"aps":{},"orderID":"42","deepLink":null,"order":{"id":7,"total":9.5}}"#) == nil)
        #expect(try problem(#"{"aps":{}}"#, "background") == nil, "background declares no keys")
        #expect(Self.types.problem(in: nil, pushType: "alert") == nil, "a payload that is not JSON")
    }

    @Test("a missing key, a wrong JSON type and a value that does not fit read as JSONDecoder fails")
    func mismatches() throws {
        #expect(try problem(#"{"aps":{}}"#) == "orderID: missing required key")
        #expect(try problem(#"{"aps":{},"orderID":42}"#) == "orderID: expected String, found number")
        #expect(try problem(#"{"aps":{},"orderID":null}"#) == "orderID: expected String, found null")
        #expect(
            try problem(#"{"aps":{},"orderID":"1","order":{"id":1.5,"total":1}}"#)
                == "order.id: number 1.5 does not fit in Int")
        #expect(
            try problem(#"{"aps":{},"orderID":"1","deepLink":"http://a b"}"#)?.hasPrefix("deepLink: invalid URL")
                == true)
        #expect(
            try problem(#"{"callerName":"Mum","at":"2026-01-01"}"#, "voip")?.hasPrefix("at: expected Date as seconds")
                == true)
    }

    @Test("a missing key found elsewhere in the payload says where, the shallowest place first")
    func foundElsewhere() throws {
        #expect(
            try problem(#"{"data":{"callerName":"Mum"}}"#, "voip")
                == "callerName: missing required key; found at data.callerName")
        #expect(
            try problem(#"{"aps":{"callerName":"Mum"},"x":{"y":{"callerName":"Dad"}}}"#, "voip")
                == "callerName: missing required key; found at aps.callerName")
        #expect(
            try problem(#"{"list":[{"callerName":"Mum"}]}"#, "voip")
                == "callerName: missing required key; found at list[0].callerName")
        #expect(
            try problem(#"{"aps":{},"orderID":"1","order":{"total":1},"id":3}"#)
                == "order.id: missing required key; found at id")
        #expect(
            try problem(#"{"aps":{},"orderId":"1"}"#)
                == "orderID: missing required key; found orderId at orderId, in another case")
        #expect(
            try problem(#"{"aps":{},"OrderID":"1","data":{"orderID":"1"}}"#)
                == "orderID: missing required key; found at data.orderID", "the exact name first, at any depth")
    }
}
