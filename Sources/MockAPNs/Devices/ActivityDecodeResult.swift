import Foundation

/// What decoding an `attributes` or `content-state` object into an activity type gave: the dates it decoded, or
/// the first error Swift's `JSONDecoder` would have thrown.
public enum ActivityDecodeResult: Sendable, Hashable {
    /// It decodes; every `Date` field that had a value, in decoding order (for the date-sanity warning).
    case decoded(dates: [ActivityDecodedDate])
    /// It does not decode: the phone drops the push ("Unable to decode content state").
    case failed(ActivityDecodeError)

    /// The error, when it does not decode.
    public var error: ActivityDecodeError? {
        if case .failed(let error) = self { return error }
        return nil
    }

    /// The decoded dates; empty when it does not decode.
    public var dates: [ActivityDecodedDate] {
        if case .decoded(let dates) = self { return dates }
        return []
    }
}

/// A `Date` field's decoded value and where it is (`content-state.eta`, `attributes.stops[1].at`).
public struct ActivityDecodedDate: Sendable, Hashable {
    public var path: String
    public var date: Date

    public init(path: String, date: Date) {
        self.path = path
        self.date = date
    }
}

/// Why a value does not decode, named like Swift's `DecodingError` cases, at a dotted path.
///
/// Reads `content-state.status: expected String, found number` or `content-state.eta: missing required key`.
public struct ActivityDecodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Swift's `DecodingError` case the real decoder throws here.
    public enum Kind: String, Sendable, Hashable {
        /// A non-optional key is missing.
        case keyNotFound
        /// A non-optional value is `null`.
        case valueNotFound
        /// The JSON value has the wrong type.
        case typeMismatch
        /// The JSON type is right but the value is not usable (`3.5` for an `Int`, a bad date or URL string).
        case dataCorrupted
    }

    /// The field: `content-state.rider.name`, `attributes.stops[2]`.
    public var path: String
    public var kind: Kind
    /// What is wrong, without the path.
    public var message: String

    public init(path: String, kind: Kind, message: String) {
        self.path = path
        self.kind = kind
        self.message = message
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}
