/// Whether a payload is a JSON object, and what the phone would show for it, in one scan that builds no values (it
/// runs for every new payload).
enum PayloadScan {
    /// What one scan found.
    struct Result: Sendable, Hashable {
        /// `nil` for a JSON object, else what is wrong (e.g. "is not JSON: unexpected character at byte 3").
        var problem: String?
        /// What the phone would show for it as an alert (`notAnObject` when there is a problem).
        var display: PayloadDisplay
    }

    /// Scans `body` once: `JSONParser.validate`'s checks and errors, and the payload's `PayloadDisplay`.
    static func scan(_ body: [UInt8]) -> Result {
        do {
            // Over a borrowed buffer, as `JSONParser.validate` (README.md, "Hot-path rules").
            let shape = try body.withUnsafeBufferPointer { buffer throws(JSONParser.Error) in
                var grammar = JSONParser.Grammar<PayloadShapeSink>(buffer)
                return try grammar.document()
            }
            guard shape.kind == .object else {
                return Result(problem: "is JSON but not an object", display: .notAnObject)
            }
            return Result(problem: nil, display: shape.display)
        } catch {
            return Result(problem: "is not JSON: \(error)", display: .notAnObject)
        }
    }

    /// `nil` for a JSON object, else what is wrong (e.g. "is not JSON: unexpected character at byte 3").
    static func problem(_ body: [UInt8]) -> String? {
        scan(body).problem
    }
}
