/// One Live Activity attributes type the app declares (`ActivityAttributes` in Swift), as the scenario's
/// `activityTypes:` describes it: the static `attributes`, the dynamic `ContentState`, and how its dates decode.
///
/// "The device decodes `aps.attributes` and `aps.content-state` with default `JSONDecoder` rules into those types"
/// (live-activities.md §1, doc/seen). `decodeAttributes(_:)` and `decodeContentState(_:)` apply those rules.
public struct ActivitySchema: Sendable, Hashable {
    /// The Swift type name, which `aps.attributes-type` must equal (`mpushTaxiAttributes`).
    public var name: String
    /// The static attributes' fields, in declaration order (the order Swift's synthesized decoder reads them).
    public var attributes: [ActivityField]
    /// The `ContentState` fields, in declaration order.
    public var contentState: [ActivityField]
    /// How the type's `Date` fields decode (`JSONDecoder.dateDecodingStrategy`).
    public var dateDecoding: ActivityDateDecoding

    public init(
        name: String, attributes: [ActivityField] = [], contentState: [ActivityField] = [],
        dateDecoding: ActivityDateDecoding = .deferredToDate
    ) {
        self.name = name
        self.attributes = attributes
        self.contentState = contentState
        self.dateDecoding = dateDecoding
    }

    /// Decodes `aps.attributes` as the phone would; errors and dates say `attributes.…`.
    public func decodeAttributes(_ value: JSONValue) -> ActivityDecodeResult {
        ActivityDecoder(dateDecoding: dateDecoding).decode(value, as: attributes, at: "attributes")
    }

    /// Decodes `aps.content-state` as the phone would; errors and dates say `content-state.…`.
    public func decodeContentState(_ value: JSONValue) -> ActivityDecodeResult {
        ActivityDecoder(dateDecoding: dateDecoding).decode(value, as: contentState, at: "content-state")
    }
}

/// One stored property of an attributes type or its `ContentState`.
public struct ActivityField: Sendable, Hashable {
    /// The property (and JSON key) name.
    public var name: String
    public var type: ActivityFieldType

    public init(_ name: String, _ type: ActivityFieldType) {
        self.name = name
        self.type = type
    }
}

/// `JSONDecoder.DateDecodingStrategy`, the cases a scenario can name.
public enum ActivityDateDecoding: String, Sendable, Hashable, CaseIterable {
    /// `Date`'s own `Decodable`: a JSON number of seconds since 2001-01-01 (the default).
    case deferredToDate
    /// A JSON number of seconds since 1970-01-01.
    case secondsSince1970
    /// A JSON number of milliseconds since 1970-01-01.
    case millisecondsSince1970
    /// A string Foundation's `Date.ISO8601FormatStyle()` parses (internet date-time, an offset or fractional seconds
    /// allowed), as `JSONDecoder` does from iOS 17 on; iOS 16's `ISO8601DateFormatter` refused fractional seconds.
    case iso8601
}

extension ActivitySchema {
    /// Why `name` names no type of `types`: `<field> 'Name' is not a type the app declares (did you mean 'X'?
    /// declared: A, B)`, with the did-you-mean the scenario loader gives (`NameSuggestion`) when one is close.
    static func undeclared(_ name: String, field: String, among types: [String: ActivitySchema]) -> String {
        let declared = types.keys.sorted()
        let problem = "\(field) '\(name)' is not a type the app declares"
        guard !declared.isEmpty else { return problem + " (the scenario declares none under activityTypes:)" }
        let guess = NameSuggestion.closest(to: name, among: declared).map { "did you mean '\($0)'? " } ?? ""
        return problem + " (\(guess)declared: \(declared.joined(separator: ", ")))"
    }
}
