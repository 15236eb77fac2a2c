/// Whether a payload is a JSON object, checked without building values (it runs for every new payload).
enum PayloadCheck {
    /// `nil` for a JSON object, else what is wrong (e.g. "is not JSON: unexpected character at byte 3").
    static func problem(_ body: [UInt8]) -> String? {
        do {
            return try JSONParser.validate(body) ? nil : "is JSON but not an object"
        } catch {
            return "is not JSON: \(error)"
        }
    }
}
