import Foundation
import Testing

@testable import MockAPNs

/// The value operators of `rules[].match`: loading, errors, matching, and the snapshot round trip.
@Suite("Match operators")
struct MatchOperatorTests {
    static let token = "c9f6182179b86b50985ef7e95099ada7a34045dc746158c363b6ca3c2e708aad"
    static let otherToken = "5984de83fef02c9ae624a1a84d3c486cceb0ea1086f6bf8c39efad11ec251979"

    /// The first rule's match from a `match:` mapping written in flow style.
    func match(_ flow: String) throws -> RuleMatch {
        let yaml = "rules:\n  - match: \(flow)\n    respond: { status: 200 }\n"
        return try ScenarioLoader.parse(yaml: yaml, sourcePath: "test.yaml", baseDirectory: "/").rules[0].match
    }

    /// The loader error for a `match:` mapping (on line 2, the mapping starting at column 12).
    func loadError(_ flow: String) -> ScenarioError? {
        do {
            _ = try match(flow)
        } catch let error as ScenarioError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
        Issue.record("\(flow) loaded without an error")
        return nil
    }

    /// A push request with `headers` and `payload`.
    func request(
        token: String = token, headers: [(String, String)] = [("apns-topic", "com.example.app")],
        payload: String = #"{"aps":{"alert":{"title":"Order 42 ready"},"badge":3}}"#
    ) -> APNsRequest {
        APNsRequest(
            method: "POST", path: "/3/device/\(token)", headers: headers.map { APNsHeader($0.0, $0.1) },
            body: Array(payload.utf8))
    }

    func matches(_ match: RuleMatch, _ request: APNsRequest) -> Bool {
        var payload: JSONValue??
        if match.needsPayload { payload = .some(try? JSONParser.parse(request.body)) }
        return ScriptedRules.matches(match, request, payload: &payload)
    }

    // MARK: - Loading and matching

