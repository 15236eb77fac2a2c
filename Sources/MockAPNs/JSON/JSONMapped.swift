/// A wire type: a value whose JSON object is declared once, as a table of members (`jsonMapping`), from which its
/// `json`, its `jsonText` and `init?(json:)` all follow.
///
/// The journal file, the control API, the event streams and the HTTP client all go through the table, so a new
/// member is one line in it (plus its line in `docs/control-api.md`), written and read back in the same place.
public protocol JSONMapped: SendableMetatype {
    /// What reading fills in before the value is made: the value itself for most types, a type of parts for a value
    /// that is not built member by member (`JournalRecord`).
    associatedtype JSONDraft = Self
    /// The members in the order they are written, each with how it is written and read.
    static var jsonMapping: JSONMapping<Self, JSONDraft> { get }
}

extension JSONMapped {
    /// The value as a JSON object, members in `jsonMapping`'s order.
    public var json: JSONValue { Self.jsonMapping.json(self) }

    /// The value as compact JSON text, written straight from the table (the same text as `json.jsonText`).
    public var jsonText: String {
        var out = ""
        Self.jsonMapping.write(self, to: &out)
        return out
    }

    /// Appends the value's compact JSON text to `out`.
    public func writeJSON(to out: inout String) {
        Self.jsonMapping.write(self, to: &out)
    }

    /// Reads a value back from its JSON object; `nil` when `json` is not an object, or a required member is missing
    /// or not of its form.
    public init?(json: JSONValue) {
        guard let value = Self.jsonMapping.read(json) else { return nil }
        self = value
    }
}
