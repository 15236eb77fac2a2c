extension FuzzTarget {
    /// The input as a payload: the parser and its validating mode (one grammar, two sinks) and the payload check must
    /// agree, and what the parser builds must write out as JSON that parses back to the same value.
    static func runJSON(_ input: [UInt8]) throws(FuzzFinding) {
        let parsed: Result<JSONValue, JSONParser.Error>
        do {
            parsed = .success(try JSONParser.parse(input))
        } catch {
            parsed = .failure(error)
        }
        let validated: Result<Bool, JSONParser.Error>
        do {
            validated = .success(try JSONParser.validate(input))
        } catch {
            validated = .failure(error)
        }
        let problem = PayloadScan.problem(input)
        let text = String(decoding: input.prefix(200), as: UTF8.self).debugDescription

        switch (parsed, validated) {
        case (.success(let value), .success(let isObject)):
            let parsedObject = if case .object = value { true } else { false }
            guard parsedObject == isObject else {
                throw FuzzFinding("parse and validate disagree on whether \(text) is an object")
            }
            guard (problem == nil) == isObject else {
                throw FuzzFinding("PayloadScan says \(problem ?? "nil") for \(text), an object: \(isObject)")
            }
            try checkRoundTrip(value, text: text)
        case (.failure(let parseError), .failure(let validateError)):
            guard parseError == validateError else {
                throw FuzzFinding("parse (\(parseError)) and validate (\(validateError)) refuse \(text) differently")
            }
            guard problem == "is not JSON: \(parseError)" else {
                throw FuzzFinding("PayloadScan says \(problem ?? "nil") for \(text), the parser: \(parseError)")
            }
        default:
            throw FuzzFinding("parse (\(parsed)) and validate (\(validated)) disagree on \(text)")
        }
    }

    /// `value` written as JSON parses back to itself.
    private static func checkRoundTrip(_ value: JSONValue, text: String) throws(FuzzFinding) {
        let written = value.jsonText
        let reparsed: JSONValue
        do {
            reparsed = try JSONParser.parse(written)
        } catch {
            throw FuzzFinding("\(text) parses, but its written form \(written.debugDescription) does not: \(error)")
        }
        guard reparsed == value else {
            throw FuzzFinding("\(text) parses, but its written form \(written.debugDescription) is another value")
        }
    }
}