    @Test("regex is unanchored, compiled at load, and tests a payload value's text")
    func regex() throws {
        let match = try match(
            #"{ payload: { aps.alert.title: { regex: "Order [0-9]+" }, aps.badge: { regex: "^3$" } } }"#)
        #expect(match.payload.isEmpty && match.conditions.count == 2)
        #expect(matches(match, request()))
        #expect(!matches(match, request(payload: #"{"aps":{"alert":{"title":"Order ready"},"badge":3}}"#)))
        #expect(!matches(match, request(payload: #"{"aps":{"alert":{"title":"Order 1"},"badge":33}}"#)))
        #expect(!matches(match, request(payload: #"{"aps":{"badge":3}}"#)), "an absent value never matches a regex")

        let anchored = try self.match(
            #"{ topic: { regex: "^com\\.example\\." }, headers: { apns-collapse-id: { regex: "^order-" } } }"#)
        func headers(_ topic: String, _ collapseID: String) -> [(String, String)] {
            [("apns-topic", topic), ("apns-collapse-id", collapseID)]
        }
        #expect(matches(anchored, request(headers: headers("com.example.app", "order-7"))))
        #expect(!matches(anchored, request(headers: headers("com.example.app", "x-order-7"))))
        #expect(!matches(anchored, request(headers: headers("org.example.app", "order-7"))))
    }

    @Test("exists tells a present value (even null) from an absent one, in the payload and in headers")
    func exists() throws {
        let match = try match("{ payload: { aps.badge: { exists: true }, aps.sound: { exists: false } } }")
        #expect(matches(match, request()))
        #expect(matches(match, request(payload: #"{"aps":{"badge":null}}"#)))
        #expect(!matches(match, request(payload: #"{"aps":{"badge":1,"sound":"x"}}"#)))
        #expect(!matches(match, request(payload: #"{"aps":{}}"#)))

        let header = try self.match("{ headers: { apns-collapse-id: { exists: false } }, pushType: { exists: false } }")
        #expect(matches(header, request()))
        #expect(!matches(header, request(headers: [("apns-collapse-id", "a")])))
        #expect(!matches(header, request(headers: [("apns-push-type", "alert")])))
    }

    @Test("oneOf compares like a literal: scalars by text, tokens ignoring case")
    func oneOf() throws {
        let match = try match(
            "{ token: { oneOf: [\(Self.token.uppercased()), \(Self.otherToken)] }, "
                + "payload: { aps.badge: { oneOf: [1, \"3\"] } } }"
        )
        #expect(match.conditions[.token] != nil && match.token == nil)
        #expect(matches(match, request()))
        #expect(matches(match, request(token: Self.otherToken)))
        #expect(!matches(match, request(token: String(repeating: "a", count: 64))))
        #expect(!matches(match, request(payload: #"{"aps":{"badge":2}}"#)))

        let pushTypes = try self.match("{ pushType: { oneOf: [alert, background] } }")
        #expect(matches(pushTypes, request()), "a request without apns-push-type is an alert")
        #expect(!matches(pushTypes, request(headers: [("apns-push-type", "voip")])))
    }

    @Test("min and max bound a numeric payload value or header, inclusive; strings and absent values do not match")
    func range() throws {
        let match = try match(
            "{ payload: { aps.badge: { min: 1, max: 5 } }, headers: { apns-priority: { min: 5.5 } } }")
        let priority10 = [("apns-priority", "10")]
        #expect(matches(match, request(headers: priority10)))
        #expect(!matches(match, request(headers: [("apns-priority", "5")])))
        #expect(!matches(match, request()), "no apns-priority header")
        for badge in ["1", "5", "2.5"] {
            #expect(matches(match, request(headers: priority10, payload: #"{"aps":{"badge":\#(badge)}}"#)), "\(badge)")
        }
        for badge in ["0", "5.01", #""3""#, "null"] {
            #expect(!matches(match, request(headers: priority10, payload: #"{"aps":{"badge":\#(badge)}}"#)), "\(badge)")
        }
        let bound = try self.match("{ payload: { n: { max: -1e3 } } }").conditions[.payload("n")]
        guard case .range(let low, let high) = bound else {
            Issue.record("not a range")
            return
        }
        #expect(low == nil && high == -1000)
    }

    @Test("a payload object is a literal unless it uses an operator; equals matches any literal, operator keys too")
    func literalsStayLiterals() throws {
        let literal = try match("{ payload: { order.driver: { name: Ana } } }")
        #expect(literal.payload["order.driver"] == .object([("name", .string("Ana"))]) && literal.conditions.isEmpty)
        let wrapped = try match(
            "{ payload: { limits: { equals: { min: 1, max: 2 } } }, topic: { equals: com.example.app } }")
        #expect(wrapped.payload["limits"] == .object([("min", .number("1")), ("max", .number("2"))]))
        #expect(wrapped.topic == "com.example.app" && wrapped.conditions.isEmpty)
        #expect(matches(wrapped, request(payload: #"{"limits":{"min":1,"max":2}}"#)))
        #expect(!matches(wrapped, request(payload: #"{"limits":{"min":1,"max":3}}"#)))
    }

    // MARK: - Errors

    @Test("an invalid regex is refused at its line and column")
    func invalidRegex() throws {
        let error = try #require(loadError(#"{ payload: { aps.alert.title: { regex: "(unclosed" } } }"#))
        #expect(error.field == "rules[0].match.payload.aps.alert.title.regex")
        #expect(error.line == 2 && error.column == 51)
        #expect(error.message == "not a valid regular expression: (unclosed")
    }

    @Test("a regex that repeats a repeated group (exponential on a near miss) is refused; ordinary ones load")
    func nestedRepetition() throws {
        for pattern in [#"(a+)+$"#, #"(x|y*)*"#, #"((ab)*c)+"#, #"(a{2,})+"#, #"([0-9]+,)*"#] {
            let error = try #require(loadError("{ topic: { regex: '\(pattern)' } }"), "\(pattern)")
            #expect(error.field == "rules[0].match.topic.regex")
            #expect(error.message.hasPrefix("a regex must not repeat a group that itself repeats"))
        }
        for pattern in [#"^Order [0-9]+"#, #"(ab)+"#, #"(a|b)*c"#, #"[(a+)]+"#, #"\(a+\)+"#, #"(a{2})+"#, #"(a?)+"#] {
            #expect(!MatchPattern.repeatsRepetition(pattern), "\(pattern)")
        }
        // What the check is for: this pattern against 30 a's and a b would backtrack about 2^30 times per push.
        #expect(MatchPattern.repeatsRepetition(#"(a+)+b"#))
    }

    @Test("a regex longer than 1 KiB or empty is refused")
    func regexLimits() throws {
        let long = String(repeating: "a", count: MatchPattern.maximumLength + 1)
        let tooLong = try #require(loadError("{ topic: { regex: \(long) } }"))
        #expect(tooLong.field == "rules[0].match.topic.regex")
        #expect(tooLong.message == "a regex is at most 1024 bytes; this one is 1025")
        _ = try match("{ topic: { regex: \(String(repeating: "a", count: MatchPattern.maximumLength)) } }")
        let empty = try #require(loadError(#"{ topic: { regex: "" } }"#))
        #expect(empty.message == "a regex must not be empty (use { exists: true } instead)")
    }

    @Test("unknown operators are refused with a did-you-mean")
    func unknownOperator() throws {
        let header = try #require(loadError("{ headers: { apns-priority: { regx: 10 } } }"))
        #expect(header.field == "rules[0].match.headers.apns-priority.regx")
        #expect(header.line == 2)
        #expect(
            header.message
                == "unknown match operator 'regx' (did you mean 'regex'?); "
                + "operators: regex, exists, oneOf, min, max, equals"
        )
        let payload = try #require(loadError("{ payload: { aps.badge: { oneof: [1] } } }"))
        #expect(payload.field == "rules[0].match.payload.aps.badge.oneof")
        #expect(payload.message.hasPrefix("unknown match operator 'oneof' (did you mean 'oneOf'?)"))
        #expect(payload.message.hasSuffix("; to match an object with this key, write { equals: {...} }"))
        let mixed = try #require(loadError("{ payload: { order.driver: { name: Ana, min: 3 } } }"))
        #expect(mixed.message.hasPrefix("unknown match operator 'name'"))
    }

    @Test("operator values are checked: exists a bool, oneOf a non-empty list of valid literals, one operator each")
    func operatorValues() throws {
        #expect(loadError("{ payload: { a: { exists: yes please } } }")?.field == "rules[0].match.payload.a.exists")
        let empty = try #require(loadError("{ payload: { a: { oneOf: [] } } }"))
        #expect(empty.message == "oneOf needs at least one value")
        let token = try #require(loadError("{ token: { oneOf: [\(Self.token), zz] } }"))
        #expect(token.field == "rules[0].match.token.oneOf[1]")
        let pushType = try #require(loadError("{ pushType: { oneOf: [alert, alarm] } }"))
        #expect(pushType.field == "rules[0].match.pushType.oneOf[1]")
        let two = try #require(loadError("{ payload: { a: { regex: x, exists: true } } }"))
        #expect(two.message == "give one operator per value (only min and max go together); got regex, exists")
        let none = try #require(loadError("{ topic: {} }"))
        #expect(none.message.hasPrefix("expected a literal or one operator"))
    }

    @Test("min and max: finite unquoted numbers, min not above max, not on token, topic or push type")
    func rangeErrors() throws {
        let inverted = try #require(loadError("{ payload: { aps.badge: { min: 5, max: 1 } } }"))
        #expect(inverted.field == "rules[0].match.payload.aps.badge.max")
        #expect(inverted.message == "max (1) is below min (5)")
        let quoted = try #require(loadError(#"{ payload: { aps.badge: { min: "5" } } }"#))
        #expect(quoted.message == #"expected a finite number, got the string "5""#)
        #expect(loadError("{ payload: { a: { max: .inf } } }")?.message.hasPrefix("expected a finite number") == true)
        #expect(loadError("{ payload: { a: { max: true } } }")?.field == "rules[0].match.payload.a.max")
        let topic = try #require(loadError("{ topic: { min: 1 } }"))
        #expect(topic.message == "min and max compare numbers: use them on a payload value or a header")
    }

    // MARK: - Snapshot

    @Test("operators survive the snapshot round trip, and the snapshot of the reload is the same text")
    func roundTrip() throws {
        let yaml = """
            rules:
              - name: ops
                match:
                  token: { oneOf: [\(Self.token), \(Self.otherToken)] }
                  topic: { regex: "^com\\\\.example\\\\." }
                  pushType: { exists: false }
                  headers: { apns-priority: { min: 5 }, apns-collapse-id: order-1, apns-expiration: { exists: true } }
                  payload:
                    aps.badge: { min: 0.5, max: 1e+300 }
                    aps.alert.title: { regex: "Order [0-9]+" }
                    order.limits: { equals: { min: 1, max: 2 } }
                    order.items: { oneOf: [[1, 2], { a: 1 }, null] }
                    order.id: "42"
                respond: { reason: TooManyRequests }
            """
        let first = try ScenarioLoader.parse(yaml: yaml, sourcePath: "test.yaml", baseDirectory: "/")
        let written = first.rules[0].scenarioJSON.jsonText
        let reloaded = try ScenarioLoader.parse(
            yaml: "rules: [\(written)]", sourcePath: "snapshot.yaml", baseDirectory: "/")
        #expect(reloaded.rules[0].scenarioJSON.jsonText == written)
        let match = reloaded.rules[0].match
        #expect(match.conditions.count == 8)
        #expect(match.headers == ["apns-collapse-id": "order-1"])
        #expect(match.payload["order.limits"] == .object([("min", .number("1")), ("max", .number("2"))]))
        #expect(written.contains(#""order.limits":{"equals":{"min":1,"max":2}}"#), "\(written)")
        #expect(written.contains(#""topic":{"regex":"^com\\.example\\."}"#), "\(written)")
        let request = request(
            headers: [("apns-topic", "com.example.app"), ("apns-priority", "10"), ("apns-expiration", "0"),
                ("apns-collapse-id", "order-1")],
            payload: #"{"aps":{"alert":{"title":"Order 42"},"badge":1},"#
                + #""order":{"id":42,"limits":{"min":1,"max":2},"items":{"a":1}}}"#
        )
        #expect(matches(match, request))
        #expect(matches(first.rules[0].match, request))
    }
}
