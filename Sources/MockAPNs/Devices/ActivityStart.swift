/// A Live Activity the app starts itself (`Activity.request` in ActivityKit), not by a push: the body of
/// `POST /v1/activities`.
public struct ActivityStart: Sendable, Hashable {
    /// The attributes type; the scenario must declare it.
    public var attributesType: String
    /// The static attributes; they must decode as the type's.
    public var attributes: JSONValue
    /// The first content state; it must decode as the type's `ContentState`.
    public var contentState: JSONValue
    /// The push-to-start token of the phone, if the app passes it along with the new token (lower case).
    public var pushToStartToken: String?
    /// The broadcast channel the app subscribes the activity to (`pushType: .channel(id)` in ActivityKit); it must
    /// be a live channel of the server's environment.
    public var channel: String?

    public init(
        attributesType: String, attributes: JSONValue, contentState: JSONValue, pushToStartToken: String? = nil,
        channel: String? = nil
    ) {
        self.channel = channel
        self.attributesType = attributesType
        self.attributes = attributes
        self.contentState = contentState
        self.pushToStartToken = pushToStartToken?.lowercased()
    }

    /// `{"attributesType", "attributes", "contentState", "pushToStartToken", "channel"}` (the last two only when
    /// given).
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("attributesType", .string(attributesType)), ("attributes", attributes), ("contentState", contentState),
        ]
        if let pushToStartToken { members.append(("pushToStartToken", .string(pushToStartToken))) }
        if let channel { members.append(("channel", .string(channel))) }
        return .object(members)
    }

    /// The members a body may have.
    static let memberNames = ["attributesType", "attributes", "contentState", "pushToStartToken", "channel"]

    /// Reads a start from a request body; an `InputError` names the member that is missing, unknown or of the
    /// wrong type.
    public init(body: String) throws(InputError) {
        let example = #"{"attributesType": "mpushTaxiAttributes", "attributes": {...}, "contentState": {...}}"#
        guard let json = try? JSONParser.parse(body), let members = json.objectMembers else {
            throw InputError("the body must be a JSON object such as \(example)")
        }
        for (name, _) in members where !Self.memberNames.contains(name) {
            throw InputError(
                "unknown member '\(name)'; a start takes: \(Self.memberNames.joined(separator: ", "))")
        }
        guard let type = json["attributesType"] else { throw InputError("attributesType is missing: \(example)") }
        guard let typeName = type.stringValue, !typeName.isEmpty else {
            throw InputError("attributesType must be the Swift type's name as a string, got \(type.jsonText)")
        }
        for name in ["attributes", "contentState"] {
            guard let value = json[name] else { throw InputError("\(name) is missing: \(example)") }
            guard value.objectMembers != nil else {
                throw InputError("\(name) must be a JSON object, got \(value.jsonText)")
            }
        }
        var token: String?
        if let value = json["pushToStartToken"], value != .null {
            guard let text = value.stringValue, let valid = DeviceToken(text) else {
                throw InputError(
                    "pushToStartToken must be a string of an even number of hex digits, got \(value.jsonText)")
            }
            token = valid.hex
        }
        var channel: String?
        if let value = json["channel"], value != .null {
            guard let text = value.stringValue, BroadcastChannel.isWellFormedID(text) else {
                throw InputError(
                    "channel must be a channel id (base64, as APNs issues them, such as c2NvcmVzLTE=), got "
                        + value.jsonText)
            }
            channel = text
        }
        self.init(
            attributesType: typeName, attributes: json["attributes"] ?? .null,
            contentState: json["contentState"] ?? .null, pushToStartToken: token, channel: channel)
    }
}
