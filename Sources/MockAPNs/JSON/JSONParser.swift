/// A small, strict JSON parser (RFC 8259) over bytes, with positions in its errors.
///
/// Written for payloads: it never traps on input, limits nesting, and is cheap enough to run per request. There is
/// one grammar (`Grammar`, in `JSONParser+Grammar.swift`), generic over what it makes of the values it reads
/// (`JSONSink`): `parse` runs it with `JSONBuilder`, which builds `JSONValue`s; `validate` runs it with
/// `JSONValidator`, which keeps nothing, so that a check is the same scan with the building compiled away. Both
/// therefore accept the same texts and refuse the others with the same error at the same byte.
public struct JSONParser {
    /// Why a text is not JSON, and where.
    public struct Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        public var message: String
        /// The byte offset where parsing stopped.
        public var offset: Int
        public var description: String { "\(message) at byte \(offset)" }
    }

    /// The deepest nesting of arrays and objects a text may have.
    static let maxDepth = 256

    /// Parses `bytes` as one JSON value surrounded by optional white space.
    public static func parse(_ bytes: [UInt8]) throws(Error) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(Error) in
            var grammar = Grammar<JSONBuilder>(buffer)
            return try grammar.document()
        }
    }

    /// Parses a string as JSON.
    public static func parse(_ text: String) throws(Error) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Checks that `bytes` are one JSON value, as `parse` would, without building it or allocating. Returns whether
    /// the value is an object.
    @discardableResult
    public static func validate(_ bytes: [UInt8]) throws(Error) -> Bool {
        // Over a borrowed buffer, not the array's checked subscripts: this runs for every new payload (README.md,
        // "Hot-path rules"; bench/json/run.sh times it).
        try bytes.withUnsafeBufferPointer { buffer throws(Error) in
            var grammar = Grammar<JSONValidator>(buffer)
            grammar.skipWhitespace()
            let isObject = grammar.index < buffer.count && buffer[grammar.index] == UInt8(ascii: "{")
            try grammar.document()
            return isObject
        }
    }
}
