/// Whether a payload is a JSON object, checked without building values (it runs for every push).
enum PayloadCheck {
    /// `nil` for a JSON object, else what is wrong (e.g. "is not JSON: unexpected character at byte 3").
    static func problem(_ body: [UInt8]) -> String? {
        var first = 0
        while first < body.count, body[first] == 0x20 || body[first] == 0x0A || body[first] == 0x0D || body[first] == 0x09 {
            first += 1
        }
        guard first < body.count, body[first] == UInt8(ascii: "{") else {
            return (try? JSONParser.parse(body)) == nil ? "is not JSON" : "is JSON but not an object"
        }
        do {
            _ = try JSONParser.parse(body)
            return nil
        } catch {
            return "is not JSON: \(error)"
        }
    }
}
